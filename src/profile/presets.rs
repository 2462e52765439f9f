//! Profiles of the reference and of the ADK memory services, each verified as its provenance
//! says.

use super::{
    BlankEvents, BlankQuery, Capabilities, CaseMapping, DroppedWords, Duplicates, EventIds,
    EventsDelta, KeyScheme, Limit, MultiWord, Order, Profile, QueryTerms, Readd, RemoveDiacritics,
    Retrieval, Separators, Stemming, Strings, Timestamps, ToolData, Visibility, WordRule,
};

/// Every preset, by the name `extends` takes: `reference`, `adk-java`, `adk-python`,
/// `adk-python-sqlite`, `adk-js`, `adk-go`, `adk-rust-in-memory`, `adk-rust-sqlite`.
pub fn presets() -> Vec<Profile> {
    vec![
        Profile::reference(),
        Profile::adk_java(),
        Profile::adk_python(),
        Profile::adk_python_sqlite(),
        Profile::adk_js(),
        Profile::adk_go(),
        Profile::adk_rust_in_memory(),
        Profile::adk_rust_sqlite(),
    ]
}

impl Profile {
    /// The kit's [`InMemoryMemoryService`](crate::InMemoryMemoryService), exactly: structured
    /// keys, replace on re-add, `[A-Za-z]+` words, query split on ASCII whitespace with
    /// punctuation kept, any word, text only, no limit, insertion order, writes visible at
    /// once; beyond the two calls, a delta appends events with new ids, explicit memories,
    /// delete by id (entries carry their event's id) and a search limit.
    ///
    /// A profile for another backend that starts from it and implements only the two calls
    /// sets `capabilities` to [`Capabilities::default()`], which claims nothing beyond them.
    pub fn reference() -> Self {
        Self {
            name: "reference".into(),
            provenance: "memory-conformance InMemoryMemoryService (docs/reference-behaviour.md)"
                .into(),
            retrieval: Retrieval::Lexical,
            key: KeyScheme::Structured,
            readd: Readd::Replace,
            event_words: WordRule::AsciiLetters,
            query_terms: QueryTerms::Tokens {
                separators: Separators::AsciiWhitespace,
            },
            case_mapping: CaseMapping::Full,
            dropped_words: DroppedWords::none(),
            stemming: Stemming::None,
            multi_word: MultiWord::AnyWord,
            tool_data: ToolData::NotIndexed,
            limit: Limit::Unlimited,
            order: Order::Insertion {
                integer_ids_first: false,
            },
            timestamps: Timestamps::Rfc3339Utc,
            strings: Strings::Any,
            blank_query: BlankQuery::Nothing,
            duplicates: Duplicates::Kept,
            event_ids: EventIds::PerSession,
            blank_events: BlankEvents::NeverReturned,
            visibility: Visibility::Immediate,
            capabilities: Capabilities {
                events_delta: Some(EventsDelta::AppendNewIds),
                explicit_memories: true,
                delete: true,
                entry_ids: true,
                search_limit: true,
                ..Capabilities::default()
            },
        }
    }

    /// ADK Python's `InMemoryMemoryService`, verified by running `google-adk` 2.13.0 through
    /// the process bridge (`cargo test -p memory-conformance-bridges`; every rule also held at
    /// 2048 cases): structured key, replace on re-add, NFC Unicode `\w+` words (mixed-script
    /// words also split into single-script runs), the query cut the same way with non-ASCII
    /// query words also matched as substrings of the text, any word, text parts only, at most
    /// 10 entries ranked by the number of query words matched (ties in insertion order), and
    /// timestamps written as naive local time ([`Timestamps::NaiveIsoformat`], a departure
    /// from the contract that the profile states).
    pub fn adk_python() -> Self {
        Self {
            name: "adk-python".into(),
            provenance: "google-adk 2.13.0 (PyPI), run through the process bridge".into(),
            event_words: WordRule::UnicodeWords { script_runs: true },
            query_terms: QueryTerms::Words {
                non_ascii_substring: true,
            },
            limit: Limit::AtMost(10),
            order: Order::MatchedTerms,
            timestamps: Timestamps::NaiveIsoformat,
            capabilities: Capabilities {
                events_delta: Some(EventsDelta::AppendNewIds),
                delete: true,
                entry_ids: true,
                ..Capabilities::default()
            },
            ..Self::reference()
        }
    }

    /// ADK Python's `SqliteMemoryService` (the private module `google.adk.memory._sqlite_memory_service`
    /// that ships in google-adk 2.13.0) on a database file, verified by running it through the
    /// process bridge (`cargo test -p memory-conformance-bridges`, protocol v2 for the reopen
    /// and the second instance): durable and shared, structured key, a re-add
    /// upserts by event id and skips events without text (which implies known violations of
    /// both replace rules), text in NFC cut into Latin and non-Latin runs before FTS5
    /// `unicode61` (`remove_diacritics 1`), each query run of `[\w%]` an FTS5 phrase, any word,
    /// text parts only, at most 50 entries in bm25 order, and timestamps written as naive local
    /// time ([`Timestamps::NaiveIsoformat`]). Text and query runs are cut into script runs
    /// before Python's `str.lower` (the full case mapping) lowercases them, so `İ` stays in its
    /// word as `i` and U+0307, whose dot FTS5 then removes, as it folds a final sigma to `σ`.
    pub fn adk_python_sqlite() -> Self {
        Self {
            name: "adk-python-sqlite".into(),
            provenance: "google-adk 2.13.0 (PyPI) SqliteMemoryService on a database file, run through the process bridge".into(),
            readd: Readd::UpsertByEventId,
            event_words: WordRule::FullText {
                remove_diacritics: RemoveDiacritics::Single,
                script_runs: true,
            },
            query_terms: QueryTerms::WordRuns,
            limit: Limit::AtMost(50),
            order: Order::Relevance,
            timestamps: Timestamps::NaiveIsoformat,
            capabilities: Capabilities {
                durable: true,
                shared: true,
                events_delta: Some(EventsDelta::UpsertByEventId),
                entry_ids: true,
                ..Capabilities::default()
            },
            ..Self::reference()
        }
    }

    /// ADK JS's `InMemoryMemoryService`, verified by running `@google/adk` 2.0.0 through the
    /// process bridge (`cargo test -p memory-conformance-bridges`; every rule also held at 2048
    /// cases): the key is the string `app/user` (its gate declares
    /// `key.no_separator_collision` a known violation), replace on re-add, `[A-Za-z]+` words,
    /// the query lowercased and split on Unicode whitespace with punctuation kept, any word,
    /// text parts only, no limit, sessions in insertion order except that integer-like session
    /// ids come first (JavaScript object key order).
    pub fn adk_js() -> Self {
        Self {
            name: "adk-js".into(),
            provenance: "@google/adk 2.0.0 (npm), run through the process bridge".into(),
            key: KeyScheme::JoinedWithSlash,
            query_terms: QueryTerms::Tokens {
                separators: Separators::JavaScriptWhitespace,
            },
            order: Order::Insertion {
                integer_ids_first: true,
            },
            capabilities: Capabilities::default(),
            ..Self::reference()
        }
    }

    /// ADK-Rust's `adk_memory::InMemoryMemoryService`, verified against adk-memory 2.3.0 by
    /// running its gate: words split on Unicode whitespace with punctuation kept and CJK 1- and
    /// 2-grams (query cut the same way), any word, at most 10 entries cut in hash-map order
    /// (which differs per process), and a re-add with no words is ignored.
    pub fn adk_rust_in_memory() -> Self {
        Self {
            name: "adk-rust-in-memory".into(),
            provenance:
                "adk-memory 2.3.0 (crates.io) InMemoryMemoryService, run through the adapter".into(),
            readd: Readd::ReplaceUnlessNoText,
            event_words: WordRule::Whitespace {
                separators: Separators::UnicodeWhitespace,
                cjk_ngrams: true,
            },
            query_terms: QueryTerms::Words {
                non_ascii_substring: false,
            },
            limit: Limit::AtMost(10),
            order: Order::Unordered,
            capabilities: Capabilities {
                search_limit: true,
                ..Capabilities::default()
            },
            ..Self::reference()
        }
    }

    /// ADK-Rust's `adk_memory::SqliteMemoryService` (feature `sqlite-memory`), verified
    /// against adk-memory 2.3.0 by running its gate: FTS5 `unicode61` words with its default
    /// `remove_diacritics 1` (so `ǘ`, `ệ` and non-Latin letters such as `ό`, `й` keep their
    /// accents), each query token an FTS5 phrase and all of them required (a token FTS5 finds
    /// no word in, such as `Ⓐ`, is ignored), bm25 order, at most 10 entries, and a re-add
    /// appends. On a file it is durable and shared between instances.
    pub fn adk_rust_sqlite() -> Self {
        Self {
            name: "adk-rust-sqlite".into(),
            provenance: "adk-memory 2.3.0 (crates.io) SqliteMemoryService, run through the adapter"
                .into(),
            readd: Readd::Append,
            event_words: WordRule::FullText {
                remove_diacritics: RemoveDiacritics::Single,
                script_runs: false,
            },
            query_terms: QueryTerms::Phrases {
                separators: Separators::UnicodeWhitespace,
            },
            multi_word: MultiWord::AllWords,
            limit: Limit::AtMost(10),
            order: Order::Relevance,
            capabilities: Capabilities {
                durable: true,
                shared: true,
                search_limit: true,
                ..Capabilities::default()
            },
            ..Self::reference()
        }
    }

    /// ADK Java's `InMemoryMemoryService`, verified by running `com.google.adk:google-adk`
    /// 1.8.0 (Maven Central) through the process bridge (`cargo test -p
    /// memory-conformance-bridges --test conformance_adk_java`), which confirmed every
    /// dimension first documented from its source (`InMemoryMemoryService.java` of
    /// google/adk-java at 5269b87): the key is the string `appName + "/" + userId` (its gate
    /// declares `key.no_separator_collision` a known violation); a re-add replaces (`put`, also
    /// with no events); events without parts are dropped; words are `[A-Za-z]+`, lowercased;
    /// the query is `toLowerCase(Locale.ROOT).split("\\s+")`, so it splits on ASCII whitespace
    /// and keeps punctuation; any word; text parts only; no limit; results in
    /// `ConcurrentHashMap` order, promised as no order; entries carry no id, and the service
    /// has only the two calls.
    ///
    /// Two defects of 1.8.0 that no profile dimension holds, which its gate declares as known
    /// violations: an entry's timestamp is `Instant.ofEpochSecond` of the event's epoch
    /// milliseconds (`result.fidelity`: 2026 comes back as the year 57971), and a search calls
    /// `part.text().get()` on every part, so one stored tool call or inline data makes every
    /// later search of that user throw (`index.text_only` and the four rules that store such a
    /// part first). With those parts left out, every rule holds against this profile. Other
    /// revisions of the file (as at commit 4189a8c) use `Instant.ofEpochMilli`, cut NFC
    /// Unicode `\w+` words with single-script runs and match non-ASCII query words as
    /// substrings, with no limit and the same key and order: this profile does not describe
    /// them.
    pub fn adk_java() -> Self {
        Self {
            name: "adk-java".into(),
            provenance: "google-adk 1.8.0 (Maven Central), run through the process bridge".into(),
            key: KeyScheme::JoinedWithSlash,
            order: Order::Unordered,
            capabilities: Capabilities::default(),
            ..Self::reference()
        }
    }

    /// ADK Go's in-memory memory service (`memory.InMemoryService`), verified by running
    /// `google.golang.org/adk/v2` v2.2.0 (the Go module proxy; its `memory/inmemory.go` is the
    /// one of v1.6.0) through the process bridge (`cargo test -p memory-conformance-bridges
    /// --test conformance_adk_go`), which confirmed every dimension first documented from its
    /// source (`memory/inmemory.go` of google/adk-go at a19680b) and found one more: entries
    /// carry their event's id. The key is a struct of app name and user id; a re-add replaces
    /// (also with no events); the words of each text part, and the query's, are
    /// `strings.SplitSeq(text, " ")` lowercased, so only the space character separates and
    /// punctuation, tabs and newlines stay inside words; any word; text parts only; no limit;
    /// results in Go map iteration order, which differs from call to call; the service has
    /// only the two calls. Entries carry a `time.Time`, not a string (the bridge writes it as
    /// RFC 3339 in UTC with milliseconds). Go lowercases rune by rune with Unicode's simple case
    /// mapping: a final `Σ` becomes `σ` and `İ` a plain `i`.
    ///
    /// Other revisions of the file (as at commit 0c09321, not in v2.2.0) rank entries by the
    /// number of distinct query words matched and keep at most 10 in session insertion order,
    /// cut words on Unicode letters, digits and `_` without NFC, and match non-ASCII query
    /// words as substrings of the lowercased text: this profile does not describe them.
    pub fn adk_go() -> Self {
        Self {
            name: "adk-go".into(),
            provenance:
                "google.golang.org/adk/v2 v2.2.0 (Go module proxy), run through the process bridge"
                    .into(),
            event_words: WordRule::Whitespace {
                separators: Separators::Space,
                cjk_ngrams: false,
            },
            query_terms: QueryTerms::Tokens {
                separators: Separators::Space,
            },
            case_mapping: CaseMapping::Simple,
            order: Order::Unordered,
            capabilities: Capabilities {
                entry_ids: true,
                ..Capabilities::default()
            },
            ..Self::reference()
        }
    }
}
