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
    BlankEvents, BlankQuery, Capabilities, CustomWords, Duplicates, EventIds, EventsDelta,
    KeyScheme, Limit, MultiWord, Order, Profile, QueryTerms, Readd, RemoveDiacritics, Retrieval,
    Separators, Strings, Timestamps, ToolData, VectorIndex, VectorSearch, Visibility, WordRule,
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
    /// The clause of the contract it states a departure from, if any: the rules check the
    /// behaviour it declares instead of the clause, and exempt nothing else.
    pub(crate) departs: Option<&'static str>,
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

/// A [`ValueEntry`] from its fields, `implies` empty unless given.
macro_rules! value_entry {
    (
        value: $value:literal,
        says: $says:literal,
        rules: [$($rule:literal),* $(,)?],
        inputs: [$($input:literal),* $(,)?]
        $(, implies: [$(($implied:literal, $why:literal $(,)?)),* $(,)?])?
        $(, departs: $clause:literal)?
    ) => {
        ValueEntry {
            value: $value,
            says: $says,
            rules: &[$($rule),*],
            inputs: &[$($input),*],
            implies: &[$($(($implied, $why)),*)?],
            departs: departs!($($clause)?),
        }
    };
}

/// A [`ValueEntry`]'s `departs`: the clause given, else none.
macro_rules! departs {
    () => {
        None
    };
    ($clause:literal) => {
        Some($clause)
    };
}

/// The entry a row of [`dimension!`] gives its value: `None` for a row with a text only.
macro_rules! entry_of {
    ({ text: $text:expr $(,)? }) => {
        None
    };
    ({
        value: $value:literal,
        says: $says:literal,
        rules: $rules:tt,
        inputs: $inputs:tt,
        $(implies: $implies:tt,)?
        $(departs: $clause:literal,)?
        $(text: $text:expr $(,)?)?
    }) => {
        Some(&value_entry!(
            value: $value,
            says: $says,
            rules: $rules,
            inputs: $inputs
            $(, implies: $implies)?
            $(, departs: $clause)?
        ))
    };
}

/// The text a row of [`dimension!`] gives its value in the profile table: its `text`, or else
/// the value's name.
macro_rules! text_of {
    ({ $(value: $value:literal, says: $says:literal, rules: $rules:tt, inputs: $inputs:tt, $(implies: $implies:tt,)? $(departs: $clause:literal,)?)? text: $text:expr $(,)? }) => {
        $text
    };
    ({ value: $value:literal, says: $says:literal, rules: $rules:tt, inputs: $inputs:tt $(, implies: $implies:tt)? $(, departs: $clause:literal)? $(,)? }) => {
        $value
    };
}

/// `impl Dimension for $type`: the dimension's key, label, deciding rules, profile field and
/// values (most specific first), then one row per kind of value, in match order: the pattern,
/// its entry (`value`, `says`, `rules`, `inputs`, `implies` where it implies violations; none
/// where it claims nothing) and its `text` in the profile table (the value's name when
/// omitted), which may use the pattern's bindings.
macro_rules! dimension {
    (
        $type:ty {
            key: $key:literal,
            label: $label:literal,
            decided_by: $decided_by:expr,
            field: $($field:ident).+,
            values: [$($value:expr),+ $(,)?] $(,)?
        }
        $($pattern:pat => $row:tt)+
    ) => {
        impl Dimension for $type {
            const KEY: &'static str = $key;
            const LABEL: &'static str = $label;
            const DECIDED_BY: &'static [&'static str] = $decided_by;

            fn values() -> Vec<Self> {
                vec![$($value),+]
            }

            fn of(profile: &Profile) -> Self {
                profile.$($field).+.clone()
            }

            fn set(self, profile: &mut Profile) {
                profile.$($field).+ = self;
            }

            #[allow(unused_variables)]
            fn entry(&self) -> Option<&'static ValueEntry> {
                match self {
                    $($pattern => entry_of!($row),)+
                }
            }

            fn text(&self) -> String {
                match self {
                    $($pattern => text_of!($row).into(),)+
                }
            }
        }
    };
}

/// A [`Capability`]: the field of [`Capabilities`] it is (its key is `capabilities.FIELD`),
/// its label, the rules that decide it and what a backend claiming it does.
macro_rules! capability {
    (
        $field:ident {
            label: $label:literal,
            decided_by: [$($decided_by:literal),+ $(,)?],
            says: $says:literal,
            rules: $rules:tt,
            inputs: $inputs:tt $(,)?
        }
    ) => {
        Capability {
            key: concat!("capabilities.", stringify!($field)),
            label: $label,
            decided_by: &[$($decided_by),+],
            claimed: |c| c.$field,
            claim: |c| c.$field = true,
            entry: value_entry!(value: "", says: $says, rules: $rules, inputs: $inputs),
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
            text: Box::new(|profile| {
                let value = D::of(profile);
                match value.entry().and_then(|entry| entry.departs) {
                    Some(clause) => format!("{} (departs from {clause})", value.text()),
                    None => value.text(),
                }
            }),
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
        Row::of::<BlankQuery>(),
        Row::of::<Duplicates>(),
        Row::of::<EventIds>(),
        Row::of::<BlankEvents>(),
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
    capability!(durable {
        label: "durable",
        decided_by: ["durability.reopen"],
        says: "memories survive a reopen of the storage",
        rules: ["durability.reopen"],
        inputs: ["reopen", "re-adds"],
    }),
    capability!(shared {
        label: "shared store",
        decided_by: ["scope.shared", "scope.replicas"],
        says: "instances on one storage see each other's writes, also three behind a round-robin load balancer under concurrent writes",
        rules: ["scope.shared", "scope.replicas"],
        inputs: ["second instance", "replicas"],
    }),
    capability!(explicit_memories {
        label: "explicit memories",
        decided_by: ["memories.searchable"],
        says: "add_memory stores searchable memories",
        rules: ["memories.searchable", "model.random_ops"],
        inputs: ["explicit memories"],
    }),
    capability!(entry_ids {
        label: "entry ids",
        decided_by: ["result.entry_ids"],
        says: "entries carry stable, distinct ids",
        rules: ["result.entry_ids"],
        inputs: ["many matches"],
    }),
    capability!(delete {
        label: "delete by id",
        decided_by: ["forget.never_returned"],
        says: "delete_memory forgets a memory by its id, for good and under its key only",
        rules: ["forget.never_returned", "forget.other_keys_untouched"],
        inputs: ["deletions"],
    }),
    capability!(search_limit {
        label: "search limit",
        decided_by: ["result.limit_option"],
        says: "a search takes a result limit",
        rules: ["result.limit_option"],
        inputs: ["limited searches"],
    }),
];

fn yes_no(value: bool) -> &'static str {
    if value { "yes" } else { "no" }
}

dimension! {
    Retrieval {
        key: "retrieval",
        label: "retrieval",
        // `infer` does not decide it: a backend is inferred as lexical.
        decided_by: &[],
        field: retrieval,
        values: [
            Retrieval::Lexical,
            Retrieval::Vector(VectorSearch::exact("hashed-256")),
            Retrieval::Vector(VectorSearch::approximate("hashed-256", 90)),
            Retrieval::Semantic,
        ],
    }
    Retrieval::Lexical => {
        value: "lexical",
        says: "every search has an expected answer: the oracle's",
        rules: ["model.random_ops", "index.text_only", "query.multi_word"],
        inputs: ["random operations"],
    }
    Retrieval::Vector(VectorSearch { embedder, index: VectorIndex::Exact, .. }) => {
        value: "vector, exact index",
        says: "the stored events nearest to the query by cosine similarity under the declared embedder, nearest first, exactly the limit's worth",
        rules: ["vector.nearest_first", "model.random_ops", "key.isolation", "replace.readd_replaces"],
        inputs: ["vector texts", "random operations", "near-miss keys", "re-adds"],
        text: format!("vector, {embedder} embeddings, exact nearest"),
    }
    Retrieval::Vector(VectorSearch {
        embedder,
        index: VectorIndex::Approximate { min_recall_percent },
        ..
    }) => {
        value: "vector, approximate index",
        says: "nearest first and only stored candidates, at least the declared share of the nearest",
        rules: ["vector.nearest_first", "model.random_ops"],
        inputs: ["vector texts", "random operations"],
        text: format!(
            "vector, {embedder} embeddings, approximate (at least {min_recall_percent}% of the nearest)"
        ),
    }
    Retrieval::Semantic => {
        value: "semantic",
        says: "held to the contract: nothing from another key or an old version, nothing twice",
        rules: ["key.isolation", "replace.readd_replaces", "result.fidelity"],
        inputs: ["near-miss keys", "re-adds"],
        text: "semantic (contract rules only)",
    }
}

dimension! {
    KeyScheme {
        key: "key",
        label: "key",
        decided_by: &["key.no_separator_collision", "key.isolation"],
        field: key,
        values: [KeyScheme::Structured, KeyScheme::JoinedWithSlash],
    }
    KeyScheme::Structured => {
        value: "structured",
        says: "no two pairs share a store",
        rules: ["key.no_separator_collision", "key.isolation"],
        inputs: ["joined keys"],
        text: "(app, user) kept apart, exact",
    }
    KeyScheme::JoinedWithSlash => {
        value: "joined with \"/\"",
        says: "pairs that join to one `app/user` string share a store (an implied violation)",
        rules: ["key.no_separator_collision", "model.random_ops"],
        inputs: ["joined keys", "random operations"],
        implies: [(
            "key.no_separator_collision",
            "(\"a/b\", \"c\") and (\"a\", \"b/c\") join to one string and share one store",
        )],
        text: "string app/user: (a/b, c) collides with (a, b/c)",
    }
}

dimension! {
    Readd {
        key: "readd",
        label: "re-add",
        decided_by: &[
            "replace.readd_replaces",
            "replace.readd_with_nothing",
            "replace.readd_as_declared",
        ],
        field: readd,
        values: [
            Readd::Replace,
            Readd::ReplaceUnlessNoText,
            Readd::UpsertByEventId,
            Readd::KeepFirst,
            Readd::Append,
        ],
    }
    Readd::Replace => {
        value: "replace",
        says: "a re-add replaces, also with nothing",
        rules: ["replace.readd_replaces", "replace.readd_with_nothing", "replace.readd_as_declared"],
        inputs: ["re-adds", "re-adds by event id"],
    }
    Readd::Append => {
        value: "append",
        says: "a re-add appends (implied violations of the replace rules)",
        rules: [
            "model.random_ops",
            "durability.reopen",
            "replace.readd_replaces",
            "replace.readd_as_declared",
        ],
        inputs: ["re-adds", "random operations", "re-adds by event id"],
        implies: [
            (
                "replace.readd_replaces",
                "a re-add appends to what the session held, so old words still match and entries come back twice",
            ),
            (
                "replace.readd_with_nothing",
                "a re-add with no text appends nothing, so the old text stays",
            ),
        ],
        text: "append (duplicates)",
    }
    Readd::ReplaceUnlessNoText => {
        value: "replace unless no text",
        says: "a re-add without a word is ignored (an implied violation)",
        rules: ["model.random_ops", "replace.readd_with_nothing", "replace.readd_as_declared"],
        inputs: ["re-adds", "textless events", "re-adds by event id"],
        implies: [(
            "replace.readd_with_nothing",
            "a re-add none of whose events has a word is ignored, so the old text stays",
        )],
        text: "replace, but a re-add with no words is ignored",
    }
    Readd::UpsertByEventId => {
        value: "upsert by event id",
        says: "each event with text is written over the stored event with its id; events without text are skipped and missing ones stay (implied violations of the replace rules)",
        rules: [
            "replace.readd_as_declared",
            "model.random_ops",
            "replace.readd_replaces",
            "replace.readd_with_nothing",
        ],
        inputs: ["re-adds by event id", "re-adds", "random operations"],
        implies: [
            (
                "replace.readd_replaces",
                "a re-add writes each event by its id, so an event the new version no longer has, or has under another id, still matches",
            ),
            (
                "replace.readd_with_nothing",
                "events without text are skipped, so the old text stays",
            ),
        ],
        text: "upsert by event id (events without text skipped)",
    }
    Readd::KeepFirst => {
        value: "keep first",
        says: "a re-add stores the events with text whose id the session does not hold; a stored event keeps its first version, none is removed, and events without text are never stored (implied violations of the replace rules)",
        rules: [
            "replace.readd_as_declared",
            "model.random_ops",
            "durability.reopen",
            "replace.readd_replaces",
            "replace.readd_with_nothing",
        ],
        inputs: ["re-adds by event id", "re-adds", "random operations"],
        implies: [
            (
                "replace.readd_replaces",
                "a re-added event keeps its first version and events the new version no longer has stay, so old words still match",
            ),
            (
                "replace.readd_with_nothing",
                "a re-add with no text stores nothing and removes nothing, so the old text stays",
            ),
        ],
        text: "keep first (a re-add stores only event ids it does not hold)",
    }
}

dimension! {
    WordRule {
        key: "event_words",
        label: "event words",
        // Decided together with the query terms.
        decided_by: &[
            "punctuation.query",
            "punctuation.event",
            "query.digits",
            "query.non_ascii",
            "query.case_insensitive",
        ],
        field: event_words,
        values: [
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
        ],
    }
    WordRule::AsciiLetters => {
        value: "ASCII letters",
        says: "runs of [A-Za-z]",
        rules: ["punctuation.event", "query.non_ascii", "model.random_ops"],
        inputs: ["punctuation", "non-ASCII words"],
        text: "[A-Za-z]+, lowercased",
    }
    WordRule::UnicodeSegmentation => {
        value: "Unicode segmentation",
        says: "NFC, then UAX #29 words, lowercased",
        rules: ["query.non_ascii", "punctuation.event", "query.digits", "model.random_ops"],
        inputs: ["non-ASCII words", "punctuation", "digits"],
        text: "NFC, Unicode word segmentation (UAX #29) words, lowercased",
    }
    WordRule::UnicodeWords { script_runs } => {
        value: "Unicode words",
        says: "NFC runs of letters, digits and `_`, with or without script runs",
        rules: ["query.non_ascii", "query.digits", "model.random_ops"],
        inputs: ["non-ASCII words", "digits", "punctuation"],
        text: if *script_runs {
            "NFC, Unicode \\w+, lowercased; mixed-script words also split by script"
        } else {
            "NFC, Unicode \\w+, lowercased"
        },
    }
    WordRule::Whitespace { separators: s, cjk_ngrams } => {
        value: "whitespace",
        says: "split on separators, punctuation kept, with or without CJK grams",
        rules: ["punctuation.event", "query.non_ascii", "model.random_ops"],
        inputs: ["punctuation", "separators", "non-ASCII words"],
        text: format!(
            "split on {}, punctuation kept, lowercased{}",
            separators(*s),
            if *cjk_ngrams { "; CJK 1- and 2-grams" } else { "" }
        ),
    }
    WordRule::FullText { remove_diacritics, script_runs: true } => {
        value: "full text, script runs first",
        says: "NFC, each non-ASCII word cut into Latin and non-Latin runs, then FTS5 unicode61 words",
        rules: ["query.non_ascii", "query.case_insensitive", "punctuation.event", "model.random_ops"],
        inputs: ["non-ASCII words", "cased words", "punctuation"],
        text: full_text("NFC, words cut into Latin and non-Latin runs, then ", *remove_diacritics),
    }
    WordRule::FullText { remove_diacritics, .. } => {
        value: "full text",
        says: "FTS5 unicode61 words, diacritics removed as declared",
        rules: ["query.non_ascii", "query.case_insensitive", "model.random_ops"],
        inputs: ["non-ASCII words", "cased words", "digits"],
        text: full_text("", *remove_diacritics),
    }
    WordRule::Custom(custom) => {
        value: "the backend's own function",
        says: "a Rust backend's own word function, its author's claim: every text and query is checked against it",
        rules: [
            "query.non_ascii",
            "query.case_insensitive",
            "punctuation.event",
            "punctuation.query",
            "model.random_ops",
        ],
        inputs: ["non-ASCII words", "cased words", "punctuation", "random operations"],
        text: format!("the backend's own word function `{}`", custom.name()),
    }
}

/// The profile table's text for FTS5 `unicode61` words, after `first` (what comes before).
fn full_text(first: &str, remove_diacritics: RemoveDiacritics) -> String {
    format!(
        "{first}letters and digits, case and Latin diacritics folded (FTS5 remove_diacritics {}), \
         punctuation separates",
        remove_diacritics.fts5_option()
    )
}

dimension! {
    QueryTerms {
        key: "query_terms",
        label: "query terms",
        // Decided together with the event words, by their rules.
        decided_by: WordRule::DECIDED_BY,
        field: query_terms,
        values: [
            QueryTerms::Tokens { separators: Separators::AsciiWhitespace },
            QueryTerms::Words { non_ascii_substring: false },
            QueryTerms::Phrases { separators: Separators::AsciiWhitespace },
            QueryTerms::WordRuns,
        ],
    }
    QueryTerms::Tokens { separators: s } => {
        value: "tokens",
        says: "split on the declared separators, punctuation kept",
        rules: ["punctuation.query", "query.multi_word", "query.blank"],
        inputs: ["punctuation", "separators", "blank queries"],
        text: format!("lowercased, split on {}, punctuation kept", separators(*s)),
    }
    QueryTerms::Words { non_ascii_substring } => {
        value: "words",
        says: "cut like stored text, non-ASCII terms as substrings where declared",
        rules: ["punctuation.query", "query.non_ascii", "model.random_ops"],
        inputs: ["punctuation", "non-ASCII words"],
        text: format!(
            "cut like event words{}",
            if *non_ascii_substring { "; non-ASCII words also match as substrings" } else { "" }
        ),
    }
    QueryTerms::Phrases { separators: s } => {
        value: "phrases",
        says: "each token a phrase of words (FTS5 quoting)",
        rules: ["punctuation.query", "query.multi_word", "model.random_ops"],
        inputs: ["punctuation", "separators"],
        text: format!("split on {}, each token a phrase cut like event words", separators(*s)),
    }
    QueryTerms::WordRuns => {
        value: "word runs",
        says: "each run of word characters and `%` a phrase of words, no operators (ADK Python's `[\\w%]+`)",
        rules: ["punctuation.query", "query.non_ascii", "query.multi_word", "model.random_ops"],
        inputs: ["punctuation", "separators", "non-ASCII words"],
        text: "NFC, each run of word characters and % a phrase cut like event words, no operators",
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

dimension! {
    MultiWord {
        key: "multi_word",
        label: "multi-word query",
        decided_by: &["query.multi_word"],
        field: multi_word,
        values: [MultiWord::AnyWord, MultiWord::AllWords],
    }
    MultiWord::AnyWord => {
        value: "any word",
        says: "one matching term is enough",
        rules: ["query.multi_word"],
        inputs: ["separators"],
    }
    MultiWord::AllWords => {
        value: "all words",
        says: "every term must match",
        rules: ["query.multi_word"],
        inputs: ["separators"],
    }
}

dimension! {
    ToolData {
        key: "tool_data",
        label: "tool data",
        decided_by: &["index.text_only"],
        field: tool_data,
        values: [ToolData::NotIndexed, ToolData::Indexed],
    }
    ToolData::NotIndexed => {
        value: "not indexed",
        says: "words only in calls and responses are never found",
        rules: ["index.text_only"],
        inputs: ["tool parts"],
        text: "not searchable (text parts only)",
    }
    ToolData::Indexed => {
        value: "indexed",
        says: "string values of calls and responses are searched like text",
        rules: ["index.text_only"],
        inputs: ["tool parts"],
        text: "searchable (tool names and string values)",
    }
}

dimension! {
    Limit {
        key: "limit",
        label: "limit",
        decided_by: &["result.limit"],
        field: limit,
        values: [Limit::Unlimited, Limit::AtMost(10)],
    }
    Limit::Unlimited => {
        value: "unlimited",
        says: "every match comes back",
        rules: ["result.limit"],
        inputs: ["many matches"],
        text: "none",
    }
    Limit::AtMost(n) => {
        value: "at most n",
        says: "at most n entries, the best n where the order ranks",
        rules: ["result.limit", "result.order"],
        inputs: ["many matches", "ranked beyond the limit"],
        text: format!("at most {n}"),
    }
}

dimension! {
    Order {
        key: "order",
        label: "order",
        decided_by: &["result.order", "model.random_ops"],
        field: order,
        values: [
            Order::Insertion { integer_ids_first: false },
            Order::Insertion { integer_ids_first: true },
            Order::MatchedTerms,
            Order::Relevance,
            Order::Unordered,
        ],
    }
    Order::Unordered => {
        value: "unordered",
        says: "no order is promised: results are compared as multisets",
        rules: ["model.random_ops"],
        inputs: ["random operations"],
        text: "none promised",
    }
    Order::Insertion { integer_ids_first: false } => {
        value: "insertion",
        says: "sessions by first add, events in order",
        rules: ["result.order"],
        inputs: ["re-adds"],
        text: "insertion (session first added, then event)",
    }
    Order::Insertion { integer_ids_first: true } => {
        value: "insertion, integer ids first",
        says: "sessions whose id is an array index (`2`, `10`) first, in numeric order, then by first add; events in order",
        rules: ["result.order"],
        inputs: ["re-adds"],
        text: "insertion, integer-like session ids first",
    }
    Order::MatchedTerms => {
        value: "matched terms",
        says: "most distinct query terms matched first, then insertion",
        rules: ["result.order"],
        inputs: ["ranked beyond the limit"],
        text: "most query words matched first, then insertion",
    }
    Order::Relevance => {
        value: "relevance",
        says: "a score the kit cannot compute: checked where relevance is unambiguous",
        rules: ["result.order"],
        inputs: ["ranked beyond the limit"],
        text: "relevance (e.g. bm25)",
    }
}

dimension! {
    Timestamps {
        key: "timestamps",
        label: "timestamps",
        decided_by: &["result.fidelity"],
        field: timestamps,
        values: [Timestamps::Rfc3339Utc, Timestamps::NaiveIsoformat],
    }
    Timestamps::Rfc3339Utc => {
        value: "RFC 3339 UTC",
        says: "the contract: RFC 3339 UTC, milliseconds, Z, sub-millisecond time cut",
        rules: ["result.fidelity"],
        inputs: ["timestamps"],
        text: "RFC 3339 UTC, milliseconds, Z",
    }
    Timestamps::NaiveIsoformat => {
        value: "naive isoformat",
        says: "an entry's timestamp is the event's wall-clock time without an offset, as Python's isoformat writes it, microseconds when not zero; result.fidelity checks that format, and the content, role and author as before",
        rules: ["result.fidelity"],
        inputs: ["timestamps", "multi-part contents", "authors"],
        departs: "R6.entries",
        text: "naive local isoformat, microseconds when not zero",
    }
}

dimension! {
    Strings {
        key: "strings",
        label: "strings",
        // `infer` does not decide it: a backend is inferred as taking any string.
        decided_by: &[],
        field: strings,
        values: [Strings::Any, Strings::WithoutNul, Strings::WithoutNulOrEmptyKey],
    }
    Strings::Any => {
        value: "any",
        says: "the contract: any string, U+0000 included, is stored and looked up",
        rules: ["key.isolation", "key.no_separator_collision", "model.random_ops"],
        inputs: ["odd key strings"],
        text: "any, U+0000 included",
    }
    Strings::WithoutNul => {
        value: "without NUL",
        says: "a call carrying U+0000 may fail with an error (the store cannot hold it), never panic or hang, and the case ends there; every other case runs as usual",
        rules: ["key.isolation", "key.no_separator_collision", "model.random_ops"],
        inputs: ["odd key strings"],
        departs: "R7.any-string",
        text: "without U+0000, a call carrying one may fail",
    }
    Strings::WithoutNulOrEmptyKey => {
        value: "without NUL or empty key",
        says: "a call carrying U+0000, or under an empty app name or user id, may fail with an error (the service refuses it), never panic or hang, and the case ends there; every other case runs as usual",
        rules: ["key.isolation", "key.no_separator_collision", "model.random_ops"],
        inputs: ["odd key strings", "near-miss keys", "joined keys"],
        departs: "R7.any-string",
        text: "without U+0000 or an empty app name or user id, a call carrying one may fail",
    }
}

dimension! {
    BlankQuery {
        key: "blank_query",
        label: "blank query",
        // `infer` does not decide it: a backend is inferred as answering a blank query with
        // nothing.
        decided_by: &[],
        field: blank_query,
        values: [BlankQuery::Nothing, BlankQuery::Nearest],
    }
    BlankQuery::Nothing => {
        value: "nothing",
        says: "the contract: an empty or whitespace-only query returns nothing",
        rules: ["query.blank"],
        inputs: ["blank queries"],
        text: "nothing",
    }
    BlankQuery::Nearest => {
        value: "nearest",
        says: "a blank query is searched like any other and may return the nearest entries stored under its key, within the limit; never another key's, a deleted or a replaced one",
        rules: ["query.blank"],
        inputs: ["blank queries"],
        departs: "R7.blank-query",
        text: "the nearest entries of the key, as any query",
    }
}

dimension! {
    Duplicates {
        key: "duplicates",
        label: "duplicates",
        // `infer` does not decide it: a backend is inferred as returning each stored entry.
        decided_by: &[],
        field: duplicates,
        values: [Duplicates::Kept, Duplicates::Merged],
    }
    Duplicates::Kept => {
        value: "kept",
        says: "the contract: the same event stored in two sessions comes back twice",
        rules: ["model.random_ops", "result.limit"],
        inputs: ["random operations", "many matches"],
        text: "each time stored",
    }
    Duplicates::Merged => {
        value: "merged",
        says: "of the matching entries equal in author, text and timestamp a search returns the first only (the nearest, under vector search); model.random_ops, result.order and delta.as_declared expect that",
        rules: ["model.random_ops", "result.order", "delta.as_declared"],
        inputs: ["random operations", "re-adds", "event deltas"],
        departs: "R6.no-dedup",
        text: "once: entries equal in author, text and timestamp are merged",
    }
}

dimension! {
    EventIds {
        key: "event_ids",
        label: "event ids",
        // `infer` does not decide it: a backend is inferred as keeping event ids per session.
        decided_by: &[],
        field: event_ids,
        values: [EventIds::PerSession, EventIds::PerKey],
    }
    EventIds::PerSession => {
        value: "per session",
        says: "the contract: two sessions of a key may hold events with the same id, each stored",
        rules: ["replace.other_sessions_untouched", "replace.readd_as_declared", "result.limit", "result.order", "concurrency.adds_land", "model.random_ops"],
        inputs: ["near-miss session ids", "re-adds by event id", "many matches", "concurrent adds", "random operations"],
        text: "unique in their session",
    }
    EventIds::PerKey => {
        value: "per key",
        says: "an event whose id another session of the key already stores is not stored; the oracle's rules (model.random_ops, replace.readd_as_declared, result.order) expect that, and the rules that need several sessions stored give each its own event ids",
        rules: ["model.random_ops", "replace.readd_as_declared", "result.order", "replace.other_sessions_untouched", "result.limit", "concurrency.adds_land", "durability.reopen"],
        inputs: ["random operations", "re-adds by event id", "near-miss session ids", "many matches", "concurrent adds", "reopen"],
        departs: "R6.no-dedup",
        text: "unique in their key: an id another session holds is not stored again",
    }
}

dimension! {
    BlankEvents {
        key: "blank_events",
        label: "blank events",
        // `infer` does not decide it: a backend is inferred as never returning them.
        decided_by: &[],
        field: blank_events,
        values: [BlankEvents::NeverReturned, BlankEvents::RankedLast],
    }
    BlankEvents::NeverReturned => {
        value: "never returned",
        says: "under vector search, an event whose text holds no word (whitespace or punctuation only) is stored but never returned",
        rules: ["vector.nearest_first", "replace.readd_as_declared", "model.random_ops"],
        inputs: ["vector texts", "re-adds by event id", "random operations"],
        text: "never returned",
    }
    BlankEvents::RankedLast => {
        value: "ranked last",
        says: "under vector search, an event whose text is not empty but holds no word is stored as any text and is a candidate of every search of its key, ranked after every event with a word; the re-add rules keep it as text",
        rules: ["vector.nearest_first", "replace.readd_as_declared", "model.random_ops"],
        inputs: ["vector texts", "re-adds by event id", "random operations"],
        text: "returned, after every event with a word",
    }
}

dimension! {
    Visibility {
        key: "visibility",
        label: "visibility",
        // `infer` does not decide it: a backend is inferred as showing writes at once.
        decided_by: &[],
        field: visibility,
        values: [Visibility::Immediate, Visibility::Within { millis: 1 }],
    }
    Visibility::Immediate => {
        value: "immediate",
        says: "every write is visible to the next search",
        rules: ["model.random_ops", "key.isolation"],
        inputs: ["random operations"],
        text: "at once",
    }
    Visibility::Within { millis } => {
        value: "within a bound",
        says: "rules wait for a write up to the bound and wait it out before checking absence; later or never fails",
        rules: ["model.random_ops", "key.isolation", "replace.readd_replaces"],
        inputs: ["delayed writes", "random operations"],
        text: format!("within {millis} ms"),
    }
}

dimension! {
    Option<EventsDelta> {
        key: "capabilities.events_delta",
        label: "event delta",
        decided_by: &["delta.as_declared"],
        field: capabilities.events_delta,
        values: [
            Some(EventsDelta::AppendNewIds),
            Some(EventsDelta::UpsertByEventId),
            None,
        ],
    }
    Some(EventsDelta::AppendNewIds) => {
        value: "append new ids",
        says: "a delta appends events whose id the session does not hold, keeping stored versions",
        rules: ["delta.as_declared", "model.random_ops"],
        inputs: ["event deltas"],
        text: "appends events with new ids",
    }
    Some(EventsDelta::UpsertByEventId) => {
        value: "upsert by event id",
        says: "a delta writes each event with text over the stored one with its id, or after",
        rules: ["delta.as_declared", "model.random_ops"],
        inputs: ["event deltas"],
        text: "upserts events with text by id",
    }
    None => {
        text: "no",
    }
}
