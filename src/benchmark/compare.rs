//! Two runs question by question: the guide's "measure recall before and after".

use std::fmt::Write as _;

use serde::Serialize;

use super::run::BenchmarkRun;

/// How many entries a question's answer must be among to count as found.
pub const FOUND_WITHIN: usize = 5;

/// The questions one run finds and another does not, and the figures of both.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Comparison {
    /// The run before.
    pub before: String,
    /// The run after.
    pub after: String,
    /// Answerable questions found (an answer in the first [`FOUND_WITHIN`]) after, not before.
    pub gained: Vec<String>,
    /// Answerable questions found before, not after.
    pub lost: Vec<String>,
    /// Unanswerable questions that returned nothing before and something after.
    pub now_return_something: Vec<String>,
    /// Unanswerable questions that returned something before and nothing after.
    pub now_return_nothing: Vec<String>,
}

impl Comparison {
    /// `after` against `before`, question by question (both of one benchmark version).
    pub fn between(before: &BenchmarkRun, after: &BenchmarkRun) -> Result<Self, String> {
        if (before.dataset, before.version) != (after.dataset, after.version) {
            return Err(format!(
                "{} ran {} and {} ran {}: results compare only within one data set and version",
                before.backend,
                before.dataset.describe(before.version),
                after.backend,
                after.dataset.describe(after.version)
            ));
        }
        let mut comparison = Self {
            before: before.backend.clone(),
            after: after.backend.clone(),
            gained: Vec::new(),
            lost: Vec::new(),
            now_return_something: Vec::new(),
            now_return_nothing: Vec::new(),
        };
        for (b, a) in before.results.iter().zip(&after.results) {
            if b.is_answerable() {
                match (b.found_at(FOUND_WITHIN), a.found_at(FOUND_WITHIN)) {
                    (false, true) => comparison.gained.push(a.question.clone()),
                    (true, false) => comparison.lost.push(a.question.clone()),
                    _ => {}
                }
            } else {
                match (b.returned.is_empty(), a.returned.is_empty()) {
                    (true, false) => comparison.now_return_something.push(a.question.clone()),
                    (false, true) => comparison.now_return_nothing.push(a.question.clone()),
                    _ => {}
                }
            }
        }
        Ok(comparison)
    }

    /// The comparison for a person: the figures side by side, then the questions.
    pub fn render(&self, before: &BenchmarkRun, after: &BenchmarkRun) -> String {
        let (b, a) = (before.headline(), after.headline());
        let mut out = format!(
            "{} -> {} on {}{}\n\n",
            self.before,
            self.after,
            before.dataset.describe(before.version),
            before.dataset.headline_scope()
        );
        let row = |name: &str, x: f64, y: f64| {
            format!("  {name:<10} {x:>6.3} -> {y:>6.3} ({:+.3})\n", y - x)
        };
        out.push_str(&row("recall@1", b.recall_at_1, a.recall_at_1));
        out.push_str(&row("recall@5", b.recall_at_5, a.recall_at_5));
        out.push_str(&row("recall@10", b.recall_at_10, a.recall_at_10));
        out.push_str(&row("MRR", b.mrr, a.mrr));
        out.push_str(&row("MRR@10", b.mrr_at_10, a.mrr_at_10));
        let rank = |run: &BenchmarkRun, id: &str| {
            run.results
                .iter()
                .find(|r| r.question == id)
                .map_or("-".to_owned(), |r| match (&r.error, r.first_answer()) {
                    (Some(_), _) => "error".to_owned(),
                    (None, Some(rank)) => format!("rank {rank}"),
                    (None, None) if r.is_answerable() => "missed".to_owned(),
                    (None, None) => format!("{} returned", r.returned.len()),
                })
        };
        let mut section = |title: String, ids: &[String]| {
            let _ = writeln!(out, "\n{title} ({}):", ids.len());
            if ids.is_empty() {
                out.push_str("  none\n");
            }
            for id in ids {
                let Some(result) = after.results.iter().find(|r| &r.question == id) else {
                    continue;
                };
                let _ = writeln!(
                    out,
                    "  {id} ({}) {:?}: {} -> {}",
                    result.kind.name(),
                    result.text,
                    rank(before, id),
                    rank(after, id)
                );
            }
        };
        section(
            format!("gained: answered within the first {FOUND_WITHIN} after, not before"),
            &self.gained,
        );
        section(
            format!("lost: answered within the first {FOUND_WITHIN} before, not after"),
            &self.lost,
        );
        section(
            "unanswerable questions that now return something".to_owned(),
            &self.now_return_something,
        );
        section(
            "unanswerable questions that now return nothing".to_owned(),
            &self.now_return_nothing,
        );
        out
    }
}
