use memory_conformance::profile::{Capabilities, EventsDelta, Profile};
use memory_conformance::profile::{Limit, Order, QueryTerms, RemoveDiacritics, WordRule};

use crate::DEFAULT_RESULT_LIMIT;

/// How the index cuts text into words: FTS5's `unicode61 remove_diacritics 2` tokenizer, as
/// the kit models it (letters and numbers, each character lowercased, Latin diacritics
/// removed; punctuation separates). [`profile`] declares it for stored text and queries alike.
///
/// ```
/// let words = memory_sqlite_fts5::WORD_RULE.words("Where's order #4417? FLAT-white, Café");
/// assert_eq!(words, ["where", "s", "order", "4417", "flat", "white", "cafe"]);
/// ```
pub const WORD_RULE: WordRule = WordRule::FullText {
    remove_diacritics: RemoveDiacritics::All,
    script_runs: false,
};

/// What [`SqliteFts5MemoryService`](crate::SqliteFts5MemoryService) declares about itself,
/// with the default settings, opened on a file: structured keys and replace on re-add (as the
/// reference), FTS5 `unicode61` words (case and Latin diacritics folded, digits are words,
/// punctuation separates) for stored text and queries alike, any word, text parts only, the
/// [`DEFAULT_RESULT_LIMIT`] best by bm25, durable and shared between instances on one file;
/// and every optional call of the trait, as the reference makes it (R9): a delta of events
/// appends the ids its session does not hold yet, explicit memories, deleting a memory by its
/// entry id (an event's id), and a search limit.
///
/// ```
/// use memory_conformance::profile::EventsDelta;
/// let profile = memory_sqlite_fts5::profile();
/// assert_eq!(profile.name, "sqlite-fts5");
/// assert_eq!(profile.capabilities.events_delta, Some(EventsDelta::AppendNewIds));
/// assert!(profile.capabilities.delete && profile.capabilities.entry_ids);
/// println!("{profile}");
/// ```
pub fn profile() -> Profile {
    let mut profile = Profile::reference()
        .named("sqlite-fts5")
        .with_provenance(concat!("memory-sqlite-fts5 ", env!("CARGO_PKG_VERSION")));
    profile.event_words = WORD_RULE;
    profile.query_terms = QueryTerms::Words {
        non_ascii_substring: false,
    };
    profile.limit = Limit::AtMost(DEFAULT_RESULT_LIMIT);
    profile.order = Order::Relevance;
    profile.capabilities = Capabilities::default();
    profile.capabilities.durable = true;
    profile.capabilities.shared = true;
    profile.capabilities.events_delta = Some(EventsDelta::AppendNewIds);
    profile.capabilities.explicit_memories = true;
    profile.capabilities.delete = true;
    profile.capabilities.entry_ids = true;
    profile.capabilities.search_limit = true;
    profile
}
