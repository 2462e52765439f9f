//! Whether a run of the recall benchmark reaches the [`RecallFloor`] a gate declares.

use std::fmt::Write as _;

use super::compare::FOUND_WITHIN;
use super::floor::RecallFloor;
use super::question_kind::QuestionKind;
use super::run::BenchmarkRun;

impl RecallFloor {
    /// `Ok` when `run` reaches every declared floor; else which floors it falls below, and
    /// the answerable questions (of the kinds concerned) whose answers it did not all return
    /// within the first five.
    pub fn check(&self, run: &BenchmarkRun) -> Result<(), String> {
        let mut below = Vec::new();
        let mut kinds_below: Vec<Option<QuestionKind>> = Vec::new();
        if let Some(min) = self.overall() {
            let got = run.overall().recall_at_5;
            if got < min {
                below.push(format!(
                    "recall@5 over all questions is {got:.2}, below {min:.2}"
                ));
                kinds_below.push(None);
            }
        }
        for &(kind, min) in self.kinds() {
            let got = run.of_kind(kind).recall_at_5;
            if got < min {
                below.push(format!(
                    "recall@5 on {} is {got:.2}, below {min:.2}",
                    kind.name()
                ));
                kinds_below.push(Some(kind));
            }
        }
        if below.is_empty() {
            return Ok(());
        }
        let mut out = format!(
            "{} falls below its declared recall floor on the recall benchmark version {}: {}\n",
            run.backend,
            run.version,
            below.join("; ")
        );
        let concerned =
            |kind: QuestionKind| kinds_below.iter().any(|k| k.is_none_or(|k| k == kind));
        let lost: Vec<_> = run
            .results
            .iter()
            .filter(|r| concerned(r.kind) && r.recall_at(FOUND_WITHIN).is_some_and(|x| x < 1.0))
            .collect();
        let _ = writeln!(
            out,
            "questions whose answers are not all within the first {FOUND_WITHIN} ({}):",
            lost.len()
        );
        for result in lost {
            let _ = writeln!(
                out,
                "  {} ({}) {:?}: {}; answered by {}",
                result.question,
                result.kind.name(),
                result.text,
                result
                    .first_answer()
                    .map_or("no answer returned".to_owned(), |r| format!(
                        "first answer at rank {r}"
                    )),
                result.answers.join(", ")
            );
        }
        Err(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::benchmark::QuestionResult;

    fn result(id: &str, kind: QuestionKind, answers: &[&str], returned: &[&str]) -> QuestionResult {
        QuestionResult {
            question: id.into(),
            text: format!("question {id}"),
            kind,
            answers: answers.iter().map(|s| (*s).to_owned()).collect(),
            returned: returned.iter().map(|s| (*s).to_owned()).collect(),
            error: None,
        }
    }

    /// Paraphrase: one of two found (recall@5 0.5); number-id: found; overall 0.75.
    fn run() -> BenchmarkRun {
        BenchmarkRun {
            backend: "b".into(),
            dataset: crate::benchmark::Dataset::V1,
            version: 1,
            results: vec![
                result("q-1", QuestionKind::Paraphrase, &["e1"], &["e1"]),
                result(
                    "q-2",
                    QuestionKind::Paraphrase,
                    &["e2"],
                    &["x", "x", "x", "x", "x", "e2"],
                ),
                result("q-3", QuestionKind::NumberId, &["e3"], &["e3"]),
                result("q-4", QuestionKind::NumberId, &["e4"], &["e4"]),
                result("q-5", QuestionKind::ToolOnly, &[], &["x"]),
            ],
            in_event_id_order: false,
        }
    }

    #[test]
    fn a_run_at_or_above_every_floor_passes() {
        let floor = RecallFloor::recall_at_5(0.75).kind(QuestionKind::Paraphrase, 0.5);
        assert_eq!(floor.check(&run()), Ok(()));
    }

    #[test]
    fn a_run_below_a_floor_fails_naming_the_questions_of_the_kinds_below() {
        let err = RecallFloor::recall_at_5(0.5)
            .kind(QuestionKind::Paraphrase, 0.6)
            .check(&run())
            .unwrap_err();
        assert_eq!(
            err,
            "b falls below its declared recall floor on the recall benchmark version 1: recall@5 on paraphrase is 0.50, below 0.60\n\
             questions whose answers are not all within the first 5 (1):\n  \
             q-2 (paraphrase) \"question q-2\": first answer at rank 6; answered by e2\n"
        );
        let err = RecallFloor::recall_at_5(0.8).check(&run()).unwrap_err();
        assert!(
            err.contains("over all questions is 0.75, below 0.80"),
            "{err}"
        );
        assert!(
            err.contains("q-2 (paraphrase)") && !err.contains("q-5"),
            "{err}"
        );
    }
}
