//! What a backend declares about itself: a [`Profile`], dimension by dimension.
//!
//! The harness computes the expected answer to every search from the profile (see the
//! dimensions' docs), so a profile is both the contract a backend is gated against and the
//! documentation of how it behaves.

mod case;
pub(crate) mod dimension;
pub(crate) mod dropped;
mod key;
mod presets;
mod stemming;
mod table;
// Read by the oracle (the harness) and by profile-aware explanation.
#[cfg_attr(not(feature = "harness"), allow(dead_code))]
pub(crate) mod words;

use serde::{Deserialize, Serialize};

pub use case::CaseMapping;
pub use dropped::DroppedWords;
pub use key::KeyScheme;
pub use presets::presets;
pub use stemming::Stemming;

/// How a backend means to behave, dimension by dimension.
///
/// Start from a preset ([`Profile::reference`] and the ADK presets) and change what differs:
///
/// ```
/// use memory_conformance::profile::{Limit, Order, Profile, QueryTerms, RemoveDiacritics, WordRule};
/// let mut profile = Profile::reference().named("my-fts-backend");
/// profile.event_words = WordRule::FullText { remove_diacritics: RemoveDiacritics::All, script_runs: false };
/// profile.query_terms = QueryTerms::Words { non_ascii_substring: false };
/// profile.limit = Limit::AtMost(10);
/// profile.order = Order::Relevance;
/// println!("{profile}");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Profile {
    /// The profile's name, shown in reports.
    pub name: String,
    /// Where the declaration comes from (a version it was verified against, or a source).
    pub provenance: String,
    /// Whether matching is lexical, so the kit can compute expected results.
    pub retrieval: Retrieval,
    /// How (app name, user id) selects a store.
    pub key: KeyScheme,
    /// What re-adding a session id does.
    pub readd: Readd,
    /// How stored text is cut into words.
    pub event_words: WordRule,
    /// How a query is cut into terms, and how a term matches.
    pub query_terms: QueryTerms,
    /// Which lowercase mapping the word rules use (full or simple).
    pub case_mapping: CaseMapping,
    /// Which words are dropped before matching: stop words, short query terms.
    pub dropped_words: DroppedWords,
    /// Whether words are stemmed before they are compared (none, or Snowball English).
    pub stemming: Stemming,
    /// Whether an event must match one term of a multi-term query or all of them.
    pub multi_word: MultiWord,
    /// Whether function calls and function responses are searchable.
    pub tool_data: ToolData,
    /// How many entries a search returns at most.
    pub limit: Limit,
    /// In which order entries come back.
    pub order: Order,
    /// How an entry's timestamp is written.
    pub timestamps: Timestamps,
    /// How soon a write is visible to searches.
    pub visibility: Visibility,
    /// Which strings the backend can store and look up.
    pub strings: Strings,
    /// What an empty or whitespace-only query returns.
    pub blank_query: BlankQuery,
    /// Whether a search returns equal entries each time they are stored, or once.
    pub duplicates: Duplicates,
    /// Whether an event id is unique in its session or in its key.
    pub event_ids: EventIds,
    /// Under vector search, what becomes of an event whose text holds no word.
    pub blank_events: BlankEvents,
    /// Capabilities beyond the two calls.
    pub capabilities: Capabilities,
}

impl Profile {
    /// The same profile under another name.
    #[must_use]
    pub fn named(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    /// The same profile with another provenance note.
    #[must_use]
    pub fn with_provenance(mut self, provenance: impl Into<String>) -> Self {
        self.provenance = provenance.into();
        self
    }

    /// Whether matching is lexical: the kit computes every search's matches from the word
    /// rules.
    pub fn is_lexical(&self) -> bool {
        self.retrieval == Retrieval::Lexical
    }

    /// The vector search the profile declares, if it declares one.
    pub fn vector(&self) -> Option<&VectorSearch> {
        match &self.retrieval {
            Retrieval::Vector(search) => Some(search),
            _ => None,
        }
    }
}

/// How a search finds what matches.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub enum Retrieval {
    /// Matches words by the profile's rules: every search has an expected answer.
    Lexical,
    /// Ranks stored events by the cosine similarity of their embedded text to the embedded
    /// query, with a named embedder: the kit embeds the same way and computes the nearest
    /// events (`docs/vector-search.md`).
    Vector(VectorSearch),
    /// Matches by meaning in a way the kit cannot compute (a remote model, a hybrid ranker):
    /// held to the contract rules only.
    Semantic,
}

/// A vector backend's declaration: which embedder, and how exact its index is.
///
/// ```
/// use memory_conformance::profile::{VectorIndex, VectorSearch};
/// let hnsw = VectorSearch::approximate("hashed-256", 90);
/// assert_eq!(hnsw.index, VectorIndex::Approximate { min_recall_percent: 90 });
/// assert_eq!(VectorSearch::exact("hashed-256").index, VectorIndex::Exact);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct VectorSearch {
    /// The embedder's name, as [`Embedder::name`](crate::embed::Embedder::name) gives it:
    /// `hashed-256` is the kit's own; any other the gate's subject must carry
    /// ([`Subject::with_embedder`](crate::conformance::Subject::with_embedder)).
    pub embedder: String,
    /// Whether every stored vector is scored, or an approximate index may miss some.
    pub index: VectorIndex,
}

impl VectorSearch {
    /// An exact index over `embedder`'s vectors: every search returns the nearest.
    pub fn exact(embedder: impl Into<String>) -> Self {
        Self {
            embedder: embedder.into(),
            index: VectorIndex::Exact,
        }
    }

    /// An approximate index (HNSW, IVFFlat) over `embedder`'s vectors that finds at least
    /// `min_recall_percent` of the nearest.
    pub fn approximate(embedder: impl Into<String>, min_recall_percent: u8) -> Self {
        Self {
            embedder: embedder.into(),
            index: VectorIndex::Approximate {
                min_recall_percent: min_recall_percent.min(100),
            },
        }
    }
}

/// How exact a vector index is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub enum VectorIndex {
    /// Every stored vector is scored: the results are exactly the nearest, in order.
    Exact,
    /// An approximate index: of the `k` nearest, at least this share (in percent) is returned,
    /// and what is returned is in order and stored under the key.
    Approximate {
        /// The declared recall tolerance, in percent of the nearest `k`.
        min_recall_percent: u8,
    },
}

/// What re-adding a session id does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Readd {
    /// The new events replace what the session held, also when there are none.
    Replace,
    /// The new events are added after what the session held (duplicates on a plain re-add).
    Append,
    /// Replace, except that a re-add none of whose events has a word (under the event word
    /// rule) is ignored, and the old text survives.
    ReplaceUnlessNoText,
    /// Each event that carries text (a text part holding a character other than whitespace)
    /// is written under its event id: it replaces the session's stored event with that id, or
    /// comes after the stored events. Events without text are skipped, so they never erase
    /// an older version, and stored events the new version no longer has stay (ADK Python's
    /// `SqliteMemoryService`: `ON CONFLICT (app_name, user_id, session_id, event_id) DO
    /// UPDATE`). A first add is written the same way.
    UpsertByEventId,
    /// A re-add is an ingestion of its events: each event that carries text (as under
    /// [`Readd::UpsertByEventId`]) and whose id the session does not hold yet comes after the
    /// stored events; an event whose id it holds keeps its first version, and nothing is
    /// removed. Events without text are never stored. A first add is written the same way.
    KeepFirst,
}

/// How text is cut into words (stored text, and queries under [`QueryTerms::Words`] and
/// [`QueryTerms::Phrases`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "rule", rename_all = "kebab-case", deny_unknown_fields)]
#[non_exhaustive]
pub enum WordRule {
    /// Runs of `[A-Za-z]`, ASCII-lowercased; digits, `_`, accents and non-Latin letters
    /// separate (the reference, ADK JS, released ADK Java).
    AsciiLetters,
    /// NFC, then runs of Unicode word characters (letters, digits, `_`), lowercased (ADK
    /// Python's `\w+`). With `script_runs`, a word mixing Latin and non-Latin letters also
    /// yields each single-script run (`Pythonを` also gives `python`).
    UnicodeWords {
        /// Whether mixed-script words also yield their single-script runs.
        #[serde(default)]
        script_runs: bool,
    },
    /// NFC, then the words of Unicode word segmentation (UAX #29, as the `unicode-segmentation`
    /// crate's `unicode_words` gives them: the segments holding an alphanumeric character),
    /// lowercased. `can't`, `3.14` and `flat_white` stay one word, punctuation and spaces are no
    /// words, and each CJK ideograph is a word of its own.
    UnicodeSegmentation,
    /// Split on `separators`, punctuation kept, lowercased. With `cjk_ngrams`, runs of CJK
    /// characters also yield their 1- and 2-character grams.
    Whitespace {
        /// Which characters split words.
        separators: Separators,
        /// Whether CJK runs also yield 1- and 2-grams.
        #[serde(default)]
        cjk_ngrams: bool,
    },
    /// Full-text style (SQLite FTS5 `unicode61`): runs of letters and numbers, each character
    /// lowercased, the diacritics of Latin letters removed as `remove_diacritics` says;
    /// punctuation separates. With `script_runs`, the text is first NFC-normalised and each
    /// whitespace-separated word holding a non-ASCII character is cut between its Latin and
    /// non-Latin runs (`Pythonを` gives `python` and `を`), as ADK Python's
    /// `SqliteMemoryService` does before FTS5 sees the text.
    FullText {
        /// FTS5's `remove_diacritics` option.
        remove_diacritics: RemoveDiacritics,
        /// Whether NFC and the cut into script runs come first.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        script_runs: bool,
    },
    /// The backend's own word function, declared by a Rust backend (it cannot be written in a
    /// profile file). It is the author's claim about the backend, not the kit's: the rules
    /// then check every stored and returned text, and every query, against what that function
    /// says, so a backend that drifts from its own declaration still fails. A profile file
    /// writes it as `rule = "custom"` with its `name`, and refuses to read it.
    #[serde(deserialize_with = "CustomWords::refuse")]
    Custom(CustomWords),
}

impl WordRule {
    /// The words of `text` under this rule, in order, repeats kept: what the kit's oracle
    /// matches, for a backend that cuts its text as a rule says.
    ///
    /// ```
    /// use memory_conformance::profile::{RemoveDiacritics, WordRule};
    /// let fts5 = WordRule::FullText { remove_diacritics: RemoveDiacritics::All, script_runs: false };
    /// assert_eq!(fts5.words("Where's order #4417? Café"), ["where", "s", "order", "4417", "cafe"]);
    /// ```
    pub fn words(self, text: &str) -> Vec<String> {
        words::text_words(self, text)
    }
}

/// A word function a backend declares as its own [`WordRule::Custom`]: text in, the text's
/// words out, in order (repeats kept), as the backend matches them (already folded: the kit
/// compares them as they are).
///
/// ```
/// use memory_conformance::profile::{CustomWords, Profile, QueryTerms, WordRule};
/// fn words(text: &str) -> Vec<String> {
///     text.split_whitespace()
///         .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase())
///         .filter(|w| !w.is_empty())
///         .collect()
/// }
/// let mut profile = Profile::reference().named("trimmed-words");
/// profile.event_words = WordRule::Custom(CustomWords::new("trimmed-whitespace-words", words));
/// profile.query_terms = QueryTerms::Words { non_ascii_substring: false };
/// assert_eq!(memory_conformance::explain_for(&profile, "Coffee? ¿qué?"), Vec::<String>::new());
/// ```
#[derive(Clone, Copy)]
pub struct CustomWords {
    name: &'static str,
    words: fn(&str) -> Vec<String>,
}

impl CustomWords {
    /// The word function `words`, named `name` in reports and profile tables.
    pub const fn new(name: &'static str, words: fn(&str) -> Vec<String>) -> Self {
        Self { name, words }
    }

    /// The function's name.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The words of `text`.
    pub fn words(&self, text: &str) -> Vec<String> {
        (self.words)(text)
    }
}

/// Two declarations are the same when they carry the same name: a profile names its function
/// once.
impl PartialEq for CustomWords {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

impl Eq for CustomWords {}

impl std::fmt::Debug for CustomWords {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("CustomWords").field(&self.name).finish()
    }
}

/// Written as its name (`name = "trimmed-whitespace-words"`), so a file says what it is.
impl Serialize for CustomWords {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct as _;
        let mut named = serializer.serialize_struct("CustomWords", 1)?;
        named.serialize_field("name", self.name)?;
        named.end()
    }
}

impl CustomWords {
    /// A file cannot declare a function: reading one fails, naming it.
    fn refuse<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Named {
            name: String,
        }
        let Named { name } = Named::deserialize(deserializer)?;
        Err(serde::de::Error::custom(format_args!(
            "the word rule {name:?} is a backend's own function, which only a Rust backend can \
             declare (`WordRule::Custom`); a profile file names one of the \
             kit's rules"
        )))
    }
}

/// FTS5's `remove_diacritics` option of the `unicode61` tokenizer, for [`WordRule::FullText`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum RemoveDiacritics {
    /// `0`: diacritics stay.
    Keep,
    /// `1`, FTS5's default: removed from Latin letters that carry one diacritic.
    Single,
    /// `2`: removed from every Latin letter.
    All,
}

impl RemoveDiacritics {
    /// Every value, the one that removes most first (for infer and the failure's named value).
    #[cfg_attr(not(feature = "harness"), allow(dead_code))]
    pub(crate) const VALUES: [Self; 3] = [Self::All, Self::Single, Self::Keep];

    /// The option's value in an FTS5 `tokenize` clause: `0`, `1` or `2`.
    pub fn fts5_option(self) -> u8 {
        match self {
            Self::Keep => 0,
            Self::Single => 1,
            Self::All => 2,
        }
    }
}

/// How a query is cut into terms, and how a term matches an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "rule", rename_all = "kebab-case", deny_unknown_fields)]
#[non_exhaustive]
pub enum QueryTerms {
    /// Lowercase, split on `separators`, punctuation kept; a term matches an event that has an
    /// equal word (the reference splits on ASCII whitespace).
    Tokens {
        /// Which characters split the query.
        separators: Separators,
    },
    /// The query is cut by the event word rule; a term matches an event that has an equal
    /// word. With `non_ascii_substring`, a term holding a non-ASCII character also matches
    /// when it occurs anywhere in the event's lowercased NFC text (ADK Python).
    Words {
        /// Whether non-ASCII terms also match as substrings.
        #[serde(default)]
        non_ascii_substring: bool,
    },
    /// Split on `separators`; each token, cut by the event word rule, is a phrase that matches
    /// an event holding those words consecutively (each token quoted as an FTS5 phrase).
    /// Tokens without a letter or digit and the bare operators `AND`, `OR`, `NOT`, `NEAR` are
    /// dropped; a token the word rule leaves empty (`²`) never matches.
    Phrases {
        /// Which characters split the query.
        separators: Separators,
    },
    /// NFC (and the cut into script runs, when the event word rule makes it), then each run of
    /// Unicode word characters and `%` (Python's `[\w%]+`) is one phrase: its words under the
    /// event word rule, consecutive. Repeats are dropped, a run without a word never matches,
    /// and no run is an operator (ADK Python's `SqliteMemoryService` quotes every run as an
    /// FTS5 phrase and joins them with `OR`, so `coffee_coffee` finds only "coffee coffee").
    WordRuns,
    /// Lowercase, split on `separators`; a term matches an event whose indexed text (its text
    /// parts, and its tool data where indexed, joined by spaces), lowercased, contains it
    /// anywhere, also inside a word or across punctuation: `off` finds "Coffee", `e,t` finds
    /// "tea,toast" (a service that runs `LIKE '%term%'` or Python's `term in text.lower()` per
    /// query word). The event word rule still says which events carry a word (a re-add without
    /// one, a blank event), but not what a term matches.
    Substrings {
        /// Which characters split the query.
        separators: Separators,
    },
}

/// Which characters split a query into tokens, or text into words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Separators {
    /// The six ASCII whitespace characters of Java's `\s`: space, `\t`, `\n`, `\x0B`, `\f`, `\r`.
    AsciiWhitespace,
    /// Every Unicode whitespace character (Rust's `split_whitespace`): also U+00A0, U+2003,
    /// U+3000, U+0085 and the like.
    UnicodeWhitespace,
    /// JavaScript's `\s`: Unicode whitespace without U+0085, plus U+FEFF.
    #[serde(rename = "javascript-whitespace")]
    JavaScriptWhitespace,
    /// The space character only: tabs and newlines stay inside tokens.
    Space,
}

impl Separators {
    /// Whether `c` is one of these separators.
    pub fn contains(self, c: char) -> bool {
        match self {
            Self::AsciiWhitespace => crate::tokenize::is_query_separator(c),
            Self::UnicodeWhitespace => c.is_whitespace(),
            Self::JavaScriptWhitespace => (c.is_whitespace() && c != '\u{85}') || c == '\u{FEFF}',
            Self::Space => c == ' ',
        }
    }
}

/// Whether an event must match one term of a multi-term query or all of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum MultiWord {
    /// An event matches when at least one term matches.
    AnyWord,
    /// An event matches when every term matches (a term with no word never does).
    AllWords,
}

/// Whether function calls and function responses are searchable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum ToolData {
    /// Only text parts are read.
    NotIndexed,
    /// The string values in function-call arguments and function responses are searched
    /// like text.
    Indexed,
}

/// How many entries a search returns at most.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub enum Limit {
    /// Every match.
    Unlimited,
    /// At most this many.
    AtMost(usize),
}

/// In which order entries come back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub enum Order {
    /// No order is promised; results are compared as multisets.
    Unordered,
    /// Sessions in the order their ids were first added, events in session order. With
    /// `integer_ids_first`, sessions whose id is a canonical array index (`"2"`, `"10"`) come
    /// first in numeric order (JavaScript object key order).
    Insertion {
        /// Whether integer-like session ids come first.
        integer_ids_first: bool,
    },
    /// By the number of distinct query terms matched, most first; ties in insertion order.
    MatchedTerms,
    /// By a relevance score the kit cannot compute (bm25, embeddings): only checked on
    /// scenarios where relevance is unambiguous.
    Relevance,
}

/// How an entry's timestamp is written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Timestamps {
    /// RFC 3339 in UTC with milliseconds and a `Z`, sub-millisecond time cut
    /// (`2026-01-01T00:00:01.250Z`): the contract (clause `R6.entries`).
    #[default]
    Rfc3339Utc,
    /// Python's `datetime.fromtimestamp(t).isoformat()` of the event's time: the wall clock of
    /// the backend's process without an offset, microseconds only when not zero
    /// (`2026-01-01T00:00:01.250000`), as ADK Python writes it. Checked as wall-clock time in
    /// UTC (the bundled bridges run Python with `TZ=UTC`), to the microsecond Python's float
    /// seconds allow. A departure from `R6.entries` the profile states, so `result.fidelity`
    /// keeps checking content, role, author and the instant itself.
    NaiveIsoformat,
}

/// Which strings (app names, user ids, session ids, authors, texts, queries) a backend can
/// store and look up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Strings {
    /// Any string, U+0000 included: the contract (clause `R7.any-string`).
    #[default]
    Any,
    /// Any string without U+0000, which the backend's store cannot hold (PostgreSQL's `text`
    /// and `jsonb`): a call carrying one may fail with an error (never panic or hang), or
    /// behave as the contract says. A departure from `R7.any-string` the profile states: a
    /// generated case whose call carrying U+0000 fails with an error ends there; every other
    /// case runs as usual.
    WithoutNul,
    /// As [`WithoutNul`](Self::WithoutNul), and an app name and user id are never empty: a
    /// call under an empty one may fail with an error too (never panic or hang), which ends
    /// the case (a service that validates its caller's identity). A departure from
    /// `R7.any-string` the profile states; a call under a non-empty key is held to the
    /// contract as usual.
    WithoutNulOrEmptyKey,
}

/// What an empty or whitespace-only query (ASCII or Unicode whitespace) returns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum BlankQuery {
    /// Nothing: the contract (clause `R7.blank-query`).
    #[default]
    Nothing,
    /// The nearest entries of the key, as any other query: a vector or semantic store that
    /// embeds a blank query and ranks by similarity. A departure from `R7.blank-query` the
    /// profile states: a blank query may return entries stored under its key, within the
    /// limit, never another key's, never a deleted or replaced one.
    Nearest,
}

/// Whether a search returns entries that look alike each time they are stored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Duplicates {
    /// Each time: the same event stored in two sessions comes back twice (the contract,
    /// clause `R6.no-dedup`).
    #[default]
    Kept,
    /// Once: of the matching entries equal in author, text (the text parts joined with a
    /// space) and timestamp, a search returns the first only, as a service that merges them
    /// on purpose does. A departure from `R6.no-dedup` the profile states.
    Merged,
}

/// Under vector search, what becomes of an event whose text is not empty but holds no word
/// (whitespace or punctuation only), which embeds to nothing the kit can rank.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum BlankEvents {
    /// It is stored but never returned (`docs/vector-search.md`).
    #[default]
    NeverReturned,
    /// It is stored as any text (a re-add or a delta that keeps events with text keeps it),
    /// and is a candidate of every search of its key, ranked after every event with a word,
    /// as a store that embeds whatever text it is given does.
    RankedLast,
}

/// Where an event id is unique: in its session, or in its key (app name and user id).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum EventIds {
    /// In its session: two sessions of a key may hold events with the same id, each stored
    /// (the contract, clause `R6.no-dedup`).
    #[default]
    PerSession,
    /// In its key: an event whose id another session of the key already holds is not stored
    /// (a whole add or a delta), as a service that knows events by app name, user id and event
    /// id does. A departure from `R6.no-dedup` the profile states.
    PerKey,
}

/// How soon a write (an add, a delta, a memory, a delete) is visible to searches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub enum Visibility {
    /// At once: the next search sees it.
    #[default]
    Immediate,
    /// Within this many milliseconds (a store that indexes in the background). The rules wait
    /// for what a write adds up to the bound, and before a search that must not see a write
    /// they wait out the bound; a write seen later than declared, or never, fails the rule,
    /// and the slowest delay measured is reported.
    Within {
        /// The bound, in milliseconds.
        millis: u64,
    },
}

impl Visibility {
    /// The bound, zero when writes are visible at once.
    pub fn bound(self) -> std::time::Duration {
        match self {
            Self::Immediate => std::time::Duration::ZERO,
            Self::Within { millis } => std::time::Duration::from_millis(millis),
        }
    }
}

/// Capabilities beyond the two calls, checked when declared. Each is a call of
/// [`MemoryService`](crate::MemoryService) a backend implements (the others answer
/// [`MemoryError::Unsupported`](crate::MemoryError::Unsupported)) or a property of its storage.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[non_exhaustive]
pub struct Capabilities {
    /// Memories survive closing the service and opening it again on the same storage
    /// (rule `durability.reopen`). Needs a namespaced factory.
    #[serde(default)]
    pub durable: bool,
    /// Service instances on the same storage see each other's writes: two (rule
    /// `scope.shared`), and three behind a round-robin load balancer, also under concurrent
    /// writes (rule `scope.replicas`). Needs a namespaced factory.
    #[serde(default)]
    pub shared: bool,
    /// `add_events_to_memory` stores an incremental delta of events, as this says (rule
    /// `delta.as_declared`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub events_delta: Option<EventsDelta>,
    /// `add_memory` stores explicit memories, searchable like events (rule
    /// `memories.searchable`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub explicit_memories: bool,
    /// `delete_memory` forgets a memory by its entry id (rules `forget.*`). Needs
    /// `entry_ids`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub delete: bool,
    /// Every entry carries an id, the same for the same stored memory in every search (rule
    /// `result.entry_ids`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub entry_ids: bool,
    /// `search_memory_with` takes a result limit (rule `result.limit_option`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub search_limit: bool,
}

/// What `add_events_to_memory` does with a delta of events. In both, events without content
/// parts are skipped, a delta without a session id is stored under a session of its own
/// (ADK Python's `__unknown_session_id__`), and a deleted memory's id is not stored again
/// where the backend deletes by event id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum EventsDelta {
    /// Each event whose id the session does not hold yet comes after its events; an event
    /// whose id it holds is ignored, the stored version kept (ADK Python's
    /// `InMemoryMemoryService`).
    AppendNewIds,
    /// Each event that carries text is written under its id, over the stored event with that
    /// id or after the others, as [`Readd::UpsertByEventId`] writes a re-add (ADK Python's
    /// `SqliteMemoryService`, whose `add_session_to_memory` is this delta of every event).
    UpsertByEventId,
}
