//! The oracle: a lexical backend as its [`Profile`] says it behaves, computing what every
//! search should return after a sequence of adds.
//!
//! Here the model it keeps (a store per key, its sessions and events); its writes are
//! `writes.rs`, its searches `search.rs`.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use crate::Content;
use crate::embed::Embedder;
use crate::profile::Profile;
use crate::profile::words::IndexedEvent;

mod search;
mod writes;

pub(crate) use search::{Expected, Ranking};

/// The session a delta without a session id goes to.
const UNKNOWN_SESSION_ID: &str = "__unknown_session_id__";

/// A store as the profile says it behaves.
#[derive(Clone)]
pub(crate) struct Oracle {
    profile: Profile,
    /// Where the profile declares vector search: the embedder its answers are computed with.
    embedder: Option<Arc<dyn Embedder>>,
    stores: HashMap<StoreKey, ModelStore>,
}

/// What one key holds: its sessions in the order first added (the explicit memories as one
/// more session, placed where the first of them came), and the memory ids deleted under it.
#[derive(Clone, Debug, Default)]
struct ModelStore {
    sessions: Vec<ModelSession>,
    deleted: HashSet<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum StoreKey {
    Pair(String, String),
    Joined(String),
}

#[derive(Clone, Debug)]
struct ModelSession {
    id: String,
    /// Whether this is the explicit memories' session rather than a session of events.
    memories: bool,
    events: Vec<ModelEvent>,
}

#[derive(Clone, Debug)]
struct ModelEvent {
    id: String,
    content: Content,
    indexed: IndexedEvent,
    /// Under vector search, the embedded text; `None` when it has no word (never a result).
    vector: Option<Vec<f32>>,
    /// Where the profile merges duplicates: what entries equal to this one share (its author,
    /// its text parts joined with a space, its time to the microsecond).
    look: Option<(String, String, String)>,
    /// Under vector search where the profile ranks blank events last: whether this one's text
    /// is not empty but holds no word.
    blank: bool,
    /// An event's author and time, which its entry must carry (`None` for an explicit memory,
    /// whose fields are not compared).
    written: Option<(String, jiff::Timestamp)>,
}

impl Oracle {
    /// The oracle of `profile`, whose vector search (if any) embeds with the kit's
    /// [`HashedEmbedder`] it names.
    #[cfg(test)]
    pub(crate) fn new(profile: &Profile) -> Self {
        let embedder = profile
            .vector()
            .and_then(|v| crate::embed::HashedEmbedder::named(&v.embedder))
            .map(|e| Arc::new(e) as Arc<dyn Embedder>);
        Self::with_embedder(profile, embedder)
    }

    /// The oracle of `profile`, whose vector search embeds with `embedder`.
    pub(crate) fn with_embedder(profile: &Profile, embedder: Option<Arc<dyn Embedder>>) -> Self {
        Self {
            profile: profile.clone(),
            embedder: embedder.filter(|_| profile.vector().is_some()),
            stores: HashMap::new(),
        }
    }

    /// How the profile says entries' timestamps are written.
    pub(crate) fn timestamps(&self) -> crate::profile::Timestamps {
        self.profile.timestamps
    }

    fn store_key(&self, app_name: &str, user_id: &str) -> StoreKey {
        match self.profile.key.joined(app_name, user_id) {
            None => StoreKey::Pair(app_name.to_owned(), user_id.to_owned()),
            Some(joined) => StoreKey::Joined(joined),
        }
    }

    /// The entries the events stored under (`app_name`, `user_id`) whose text parts are
    /// `content`'s ([`same_entry`](super::identity::same_entry)) must come back as: their whole
    /// content, author and timestamp (under
    /// [`NaiveIsoformat`](crate::profile::Timestamps::NaiveIsoformat) the exact instant,
    /// as [`timestamp_format::matches`](super::timestamp_format::matches) reads it). Explicit
    /// memories stand as `None`: their fields are not compared.
    pub(crate) fn written_like(
        &self,
        app_name: &str,
        user_id: &str,
        content: &Content,
    ) -> Vec<Option<crate::MemoryEntry>> {
        self.stores
            .get(&self.store_key(app_name, user_id))
            .into_iter()
            .flat_map(|store| &store.sessions)
            .flat_map(|session| &session.events)
            .filter(|event| super::identity::same_entry(&event.content, content))
            .map(|event| {
                let (author, at) = event.written.as_ref()?;
                let timestamp = match self.profile.timestamps {
                    crate::profile::Timestamps::NaiveIsoformat => at.to_string(),
                    _ => crate::MemoryEntry::format_timestamp(*at),
                };
                Some(
                    crate::MemoryEntry::new(event.content.clone())
                        .with_author(author.clone())
                        .with_timestamp(timestamp),
                )
            })
            .collect()
    }

    /// Every entry stored under (`app_name`, `user_id`), each as often as it is stored: all a
    /// search may return where the profile computes no answer (semantic retrieval).
    pub(crate) fn stored(&self, app_name: &str, user_id: &str) -> Vec<&Content> {
        self.stores
            .get(&self.store_key(app_name, user_id))
            .into_iter()
            .flat_map(|store| &store.sessions)
            .flat_map(|session| &session.events)
            .map(|event| &event.content)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::search::BLANK_SIMILARITY;
    use super::*;
    use crate::Session;
    use crate::profile::{
        EventsDelta, KeyScheme, Limit, MultiWord, Order, QueryTerms, Readd, Separators,
    };
    use crate::{Event, MemoryEntry, Part};

    fn session(app: &str, user: &str, id: &str, texts: &[&str]) -> Session {
        Session::new(app, user, id).with_events(texts.iter().map(|t| Event::text("user", *t)))
    }

    fn found(oracle: &Oracle, app: &str, user: &str, query: &str) -> Vec<String> {
        oracle
            .search(app, user, query)
            .contents
            .iter()
            .map(|c| c.texts().collect::<Vec<_>>().join("+"))
            .collect()
    }

    fn reference() -> Profile {
        Profile::reference()
    }

    #[test]
    fn a_readd_replaces_appends_or_is_ignored_without_text_as_the_profile_says() {
        let textless = Session::new("a", "u", "s-1").with_event(Event::new(
            "model",
            Some(Content::new(vec![Part::function_call(
                "f",
                serde_json::json!({}),
            )])),
        ));
        let mut expected = [
            (Readd::Replace, vec![], vec!["tea"]),
            (Readd::Append, vec!["coffee"], vec!["coffee tea"]),
            (Readd::ReplaceUnlessNoText, vec!["coffee"], vec!["tea"]),
            // New event ids each time: every event is new to the session.
            (Readd::KeepFirst, vec!["coffee"], vec!["coffee tea"]),
        ];
        for (readd, after_textless, after_tea) in &mut expected {
            let mut profile = reference();
            profile.readd = *readd;
            let mut oracle = Oracle::new(&profile);
            oracle.add(&session("a", "u", "s-1", &["coffee"]));
            oracle.add(&textless);
            assert_eq!(
                found(&oracle, "a", "u", "coffee"),
                *after_textless,
                "{readd:?}"
            );
            oracle.add(&session("a", "u", "s-1", &["tea"]));
            let both = found(&oracle, "a", "u", "coffee tea").join(" ");
            assert_eq!(both, after_tea.join(" "), "{readd:?}");
        }
    }

    /// Under keep-first, a re-added event id keeps its first version and nothing is removed;
    /// only an id the session does not hold is stored.
    #[test]
    fn a_keep_first_readd_stores_only_event_ids_the_session_does_not_hold() {
        let mut profile = reference();
        profile.readd = Readd::KeepFirst;
        let mut oracle = Oracle::new(&profile);
        let version = |texts: &[(&str, &str)]| {
            Session::new("a", "u", "s-1").with_events(
                texts
                    .iter()
                    .map(|(id, text)| Event::text("user", *text).with_id(*id)),
            )
        };
        oracle.add(&version(&[("e-0", "coffee"), ("e-1", "tea")]));
        oracle.add(&version(&[("e-0", "latte"), ("e-2", "milk")]));
        oracle.add(&version(&[]));
        assert_eq!(
            found(&oracle, "a", "u", "coffee tea latte milk"),
            ["coffee", "tea", "milk"]
        );
    }

    #[test]
    fn the_timestamp_format_is_the_profiles() {
        use crate::profile::Timestamps;
        assert_eq!(
            Oracle::new(&reference()).timestamps(),
            Timestamps::Rfc3339Utc
        );
        let python = Profile::adk_python();
        assert_eq!(
            Oracle::new(&python).timestamps(),
            Timestamps::NaiveIsoformat
        );
    }

    #[test]
    fn an_upsert_writes_each_event_with_text_over_its_id_and_keeps_the_rest() {
        let mut profile = reference();
        profile.readd = Readd::UpsertByEventId;
        let mut oracle = Oracle::new(&profile);
        let event = |id: &str, text: &str| Event::text("user", text).with_id(id);
        let add = |oracle: &mut Oracle, id: &str, events: Vec<Event>| {
            oracle.add(&Session::new("a", "u", id).with_events(events));
        };
        // A first add is written by id too: the later `e-1` wins.
        add(
            &mut oracle,
            "s-1",
            vec![
                event("e-1", "coffee"),
                event("e-2", "tea"),
                event("e-1", "mocha"),
            ],
        );
        add(&mut oracle, "s-2", vec![event("e-1", "chai")]);
        assert!(found(&oracle, "a", "u", "coffee").is_empty());
        assert_eq!(found(&oracle, "a", "u", "mocha tea"), ["mocha", "tea"]);
        // `e-1` changes, `e-2` is kept, `e-3` comes after; blank text and tool data are skipped,
        // punctuation is text (and has no word).
        add(
            &mut oracle,
            "s-1",
            vec![
                event("e-3", "latte"),
                event("e-2", " \t"),
                Event::function_call("model", "f", serde_json::json!({})).with_id("e-2"),
                event("e-1", "?!"),
            ],
        );
        assert!(found(&oracle, "a", "u", "mocha").is_empty());
        assert_eq!(
            found(&oracle, "a", "u", "tea latte chai"),
            ["tea", "latte", "chai"]
        );
    }

    #[test]
    fn a_slash_joined_key_shares_a_store_where_a_structured_one_does_not() {
        for (scheme, shared) in [
            (KeyScheme::Structured, false),
            (KeyScheme::JoinedWithSlash, true),
            (KeyScheme::JoinedWith(':'), false),
        ] {
            let mut profile = reference();
            profile.key = scheme;
            let mut oracle = Oracle::new(&profile);
            oracle.add(&session("a/b", "c", "s-1", &["coffee"]));
            assert_eq!(
                !found(&oracle, "a", "b/c", "coffee").is_empty(),
                shared,
                "{scheme:?}"
            );
            assert_eq!(found(&oracle, "a/b", "c", "coffee"), ["coffee"]);
            assert!(found(&oracle, "a", "bc", "coffee").is_empty());
        }
    }

    #[test]
    fn a_substring_term_matches_inside_a_word_and_across_punctuation_case_folded() {
        let mut profile = reference();
        profile.query_terms = QueryTerms::Substrings {
            separators: Separators::AsciiWhitespace,
        };
        let mut oracle = Oracle::new(&profile);
        oracle.add(&session("a", "u", "s-1", &["Coffee,Tea", "?!", "milk"]));
        assert_eq!(found(&oracle, "a", "u", "OFF"), ["Coffee,Tea"]);
        assert_eq!(found(&oracle, "a", "u", "e,t"), ["Coffee,Tea"]);
        assert_eq!(found(&oracle, "a", "u", "?"), ["?!"]);
        assert_eq!(found(&oracle, "a", "u", "ilk zebra"), ["milk"]);
        assert!(found(&oracle, "a", "u", "coffeetea").is_empty());
        assert!(found(&oracle, "a", "u", " \t").is_empty());
    }

    #[test]
    fn a_key_joined_with_another_character_shares_a_store_around_that_character_only() {
        let mut profile = reference();
        profile.key = KeyScheme::JoinedWith(':');
        let mut oracle = Oracle::new(&profile);
        oracle.add(&session("a:b", "c", "s-1", &["coffee"]));
        oracle.add(&session("a/b", "c", "s-1", &["tea"]));
        assert_eq!(found(&oracle, "a", "b:c", "coffee"), ["coffee"]);
        assert!(found(&oracle, "a", "b/c", "tea").is_empty());
        assert_eq!(found(&oracle, "a/b", "c", "tea"), ["tea"]);
        assert!(found(&oracle, "a", "bc", "coffee").is_empty());
    }

    #[test]
    fn integer_like_session_ids_come_first_in_numeric_order_when_declared() {
        let mut profile = reference();
        profile.order = Order::Insertion {
            integer_ids_first: true,
        };
        let mut oracle = Oracle::new(&profile);
        for id in ["s-b", "10", "01", "2", "4294967295", "4294967294"] {
            oracle.add(&session("a", "u", id, &[&format!("coffee {id}")]));
        }
        // "01" is no array index, nor is 2^32 - 1; 4294967294 is the largest one.
        assert_eq!(
            found(&oracle, "a", "u", "coffee"),
            [
                "coffee 2",
                "coffee 10",
                "coffee 4294967294",
                "coffee s-b",
                "coffee 01",
                "coffee 4294967295"
            ]
        );
        profile.order = Order::Insertion {
            integer_ids_first: false,
        };
        let mut plain = Oracle::new(&profile);
        plain.add(&session("a", "u", "10", &["coffee ten"]));
        plain.add(&session("a", "u", "2", &["coffee two"]));
        assert_eq!(
            found(&plain, "a", "u", "coffee"),
            ["coffee ten", "coffee two"]
        );
    }

    #[test]
    fn most_matched_terms_rank_first_with_ties_in_insertion_order() {
        let mut profile = reference();
        profile.order = Order::MatchedTerms;
        let mut oracle = Oracle::new(&profile);
        oracle.add(&session(
            "a",
            "u",
            "s-1",
            &["coffee", "coffee tea", "tea", "coffee tea milk"],
        ));
        assert_eq!(
            found(&oracle, "a", "u", "coffee tea milk"),
            ["coffee tea milk", "coffee tea", "coffee", "tea"]
        );
        let expected = oracle.search("a", "u", "coffee tea milk");
        assert!(expected.ordered);
    }

    #[test]
    fn all_words_needs_every_term_and_any_word_needs_one() {
        for (multi, hits) in [(MultiWord::AnyWord, 2), (MultiWord::AllWords, 1)] {
            let mut profile = reference();
            profile.multi_word = multi;
            let mut oracle = Oracle::new(&profile);
            oracle.add(&session("a", "u", "s-1", &["coffee tea", "coffee"]));
            assert_eq!(
                found(&oracle, "a", "u", "coffee tea").len(),
                hits,
                "{multi:?}"
            );
            // A term that has no word (dead) never matches, so all-words then finds nothing.
            let dead = found(&oracle, "a", "u", "coffee 4417");
            assert_eq!(dead.len(), if multi == MultiWord::AnyWord { 2 } else { 0 });
        }
    }

    #[test]
    fn events_without_parts_are_not_stored_and_unordered_profiles_promise_no_order() {
        let mut profile = reference();
        profile.order = Order::Unordered;
        profile.limit = Limit::AtMost(1);
        let mut oracle = Oracle::new(&profile);
        let empty = Session::new("a", "u", "s-1")
            .with_event(Event::new("user", Some(Content::new(vec![]))))
            .with_event(Event::without_content("user"))
            .with_event(Event::text("user", "coffee"));
        oracle.add(&empty);
        let expected = oracle.search("a", "u", "coffee");
        assert_eq!(expected.contents.len(), 1);
        assert!(!expected.ordered);
        assert_eq!(expected.limit, Limit::AtMost(1));
        assert!(oracle.search("a", "u", "").contents.is_empty());
        assert!(oracle.search("b", "u", "coffee").contents.is_empty());
    }

    fn with_capabilities(delta: Option<EventsDelta>) -> Profile {
        let mut profile = reference();
        profile.capabilities.events_delta = delta;
        profile.capabilities.explicit_memories = true;
        profile.capabilities.delete = true;
        profile.capabilities.entry_ids = true;
        profile.capabilities.search_limit = true;
        profile
    }

    fn event(id: &str, text: &str) -> Event {
        Event::text("user", text).with_id(id)
    }

    #[test]
    fn a_delta_appends_new_ids_upserts_or_is_ignored_as_the_profile_says() {
        let mut append = Oracle::new(&with_capabilities(Some(EventsDelta::AppendNewIds)));
        append.add(&Session::new("a", "u", "s-1").with_event(event("e-1", "coffee")));
        append.add(&Session::new("a", "u", "s-2").with_event(event("e-9", "coffee later")));
        let delta = [
            event("e-1", "coffee changed"),
            event("e-2", "more coffee"),
            Event::new("user", Some(Content::new(vec![]))).with_id("e-3"),
        ];
        append.add_events("a", "u", Some("s-1"), &delta);
        assert_eq!(
            found(&append, "a", "u", "coffee"),
            ["coffee", "more coffee", "coffee later"]
        );
        assert!(found(&append, "a", "u", "changed").is_empty());
        append.add_events("a", "u", None, &[event("e-4", "tea")]);
        append.add_events("a", "u", None, &[event("e-5", "black tea")]);
        assert_eq!(found(&append, "a", "u", "tea"), ["tea", "black tea"]);
        append.add(&Session::new("a", "u", UNKNOWN_SESSION_ID).with_event(event("e-6", "latte")));
        assert!(found(&append, "a", "u", "tea").is_empty());

        let mut upsert = Oracle::new(&with_capabilities(Some(EventsDelta::UpsertByEventId)));
        upsert.add(&Session::new("a", "u", "s-1").with_event(event("e-1", "coffee")));
        upsert.add_events("a", "u", Some("s-1"), &delta);
        assert_eq!(
            found(&upsert, "a", "u", "coffee"),
            ["coffee changed", "more coffee"]
        );

        let mut none = Oracle::new(&with_capabilities(None));
        none.add_events("a", "u", Some("s-1"), &delta);
        assert!(found(&none, "a", "u", "coffee").is_empty());
    }

    #[test]
    fn explicit_memories_come_after_earlier_sessions_and_replace_only_by_a_given_id() {
        let mut oracle = Oracle::new(&with_capabilities(None));
        oracle.add(&session("a", "u", "s-1", &["coffee one"]));
        oracle.add_memories(
            "a",
            "u",
            &[
                MemoryEntry::new(Content::text("coffee memory")),
                MemoryEntry::new(Content::text("coffee again")),
                MemoryEntry::new(Content::new(vec![])).with_id("m-empty"),
                MemoryEntry::new(Content::text("coffee given")).with_id("m-1"),
            ],
        );
        oracle.add(&session("a", "u", "s-2", &["coffee two"]));
        oracle.add_memories(
            "a",
            "u",
            &[
                MemoryEntry::new(Content::text("coffee last")),
                MemoryEntry::new(Content::text("tea given")).with_id("m-1"),
            ],
        );
        assert_eq!(
            found(&oracle, "a", "u", "coffee tea"),
            [
                "coffee one",
                "coffee memory",
                "coffee again",
                "tea given",
                "coffee last",
                "coffee two"
            ]
        );
        // Memories are sessions of their own: a session added with an empty id is not one.
        oracle.add(&Session::new("a", "u", ""));
        assert_eq!(found(&oracle, "a", "u", "memory"), ["coffee memory"]);
    }

    #[test]
    fn forgetting_removes_the_content_and_every_event_with_its_id_for_good() {
        let mut oracle = Oracle::new(&with_capabilities(Some(EventsDelta::AppendNewIds)));
        oracle.add(
            &Session::new("a", "u", "s-1")
                .with_events([event("e-1", "coffee"), event("e-2", "coffee too")]),
        );
        oracle.add(&Session::new("a", "u", "s-2").with_event(event("e-1", "tea")));
        oracle.add(&Session::new("b", "u", "s-1").with_event(event("e-1", "coffee")));
        oracle.add_memories(
            "a",
            "u",
            &[
                MemoryEntry::new(Content::text("mocha")),
                MemoryEntry::new(Content::text("latte")),
            ],
        );
        oracle.forget("a", "u", "e-1", &Content::text("coffee"));
        assert_eq!(
            found(&oracle, "a", "u", "coffee tea mocha latte"),
            ["coffee too", "mocha", "latte"]
        );
        assert_eq!(found(&oracle, "b", "u", "coffee"), ["coffee"]);
        // A memory without an id goes alone, by the id the backend gave it.
        oracle.forget("a", "u", "backend-7", &Content::text("mocha"));
        assert_eq!(
            found(&oracle, "a", "u", "coffee tea mocha latte"),
            ["coffee too", "latte"]
        );
        // The forgotten id is never stored again, by any call; other ids are (the memories'
        // session was first added before s-3).
        oracle.add(
            &Session::new("a", "u", "s-3")
                .with_events([event("e-1", "chai"), event("e-7", "chai kept")]),
        );
        oracle.add_events("a", "u", Some("s-3"), &[event("e-1", "chai delta")]);
        oracle.add_memories(
            "a",
            "u",
            &[
                MemoryEntry::new(Content::text("chai memory")).with_id("e-1"),
                MemoryEntry::new(Content::text("chai other")).with_id("m-2"),
                MemoryEntry::new(Content::text("chai bare")),
            ],
        );
        assert_eq!(
            found(&oracle, "a", "u", "chai"),
            ["chai other", "chai bare", "chai kept"]
        );
    }

    #[test]
    fn forgetting_is_by_id_only_so_equal_content_under_another_id_stays() {
        let mut oracle = Oracle::new(&with_capabilities(None));
        oracle.add(&Session::new("a", "u", "s-1").with_event(event("e-1", "coffee")));
        oracle.add(&Session::new("a", "u", "s-2").with_event(event("e-2", "coffee")));
        oracle.add_memories("a", "u", &[MemoryEntry::new(Content::text("coffee"))]);
        oracle.forget("a", "u", "e-1", &Content::text("coffee"));
        assert_eq!(found(&oracle, "a", "u", "coffee"), ["coffee", "coffee"]);
        oracle.forget("a", "u", "m-backend", &Content::text("coffee"));
        assert_eq!(found(&oracle, "a", "u", "coffee"), ["coffee"]);
    }

    #[test]
    fn a_search_limit_replaces_the_profiles() {
        let mut profile = with_capabilities(None);
        profile.limit = Limit::AtMost(5);
        let oracle = Oracle::new(&profile);
        assert_eq!(oracle.search("a", "u", "coffee").limit, Limit::AtMost(5));
        assert_eq!(
            oracle.search_limited("a", "u", "coffee", Some(2)).limit,
            Limit::AtMost(2)
        );
    }

    /// Each expected entry's text parts, joined with `+`.
    fn texts(expected: &Expected) -> Vec<String> {
        expected
            .contents
            .iter()
            .map(|c| c.texts().collect::<Vec<_>>().join("+"))
            .collect()
    }

    #[test]
    fn vector_search_ranks_every_event_with_a_word_nearest_first() {
        use crate::profile::{Retrieval, VectorIndex, VectorSearch};
        let mut profile = reference();
        profile.retrieval = Retrieval::Vector(VectorSearch::exact("hashed-256"));
        let mut oracle = Oracle::new(&profile);
        oracle.add(&session(
            "a",
            "u",
            "s-1",
            &["tea", "?!", "coffee tea milk", "coffee"],
        ));
        let expected = oracle.search("a", "u", "coffee");
        assert_eq!(texts(&expected), ["coffee", "coffee tea milk", "tea"]);
        assert!(expected.ordered);
        let ranking = expected.ranking.expect("a vector search is ranked");
        assert_eq!(ranking.index, VectorIndex::Exact);
        assert_eq!(ranking.embedder, "hashed-256");
        assert!(
            (ranking.scores[0] - 1.0).abs() < 1e-6,
            "{:?}",
            ranking.scores
        );
        assert!(ranking.scores[0] > ranking.scores[1] && ranking.scores[1] > ranking.scores[2]);
        assert!(oracle.search("a", "u", "?!").contents.is_empty());
        // Without a vector declared, an embedder given is not used.
        let lexical = Oracle::with_embedder(
            &reference(),
            Some(Arc::new(crate::embed::HashedEmbedder::new(256))),
        );
        assert!(lexical.search("a", "u", "coffee").ranking.is_none());
    }

    #[test]
    fn blank_events_ranked_last_come_after_every_event_with_a_word_and_are_kept_as_text() {
        use crate::profile::{BlankEvents, Retrieval, VectorSearch};
        let mut profile = reference();
        profile.retrieval = Retrieval::Vector(VectorSearch::exact("hashed-256"));
        profile.blank_events = BlankEvents::RankedLast;
        profile.readd = Readd::UpsertByEventId;
        let stored = session("a", "u", "s-1", &[" \t ", "tea", "?!", "", "coffee"]);
        let mut oracle = Oracle::new(&profile);
        oracle.add(&stored);
        // A re-add by event id writes blank text as text (never-returned would skip it).
        oracle.add(&session("a", "u", "s-1", &["  "]));
        let expected = oracle.search("a", "u", "coffee");
        // The blank events last, as ties, in the order stored; the empty text is no text.
        assert_eq!(texts(&expected), ["coffee", "tea", " \t ", "?!", "  "]);
        let scores = expected.ranking.expect("ranked").scores;
        assert_eq!(scores[2..], [BLANK_SIMILARITY; 3]);
        // A query without a word still finds nothing.
        assert!(oracle.search("a", "u", "?!").contents.is_empty());
        profile.blank_events = BlankEvents::NeverReturned;
        let mut never = Oracle::new(&profile);
        never.add(&stored);
        assert_eq!(never.search("a", "u", "coffee").contents.len(), 2);
    }
}
