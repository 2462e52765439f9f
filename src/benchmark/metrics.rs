//! Recall@k, MRR and the share of unanswerable questions that return nothing.

use serde::Serialize;

use super::question_kind::QuestionKind;
use super::run::{BenchmarkRun, QuestionResult};

/// The benchmark's figures over a set of questions.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Metrics {
    /// Questions counted.
    pub questions: usize,
    /// Of them, the ones an indexed event answers.
    pub answerable: usize,
    /// The mean over answerable questions of the share of answering events in the top 1.
    pub recall_at_1: f64,
    /// ... in the top 5.
    pub recall_at_5: f64,
    /// ... in the top 10.
    pub recall_at_10: f64,
    /// The mean over answerable questions of 1 / the rank of the first answering entry.
    pub mrr: f64,
    /// The same, 0 for a question whose first answering entry is beyond the first 10 (as
    /// LoCoMo's figures are usually given).
    pub mrr_at_10: f64,
    /// Of the questions nothing answers, the share that returned nothing; `None` when there
    /// are none.
    pub unanswerable_empty: Option<f64>,
}

impl Metrics {
    /// The figures of `results`.
    pub fn of<'a>(results: impl IntoIterator<Item = &'a QuestionResult>) -> Self {
        let results: Vec<&QuestionResult> = results.into_iter().collect();
        let answerable: Vec<&&QuestionResult> =
            results.iter().filter(|r| r.is_answerable()).collect();
        let mean = |f: &dyn Fn(&QuestionResult) -> f64| {
            if answerable.is_empty() {
                0.0
            } else {
                answerable.iter().map(|r| f(r)).sum::<f64>() / answerable.len() as f64
            }
        };
        let unanswerable: Vec<&&QuestionResult> =
            results.iter().filter(|r| !r.is_answerable()).collect();
        Self {
            questions: results.len(),
            answerable: answerable.len(),
            recall_at_1: mean(&|r| r.recall_at(1).unwrap_or(0.0)),
            recall_at_5: mean(&|r| r.recall_at(5).unwrap_or(0.0)),
            recall_at_10: mean(&|r| r.recall_at(10).unwrap_or(0.0)),
            mrr: mean(&|r| r.reciprocal_rank()),
            mrr_at_10: mean(&|r| r.reciprocal_rank_within(10)),
            unanswerable_empty: (!unanswerable.is_empty()).then(|| {
                unanswerable
                    .iter()
                    .filter(|r| r.returned.is_empty() && r.error.is_none())
                    .count() as f64
                    / unanswerable.len() as f64
            }),
        }
    }
}

impl BenchmarkRun {
    /// The figures over every question.
    pub fn overall(&self) -> Metrics {
        Metrics::of(&self.results)
    }

    /// The figures over the questions of `kind`.
    pub fn of_kind(&self, kind: QuestionKind) -> Metrics {
        Metrics::of(self.results.iter().filter(|r| r.kind == kind))
    }

    /// The headline figures: over the questions of the data set's
    /// [headline kinds](super::Dataset::headline_kinds) (every question of version 1,
    /// LoCoMo's categories 1 to 4).
    pub fn headline(&self) -> Metrics {
        let kinds = self.dataset.headline_kinds();
        Metrics::of(self.results.iter().filter(|r| kinds.contains(&r.kind)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(answers: &[&str], returned: &[&str]) -> QuestionResult {
        QuestionResult {
            question: "q".into(),
            text: "q?".into(),
            kind: QuestionKind::ExactWord,
            answers: answers.iter().map(|s| (*s).to_owned()).collect(),
            returned: returned.iter().map(|s| (*s).to_owned()).collect(),
            error: None,
        }
    }

    #[test]
    fn recall_and_mrr_count_answers_by_rank_and_unanswerable_questions_apart() {
        let results = [
            result(&["a"], &["a", "x"]),
            result(&["a", "b"], &["x", "x", "b", "x", "x", "a"]),
            result(&["a"], &[]),
            result(&[], &[]),
            result(&[], &["x"]),
        ];
        let m = Metrics::of(&results);
        assert_eq!((m.questions, m.answerable), (5, 3));
        assert!((m.recall_at_1 - 1.0 / 3.0).abs() < 1e-12);
        // a: 1, b-question: b at 3 (a at 6 is beyond 5) = 1/2, missed: 0.
        assert!((m.recall_at_5 - 0.5).abs() < 1e-12);
        assert!((m.recall_at_10 - 2.0 / 3.0).abs() < 1e-12);
        assert!((m.mrr - (1.0 + 1.0 / 3.0) / 3.0).abs() < 1e-12);
        assert!((m.mrr_at_10 - m.mrr).abs() < 1e-12);
        let late = Metrics::of(&[result(
            &["a"],
            &["x"; 10].iter().chain(&["a"]).copied().collect::<Vec<_>>(),
        )]);
        assert!((late.mrr - 1.0 / 11.0).abs() < 1e-12 && late.mrr_at_10 == 0.0);
        assert_eq!(m.unanswerable_empty, Some(0.5));
        assert!(results[1].found_at(3) && !results[1].found_at(2));
        assert_eq!(Metrics::of(&[]).unanswerable_empty, None);
    }
}
