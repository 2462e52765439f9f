//! A recall floor a gate declares: the least recall@5 it accepts, overall or per kind.

use super::question_kind::QuestionKind;

/// The least recall@5 on the recall benchmark a gate accepts, over all questions and for
/// given kinds. A run below it fails, naming the questions it did not answer.
///
/// ```
/// use memory_conformance::benchmark::{QuestionKind, RecallFloor};
/// let floor = RecallFloor::recall_at_5(0.8).kind(QuestionKind::Paraphrase, 0.5);
/// assert_eq!(floor.to_string(), "recall@5 at least 0.80 overall, 0.50 on paraphrase");
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RecallFloor {
    overall: Option<f64>,
    kinds: Vec<(QuestionKind, f64)>,
}

impl RecallFloor {
    /// At least `min` recall@5 over all questions (0 to 1).
    pub fn recall_at_5(min: f64) -> Self {
        Self {
            overall: Some(min),
            kinds: Vec::new(),
        }
    }

    /// Also at least `min` recall@5 on the questions of `kind`.
    #[must_use]
    pub fn kind(mut self, kind: QuestionKind, min: f64) -> Self {
        self.kinds.retain(|(k, _)| *k != kind);
        self.kinds.push((kind, min));
        self
    }

    /// The least recall@5 over all questions, if declared.
    pub fn overall(&self) -> Option<f64> {
        self.overall
    }

    /// The least recall@5 declared per kind, in the order declared.
    pub fn kinds(&self) -> &[(QuestionKind, f64)] {
        &self.kinds
    }

    /// Whether it declares anything.
    pub fn is_empty(&self) -> bool {
        self.overall.is_none() && self.kinds.is_empty()
    }
}

impl std::fmt::Display for RecallFloor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut parts = Vec::new();
        if let Some(min) = self.overall {
            parts.push(format!("{min:.2} overall"));
        }
        parts.extend(
            self.kinds
                .iter()
                .map(|(k, min)| format!("{min:.2} on {}", k.name())),
        );
        write!(f, "recall@5 at least {}", parts.join(", "))
    }
}
