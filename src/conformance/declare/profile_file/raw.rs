//! A profile file's TOML shape: the raw twins serde reads and writes where the file's shape
//! differs from the value's, and their conversion to and from a [`ProfileFile`], with every
//! check a file must pass (its format version, its preset, its keys' values).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::benchmark::floor::RecallFloor;
use crate::benchmark::question_kind::QuestionKind;
use crate::profile::dimension::Dimension as _;
use crate::profile::{
    BlankEvents, BlankQuery, Capabilities, CaseMapping, DroppedWords, Duplicates, EventIds,
    KeyScheme, Limit, MultiWord, Order, Profile, QueryTerms, Readd, Retrieval, Stemming, Strings,
    Timestamps, ToolData, VectorIndex, VectorSearch, Visibility, WordRule, presets,
};

use super::{PROFILE_FORMAT, ProfileFile};
use crate::conformance::declare::known_violation::KnownViolation;
use crate::conformance::declare::rule_set::RuleSetVersion;

/// The file's top level. The dimensions whose values the profile's own types read and write
/// (serde, kebab-case) are those types; a raw type stays only where the file's shape differs
/// from the value's: the retrieval with its `[vector]` table, a limit that is a number or
/// `"unlimited"`, an order flag written as its own name, the visibility bound in
/// milliseconds, the known violations and the `[gate]` table.
#[derive(Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawFile {
    format: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    extends: Option<String>,
    name: Option<String>,
    provenance: Option<String>,
    retrieval: Option<RawRetrieval>,
    #[serde(skip_serializing_if = "Option::is_none")]
    vector: Option<RawVector>,
    key: Option<KeyScheme>,
    readd: Option<Readd>,
    multi_word: Option<MultiWord>,
    #[serde(skip_serializing_if = "Option::is_none")]
    case_mapping: Option<CaseMapping>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stemming: Option<Stemming>,
    tool_data: Option<ToolData>,
    limit: Option<RawLimit>,
    order: Option<RawOrder>,
    #[serde(skip_serializing_if = "Option::is_none")]
    timestamps: Option<Timestamps>,
    #[serde(skip_serializing_if = "Option::is_none")]
    strings: Option<Strings>,
    #[serde(skip_serializing_if = "Option::is_none")]
    blank_query: Option<BlankQuery>,
    #[serde(skip_serializing_if = "Option::is_none")]
    duplicates: Option<Duplicates>,
    #[serde(skip_serializing_if = "Option::is_none")]
    event_ids: Option<EventIds>,
    #[serde(skip_serializing_if = "Option::is_none")]
    blank_events: Option<BlankEvents>,
    #[serde(skip_serializing_if = "Option::is_none")]
    visible_within_ms: Option<u64>,
    event_words: Option<WordRule>,
    query_terms: Option<QueryTerms>,
    #[serde(skip_serializing_if = "Option::is_none")]
    dropped_words: Option<RawDroppedWords>,
    capabilities: Option<Capabilities>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    known_violation: Vec<RawViolation>,
    #[serde(skip_serializing_if = "Option::is_none")]
    gate: Option<RawGate>,
}

/// Sets `slot` where the file gives the value.
fn set<T>(slot: &mut T, value: Option<T>) {
    if let Some(value) = value {
        *slot = value;
    }
}

/// `retrieval`: its name only; a vector search's parameters are in `[vector]`.
#[derive(Debug, Clone, Copy, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
enum RawRetrieval {
    Lexical,
    Vector,
    Semantic,
}

/// `[vector]`: the embedder and the index of `retrieval = "vector"`, the recall share beside
/// the index's name.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct RawVector {
    embedder: String,
    index: RawVectorIndex,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    min_recall_percent: Option<u8>,
}

#[derive(Debug, Clone, Copy, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
enum RawVectorIndex {
    Exact,
    Approximate,
}

/// `"unlimited"` or a number of entries.
#[derive(Debug, Clone, Copy, Deserialize, Serialize)]
#[serde(untagged)]
enum RawLimit {
    AtMost(u32),
    Named(RawUnlimited),
}

#[derive(Debug, Clone, Copy, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
enum RawUnlimited {
    Unlimited,
}

/// `order`: [`Order::Insertion`]'s flag is a name of its own.
#[derive(Debug, Clone, Copy, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
enum RawOrder {
    Unordered,
    Insertion,
    InsertionIntegerIdsFirst,
    MatchedTerms,
    Relevance,
}

impl RawOrder {
    fn order(self) -> Order {
        match self {
            Self::Unordered => Order::Unordered,
            Self::Insertion => Order::Insertion {
                integer_ids_first: false,
            },
            Self::InsertionIntegerIdsFirst => Order::Insertion {
                integer_ids_first: true,
            },
            Self::MatchedTerms => Order::MatchedTerms,
            Self::Relevance => Order::Relevance,
        }
    }

    fn of(order: Order) -> Self {
        match order {
            Order::Unordered => Self::Unordered,
            Order::Insertion {
                integer_ids_first: false,
            } => Self::Insertion,
            Order::Insertion {
                integer_ids_first: true,
            } => Self::InsertionIntegerIdsFirst,
            Order::MatchedTerms => Self::MatchedTerms,
            Order::Relevance => Self::Relevance,
        }
    }
}

/// `[dropped_words]`: the stop words as a list, the shortest query term asked as a number;
/// each key is left out where it drops nothing, and the table where neither does.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct RawDroppedWords {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    stop_words: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    shorter_than: Option<usize>,
}

impl RawDroppedWords {
    fn of(dropped: &DroppedWords) -> Option<Self> {
        (!dropped.is_none()).then(|| Self {
            stop_words: (!dropped.stop_words.is_empty())
                .then(|| dropped.stop_words.iter().cloned().collect()),
            shorter_than: dropped.shorter_than,
        })
    }

    /// The value the table declares; `Err` names the key and what is wrong. Each value has
    /// one spelling: an empty list, a repeated word or an empty table is refused.
    fn read(self) -> Result<DroppedWords, String> {
        let words = self.stop_words.unwrap_or_default();
        if words.is_empty() && self.shorter_than.is_none() {
            return Err(
                "table `[dropped_words]` drops nothing: give `stop_words` or \
                        `shorter_than`, or leave the table out"
                    .into(),
            );
        }
        let mut dropped = DroppedWords::stop_words(words.iter().cloned());
        if dropped.stop_words.len() != words.len() {
            let mut seen = std::collections::HashSet::new();
            let twice = words.iter().find(|w| !seen.insert(*w)).cloned();
            return Err(format!(
                "field `dropped_words.stop_words` names {:?} twice: name each stop word once",
                twice.unwrap_or_default()
            ));
        }
        dropped.shorter_than = self.shorter_than;
        match dropped.refusal() {
            Some(problem) => Err(format!("field {problem}")),
            None => Ok(dropped),
        }
    }
}

/// Whether `profile` (its retrieval and query terms already read) can declare `stemming`;
/// `Err` names the key and why not.
fn read_stemming(profile: &Profile, stemming: Stemming) -> Result<(), String> {
    if stemming == Stemming::None {
        return Ok(());
    }
    if !profile.is_lexical() {
        return Err(
            "field `stemming` is for `retrieval = \"lexical\"`: the kit stems words \
                    only where it matches them"
                .into(),
        );
    }
    if matches!(profile.query_terms, QueryTerms::Substrings { .. }) {
        return Err(
            "field `stemming` compares words, and `query_terms = substrings` matches \
                    no word (a term is found inside the stored text): leave one out"
                .into(),
        );
    }
    if !stemming.is_built() {
        return Err(
            "field `stemming`: this build of the kit has no stemmer; turn on its \
                    `stemming` feature (in its default `harness` feature)"
                .into(),
        );
    }
    Ok(())
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct RawViolation {
    rule: String,
    reason: String,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    intermittent: bool,
}

#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct RawGate {
    #[serde(skip_serializing_if = "Option::is_none")]
    cases: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    seed: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    op_timeout_seconds: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rules_as_of: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    recall_at_5: Option<f64>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    recall_at_5_by_kind: BTreeMap<String, f64>,
}

impl RawGate {
    fn is_empty(&self) -> bool {
        self.cases.is_none()
            && self.seed.is_none()
            && self.op_timeout_seconds.is_none()
            && self.rules_as_of.is_none()
            && self.recall_at_5.is_none()
            && self.recall_at_5_by_kind.is_empty()
    }

    /// The recall floor the table declares; `Err` names the key and what is wrong.
    fn recall_floor(&self) -> Result<RecallFloor, String> {
        let share = |key: String, value: f64| {
            if (0.0..=1.0).contains(&value) {
                Ok(value)
            } else {
                Err(format!(
                    "field `{key}`: {value} is not a share from 0 to 1 (0.8 means 80% of the answers within the first five)"
                ))
            }
        };
        let mut floor = RecallFloor::default();
        if let Some(min) = self.recall_at_5 {
            floor = RecallFloor::recall_at_5(share("gate.recall_at_5".into(), min)?);
        }
        for (name, &min) in &self.recall_at_5_by_kind {
            let key = format!("gate.recall_at_5_by_kind.{name}");
            let kind = QuestionKind::parse(name).map_err(|err| format!("field `{key}`: {err}"))?;
            if kind == QuestionKind::ToolOnly {
                return Err(format!(
                    "field `{key}`: nothing in indexed text answers a tool-only question, so it has no recall to floor"
                ));
            }
            floor = floor.kind(kind, share(key, min)?);
        }
        Ok(floor)
    }
}

impl RawFile {
    pub(super) fn into_file(self) -> Result<ProfileFile, String> {
        match self.format {
            Some(PROFILE_FORMAT) => {}
            Some(other) => {
                return Err(format!(
                    "field `format`: this kit reads profile format {PROFILE_FORMAT}, not {other}"
                ));
            }
            None => {
                return Err(format!(
                    "field `format` is missing: start the file with `format = {PROFILE_FORMAT}`"
                ));
            }
        }
        let mut profile = self.start()?;
        if let Some(name) = self.name {
            if name.trim().is_empty() {
                return Err("field `name`: the profile needs a name".into());
            }
            profile.name = name;
        }
        if let Some(provenance) = self.provenance {
            profile.provenance = provenance;
        } else if let Some(extends) = &self.extends {
            profile.provenance = format!("extends {extends}");
        }
        if let Some(retrieval) = RawRetrieval::read(self.retrieval, self.vector)? {
            profile.retrieval = retrieval;
        }
        if self.key == Some(KeyScheme::JoinedWith('/')) {
            return Err(
                "field `key`: a key joined with `/` is written `key = \"joined-with-slash\"`"
                    .into(),
            );
        }
        set(&mut profile.key, self.key);
        set(&mut profile.readd, self.readd);
        set(&mut profile.multi_word, self.multi_word);
        set(&mut profile.case_mapping, self.case_mapping);
        set(&mut profile.tool_data, self.tool_data);
        set(&mut profile.timestamps, self.timestamps);
        set(&mut profile.strings, self.strings);
        set(&mut profile.blank_query, self.blank_query);
        set(&mut profile.duplicates, self.duplicates);
        set(&mut profile.event_ids, self.event_ids);
        set(&mut profile.blank_events, self.blank_events);
        set(&mut profile.event_words, self.event_words);
        set(&mut profile.query_terms, self.query_terms);
        if let Some(dropped) = self.dropped_words {
            if !profile.is_lexical() {
                return Err(
                    "table `[dropped_words]` is for `retrieval = \"lexical\"`: the kit \
                            drops words only where it matches them"
                        .into(),
                );
            }
            profile.dropped_words = dropped.read()?;
        }
        if let Some(stemming) = self.stemming {
            read_stemming(&profile, stemming)?;
            profile.stemming = stemming;
        }
        if let Some(value) = self.limit {
            profile.limit = match value {
                RawLimit::AtMost(0) => {
                    return Err("field `limit`: a limit of 0 returns nothing; give at least 1, or \"unlimited\"".into());
                }
                RawLimit::AtMost(n) => Limit::AtMost(n as usize),
                RawLimit::Named(RawUnlimited::Unlimited) => Limit::Unlimited,
            };
        }
        if let Some(value) = self.order {
            profile.order = value.order();
        }
        if let Some(millis) = self.visible_within_ms {
            profile.visibility = match millis {
                0 => Visibility::Immediate,
                millis => Visibility::Within { millis },
            };
        }
        if let Some(capabilities) = self.capabilities {
            if capabilities.delete && !capabilities.entry_ids {
                return Err(
                    "field `capabilities.delete`: deleting takes an entry's id, so \
                            `entry_ids = true` must be declared too"
                        .into(),
                );
            }
            profile.capabilities = capabilities;
        }
        let gate = self.gate.unwrap_or_default();
        let recall_floor = gate.recall_floor()?;
        let rules_as_of = gate
            .rules_as_of
            .as_deref()
            .map(|version| {
                version
                    .parse::<RuleSetVersion>()
                    .map_err(|problem| format!("field `gate.rules_as_of`: {problem}"))
            })
            .transpose()?;
        let (intermittent, plain): (Vec<RawViolation>, Vec<RawViolation>) = self
            .known_violation
            .into_iter()
            .partition(|v| v.intermittent);
        let known_violations = plain
            .into_iter()
            .map(|v| KnownViolation::declared(v.rule, v.reason))
            .chain(
                intermittent
                    .into_iter()
                    .map(|v| KnownViolation::intermittent(v.rule, v.reason)),
            )
            .collect();
        Ok(ProfileFile {
            profile,
            known_violations,
            cases: gate.cases,
            seed: gate.seed,
            op_timeout_seconds: gate.op_timeout_seconds,
            rules_as_of,
            recall_floor,
        })
    }

    /// The profile the file's dimensions change: the preset it extends, or, without
    /// `extends`, one whose every dimension the file must give.
    fn start(&self) -> Result<Profile, String> {
        if let Some(name) = &self.extends {
            return presets()
                .into_iter()
                .find(|p| &p.name == name)
                .ok_or_else(|| {
                    let names: Vec<String> = presets().into_iter().map(|p| p.name).collect();
                    format!(
                        "field `extends`: no preset is called {name:?}; the presets are {}",
                        names.join(", ")
                    )
                });
        }
        let missing: Vec<&str> = [
            ("name", self.name.is_none()),
            (Retrieval::KEY, self.retrieval.is_none()),
            (KeyScheme::KEY, self.key.is_none()),
            (Readd::KEY, self.readd.is_none()),
            (MultiWord::KEY, self.multi_word.is_none()),
            (ToolData::KEY, self.tool_data.is_none()),
            (Limit::KEY, self.limit.is_none()),
            (Order::KEY, self.order.is_none()),
            (WordRule::KEY, self.event_words.is_none()),
            (QueryTerms::KEY, self.query_terms.is_none()),
        ]
        .into_iter()
        .filter_map(|(field, missing)| missing.then_some(field))
        .collect();
        if !missing.is_empty() {
            return Err(format!(
                "without `extends`, every dimension must be given; missing: {}",
                missing.join(", ")
            ));
        }
        // Every dimension is the file's; the contract's defaults stand for timestamps and
        // visibility, and a call beyond the two is claimed only where it says so.
        Ok(Profile {
            provenance: "a profile file".into(),
            capabilities: Capabilities::default(),
            ..Profile::reference()
        })
    }

    pub(super) fn from_file(file: &ProfileFile) -> Self {
        let p = &file.profile;
        let gate = RawGate {
            cases: file.cases,
            seed: file.seed,
            op_timeout_seconds: file.op_timeout_seconds,
            rules_as_of: file.rules_as_of.map(|version| version.to_string()),
            recall_at_5: file.recall_floor.overall(),
            recall_at_5_by_kind: file
                .recall_floor
                .kinds()
                .iter()
                .map(|(kind, min)| (kind.name().to_owned(), *min))
                .collect(),
        };
        Self {
            format: Some(PROFILE_FORMAT),
            extends: None,
            name: Some(p.name.clone()),
            provenance: Some(p.provenance.clone()),
            retrieval: Some(match p.retrieval {
                Retrieval::Lexical => RawRetrieval::Lexical,
                Retrieval::Vector(_) => RawRetrieval::Vector,
                Retrieval::Semantic => RawRetrieval::Semantic,
            }),
            vector: p.vector().map(RawVector::of),
            key: Some(p.key),
            readd: Some(p.readd),
            multi_word: Some(p.multi_word),
            // Written only where it departs from the full mapping, so files stay as they were.
            case_mapping: (p.case_mapping != CaseMapping::default()).then_some(p.case_mapping),
            stemming: (p.stemming != Stemming::default()).then_some(p.stemming),
            tool_data: Some(p.tool_data),
            limit: Some(match p.limit {
                Limit::Unlimited => RawLimit::Named(RawUnlimited::Unlimited),
                Limit::AtMost(n) => RawLimit::AtMost(u32::try_from(n).unwrap_or(u32::MAX)),
            }),
            order: Some(RawOrder::of(p.order)),
            // Written only where they depart from the contract, so files stay as they were.
            timestamps: (p.timestamps != Timestamps::default()).then_some(p.timestamps),
            strings: (p.strings != Strings::default()).then_some(p.strings),
            blank_query: (p.blank_query != BlankQuery::default()).then_some(p.blank_query),
            duplicates: (p.duplicates != Duplicates::default()).then_some(p.duplicates),
            event_ids: (p.event_ids != EventIds::default()).then_some(p.event_ids),
            blank_events: (p.blank_events != BlankEvents::default()).then_some(p.blank_events),
            visible_within_ms: match p.visibility {
                Visibility::Immediate => None,
                Visibility::Within { millis } => Some(millis),
            },
            event_words: Some(p.event_words),
            query_terms: Some(p.query_terms),
            dropped_words: RawDroppedWords::of(&p.dropped_words),
            capabilities: Some(p.capabilities),
            known_violation: file
                .known_violations
                .iter()
                .map(|violation| RawViolation {
                    rule: violation.rule_id().to_owned(),
                    reason: violation.reason().to_owned(),
                    intermittent: violation.is_intermittent(),
                })
                .collect(),
            gate: (!gate.is_empty()).then_some(gate),
        }
    }
}

impl RawRetrieval {
    /// The retrieval `retrieval` and `[vector]` declare together, if they declare one.
    fn read(
        retrieval: Option<Self>,
        vector: Option<RawVector>,
    ) -> Result<Option<Retrieval>, String> {
        let Some(retrieval) = retrieval else {
            return match vector {
                Some(_) => Err("table `[vector]` needs `retrieval = \"vector\"`".into()),
                None => Ok(None),
            };
        };
        Ok(Some(match (retrieval, vector) {
            (Self::Lexical, None) => Retrieval::Lexical,
            (Self::Semantic, None) => Retrieval::Semantic,
            (Self::Vector, Some(vector)) => Retrieval::Vector(vector.into_search()?),
            (Self::Vector, None) => {
                return Err(
                    "field `retrieval` is \"vector\": say which embedder and index \
                            in a `[vector]` table (`embedder = \"hashed-256\"`, \
                            `index = \"exact\"`)"
                        .into(),
                );
            }
            (_, Some(_)) => {
                return Err("table `[vector]` is only for `retrieval = \"vector\"`".into());
            }
        }))
    }
}

impl RawVector {
    fn of(vector: &VectorSearch) -> Self {
        let (index, min_recall_percent) = match vector.index {
            VectorIndex::Exact => (RawVectorIndex::Exact, None),
            VectorIndex::Approximate { min_recall_percent } => {
                (RawVectorIndex::Approximate, Some(min_recall_percent))
            }
        };
        Self {
            embedder: vector.embedder.clone(),
            index,
            min_recall_percent,
        }
    }

    fn into_search(self) -> Result<VectorSearch, String> {
        if self.embedder.trim().is_empty() {
            return Err("field `vector.embedder`: name the embedder (`hashed-256`)".into());
        }
        match (self.index, self.min_recall_percent) {
            (RawVectorIndex::Exact, None) => Ok(VectorSearch::exact(self.embedder)),
            (RawVectorIndex::Exact, Some(_)) => Err(
                "field `vector.min_recall_percent` is for `index = \"approximate\"`: an exact \
                 index finds every nearest event"
                    .into(),
            ),
            (RawVectorIndex::Approximate, Some(percent @ 1..=100)) => {
                Ok(VectorSearch::approximate(self.embedder, percent))
            }
            (RawVectorIndex::Approximate, _) => Err(
                "field `vector.min_recall_percent`: an approximate index declares the share of \
                 the nearest events it finds, from 1 to 100"
                    .into(),
            ),
        }
    }
}
