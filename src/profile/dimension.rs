//! The profile's dimensions as one table: for each dimension, its key in a profile file, its
//! row in the profile table, the rules that decide it; for each of its values, the value's name,
//! what it says, the rules that check a backend declaring it, the generated inputs that reach
//! it, the required rules it implies cannot hold, and its text in the profile table.
//!
//! Everything that names a dimension or a value reads it here: the file format (the keys), the
//! profile table (`table.rs`), the implied known violations
//! ([`implied_violations`](crate::conformance::implied_violations)), the clause map
//! (`docs/clause-map.md`) and `infer`. A value's name in a file is its type's serde name; the
//! name here is the one prose uses (`readd = append`). A rule named here that is not in the
//! catalogue fails the clause map's test.

use super::{
    Capabilities, CustomWords, EventsDelta, KeyScheme, Limit, MultiWord, Order, Profile,
    QueryTerms, Readd, RemoveDiacritics, Retrieval, Separators, Strings, Timestamps, ToolData,
    VectorIndex, VectorSearch, Visibility, WordRule,
};

/// One value of a dimension, as the kit documents and checks it.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct ValueEntry {
    /// The value's name in prose (`append`); empty for a capability, which is named by its key.
    pub(crate) value: &'static str,
    /// What a backend declaring it does, in one line.
    pub(crate) says: &'static str,
    /// The ids of the rules that check a backend declaring it.
    pub(crate) rules: &'static [&'static str],
    /// The names of the generated inputs that reach it (the clause map's inputs).
    pub(crate) inputs: &'static [&'static str],
    /// The required rules it says cannot hold: (rule id, why).
    pub(crate) implies: &'static [(&'static str, &'static str)],
}

/// A dimension of a [`Profile`]: a field whose value is one of a few kinds.
#[cfg_attr(not(feature = "harness"), allow(dead_code))]
pub(crate) trait Dimension: Clone + Sized + 'static {
    /// The dimension's name (`readd`): its key in a profile file (but `visibility`, which a
    /// file writes as `visible_within_ms`), and its name in `infer`'s notes, the clause map
    /// and the implied known violations.
    const KEY: &'static str;
    /// Its row in the profile table (`re-add`).
    const LABEL: &'static str;
    /// The rules `infer` runs to decide it.
    const DECIDED_BY: &'static [&'static str];
    /// One value of each kind, most specific first (the order `infer` tries them in).
    fn values() -> Vec<Self>;
    /// The value `profile` declares.
    fn of(profile: &Profile) -> Self;
    /// `profile` with this value.
    fn set(self, profile: &mut Profile);
    /// The value's entry; `None` where it claims nothing (a capability not claimed).
    fn entry(&self) -> Option<&'static ValueEntry>;
    /// The value in the profile table.
    fn text(&self) -> String;
}

/// [`Dimension::of`] and [`Dimension::set`] of the dimension that is the profile's `$field`.
macro_rules! field {
    ($($field:ident).+) => {
        fn of(profile: &Profile) -> Self {
            profile.$($field).+.clone()
        }

        fn set(self, profile: &mut Profile) {
            profile.$($field).+ = self;
        }
    };
}

/// `KEY = value` (`readd = append`), or the key alone for a capability.
pub(crate) fn value_id(key: &str, entry: &ValueEntry) -> String {
    if entry.value.is_empty() {
        key.to_owned()
    } else {
        format!("{key} = {}", entry.value)
    }
}

/// The entry of the value a profile declares, if it claims one.
pub(crate) type EntryOf = Box<dyn Fn(&Profile) -> Option<&'static ValueEntry>>;

/// One row of the table, whatever its dimension's type.
#[cfg_attr(not(feature = "harness"), allow(dead_code))]
pub(crate) struct Row {
    /// The dimension's key (`readd`).
    pub(crate) key: &'static str,
    /// The row's label in the profile table (`re-add`).
    pub(crate) label: &'static str,
    /// The rules `infer` runs to decide it (read by the clause map's test).
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) decided_by: &'static [&'static str],
    /// The value's text in the profile table.
    pub(crate) text: Box<dyn Fn(&Profile) -> String>,
    /// The entry of the value a profile declares, if it claims one.
    pub(crate) entry: EntryOf,
    /// The entry of each kind of value, in order (the clause map's).
    #[cfg_attr(not(test), allow(dead_code))]
    pub(crate) values: Vec<&'static ValueEntry>,
}

impl Row {
    fn of<D: Dimension>() -> Self {
        let mut values: Vec<&'static ValueEntry> = Vec::new();
        for entry in D::values().iter().filter_map(D::entry) {
            if !values.contains(&entry) {
                values.push(entry);
            }
        }
        Self {
            key: D::KEY,
            label: D::LABEL,
            decided_by: D::DECIDED_BY,
            text: Box::new(|profile| D::of(profile).text()),
            entry: Box::new(|profile| D::of(profile).entry()),
            values,
        }
    }

    fn capability(capability: &'static Capability) -> Self {
        Self {
            key: capability.key,
            label: capability.label,
            decided_by: capability.decided_by,
            text: Box::new(|profile| yes_no((capability.claimed)(&profile.capabilities)).into()),
            entry: Box::new(|profile| {
                (capability.claimed)(&profile.capabilities).then_some(&capability.entry)
            }),
            values: vec![&capability.entry],
        }
    }
}

/// The table: every dimension of a profile, in the profile table's order.
pub(crate) fn table() -> Vec<Row> {
    let [
        durable,
        shared,
        explicit_memories,
        entry_ids,
        delete,
        search_limit,
    ] = &CAPABILITIES;
    vec![
        Row::of::<Retrieval>(),
        Row::of::<KeyScheme>(),
        Row::of::<Readd>(),
        Row::of::<WordRule>(),
        Row::of::<QueryTerms>(),
        Row::of::<MultiWord>(),
        Row::of::<ToolData>(),
        Row::of::<Limit>(),
        Row::of::<Order>(),
        Row::of::<Timestamps>(),
        Row::of::<Strings>(),
        Row::of::<Visibility>(),
        Row::capability(durable),
        Row::capability(shared),
        Row::of::<Option<EventsDelta>>(),
        Row::capability(explicit_memories),
        Row::capability(entry_ids),
        Row::capability(delete),
        Row::capability(search_limit),
    ]
}

/// A capability a profile claims or not: a call beyond the two, or a property of the storage.
#[cfg_attr(not(feature = "harness"), allow(dead_code))]
pub(crate) struct Capability {
    /// Its key (`capabilities.durable`).
    pub(crate) key: &'static str,
    /// Its row in the profile table.
    pub(crate) label: &'static str,
    /// The rules `infer` runs to decide it.
    pub(crate) decided_by: &'static [&'static str],
    /// Whether capabilities claim it.
    pub(crate) claimed: fn(&Capabilities) -> bool,
    /// Claims it.
    pub(crate) claim: fn(&mut Capabilities),
    /// What a backend claiming it does.
    pub(crate) entry: ValueEntry,
}

/// The capabilities that are claimed or not, in the profile table's order.
pub(crate) const CAPABILITIES: [Capability; 6] = [
    Capability {
        key: "capabilities.durable",
        label: "durable",
        decided_by: &["durability.reopen"],
        claimed: |c| c.durable,
        claim: |c| c.durable = true,
        entry: ValueEntry {
            value: "",
            says: "memories survive a reopen of the storage",
            rules: &["durability.reopen"],
            inputs: &["reopen", "re-adds"],
            implies: &[],
        },
    },
    Capability {
        key: "capabilities.shared",
        label: "shared store",
        decided_by: &["scope.shared", "scope.replicas"],
        claimed: |c| c.shared,
        claim: |c| c.shared = true,
        entry: ValueEntry {
            value: "",
            says: "instances on one storage see each other's writes, also three behind a round-robin load balancer under concurrent writes",
            rules: &["scope.shared", "scope.replicas"],
            inputs: &["second instance", "replicas"],
            implies: &[],
        },
    },
    Capability {
        key: "capabilities.explicit_memories",
        label: "explicit memories",
        decided_by: &["memories.searchable"],
        claimed: |c| c.explicit_memories,
        claim: |c| c.explicit_memories = true,
        entry: ValueEntry {
            value: "",
            says: "add_memory stores searchable memories",
            rules: &["memories.searchable", "model.random_ops"],
            inputs: &["explicit memories"],
            implies: &[],
        },
    },
    Capability {
        key: "capabilities.entry_ids",
        label: "entry ids",
        decided_by: &["result.entry_ids"],
        claimed: |c| c.entry_ids,
        claim: |c| c.entry_ids = true,
        entry: ValueEntry {
            value: "",
            says: "entries carry stable, distinct ids",
            rules: &["result.entry_ids"],
            inputs: &["many matches"],
            implies: &[],
        },
    },
    Capability {
        key: "capabilities.delete",
        label: "delete by id",
        decided_by: &["forget.never_returned"],
        claimed: |c| c.delete,
        claim: |c| c.delete = true,
        entry: ValueEntry {
            value: "",
            says: "delete_memory forgets a memory by its id, for good and under its key only",
            rules: &["forget.never_returned", "forget.other_keys_untouched"],
            inputs: &["deletions"],
            implies: &[],
        },
    },
    Capability {
        key: "capabilities.search_limit",
        label: "search limit",
        decided_by: &["result.limit_option"],
        claimed: |c| c.search_limit,
        claim: |c| c.search_limit = true,
        entry: ValueEntry {
            value: "",
            says: "a search takes a result limit",
            rules: &["result.limit_option"],
            inputs: &["limited searches"],
            implies: &[],
        },
    },
];

fn yes_no(value: bool) -> &'static str {
    if value { "yes" } else { "no" }
}

impl Dimension for Retrieval {
    const KEY: &'static str = "retrieval";
    const LABEL: &'static str = "retrieval";
    /// `infer` does not decide it: a backend is inferred as lexical.
    const DECIDED_BY: &'static [&'static str] = &[];

    fn values() -> Vec<Self> {
        vec![
            Retrieval::Lexical,
            Retrieval::Vector(VectorSearch::exact("hashed-256")),
            Retrieval::Vector(VectorSearch::approximate("hashed-256", 90)),
            Retrieval::Semantic,
        ]
    }

    field!(retrieval);

    fn entry(&self) -> Option<&'static ValueEntry> {
        Some(match self {
            Retrieval::Lexical => &ValueEntry {
                value: "lexical",
                says: "every search has an expected answer: the oracle's",
                rules: &["model.random_ops", "index.text_only", "query.multi_word"],
                inputs: &["random operations"],
                implies: &[],
            },
            Retrieval::Vector(vector) => match vector.index {
                VectorIndex::Exact => &ValueEntry {
                    value: "vector, exact index",
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
                    implies: &[],
                },
                VectorIndex::Approximate { .. } => &ValueEntry {
                    value: "vector, approximate index",
                    says: "nearest first and only stored candidates, at least the declared share of the nearest",
                    rules: &["vector.nearest_first", "model.random_ops"],
                    inputs: &["vector texts", "random operations"],
                    implies: &[],
                },
            },
            Retrieval::Semantic => &ValueEntry {
                value: "semantic",
                says: "held to the contract: nothing from another key or an old version, nothing twice",
                rules: &["key.isolation", "replace.readd_replaces", "result.fidelity"],
                inputs: &["near-miss keys", "re-adds"],
                implies: &[],
            },
        })
    }

    fn text(&self) -> String {
        match self {
            Retrieval::Lexical => "lexical".into(),
            Retrieval::Vector(vector) => match vector.index {
                VectorIndex::Exact => {
                    format!("vector, {} embeddings, exact nearest", vector.embedder)
                }
                VectorIndex::Approximate { min_recall_percent } => format!(
                    "vector, {} embeddings, approximate (at least {min_recall_percent}% of the nearest)",
                    vector.embedder
                ),
            },
            Retrieval::Semantic => "semantic (contract rules only)".into(),
        }
    }
}

impl Dimension for KeyScheme {
    const KEY: &'static str = "key";
    const LABEL: &'static str = "key";
    const DECIDED_BY: &'static [&'static str] = &["key.no_separator_collision", "key.isolation"];

    fn values() -> Vec<Self> {
        vec![KeyScheme::Structured, KeyScheme::JoinedWithSlash]
    }

    field!(key);

    fn entry(&self) -> Option<&'static ValueEntry> {
        Some(match self {
            KeyScheme::Structured => &ValueEntry {
                value: "structured",
                says: "no two pairs share a store",
                rules: &["key.no_separator_collision", "key.isolation"],
                inputs: &["joined keys"],
                implies: &[],
            },
            KeyScheme::JoinedWithSlash => &ValueEntry {
                value: "joined with \"/\"",
                says: "pairs that join to one `app/user` string share a store (an implied violation)",
                rules: &["key.no_separator_collision", "model.random_ops"],
                inputs: &["joined keys", "random operations"],
                implies: &[(
                    "key.no_separator_collision",
                    "(\"a/b\", \"c\") and (\"a\", \"b/c\") join to one string and share one store",
                )],
            },
        })
    }

    fn text(&self) -> String {
        match self {
            KeyScheme::Structured => "(app, user) kept apart, exact",
            KeyScheme::JoinedWithSlash => "string app/user: (a/b, c) collides with (a, b/c)",
        }
        .into()
    }
}

impl Dimension for Readd {
    const KEY: &'static str = "readd";
    const LABEL: &'static str = "re-add";
    const DECIDED_BY: &'static [&'static str] = &[
        "replace.readd_replaces",
        "replace.readd_with_nothing",
        "replace.readd_as_declared",
    ];

    fn values() -> Vec<Self> {
        vec![
            Readd::Replace,
            Readd::ReplaceUnlessNoText,
            Readd::UpsertByEventId,
            Readd::Append,
        ]
    }

    field!(readd);

    fn entry(&self) -> Option<&'static ValueEntry> {
        Some(match self {
            Readd::Replace => &ValueEntry {
                value: "replace",
                says: "a re-add replaces, also with nothing",
                rules: &[
                    "replace.readd_replaces",
                    "replace.readd_with_nothing",
                    "replace.readd_as_declared",
                ],
                inputs: &["re-adds", "re-adds by event id"],
                implies: &[],
            },
            Readd::Append => &ValueEntry {
                value: "append",
                says: "a re-add appends (implied violations of the replace rules)",
                rules: &[
                    "model.random_ops",
                    "durability.reopen",
                    "replace.readd_replaces",
                    "replace.readd_as_declared",
                ],
                inputs: &["re-adds", "random operations", "re-adds by event id"],
                implies: &[
                    (
                        "replace.readd_replaces",
                        "a re-add appends to what the session held, so old words still match and entries come back twice",
                    ),
                    (
                        "replace.readd_with_nothing",
                        "a re-add with no text appends nothing, so the old text stays",
                    ),
                ],
            },
            Readd::ReplaceUnlessNoText => &ValueEntry {
                value: "replace unless no text",
                says: "a re-add without a word is ignored (an implied violation)",
                rules: &[
                    "model.random_ops",
                    "replace.readd_with_nothing",
                    "replace.readd_as_declared",
                ],
                inputs: &["re-adds", "textless events", "re-adds by event id"],
                implies: &[(
                    "replace.readd_with_nothing",
                    "a re-add none of whose events has a word is ignored, so the old text stays",
                )],
            },
            Readd::UpsertByEventId => &ValueEntry {
                value: "upsert by event id",
                says: "each event with text is written over the stored event with its id; events without text are skipped and missing ones stay (implied violations of the replace rules)",
                rules: &[
                    "replace.readd_as_declared",
                    "model.random_ops",
                    "replace.readd_replaces",
                    "replace.readd_with_nothing",
                ],
                inputs: &["re-adds by event id", "re-adds", "random operations"],
                implies: &[
                    (
                        "replace.readd_replaces",
                        "a re-add writes each event by its id, so an event the new version no longer has, or has under another id, still matches",
                    ),
                    (
                        "replace.readd_with_nothing",
                        "events without text are skipped, so the old text stays",
                    ),
                ],
            },
        })
    }

    fn text(&self) -> String {
        match self {
            Readd::Replace => "replace",
            Readd::Append => "append (duplicates)",
            Readd::ReplaceUnlessNoText => "replace, but a re-add with no words is ignored",
            Readd::UpsertByEventId => "upsert by event id (events without text skipped)",
        }
        .into()
    }
}

impl Dimension for WordRule {
    const KEY: &'static str = "event_words";
    const LABEL: &'static str = "event words";
    /// Decided together with the query terms.
    const DECIDED_BY: &'static [&'static str] = &[
        "punctuation.query",
        "punctuation.event",
        "query.digits",
        "query.non_ascii",
        "query.case_insensitive",
    ];

    fn values() -> Vec<Self> {
        vec![
            WordRule::AsciiLetters,
            WordRule::UnicodeWords { script_runs: false },
            WordRule::Whitespace {
                separators: Separators::AsciiWhitespace,
                cjk_ngrams: false,
            },
            WordRule::FullText {
                remove_diacritics: RemoveDiacritics::All,
                script_runs: false,
            },
            WordRule::UnicodeSegmentation,
            WordRule::FullText {
                remove_diacritics: RemoveDiacritics::All,
                script_runs: true,
            },
            WordRule::Custom(CustomWords::new("words", |_| Vec::new())),
        ]
    }

    field!(event_words);

    fn entry(&self) -> Option<&'static ValueEntry> {
        Some(match self {
            WordRule::AsciiLetters => &ValueEntry {
                value: "ASCII letters",
                says: "runs of [A-Za-z]",
                rules: &["punctuation.event", "query.non_ascii", "model.random_ops"],
                inputs: &["punctuation", "non-ASCII words"],
                implies: &[],
            },
            WordRule::UnicodeSegmentation => &ValueEntry {
                value: "Unicode segmentation",
                says: "NFC, then UAX #29 words, lowercased",
                rules: &[
                    "query.non_ascii",
                    "punctuation.event",
                    "query.digits",
                    "model.random_ops",
                ],
                inputs: &["non-ASCII words", "punctuation", "digits"],
                implies: &[],
            },
            WordRule::UnicodeWords { .. } => &ValueEntry {
                value: "Unicode words",
                says: "NFC runs of letters, digits and `_`, with or without script runs",
                rules: &["query.non_ascii", "query.digits", "model.random_ops"],
                inputs: &["non-ASCII words", "digits", "punctuation"],
                implies: &[],
            },
            WordRule::Whitespace { .. } => &ValueEntry {
                value: "whitespace",
                says: "split on separators, punctuation kept, with or without CJK grams",
                rules: &["punctuation.event", "query.non_ascii", "model.random_ops"],
                inputs: &["punctuation", "separators", "non-ASCII words"],
                implies: &[],
            },
            WordRule::FullText {
                script_runs: true, ..
            } => &ValueEntry {
                value: "full text, script runs first",
                says: "NFC, each non-ASCII word cut into Latin and non-Latin runs, then FTS5 unicode61 words",
                rules: &[
                    "query.non_ascii",
                    "query.case_insensitive",
                    "punctuation.event",
                    "model.random_ops",
                ],
                inputs: &["non-ASCII words", "cased words", "punctuation"],
                implies: &[],
            },
            WordRule::FullText { .. } => &ValueEntry {
                value: "full text",
                says: "FTS5 unicode61 words, diacritics removed as declared",
                rules: &[
                    "query.non_ascii",
                    "query.case_insensitive",
                    "model.random_ops",
                ],
                inputs: &["non-ASCII words", "cased words", "digits"],
                implies: &[],
            },
            WordRule::Custom(_) => &ValueEntry {
                value: "the backend's own function",
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
                implies: &[],
            },
        })
    }

    fn text(&self) -> String {
        match *self {
            WordRule::AsciiLetters => "[A-Za-z]+, lowercased".into(),
            WordRule::UnicodeSegmentation => {
                "NFC, Unicode word segmentation (UAX #29) words, lowercased".into()
            }
            WordRule::UnicodeWords { script_runs: false } => "NFC, Unicode \\w+, lowercased".into(),
            WordRule::UnicodeWords { script_runs: true } => {
                "NFC, Unicode \\w+, lowercased; mixed-script words also split by script".into()
            }
            WordRule::Whitespace {
                separators: s,
                cjk_ngrams,
            } => format!(
                "split on {}, punctuation kept, lowercased{}",
                separators(s),
                if cjk_ngrams {
                    "; CJK 1- and 2-grams"
                } else {
                    ""
                }
            ),
            WordRule::FullText {
                remove_diacritics,
                script_runs,
            } => format!(
                "{}letters and digits, case and Latin diacritics folded (FTS5 remove_diacritics {}), \
                 punctuation separates",
                if script_runs {
                    "NFC, words cut into Latin and non-Latin runs, then "
                } else {
                    ""
                },
                remove_diacritics.fts5_option()
            ),
            WordRule::Custom(custom) => {
                format!("the backend's own word function `{}`", custom.name())
            }
        }
    }
}

impl Dimension for QueryTerms {
    const KEY: &'static str = "query_terms";
    const LABEL: &'static str = "query terms";
    /// Decided together with the event words, by their rules.
    const DECIDED_BY: &'static [&'static str] = WordRule::DECIDED_BY;

    fn values() -> Vec<Self> {
        let separators = Separators::AsciiWhitespace;
        vec![
            QueryTerms::Tokens { separators },
            QueryTerms::Words {
                non_ascii_substring: false,
            },
            QueryTerms::Phrases { separators },
            QueryTerms::WordRuns,
        ]
    }

    field!(query_terms);

    fn entry(&self) -> Option<&'static ValueEntry> {
        Some(match self {
            QueryTerms::Tokens { .. } => &ValueEntry {
                value: "tokens",
                says: "split on the declared separators, punctuation kept",
                rules: &["punctuation.query", "query.multi_word", "query.blank"],
                inputs: &["punctuation", "separators", "blank queries"],
                implies: &[],
            },
            QueryTerms::Words { .. } => &ValueEntry {
                value: "words",
                says: "cut like stored text, non-ASCII terms as substrings where declared",
                rules: &["punctuation.query", "query.non_ascii", "model.random_ops"],
                inputs: &["punctuation", "non-ASCII words"],
                implies: &[],
            },
            QueryTerms::Phrases { .. } => &ValueEntry {
                value: "phrases",
                says: "each token a phrase of words (FTS5 quoting)",
                rules: &["punctuation.query", "query.multi_word", "model.random_ops"],
                inputs: &["punctuation", "separators"],
                implies: &[],
            },
            QueryTerms::WordRuns => &ValueEntry {
                value: "word runs",
                says: "each run of word characters and `%` a phrase of words, no operators (ADK Python's `[\\w%]+`)",
                rules: &[
                    "punctuation.query",
                    "query.non_ascii",
                    "query.multi_word",
                    "model.random_ops",
                ],
                inputs: &["punctuation", "separators", "non-ASCII words"],
                implies: &[],
            },
        })
    }

    fn text(&self) -> String {
        match *self {
            QueryTerms::Tokens { separators: s } => {
                format!("lowercased, split on {}, punctuation kept", separators(s))
            }
            QueryTerms::Words {
                non_ascii_substring,
            } => format!(
                "cut like event words{}",
                if non_ascii_substring {
                    "; non-ASCII words also match as substrings"
                } else {
                    ""
                }
            ),
            QueryTerms::Phrases { separators: s } => format!(
                "split on {}, each token a phrase cut like event words",
                separators(s)
            ),
            QueryTerms::WordRuns => {
                "NFC, each run of word characters and % a phrase cut like event words, no operators"
                    .to_owned()
            }
        }
    }
}

/// Separators as the profile table writes them.
fn separators(value: Separators) -> &'static str {
    match value {
        Separators::AsciiWhitespace => "ASCII whitespace",
        Separators::UnicodeWhitespace => "Unicode whitespace",
        Separators::JavaScriptWhitespace => "JavaScript whitespace (\\s)",
        Separators::Space => "the space character only",
    }
}

impl Dimension for MultiWord {
    const KEY: &'static str = "multi_word";
    const LABEL: &'static str = "multi-word query";
    const DECIDED_BY: &'static [&'static str] = &["query.multi_word"];

    fn values() -> Vec<Self> {
        vec![MultiWord::AnyWord, MultiWord::AllWords]
    }

    field!(multi_word);

    fn entry(&self) -> Option<&'static ValueEntry> {
        Some(match self {
            MultiWord::AnyWord => &ValueEntry {
                value: "any word",
                says: "one matching term is enough",
                rules: &["query.multi_word"],
                inputs: &["separators"],
                implies: &[],
            },
            MultiWord::AllWords => &ValueEntry {
                value: "all words",
                says: "every term must match",
                rules: &["query.multi_word"],
                inputs: &["separators"],
                implies: &[],
            },
        })
    }

    fn text(&self) -> String {
        self.entry()
            .map(|entry| entry.value.to_owned())
            .unwrap_or_default()
    }
}

impl Dimension for ToolData {
    const KEY: &'static str = "tool_data";
    const LABEL: &'static str = "tool data";
    const DECIDED_BY: &'static [&'static str] = &["index.text_only"];

    fn values() -> Vec<Self> {
        vec![ToolData::NotIndexed, ToolData::Indexed]
    }

    field!(tool_data);

    fn entry(&self) -> Option<&'static ValueEntry> {
        Some(match self {
            ToolData::NotIndexed => &ValueEntry {
                value: "not indexed",
                says: "words only in calls and responses are never found",
                rules: &["index.text_only"],
                inputs: &["tool parts"],
                implies: &[],
            },
            ToolData::Indexed => &ValueEntry {
                value: "indexed",
                says: "string values of calls and responses are searched like text",
                rules: &["index.text_only"],
                inputs: &["tool parts"],
                implies: &[],
            },
        })
    }

    fn text(&self) -> String {
        match self {
            ToolData::NotIndexed => "not searchable (text parts only)",
            ToolData::Indexed => "searchable (tool names and string values)",
        }
        .into()
    }
}

impl Dimension for Limit {
    const KEY: &'static str = "limit";
    const LABEL: &'static str = "limit";
    const DECIDED_BY: &'static [&'static str] = &["result.limit"];

    fn values() -> Vec<Self> {
        vec![Limit::Unlimited, Limit::AtMost(10)]
    }

    field!(limit);

    fn entry(&self) -> Option<&'static ValueEntry> {
        Some(match self {
            Limit::Unlimited => &ValueEntry {
                value: "unlimited",
                says: "every match comes back",
                rules: &["result.limit"],
                inputs: &["many matches"],
                implies: &[],
            },
            Limit::AtMost(_) => &ValueEntry {
                value: "at most n",
                says: "at most n entries, the best n where the order ranks",
                rules: &["result.limit", "result.order"],
                inputs: &["many matches", "ranked beyond the limit"],
                implies: &[],
            },
        })
    }

    fn text(&self) -> String {
        match self {
            Limit::Unlimited => "none".into(),
            Limit::AtMost(n) => format!("at most {n}"),
        }
    }
}

impl Dimension for Order {
    const KEY: &'static str = "order";
    const LABEL: &'static str = "order";
    const DECIDED_BY: &'static [&'static str] = &["result.order", "model.random_ops"];

    fn values() -> Vec<Self> {
        vec![
            Order::Insertion {
                integer_ids_first: false,
            },
            Order::Insertion {
                integer_ids_first: true,
            },
            Order::MatchedTerms,
            Order::Relevance,
            Order::Unordered,
        ]
    }

    field!(order);

    fn entry(&self) -> Option<&'static ValueEntry> {
        Some(match self {
            Order::Unordered => &ValueEntry {
                value: "unordered",
                says: "no order is promised: results are compared as multisets",
                rules: &["model.random_ops"],
                inputs: &["random operations"],
                implies: &[],
            },
            Order::Insertion {
                integer_ids_first: false,
            } => &ValueEntry {
                value: "insertion",
                says: "sessions by first add, events in order",
                rules: &["result.order"],
                inputs: &["re-adds"],
                implies: &[],
            },
            Order::Insertion {
                integer_ids_first: true,
            } => &ValueEntry {
                value: "insertion, integer ids first",
                says: "sessions whose id is an array index (`2`, `10`) first, in numeric order, then by first add; events in order",
                rules: &["result.order"],
                inputs: &["re-adds"],
                implies: &[],
            },
            Order::MatchedTerms => &ValueEntry {
                value: "matched terms",
                says: "most distinct query terms matched first, then insertion",
                rules: &["result.order"],
                inputs: &["ranked beyond the limit"],
                implies: &[],
            },
            Order::Relevance => &ValueEntry {
                value: "relevance",
                says: "a score the kit cannot compute: checked where relevance is unambiguous",
                rules: &["result.order"],
                inputs: &["ranked beyond the limit"],
                implies: &[],
            },
        })
    }

    fn text(&self) -> String {
        match self {
            Order::Unordered => "none promised",
            Order::Insertion {
                integer_ids_first: false,
            } => "insertion (session first added, then event)",
            Order::Insertion {
                integer_ids_first: true,
            } => "insertion, integer-like session ids first",
            Order::MatchedTerms => "most query words matched first, then insertion",
            Order::Relevance => "relevance (e.g. bm25)",
        }
        .into()
    }
}

impl Dimension for Timestamps {
    const KEY: &'static str = "timestamps";
    const LABEL: &'static str = "timestamps";
    const DECIDED_BY: &'static [&'static str] = &["result.fidelity"];

    fn values() -> Vec<Self> {
        vec![Timestamps::Rfc3339Utc, Timestamps::NaiveIsoformat]
    }

    field!(timestamps);

    fn entry(&self) -> Option<&'static ValueEntry> {
        Some(match self {
            Timestamps::Rfc3339Utc => &ValueEntry {
                value: "RFC 3339 UTC",
                says: "the contract: RFC 3339 UTC, milliseconds, Z, sub-millisecond time cut",
                rules: &["result.fidelity"],
                inputs: &["timestamps"],
                implies: &[],
            },
            Timestamps::NaiveIsoformat => &ValueEntry {
                value: "naive isoformat",
                says: "Python's naive isoformat of the instant, microseconds when not zero (a stated departure from R6.entries; the rest of result.fidelity still holds)",
                rules: &["result.fidelity"],
                inputs: &["timestamps", "multi-part contents", "authors"],
                implies: &[],
            },
        })
    }

    fn text(&self) -> String {
        match self {
            Timestamps::Rfc3339Utc => "RFC 3339 UTC, milliseconds, Z",
            Timestamps::NaiveIsoformat => {
                "naive local isoformat, microseconds when not zero (departs from R6.entries)"
            }
        }
        .into()
    }
}

impl Dimension for Strings {
    const KEY: &'static str = "strings";
    const LABEL: &'static str = "strings";
    /// `infer` does not decide it: a backend is inferred as taking any string.
    const DECIDED_BY: &'static [&'static str] = &[];

    fn values() -> Vec<Self> {
        vec![
            Strings::Any,
            Strings::WithoutNul,
            Strings::WithoutNulOrEmptyKey,
        ]
    }

    field!(strings);

    fn entry(&self) -> Option<&'static ValueEntry> {
        Some(match self {
            Strings::Any => &ValueEntry {
                value: "any",
                says: "the contract: any string, U+0000 included, is stored and looked up",
                rules: &[
                    "key.isolation",
                    "key.no_separator_collision",
                    "model.random_ops",
                ],
                inputs: &["odd key strings"],
                implies: &[],
            },
            Strings::WithoutNul => &ValueEntry {
                value: "without NUL",
                says: "a call carrying U+0000 may fail with an error, never panic or hang, which ends the case (a stated departure from R7.any-string); every other case runs as usual",
                rules: &[
                    "key.isolation",
                    "key.no_separator_collision",
                    "model.random_ops",
                ],
                inputs: &["odd key strings"],
                implies: &[],
            },
            Strings::WithoutNulOrEmptyKey => &ValueEntry {
                value: "without NUL or empty key",
                says: "a call carrying U+0000, or under an empty app name or user id, may fail with an error, never panic or hang, which ends the case (a stated departure from R7.any-string); every other case runs as usual",
                rules: &[
                    "key.isolation",
                    "key.no_separator_collision",
                    "model.random_ops",
                ],
                inputs: &["odd key strings", "near-miss keys", "joined keys"],
                implies: &[],
            },
        })
    }

    fn text(&self) -> String {
        match self {
            Strings::Any => "any, U+0000 included",
            Strings::WithoutNul => {
                "without U+0000, a call carrying one may fail (departs from R7.any-string)"
            }
            Strings::WithoutNulOrEmptyKey => {
                "without U+0000 or an empty app name or user id, a call carrying one may fail (departs from R7.any-string)"
            }
        }
        .into()
    }
}

impl Dimension for Visibility {
    const KEY: &'static str = "visibility";
    const LABEL: &'static str = "visibility";
    /// `infer` does not decide it: a backend is inferred as showing writes at once.
    const DECIDED_BY: &'static [&'static str] = &[];

    fn values() -> Vec<Self> {
        vec![Visibility::Immediate, Visibility::Within { millis: 1 }]
    }

    field!(visibility);

    fn entry(&self) -> Option<&'static ValueEntry> {
        Some(match self {
            Visibility::Immediate => &ValueEntry {
                value: "immediate",
                says: "every write is visible to the next search",
                rules: &["model.random_ops", "key.isolation"],
                inputs: &["random operations"],
                implies: &[],
            },
            Visibility::Within { .. } => &ValueEntry {
                value: "within a bound",
                says: "rules wait for a write up to the bound and wait it out before checking absence; later or never fails",
                rules: &[
                    "model.random_ops",
                    "key.isolation",
                    "replace.readd_replaces",
                ],
                inputs: &["delayed writes", "random operations"],
                implies: &[],
            },
        })
    }

    fn text(&self) -> String {
        match self {
            Visibility::Immediate => "at once".into(),
            Visibility::Within { millis } => format!("within {millis} ms"),
        }
    }
}

impl Dimension for Option<EventsDelta> {
    const KEY: &'static str = "capabilities.events_delta";
    const LABEL: &'static str = "event delta";
    const DECIDED_BY: &'static [&'static str] = &["delta.as_declared"];

    fn values() -> Vec<Self> {
        vec![
            Some(EventsDelta::AppendNewIds),
            Some(EventsDelta::UpsertByEventId),
            None,
        ]
    }

    field!(capabilities.events_delta);

    fn entry(&self) -> Option<&'static ValueEntry> {
        Some(match self.as_ref()? {
            EventsDelta::AppendNewIds => &ValueEntry {
                value: "append new ids",
                says: "a delta appends events whose id the session does not hold, keeping stored versions",
                rules: &["delta.as_declared", "model.random_ops"],
                inputs: &["event deltas"],
                implies: &[],
            },
            EventsDelta::UpsertByEventId => &ValueEntry {
                value: "upsert by event id",
                says: "a delta writes each event with text over the stored one with its id, or after",
                rules: &["delta.as_declared", "model.random_ops"],
                inputs: &["event deltas"],
                implies: &[],
            },
        })
    }

    fn text(&self) -> String {
        match self {
            None => "no",
            Some(EventsDelta::AppendNewIds) => "appends events with new ids",
            Some(EventsDelta::UpsertByEventId) => "upserts events with text by id",
        }
        .into()
    }
}
