//! Running the benchmark against a backend: what it returned for every question.

use serde::{Deserialize, Serialize};

use std::collections::HashMap;

use super::dataset::{Benchmark, Dataset, Question};
use super::question_kind::QuestionKind;
use crate::{Content, MemoryService, SearchOptions};

/// What one backend returned for every question of the benchmark.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct BenchmarkRun {
    /// The backend.
    pub backend: String,
    /// Which data it ran on.
    #[serde(default)]
    pub dataset: Dataset,
    /// The benchmark's version.
    pub version: u32,
    /// One result per question, in the benchmark's order.
    pub results: Vec<QuestionResult>,
    /// Whether each question's entries were put in event-id order
    /// ([`BenchmarkRun::in_event_id_order`]), because the backend promises no order.
    #[serde(default)]
    pub in_event_id_order: bool,
}

/// What a backend returned for one question.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct QuestionResult {
    /// The question's id.
    pub question: String,
    /// The question as asked.
    pub text: String,
    /// Its kind.
    pub kind: QuestionKind,
    /// The ids of the events that answer it.
    pub answers: Vec<String>,
    /// The event id of each entry returned, in the backend's order; `?` for an entry that is
    /// no event of the user's history.
    pub returned: Vec<String>,
    /// The backend's error, if the search failed.
    pub error: Option<String>,
}

impl QuestionResult {
    /// Whether an indexed event answers the question.
    pub fn is_answerable(&self) -> bool {
        !self.answers.is_empty()
    }

    /// The 1-based rank of the first answering entry, if one was returned.
    pub fn first_answer(&self) -> Option<usize> {
        self.returned
            .iter()
            .position(|id| self.answers.contains(id))
            .map(|i| i + 1)
    }

    /// The share of the answering events among the first `k` entries; `None` for a question
    /// nothing answers.
    pub fn recall_at(&self, k: usize) -> Option<f64> {
        if self.answers.is_empty() {
            return None;
        }
        let found = self
            .answers
            .iter()
            .filter(|answer| self.returned.iter().take(k).any(|id| id == *answer))
            .count();
        Some(found as f64 / self.answers.len() as f64)
    }

    /// 1 / the rank of the first answering entry, 0 when none came back.
    pub fn reciprocal_rank(&self) -> f64 {
        self.first_answer().map_or(0.0, |rank| 1.0 / rank as f64)
    }

    /// [`reciprocal_rank`](QuestionResult::reciprocal_rank), 0 when the first answering entry
    /// is beyond the first `k`.
    pub fn reciprocal_rank_within(&self, k: usize) -> f64 {
        match self.first_answer() {
            Some(rank) if rank <= k => 1.0 / rank as f64,
            _ => 0.0,
        }
    }

    /// Whether the question is found: an answering event among the first `k` entries.
    pub fn found_at(&self, k: usize) -> bool {
        self.first_answer().is_some_and(|rank| rank <= k)
    }
}

impl BenchmarkRun {
    /// Adds every session of `benchmark` to `backend` (a fresh, empty store), then asks every
    /// question; `Err` when an add fails (nothing can be measured then).
    pub async fn of(
        benchmark: &Benchmark,
        backend_name: &str,
        backend: &dyn MemoryService,
    ) -> Result<Self, String> {
        Self::with_options(benchmark, backend_name, backend, &SearchOptions::default()).await
    }

    /// [`BenchmarkRun::of`], every question searched with `options` (a limit where the backend
    /// takes one).
    pub async fn with_options(
        benchmark: &Benchmark,
        backend_name: &str,
        backend: &dyn MemoryService,
        options: &SearchOptions,
    ) -> Result<Self, String> {
        for session in &benchmark.sessions {
            backend
                .add_session_to_memory(session)
                .await
                .map_err(|err| format!("adding session {:?} failed: {err}", session.id))?;
        }
        let ids = EventIds::of(benchmark);
        let mut results = Vec::with_capacity(benchmark.questions.len());
        for question in &benchmark.questions {
            let found = if options.is_default() {
                backend
                    .search_memory(&benchmark.app_name, &question.user_id, &question.question)
                    .await
            } else {
                backend
                    .search_memory_with(
                        &benchmark.app_name,
                        &question.user_id,
                        &question.question,
                        options,
                    )
                    .await
            };
            results.push(match found {
                Ok(found) => QuestionResult {
                    returned: found
                        .memories
                        .iter()
                        .map(|entry| ids.of_content(&question.user_id, &entry.content))
                        .collect(),
                    error: None,
                    ..Self::blank(question)
                },
                Err(err) => QuestionResult {
                    error: Some(err.backend_reason()),
                    ..Self::blank(question)
                },
            });
        }
        Ok(Self {
            backend: backend_name.to_owned(),
            dataset: benchmark.dataset,
            version: benchmark.version,
            results,
            in_event_id_order: false,
        })
    }

    /// The run with each question's entries in event-id order: for a backend that promises
    /// no order (its profile's `order = unordered`, a hash map's iteration say), whose own
    /// order changes from run to run, so that its figures and pins are the same every run.
    /// Its recall@k and MRR then count its entries in that order, not in one it chose. Where
    /// such a backend also cuts to a limit, which entries survive the cut changes too: run it
    /// with a limit above the benchmark's size ([`BenchmarkRun::with_options`]) where it
    /// takes one.
    #[must_use]
    pub fn in_event_id_order(mut self) -> Self {
        for result in &mut self.results {
            result.returned.sort();
        }
        self.in_event_id_order = true;
        self
    }

    fn blank(question: &Question) -> QuestionResult {
        QuestionResult {
            question: question.id.clone(),
            text: question.question.clone(),
            kind: question.kind,
            answers: question.answers.clone(),
            returned: Vec::new(),
            error: None,
        }
    }

    /// Every question's result as one line, in order: the text a recall snapshot pins, so a
    /// change of backend shows the questions it gained and lost.
    pub fn per_question(&self) -> String {
        let mut out = format!(
            "{} against {}: the first answering entry of each question (of the entries returned{}).\n\n",
            self.dataset.describe(self.version),
            self.backend,
            if self.in_event_id_order {
                ", put in event-id order: the backend promises no order"
            } else {
                ""
            }
        );
        for result in &self.results {
            let outcome = match (&result.error, result.is_answerable(), result.first_answer()) {
                (Some(err), ..) => format!("error: {err}"),
                (None, true, Some(rank)) => format!(
                    "answer at {rank}; {} of {} answers in the top 10",
                    result
                        .recall_at(10)
                        .map_or(0, |r| (r * result.answers.len() as f64).round() as usize),
                    result.answers.len()
                ),
                (None, true, None) => "missed".to_owned(),
                (None, false, _) if result.returned.is_empty() => {
                    "unanswerable: nothing".to_owned()
                }
                (None, false, _) => "unanswerable: returned something".to_owned(),
            };
            out.push_str(&format!(
                "{} {:<13} {outcome} ({} returned)\n",
                result.question,
                result.kind.name(),
                result.returned.len()
            ));
        }
        out
    }
}

/// Each user's events by content: which event an entry returned is.
struct EventIds<'a> {
    /// (user id, the content as JSON) to the id of the first such event of the user.
    by_content: HashMap<(&'a str, String), &'a str>,
}

impl<'a> EventIds<'a> {
    fn of(benchmark: &'a Benchmark) -> Self {
        let mut by_content = HashMap::new();
        for session in &benchmark.sessions {
            for event in &session.events {
                if let Some(key) = event.content.as_ref().and_then(Content::entry_key) {
                    by_content
                        .entry((session.user_id.as_str(), key))
                        .or_insert(event.id.as_str());
                }
            }
        }
        Self { by_content }
    }

    /// The id of `user`'s first event whose content `content` is, or `?`.
    fn of_content(&self, user: &str, content: &Content) -> String {
        content
            .entry_key()
            .and_then(|key| self.by_content.get(&(user, key)))
            .map_or_else(|| "?".to_owned(), |id| (*id).to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unordered_run_is_put_in_event_id_order_and_says_so() {
        let run = BenchmarkRun {
            backend: "b".into(),
            dataset: Dataset::V1,
            version: 1,
            results: vec![QuestionResult {
                question: "q-1".into(),
                text: "coffee".into(),
                kind: QuestionKind::ExactWord,
                answers: vec!["e-2".into()],
                returned: vec!["e-3".into(), "e-2".into(), "e-1".into()],
                error: None,
            }],
            in_event_id_order: false,
        };
        assert_eq!(run.results[0].first_answer(), Some(2));
        let sorted = run.in_event_id_order();
        assert_eq!(sorted.results[0].returned, ["e-1", "e-2", "e-3"]);
        assert!(sorted.per_question().contains("put in event-id order"));
    }
}
