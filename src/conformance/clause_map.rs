//! The clause map: every clause of the reference's specification (`docs/reference-behaviour.md`,
//! R1 to R9) and every value a profile dimension can take, with the rules that check it and the
//! generated inputs that reach it. `docs/clause-map.md` is rendered from this data, and a test
//! fails when a clause, a dimension value or a rule has nothing.

use std::fmt::Write as _;

use crate::profile::{
    EventsDelta, KeyScheme, Limit, MultiWord, Order, QueryTerms, Readd, Retrieval, Separators,
    Strings, Timestamps, ToolData, Visibility, WordRule,
};

/// One clause of the specification, or of a profile dimension's value.
pub(crate) struct Clause {
    /// `R1.byte-for-byte`, or `readd = append`.
    pub(crate) id: &'static str,
    /// What it says, in one line.
    pub(crate) says: &'static str,
    /// The ids of the rules that check it.
    pub(crate) rules: &'static [&'static str],
    /// The names of the generated inputs ([`INPUTS`]) that reach it.
    pub(crate) inputs: &'static [&'static str],
}

/// The inputs the generators produce (`generate.rs`), by name, with what they hold.
pub(crate) const INPUTS: &[(&str, &str)] = &[
    (
        "near-miss keys",
        "a key and one that nearly equals it: case of app or user, `-`/`_` swapped, trailing space, a `u-` prefix, digits only, app and user swapped, empty user",
    ),
    (
        "joined keys",
        "two distinct keys that join to one string under `/`, `:`, no separator, `|`, `::`, `-`, `_`, `.`, a space or NUL",
    ),
    (
        "odd key strings",
        "app names and user ids with `/`, `.`, case, surrounding whitespace, the empty string, NUL and emoji",
    ),
    (
        "near-miss session ids",
        "a session id and one that nearly equals it: case, `_`, trailing space, digits only, a longer id, empty, a leading zero",
    ),
    (
        "re-adds",
        "the same session id added again with other text, with fewer or more events, under the same or new event ids, with no text, or with no events",
    ),
    (
        "re-adds by event id",
        "versions of one session whose events keep, change, lose or gain event ids, mixing text, blank text, punctuation-only text and events without text",
    ),
    (
        "textless events",
        "events with no content, no parts, an empty text, only a function call, only a function response, only inline data",
    ),
    (
        "tool parts",
        "words only in function-call arguments or function-response values, nested, beside text or alone",
    ),
    (
        "session state",
        "words only in session-state keys and values",
    ),
    (
        "authors",
        "authors in every case, and searches for an author's name that no text holds",
    ),
    (
        "multi-part contents",
        "contents with several parts in every order: text, empty text, function call, inline data, a role or none",
    ),
    (
        "timestamps",
        "event instants with nanoseconds, over four centuries from 2026",
    ),
    (
        "cased words",
        "words in lower, upper, capitalised and mixed case, with accents and `ß`",
    ),
    (
        "punctuation",
        "every ASCII punctuation character and Unicode ones, before, after, inside and around a word, on the query or in the text",
    ),
    (
        "separators",
        "words joined by every kind of ASCII whitespace, Unicode whitespace (no-break, em, ideographic, line separator, next line) and punctuation",
    ),
    (
        "blank queries",
        "empty and whitespace-only queries, ASCII and Unicode",
    ),
    ("digits", "numbers, identifiers, times, dates and versions"),
    (
        "non-ASCII words",
        "accents in NFC and NFD, German, CJK runs, mixed-script words",
    ),
    (
        "many matches",
        "more matching events than the profile's limit, or 30 when it has none, over up to three sessions",
    ),
    (
        "ranked beyond the limit",
        "more weaker matches than the limit, added before the stronger ones",
    ),
    (
        "concurrent adds",
        "several sessions of two keys added at once",
    ),
    (
        "racing replace",
        "a session re-added in turn with several versions while another task searches",
    ),
    (
        "random operations",
        "up to 24 adds, re-adds and searches over four keys that collide under `/` or nearly equal each other",
    ),
    (
        "reopen",
        "every instance closed, then a new one opened on the same storage",
    ),
    (
        "second instance",
        "another instance opened on the same storage",
    ),
    (
        "replicas",
        "three instances on one storage behind a round-robin load balancer, written through one at a time and concurrently, each write searched through every instance",
    ),
    (
        "later session",
        "the `load_memory` tool run from a later session of the same user",
    ),
    (
        "vector texts",
        "stores whose texts share whole words, only inflections (trigrams), punctuated forms or nothing with the query, beside textless events, searched with and without a limit",
    ),
    (
        "event deltas",
        "deltas of events for a session or none, whose event ids repeat, extend or replace what the session holds, mixed with whole adds",
    ),
    (
        "explicit memories",
        "memories with and without an id, authors and timestamps, and without parts, beside a session sharing their words",
    ),
    (
        "deletions",
        "a memory found by a search and deleted by its id, an unknown id, then searches under every query, from another instance, after a reopen and after the session is added again",
    ),
    (
        "limited searches",
        "searches asking for at most 1 to the matches plus 3 entries",
    ),
    (
        "delayed writes",
        "every write followed by searches that must see it, and by searches that must not, under a declared visibility bound",
    ),
];

/// The clauses of `docs/reference-behaviour.md`, R1 to R9, and of the debugging guide's tool.
pub(crate) const SPECIFICATION: &[Clause] = &[
    Clause {
        id: "R1.two-level",
        says: "storage is the pair (app name, user id), then the session id",
        rules: &["key.isolation", "replace.other_sessions_untouched"],
        inputs: &["near-miss keys", "near-miss session ids"],
    },
    Clause {
        id: "R1.byte-for-byte",
        says: "keys are compared byte for byte: no trimming, case folding or normalisation",
        rules: &["key.isolation", "query.unknown_key"],
        inputs: &["near-miss keys", "odd key strings"],
    },
    Clause {
        id: "R1.no-join",
        says: "no two distinct pairs ever share storage, whatever would join them",
        rules: &["key.no_separator_collision", "model.random_ops"],
        inputs: &["joined keys", "random operations"],
    },
    Clause {
        id: "R2.kept-events",
        says: "only events whose content is present and has a part are stored",
        rules: &["index.empty_events", "model.random_ops"],
        inputs: &["textless events", "random operations"],
    },
    Clause {
        id: "R2.replace",
        says: "a re-add replaces what the session held, also with an empty list",
        rules: &[
            "replace.readd_replaces",
            "replace.readd_with_nothing",
            "replace.readd_as_declared",
        ],
        inputs: &["re-adds", "textless events", "re-adds by event id"],
    },
    Clause {
        id: "R2.others-untouched",
        says: "other sessions are never touched",
        rules: &["replace.other_sessions_untouched"],
        inputs: &["near-miss session ids", "near-miss keys", "re-adds"],
    },
    Clause {
        id: "R2.no-state",
        says: "session state is never stored for search",
        rules: &["index.text_only"],
        inputs: &["session state"],
    },
    Clause {
        id: "R3.lowercase",
        says: "the query is lowercased, full Unicode",
        rules: &["query.case_insensitive"],
        inputs: &["cased words"],
    },
    Clause {
        id: "R3.ascii-whitespace",
        says: "the query is split on runs of ASCII whitespace; empty tokens are ignored",
        rules: &["query.multi_word", "query.blank", "model.random_ops"],
        inputs: &["separators", "blank queries"],
    },
    Clause {
        id: "R3.punctuation-stays",
        says: "punctuation stays attached to its token",
        rules: &["punctuation.query"],
        inputs: &["punctuation"],
    },
    Clause {
        id: "R4.text-parts",
        says: "only text parts are read; calls, responses, inline data (and authors) add nothing",
        rules: &["index.text_only", "result.fidelity"],
        inputs: &["tool parts", "authors", "multi-part contents"],
    },
    Clause {
        id: "R4.ascii-letters",
        says: "words are runs of [A-Za-z], ASCII-lowercased; digits, `_`, accents and non-Latin letters separate",
        rules: &[
            "punctuation.event",
            "query.digits",
            "query.non_ascii",
            "model.random_ops",
        ],
        inputs: &["punctuation", "digits", "non-ASCII words"],
    },
    Clause {
        id: "R4.fix-2",
        says: "a stored non-text part never breaks a search",
        rules: &["index.text_only", "index.empty_events", "result.fidelity"],
        inputs: &["tool parts", "textless events", "multi-part contents"],
    },
    Clause {
        id: "R5.any-token",
        says: "an event matches when at least one query token equals one of its words",
        rules: &["query.multi_word", "model.random_ops"],
        inputs: &["separators", "random operations"],
    },
    Clause {
        id: "R5.dead-tokens",
        says: "a token not made only of ASCII letters never matches",
        rules: &["punctuation.query", "query.digits", "query.non_ascii"],
        inputs: &["punctuation", "digits", "non-ASCII words"],
    },
    Clause {
        id: "R6.every-match",
        says: "every matching event of every session of the key: no score, no limit",
        rules: &["result.limit", "model.random_ops"],
        inputs: &["many matches", "random operations"],
    },
    Clause {
        id: "R6.no-dedup",
        says: "the same event stored in two sessions comes back twice",
        rules: &["model.random_ops", "result.limit"],
        inputs: &["random operations", "many matches"],
    },
    Clause {
        id: "R6.order",
        says: "sessions in the order their ids were first added, events in session order",
        rules: &["result.order"],
        inputs: &["re-adds"],
    },
    Clause {
        id: "R6.entries",
        says: "an entry is the event's content unchanged, its author and an RFC 3339 UTC timestamp with milliseconds (fix 3)",
        rules: &["result.fidelity"],
        inputs: &["multi-part contents", "timestamps", "authors"],
    },
    Clause {
        id: "R7.unknown-key",
        says: "an unknown key gives an empty response, not an error",
        rules: &["query.unknown_key"],
        inputs: &["near-miss keys"],
    },
    Clause {
        id: "R7.blank-query",
        says: "an empty or whitespace-only query gives an empty response",
        rules: &["query.blank"],
        inputs: &["blank queries"],
    },
    Clause {
        id: "R7.any-string",
        says: "any string is accepted as app name, user id, session id or query",
        rules: &[
            "key.isolation",
            "key.no_separator_collision",
            "model.random_ops",
        ],
        inputs: &["odd key strings", "near-miss session ids", "punctuation"],
    },
    Clause {
        id: "R8.adds-land",
        says: "concurrent adds of distinct sessions all land",
        rules: &["concurrency.adds_land"],
        inputs: &["concurrent adds"],
    },
    Clause {
        id: "R8.atomic-replace",
        says: "a concurrent search sees the old list or the new one, never a mix",
        rules: &["concurrency.atomic_replace"],
        inputs: &["racing replace"],
    },
    Clause {
        id: "R9.delta",
        says: "a delta appends the events whose id the session does not hold; no session id is a session of its own",
        rules: &["delta.as_declared", "model.random_ops"],
        inputs: &["event deltas", "random operations"],
    },
    Clause {
        id: "R9.memories",
        says: "explicit memories are searchable like events, stored as given, under their key only",
        rules: &["memories.searchable", "model.random_ops"],
        inputs: &["explicit memories", "random operations"],
    },
    Clause {
        id: "R9.delete",
        says: "a deleted memory is never returned again, under any query, from any instance, after a reopen or a re-add",
        rules: &["forget.never_returned", "model.random_ops"],
        inputs: &[
            "deletions",
            "reopen",
            "second instance",
            "random operations",
        ],
    },
    Clause {
        id: "R9.delete-scoped",
        says: "deleting under one key never touches another; an unknown id changes nothing",
        rules: &["forget.other_keys_untouched", "forget.never_returned"],
        inputs: &["deletions", "near-miss keys", "joined keys"],
    },
    Clause {
        id: "R9.entry-ids",
        says: "every entry carries its memory's id, the same in every search",
        rules: &["result.entry_ids"],
        inputs: &["many matches"],
    },
    Clause {
        id: "R9.search-limit",
        says: "a search with a limit returns the first n entries of the answer",
        rules: &["result.limit_option"],
        inputs: &["limited searches", "many matches"],
    },
    Clause {
        id: "guide.load-memory",
        says: "a fact written in one session is found by `load_memory` in a later session",
        rules: &["recall.across_sessions"],
        inputs: &["later session"],
    },
];

/// Every value a profile dimension can take, with the rules that check a backend declaring it.
pub(crate) const DIMENSION_VALUES: &[Clause] = &[
    Clause {
        id: "retrieval = lexical",
        says: "every search has an expected answer: the oracle's",
        rules: &["model.random_ops", "index.text_only", "query.multi_word"],
        inputs: &["random operations"],
    },
    Clause {
        id: "retrieval = vector, exact index",
        says: "the stored events nearest to the query by cosine similarity under the declared embedder, nearest first, exactly the limit's worth",
        rules: &[
            "vector.nearest_first",
            "model.random_ops",
            "key.isolation",
            "replace.readd_replaces",
        ],
        inputs: &[
            "vector texts",
            "random operations",
            "near-miss keys",
            "re-adds",
        ],
    },
    Clause {
        id: "retrieval = vector, approximate index",
        says: "nearest first and only stored candidates, at least the declared share of the nearest",
        rules: &["vector.nearest_first", "model.random_ops"],
        inputs: &["vector texts", "random operations"],
    },
    Clause {
        id: "retrieval = semantic",
        says: "held to the contract: nothing from another key or an old version, nothing twice",
        rules: &["key.isolation", "replace.readd_replaces", "result.fidelity"],
        inputs: &["near-miss keys", "re-adds"],
    },
    Clause {
        id: "key = structured",
        says: "no two pairs share a store",
        rules: &["key.no_separator_collision", "key.isolation"],
        inputs: &["joined keys"],
    },
    Clause {
        id: "key = joined with \"/\"",
        says: "pairs that join to one `app/user` string share a store (an implied violation)",
        rules: &["key.no_separator_collision", "model.random_ops"],
        inputs: &["joined keys", "random operations"],
    },
    Clause {
        id: "readd = replace",
        says: "a re-add replaces, also with nothing",
        rules: &[
            "replace.readd_replaces",
            "replace.readd_with_nothing",
            "replace.readd_as_declared",
        ],
        inputs: &["re-adds", "re-adds by event id"],
    },
    Clause {
        id: "readd = append",
        says: "a re-add appends (implied violations of the replace rules)",
        rules: &[
            "model.random_ops",
            "durability.reopen",
            "replace.readd_replaces",
            "replace.readd_as_declared",
        ],
        inputs: &["re-adds", "random operations", "re-adds by event id"],
    },
    Clause {
        id: "readd = replace unless no text",
        says: "a re-add without a word is ignored (an implied violation)",
        rules: &[
            "model.random_ops",
            "replace.readd_with_nothing",
            "replace.readd_as_declared",
        ],
        inputs: &["re-adds", "textless events", "re-adds by event id"],
    },
    Clause {
        id: "readd = upsert by event id",
        says: "each event with text is written over the stored event with its id; events without text are skipped and missing ones stay (implied violations of the replace rules)",
        rules: &[
            "replace.readd_as_declared",
            "model.random_ops",
            "replace.readd_replaces",
            "replace.readd_with_nothing",
        ],
        inputs: &["re-adds by event id", "re-adds", "random operations"],
    },
    Clause {
        id: "event words = ASCII letters",
        says: "runs of [A-Za-z]",
        rules: &["punctuation.event", "query.non_ascii", "model.random_ops"],
        inputs: &["punctuation", "non-ASCII words"],
    },
    Clause {
        id: "event words = Unicode words",
        says: "NFC runs of letters, digits and `_`, with or without script runs",
        rules: &["query.non_ascii", "query.digits", "model.random_ops"],
        inputs: &["non-ASCII words", "digits", "punctuation"],
    },
    Clause {
        id: "event words = whitespace",
        says: "split on separators, punctuation kept, with or without CJK grams",
        rules: &["punctuation.event", "query.non_ascii", "model.random_ops"],
        inputs: &["punctuation", "separators", "non-ASCII words"],
    },
    Clause {
        id: "event words = full text",
        says: "FTS5 unicode61 words, diacritics removed as declared",
        rules: &[
            "query.non_ascii",
            "query.case_insensitive",
            "model.random_ops",
        ],
        inputs: &["non-ASCII words", "cased words", "digits"],
    },
    Clause {
        id: "event words = Unicode segmentation",
        says: "NFC, then UAX #29 words, lowercased",
        rules: &[
            "query.non_ascii",
            "punctuation.event",
            "query.digits",
            "model.random_ops",
        ],
        inputs: &["non-ASCII words", "punctuation", "digits"],
    },
    Clause {
        id: "event words = full text, script runs first",
        says: "NFC, each non-ASCII word cut into Latin and non-Latin runs, then FTS5 unicode61 words",
        rules: &[
            "query.non_ascii",
            "query.case_insensitive",
            "punctuation.event",
            "model.random_ops",
        ],
        inputs: &["non-ASCII words", "cased words", "punctuation"],
    },
    Clause {
        id: "event words = the backend's own function",
        says: "a Rust backend's own word function, its author's claim: every text and query is checked against it",
        rules: &[
            "query.non_ascii",
            "query.case_insensitive",
            "punctuation.event",
            "punctuation.query",
            "model.random_ops",
        ],
        inputs: &[
            "non-ASCII words",
            "cased words",
            "punctuation",
            "random operations",
        ],
    },
    Clause {
        id: "query terms = tokens",
        says: "split on the declared separators, punctuation kept",
        rules: &["punctuation.query", "query.multi_word", "query.blank"],
        inputs: &["punctuation", "separators", "blank queries"],
    },
    Clause {
        id: "query terms = words",
        says: "cut like stored text, non-ASCII terms as substrings where declared",
        rules: &["punctuation.query", "query.non_ascii", "model.random_ops"],
        inputs: &["punctuation", "non-ASCII words"],
    },
    Clause {
        id: "query terms = phrases",
        says: "each token a phrase of words (FTS5 quoting)",
        rules: &["punctuation.query", "query.multi_word", "model.random_ops"],
        inputs: &["punctuation", "separators"],
    },
    Clause {
        id: "query terms = word runs",
        says: "each run of word characters and `%` a phrase of words, no operators (ADK Python's `[\\w%]+`)",
        rules: &[
            "punctuation.query",
            "query.non_ascii",
            "query.multi_word",
            "model.random_ops",
        ],
        inputs: &["punctuation", "separators", "non-ASCII words"],
    },
    Clause {
        id: "multi-word = any word",
        says: "one matching term is enough",
        rules: &["query.multi_word"],
        inputs: &["separators"],
    },
    Clause {
        id: "multi-word = all words",
        says: "every term must match",
        rules: &["query.multi_word"],
        inputs: &["separators"],
    },
    Clause {
        id: "tool data = not indexed",
        says: "words only in calls and responses are never found",
        rules: &["index.text_only"],
        inputs: &["tool parts"],
    },
    Clause {
        id: "tool data = indexed",
        says: "string values of calls and responses are searched like text",
        rules: &["index.text_only"],
        inputs: &["tool parts"],
    },
    Clause {
        id: "limit = unlimited",
        says: "every match comes back",
        rules: &["result.limit"],
        inputs: &["many matches"],
    },
    Clause {
        id: "limit = at most n",
        says: "at most n entries, the best n where the order ranks",
        rules: &["result.limit", "result.order"],
        inputs: &["many matches", "ranked beyond the limit"],
    },
    Clause {
        id: "order = unordered",
        says: "no order is promised: results are compared as multisets",
        rules: &["model.random_ops"],
        inputs: &["random operations"],
    },
    Clause {
        id: "order = insertion",
        says: "sessions by first add (integer-like ids first where declared), events in order",
        rules: &["result.order"],
        inputs: &["re-adds"],
    },
    Clause {
        id: "order = matched terms",
        says: "most distinct query terms matched first, then insertion",
        rules: &["result.order"],
        inputs: &["ranked beyond the limit"],
    },
    Clause {
        id: "order = relevance",
        says: "a score the kit cannot compute: checked where relevance is unambiguous",
        rules: &["result.order"],
        inputs: &["ranked beyond the limit"],
    },
    Clause {
        id: "timestamps = RFC 3339 UTC",
        says: "the contract: RFC 3339 UTC, milliseconds, Z, sub-millisecond time cut",
        rules: &["result.fidelity"],
        inputs: &["timestamps"],
    },
    Clause {
        id: "timestamps = naive isoformat",
        says: "Python's naive isoformat of the instant, microseconds when not zero (a stated departure from R6.entries; the rest of result.fidelity still holds)",
        rules: &["result.fidelity"],
        inputs: &["timestamps", "multi-part contents", "authors"],
    },
    Clause {
        id: "strings = any",
        says: "the contract: any string, U+0000 included, is stored and looked up",
        rules: &[
            "key.isolation",
            "key.no_separator_collision",
            "model.random_ops",
        ],
        inputs: &["odd key strings"],
    },
    Clause {
        id: "strings = without NUL",
        says: "a call carrying U+0000 may fail with an error, never panic or hang, which ends the case (a stated departure from R7.any-string); every other case runs as usual",
        rules: &[
            "key.isolation",
            "key.no_separator_collision",
            "model.random_ops",
        ],
        inputs: &["odd key strings"],
    },
    Clause {
        id: "visibility = immediate",
        says: "every write is visible to the next search",
        rules: &["model.random_ops", "key.isolation"],
        inputs: &["random operations"],
    },
    Clause {
        id: "visibility = within a bound",
        says: "rules wait for a write up to the bound and wait it out before checking absence; later or never fails",
        rules: &[
            "model.random_ops",
            "key.isolation",
            "replace.readd_replaces",
        ],
        inputs: &["delayed writes", "random operations"],
    },
    Clause {
        id: "capabilities.durable",
        says: "memories survive a reopen of the storage",
        rules: &["durability.reopen"],
        inputs: &["reopen", "re-adds"],
    },
    Clause {
        id: "capabilities.shared",
        says: "instances on one storage see each other's writes, also three behind a round-robin load balancer under concurrent writes",
        rules: &["scope.shared", "scope.replicas"],
        inputs: &["second instance", "replicas"],
    },
    Clause {
        id: "capabilities.events_delta = append new ids",
        says: "a delta appends events whose id the session does not hold, keeping stored versions",
        rules: &["delta.as_declared", "model.random_ops"],
        inputs: &["event deltas"],
    },
    Clause {
        id: "capabilities.events_delta = upsert by event id",
        says: "a delta writes each event with text over the stored one with its id, or after",
        rules: &["delta.as_declared", "model.random_ops"],
        inputs: &["event deltas"],
    },
    Clause {
        id: "capabilities.explicit_memories",
        says: "add_memory stores searchable memories",
        rules: &["memories.searchable", "model.random_ops"],
        inputs: &["explicit memories"],
    },
    Clause {
        id: "capabilities.delete",
        says: "delete_memory forgets a memory by its id, for good and under its key only",
        rules: &["forget.never_returned", "forget.other_keys_untouched"],
        inputs: &["deletions"],
    },
    Clause {
        id: "capabilities.entry_ids",
        says: "entries carry stable, distinct ids",
        rules: &["result.entry_ids"],
        inputs: &["many matches"],
    },
    Clause {
        id: "capabilities.search_limit",
        says: "a search takes a result limit",
        rules: &["result.limit_option"],
        inputs: &["limited searches"],
    },
];

/// The name of every value every profile dimension can take, as the map names them. The
/// matches are exhaustive, so a new value does not compile until it is named here.
pub(crate) fn dimension_value_names() -> Vec<String> {
    let retrieval = |r: Retrieval| match r {
        Retrieval::Lexical => "retrieval = lexical",
        Retrieval::Vector(vector) => match vector.index {
            crate::profile::VectorIndex::Exact => "retrieval = vector, exact index",
            crate::profile::VectorIndex::Approximate { .. } => {
                "retrieval = vector, approximate index"
            }
        },
        Retrieval::Semantic => "retrieval = semantic",
    };
    let key = |k: KeyScheme| match k {
        KeyScheme::Structured => "key = structured",
        KeyScheme::JoinedWithSlash => "key = joined with \"/\"",
    };
    let readd = |r: Readd| match r {
        Readd::Replace => "readd = replace",
        Readd::Append => "readd = append",
        Readd::ReplaceUnlessNoText => "readd = replace unless no text",
        Readd::UpsertByEventId => "readd = upsert by event id",
    };
    let words = |w: WordRule| match w {
        WordRule::AsciiLetters => "event words = ASCII letters",
        WordRule::UnicodeSegmentation => "event words = Unicode segmentation",
        WordRule::UnicodeWords { .. } => "event words = Unicode words",
        WordRule::Whitespace { .. } => "event words = whitespace",
        WordRule::FullText {
            script_runs: true, ..
        } => "event words = full text, script runs first",
        WordRule::FullText { .. } => "event words = full text",
        WordRule::Custom(_) => "event words = the backend's own function",
    };
    let terms = |q: QueryTerms| match q {
        QueryTerms::Tokens { .. } => "query terms = tokens",
        QueryTerms::Words { .. } => "query terms = words",
        QueryTerms::Phrases { .. } => "query terms = phrases",
        QueryTerms::WordRuns => "query terms = word runs",
    };
    let multi = |m: MultiWord| match m {
        MultiWord::AnyWord => "multi-word = any word",
        MultiWord::AllWords => "multi-word = all words",
    };
    let tools = |t: ToolData| match t {
        ToolData::NotIndexed => "tool data = not indexed",
        ToolData::Indexed => "tool data = indexed",
    };
    let limit = |l: Limit| match l {
        Limit::Unlimited => "limit = unlimited",
        Limit::AtMost(_) => "limit = at most n",
    };
    let order = |o: Order| match o {
        Order::Unordered => "order = unordered",
        Order::Insertion { .. } => "order = insertion",
        Order::MatchedTerms => "order = matched terms",
        Order::Relevance => "order = relevance",
    };
    let timestamps = |t: Timestamps| match t {
        Timestamps::Rfc3339Utc => "timestamps = RFC 3339 UTC",
        Timestamps::NaiveIsoformat => "timestamps = naive isoformat",
    };
    let strings = |s: Strings| match s {
        Strings::Any => "strings = any",
        Strings::WithoutNul => "strings = without NUL",
    };
    let visibility = |v: Visibility| match v {
        Visibility::Immediate => "visibility = immediate",
        Visibility::Within { .. } => "visibility = within a bound",
    };
    let delta = |d: EventsDelta| match d {
        EventsDelta::AppendNewIds => "capabilities.events_delta = append new ids",
        EventsDelta::UpsertByEventId => "capabilities.events_delta = upsert by event id",
    };
    let separators = Separators::AsciiWhitespace;
    let mut names: Vec<&str> = Vec::new();
    names.extend(
        [
            Retrieval::Lexical,
            Retrieval::Vector(crate::profile::VectorSearch::exact("hashed-256")),
            Retrieval::Vector(crate::profile::VectorSearch::approximate("hashed-256", 90)),
            Retrieval::Semantic,
        ]
        .map(retrieval),
    );
    names.extend([KeyScheme::Structured, KeyScheme::JoinedWithSlash].map(key));
    names.extend(
        [
            Readd::Replace,
            Readd::Append,
            Readd::ReplaceUnlessNoText,
            Readd::UpsertByEventId,
        ]
        .map(readd),
    );
    names.extend(
        [
            WordRule::AsciiLetters,
            WordRule::UnicodeWords { script_runs: false },
            WordRule::Whitespace {
                separators,
                cjk_ngrams: false,
            },
            WordRule::FullText {
                remove_diacritics: crate::profile::RemoveDiacritics::All,
                script_runs: false,
            },
            WordRule::UnicodeSegmentation,
            WordRule::FullText {
                remove_diacritics: crate::profile::RemoveDiacritics::All,
                script_runs: true,
            },
            WordRule::Custom(crate::profile::CustomWords::new("words", |_| Vec::new())),
        ]
        .map(words),
    );
    names.extend(
        [
            QueryTerms::Tokens { separators },
            QueryTerms::Words {
                non_ascii_substring: false,
            },
            QueryTerms::Phrases { separators },
            QueryTerms::WordRuns,
        ]
        .map(terms),
    );
    names.extend([MultiWord::AnyWord, MultiWord::AllWords].map(multi));
    names.extend([ToolData::NotIndexed, ToolData::Indexed].map(tools));
    names.extend([Limit::Unlimited, Limit::AtMost(10)].map(limit));
    names.extend(
        [
            Order::Unordered,
            Order::Insertion {
                integer_ids_first: false,
            },
            Order::MatchedTerms,
            Order::Relevance,
        ]
        .map(order),
    );
    names.extend([Timestamps::Rfc3339Utc, Timestamps::NaiveIsoformat].map(timestamps));
    names.extend([Strings::Any, Strings::WithoutNul].map(strings));
    names.extend([Visibility::Immediate, Visibility::Within { millis: 1 }].map(visibility));
    names.extend(["capabilities.durable", "capabilities.shared"]);
    names.extend([EventsDelta::AppendNewIds, EventsDelta::UpsertByEventId].map(delta));
    names.extend([
        "capabilities.explicit_memories",
        "capabilities.delete",
        "capabilities.entry_ids",
        "capabilities.search_limit",
    ]);
    names.into_iter().map(str::to_owned).collect()
}

/// The map as Markdown: `docs/clause-map.md`.
pub(crate) fn markdown() -> String {
    let mut out = String::from(
        "# The clause map\n\n\
         Every clause of [the reference's behaviour](reference-behaviour.md) and every value a \
         profile dimension can take, with the rules that check it and the generated inputs that \
         reach it. Generated from `src/conformance/clause_map.rs`; a test fails when a clause, a \
         value or a rule has nothing, or when this page differs from the data.\n",
    );
    let table = |out: &mut String, title: &str, clauses: &[Clause]| {
        let _ = write!(
            out,
            "\n## {title}\n\n| clause | says | rules | inputs |\n|---|---|---|---|\n"
        );
        for clause in clauses {
            let rules: Vec<String> = clause.rules.iter().map(|r| format!("`{r}`")).collect();
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} |",
                clause.id.replace('|', "\\|"),
                clause.says.replace('|', "\\|"),
                rules.join(", "),
                clause.inputs.join(", ")
            );
        }
    };
    table(&mut out, "The specification, R1 to R9", SPECIFICATION);
    table(&mut out, "Profile dimension values", DIMENSION_VALUES);
    let _ = write!(
        out,
        "\n## The generated inputs\n\n| input | what it holds |\n|---|---|\n"
    );
    for (name, holds) in INPUTS {
        let _ = writeln!(out, "| {name} | {} |", holds.replace('|', "\\|"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance::rules;

    #[test]
    fn every_clause_and_dimension_value_has_rules_and_inputs_that_exist() {
        for clause in SPECIFICATION.iter().chain(DIMENSION_VALUES) {
            assert!(!clause.rules.is_empty(), "{} has no rule", clause.id);
            assert!(!clause.inputs.is_empty(), "{} has no input", clause.id);
            for rule in clause.rules {
                assert!(rules::find(rule).is_some(), "{}: no rule {rule}", clause.id);
            }
            for input in clause.inputs {
                assert!(
                    INPUTS.iter().any(|(name, _)| name == input),
                    "{}: no input {input}",
                    clause.id
                );
            }
        }
    }

    #[test]
    fn every_clause_of_the_specification_is_mapped() {
        let spec = include_str!("../../docs/reference-behaviour.md");
        for n in 1..=9 {
            let heading = format!("## R{n} ");
            assert!(
                spec.contains(&heading),
                "the specification has no {heading}"
            );
            let prefix = format!("R{n}.");
            assert!(
                SPECIFICATION.iter().any(|c| c.id.starts_with(&prefix)),
                "R{n} has no clause in the map"
            );
        }
    }

    #[test]
    fn every_dimension_value_is_mapped_and_nothing_else() {
        let mapped: Vec<&str> = DIMENSION_VALUES.iter().map(|c| c.id).collect();
        let values = dimension_value_names();
        assert_eq!(mapped, values);
    }

    #[test]
    fn every_rule_and_every_input_is_in_the_map() {
        let clauses: Vec<&Clause> = SPECIFICATION.iter().chain(DIMENSION_VALUES).collect();
        for rule in rules::catalogue() {
            assert!(
                clauses.iter().any(|c| c.rules.contains(&rule.id())),
                "{} checks no clause of the map",
                rule.id()
            );
        }
        for (input, _) in INPUTS {
            assert!(
                clauses.iter().any(|c| c.inputs.contains(input)),
                "{input} reaches no clause of the map"
            );
        }
    }

    #[test]
    fn the_docs_render_the_map() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/clause-map.md");
        let rendered = markdown();
        if std::env::var_os("MEMORY_CONFORMANCE_WRITE_DOCS").is_some() {
            std::fs::write(path, &rendered).unwrap();
        }
        let committed = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            committed == rendered,
            "docs/clause-map.md differs from src/conformance/clause_map.rs: regenerate it with \
             `MEMORY_CONFORMANCE_WRITE_DOCS=1 cargo test -p memory-conformance --lib clause_map`"
        );
    }
}
