//! The labelled data of the recall benchmark: users' histories and the questions asked of them.

use serde::Deserialize;
use serde_json::{Map, Value};

use super::question_kind::QuestionKind;
use crate::{Content, Event, Part, Session, Timestamp};

/// The benchmark's data, version 1 (`src/benchmark/v1.json`, described in
/// `docs/recall-benchmark.md`).
const V1: &str = include_str!("v1.json");

/// Which labelled data a benchmark is: the kit's own version 1, or LoCoMo.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Dataset {
    /// The kit's recall benchmark, version 1 (`src/benchmark/v1.json`): a per-kind behaviour
    /// diagnostic, each kind built to separate two kinds of backend.
    #[default]
    V1,
    /// LoCoMo (Maharana et al., ACL 2024), `locomo10.json`, read at run time
    /// (`Benchmark::locomo`, with the `locomo` feature).
    Locomo,
}

impl Dataset {
    /// The name the command line takes (`--dataset v1`, `--dataset locomo`).
    pub fn name(self) -> &'static str {
        match self {
            Self::V1 => "v1",
            Self::Locomo => "locomo",
        }
    }

    /// Its question kinds, in report order.
    ///
    /// ```
    /// use memory_conformance::benchmark::{Dataset, QuestionKind};
    /// assert_eq!(Dataset::V1.kinds().len(), 10);
    /// assert_eq!(Dataset::Locomo.kinds().last(), Some(&QuestionKind::Adversarial));
    /// ```
    pub fn kinds(self) -> &'static [QuestionKind] {
        match self {
            Self::V1 => &QuestionKind::ALL[..10],
            Self::Locomo => &QuestionKind::ALL[10..],
        }
    }

    /// The kinds its headline figures are over: every kind of version 1; LoCoMo's categories
    /// 1 to 4, adversarial questions (category 5) apart, as LoCoMo's retrieval figures are
    /// usually given.
    pub fn headline_kinds(self) -> &'static [QuestionKind] {
        match self {
            Self::V1 => self.kinds(),
            Self::Locomo => &QuestionKind::ALL[10..14],
        }
    }

    /// What the headline figures are over, for a title: empty when it is every question.
    pub fn headline_scope(self) -> &'static str {
        match self {
            Self::V1 => "",
            Self::Locomo => ", categories 1-4 (adversarial questions apart)",
        }
    }

    /// How a run's text names the data, `version` being the run's.
    pub fn describe(self, version: u32) -> String {
        match self {
            Self::V1 => format!("Recall benchmark version {version}"),
            Self::Locomo => "LoCoMo (locomo10.json)".to_owned(),
        }
    }
}

/// One question: who asks it, in which words, and the events that answer it.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[non_exhaustive]
pub struct Question {
    /// A stable id, `q-001`.
    pub id: String,
    /// The user whose memory is searched (under the benchmark's app name).
    pub user_id: String,
    /// What the question tests.
    pub kind: QuestionKind,
    /// The query, as an agent would pass it to memory search.
    pub question: String,
    /// The ids of the events that answer it; empty when nothing in indexed text answers it.
    pub answers: Vec<String>,
    /// Events a later one replaced: they once answered it.
    #[serde(default)]
    pub stale: Vec<String>,
    /// Why the labels are what they are.
    #[serde(default)]
    pub note: String,
}

impl Question {
    /// Whether an indexed event answers it.
    pub fn is_answerable(&self) -> bool {
        !self.answers.is_empty()
    }
}

/// The recall benchmark: histories and labelled questions.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Benchmark {
    /// Which data it is.
    pub dataset: Dataset,
    /// The data's version: results are comparable only within one version.
    pub version: u32,
    /// The app name every history is stored under.
    pub app_name: String,
    /// Every user's sessions, in the order they are added.
    pub sessions: Vec<Session>,
    /// Every question, in id order.
    pub questions: Vec<Question>,
    /// Labels the data gives that name no event, left out: (question id, the label as
    /// written). Empty for version 1, whose labels all name an event.
    pub dropped_labels: Vec<(String, String)>,
    /// Questions left out because no label of theirs names an event.
    pub unlabelled: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBenchmark {
    version: u32,
    app_name: String,
    users: Vec<RawUser>,
    questions: Vec<Question>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawUser {
    user_id: String,
    #[allow(dead_code)]
    setting: String,
    sessions: Vec<RawSession>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSession {
    id: String,
    start: Timestamp,
    #[serde(default)]
    state: Map<String, Value>,
    events: Vec<RawEvent>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEvent {
    id: String,
    author: String,
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    function_call: Option<RawCall>,
    #[serde(default)]
    function_response: Option<RawResponse>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCall {
    name: String,
    args: Value,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawResponse {
    name: String,
    response: Value,
}

impl Benchmark {
    /// Version 1: 7 users, 50 sessions, 457 events and 274 questions in 10 kinds.
    ///
    /// ```
    /// let benchmark = memory_conformance::benchmark::Benchmark::v1();
    /// assert_eq!(benchmark.version, 1);
    /// assert!(benchmark.questions.len() >= 150);
    /// ```
    pub fn v1() -> Self {
        Self::parse(V1).unwrap_or_else(|err| panic!("src/benchmark/v1.json: {err}"))
    }

    /// Reads benchmark data in the format of `docs/recall-benchmark.md`.
    pub fn parse(json: &str) -> Result<Self, String> {
        let raw: RawBenchmark = serde_json::from_str(json).map_err(|err| err.to_string())?;
        let mut sessions = Vec::new();
        for user in raw.users {
            for session in user.sessions {
                let mut stored =
                    Session::new(raw.app_name.clone(), user.user_id.clone(), session.id);
                stored.state = session.state;
                for (i, event) in session.events.into_iter().enumerate() {
                    let at = session
                        .start
                        .checked_add(jiff::SignedDuration::from_secs(i as i64))
                        .map_err(|err| format!("event {}: {err}", event.id))?;
                    let part = match (event.text, event.function_call, event.function_response) {
                        (Some(text), None, None) => Part::text(text),
                        (None, Some(call), None) => Part::function_call(call.name, call.args),
                        (None, None, Some(answer)) => {
                            Part::function_response(answer.name, answer.response)
                        }
                        _ => {
                            return Err(format!(
                                "event {} needs exactly one of text, function_call, function_response",
                                event.id
                            ));
                        }
                    };
                    stored.events.push(
                        Event::new(event.author, Some(Content::new(vec![part])))
                            .with_id(event.id)
                            .at(at),
                    );
                }
                sessions.push(stored);
            }
        }
        Ok(Self {
            dataset: Dataset::V1,
            version: raw.version,
            app_name: raw.app_name,
            sessions,
            questions: raw.questions,
            dropped_labels: Vec::new(),
            unlabelled: Vec::new(),
        })
    }

    /// The first event with id `id`, and the session it belongs to. Ids are unique within a
    /// user; version 1's are unique overall, LoCoMo's (`D1:3`) repeat in every conversation.
    pub fn event(&self, id: &str) -> Option<(&Session, &Event)> {
        self.sessions
            .iter()
            .find_map(|s| s.events.iter().find(|e| e.id == id).map(|e| (s, e)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_one_reads_with_every_label_pointing_at_a_text_event_of_its_user() {
        let benchmark = Benchmark::v1();
        assert_eq!(benchmark.sessions.len(), 50);
        let events: usize = benchmark.sessions.iter().map(|s| s.events.len()).sum();
        assert_eq!(events, 457);
        assert_eq!(benchmark.questions.len(), 274);
        for question in &benchmark.questions {
            for id in question.answers.iter().chain(&question.stale) {
                let (session, event) = benchmark
                    .event(id)
                    .unwrap_or_else(|| panic!("{}: no event {id}", question.id));
                assert_eq!(session.user_id, question.user_id, "{}: {id}", question.id);
                assert!(event.has_text(), "{}: {id} has no text", question.id);
            }
        }
        for &kind in Dataset::V1.kinds() {
            let n = benchmark
                .questions
                .iter()
                .filter(|q| q.kind == kind)
                .count();
            assert!(n >= 16, "{} has {n} questions", kind.name());
        }
    }

    #[test]
    fn bad_data_is_refused_with_what_is_wrong() {
        let err = Benchmark::parse(r#"{"version": 1}"#).unwrap_err();
        assert!(err.contains("missing field `app_name`"), "{err}");
        let two = r#"{"version": 1, "app_name": "a", "questions": [], "users": [{"user_id": "u",
            "setting": "", "sessions": [{"id": "s", "start": "2026-01-01T00:00:00Z",
            "events": [{"id": "e", "author": "user", "text": "hi", "function_call": {"name": "f", "args": {}}}]}]}]}"#;
        let err = Benchmark::parse(two).unwrap_err();
        assert_eq!(
            err,
            "event e needs exactly one of text, function_call, function_response"
        );
    }
}
