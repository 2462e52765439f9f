//! The kinds of question of the recall benchmark. With the [`RecallFloor`](super::RecallFloor)
//! that names them, all of the benchmark a gate's declaration needs: the rest (the data, the
//! runs) comes with the `harness` feature.

use serde::Deserialize;

/// One question kind: what separates backends on it.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize, serde::Serialize,
)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum QuestionKind {
    /// The question shares the answer's key word exactly.
    ExactWord,
    /// Only another form of a word is shared (`coffees`, `booked`).
    Inflection,
    /// A synonym or paraphrase, little or no word shared.
    Paraphrase,
    /// Numbers and identifiers (order numbers, flight codes, versions).
    NumberId,
    /// Punctuation or hyphenation that matters (`flat-white`, `C++`, `coffee?`).
    Punctuation,
    /// Accents and non-Latin scripts.
    NonLatin,
    /// The fact is only in tool data or session state: unanswerable from indexed text.
    ToolOnly,
    /// A later session replaced the fact: the newest is the answer.
    Replaced,
    /// The answer needs events from two or more sessions.
    CrossSession,
    /// Words shared with events that do not answer, or no answer at all.
    Distractor,
    /// LoCoMo category 1: the answer joins facts from several turns.
    MultiHop,
    /// LoCoMo category 2: when something happened.
    Temporal,
    /// LoCoMo category 3: the answer needs knowledge beyond the conversation as well.
    OpenDomain,
    /// LoCoMo category 4: one turn answers it.
    SingleHop,
    /// LoCoMo category 5: a question about something that did not happen as asked (it
    /// names the wrong person, say); the labelled turns hold what did happen.
    Adversarial,
}

impl QuestionKind {
    /// Every kind, in report order: the recall benchmark version 1's ([`Dataset::V1`]), then
    /// LoCoMo's categories 1 to 5 ([`Dataset::Locomo`]).
    pub const ALL: [QuestionKind; 15] = [
        Self::ExactWord,
        Self::Inflection,
        Self::Paraphrase,
        Self::NumberId,
        Self::Punctuation,
        Self::NonLatin,
        Self::ToolOnly,
        Self::Replaced,
        Self::CrossSession,
        Self::Distractor,
        Self::MultiHop,
        Self::Temporal,
        Self::OpenDomain,
        Self::SingleHop,
        Self::Adversarial,
    ];

    /// The kind's name, as the data spells it (`exact-word`).
    pub fn name(self) -> &'static str {
        match self {
            Self::ExactWord => "exact-word",
            Self::Inflection => "inflection",
            Self::Paraphrase => "paraphrase",
            Self::NumberId => "number-id",
            Self::Punctuation => "punctuation",
            Self::NonLatin => "non-latin",
            Self::ToolOnly => "tool-only",
            Self::Replaced => "replaced",
            Self::CrossSession => "cross-session",
            Self::Distractor => "distractor",
            Self::MultiHop => "multi-hop",
            Self::Temporal => "temporal",
            Self::OpenDomain => "open-domain",
            Self::SingleHop => "single-hop",
            Self::Adversarial => "adversarial",
        }
    }

    /// The kind a name spells ([`QuestionKind::name`]); `Err` lists the names.
    ///
    /// ```
    /// use memory_conformance::benchmark::QuestionKind;
    /// assert_eq!(QuestionKind::parse("number-id"), Ok(QuestionKind::NumberId));
    /// assert!(QuestionKind::parse("numbers").unwrap_err().contains("number-id"));
    /// ```
    pub fn parse(name: &str) -> Result<Self, String> {
        Self::ALL
            .into_iter()
            .find(|k| k.name() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = Self::ALL.iter().map(|k| k.name()).collect();
                format!(
                    "{name:?} is not a question kind; the kinds are: {}",
                    names.join(", ")
                )
            })
    }
}
