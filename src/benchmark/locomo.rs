//! LoCoMo (Maharana et al., "Evaluating Very Long-Term Conversational Memory of LLM Agents",
//! ACL 2024) read into the benchmark's model, from `locomo10.json` at run time.
//!
//! The data is CC BY-NC 4.0, not this crate's licence: it is never bundled, only read from a
//! path ([`locomo_path`]), and its SHA-256 is pinned ([`LOCOMO_SHA256`]), so every figure is
//! computed on the same file.
//!
//! How it maps:
//!
//! - each conversation (`sample_id`, `conv-26`) is one user, under the app name `locomo`;
//! - each LoCoMo session (`session_3`) is one session, `conv-26-session-3`, starting at its
//!   `session_3_date_time` (read as UTC), one second between turns;
//! - each turn is one event: its `dia_id` (`D3:7`) is the event id, its `speaker` the event's
//!   author, its `text` the event's only part. A shared photo's `blip_caption` is left out:
//!   it is a machine caption of an image, not something said, and an agent would store the
//!   image itself, which no backend indexes as text. The speaker's name is not written into
//!   the text: a backend that indexes `Event.author` sees it, one that indexes text parts
//!   only does not, which is what a user of each gets;
//! - each question is one question of its conversation's user, its `category` its kind
//!   (1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial), its `evidence`
//!   its answering events: each entry split on `;`, an id that names no turn of the
//!   conversation dropped ([`Benchmark::dropped_labels`]), and a question left with none left
//!   out ([`Benchmark::unlabelled`]).

use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use super::dataset::{Benchmark, Dataset, Question};
use super::question_kind::QuestionKind;
use crate::{Content, Event, Part, Session, Timestamp};

/// The SHA-256 of the unmodified `locomo10.json` (2,805,274 bytes).
pub const LOCOMO_SHA256: &str = "79fa87e90f04081343b8c8debecb80a9a6842b76a7aa537dc9fdf651ea698ff4";

/// Where `locomo10.json` comes from.
pub const LOCOMO_SOURCE: &str = "https://github.com/snap-research/locomo, commit 3eb6f2c585f5e1699204e3c3bdf7adc5c28cb376, data/locomo10.json (CC BY-NC 4.0)";

/// The environment variable naming `locomo10.json`'s path, when it is not at the default place.
pub const LOCOMO_ENV: &str = "MEMORY_CONFORMANCE_LOCOMO";

/// The app name every conversation is stored under.
const APP_NAME: &str = "locomo";

/// Where `locomo10.json` is read from: [`LOCOMO_ENV`] when set, else
/// `../shared/data/locomo/locomo10.json` from the repository's root.
///
/// ```
/// let path = memory_conformance::benchmark::locomo_path();
/// assert!(path.ends_with("locomo10.json") || std::env::var_os("MEMORY_CONFORMANCE_LOCOMO").is_some());
/// ```
pub fn locomo_path() -> PathBuf {
    std::env::var_os(LOCOMO_ENV).map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/locomo/locomo10.json"),
        PathBuf::from,
    )
}

/// Why LoCoMo cannot be read from `path`, with where to get it, when it is not there; `None`
/// when the file exists.
pub fn locomo_missing(path: &Path) -> Option<String> {
    (!path.is_file()).then(|| {
        format!(
            "LoCoMo is not at {} (set {LOCOMO_ENV} to its path); get locomo10.json from {LOCOMO_SOURCE}",
            path.display()
        )
    })
}

#[derive(Deserialize)]
struct RawSample {
    sample_id: String,
    conversation: Map<String, Value>,
    qa: Vec<RawQuestion>,
}

#[derive(Deserialize)]
struct RawTurn {
    speaker: String,
    dia_id: String,
    text: String,
}

#[derive(Deserialize)]
struct RawQuestion {
    question: String,
    #[serde(default)]
    evidence: Vec<String>,
    category: u8,
}

impl Benchmark {
    /// LoCoMo from `path`, its SHA-256 checked against [`LOCOMO_SHA256`]. `Err` names the
    /// file and says what is wrong: absent (and where to get it), another digest, or where
    /// the data is not LoCoMo's.
    pub fn locomo(path: &Path) -> Result<Self, String> {
        if let Some(missing) = locomo_missing(path) {
            return Err(missing);
        }
        let bytes = std::fs::read(path)
            .map_err(|err| format!("cannot read LoCoMo at {}: {err}", path.display()))?;
        let digest: String = Sha256::digest(&bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        if digest != LOCOMO_SHA256 {
            return Err(format!(
                "{} has SHA-256 {digest} ({} bytes), not the pinned {LOCOMO_SHA256}: it is not the unmodified locomo10.json of {LOCOMO_SOURCE}",
                path.display(),
                bytes.len()
            ));
        }
        let text = std::str::from_utf8(&bytes)
            .map_err(|err| format!("{}: not UTF-8: {err}", path.display()))?;
        Self::parse_locomo(text).map_err(|err| format!("{}: {err}", path.display()))
    }

    /// LoCoMo's JSON (the format of `locomo10.json`), without the digest check; `Err` says
    /// where the data is not in that format.
    ///
    /// ```
    /// use memory_conformance::benchmark::{Benchmark, QuestionKind};
    /// let json = r#"[{"sample_id": "conv-1", "conversation": {
    ///     "speaker_a": "Ana", "speaker_b": "Ben",
    ///     "session_1_date_time": "1:56 pm on 8 May, 2023",
    ///     "session_1": [{"speaker": "Ana", "dia_id": "D1:1", "text": "I adopted a cat."}]},
    ///   "qa": [{"question": "What did Ana adopt?", "answer": "a cat", "evidence": ["D1:1; D9:9"], "category": 4}]}]"#;
    /// let benchmark = Benchmark::parse_locomo(json).unwrap();
    /// assert_eq!(benchmark.questions[0].answers, ["D1:1"]);
    /// assert_eq!(benchmark.questions[0].kind, QuestionKind::SingleHop);
    /// assert_eq!(benchmark.dropped_labels, [("conv-1-q001".to_owned(), "D9:9".to_owned())]);
    /// ```
    pub fn parse_locomo(json: &str) -> Result<Self, String> {
        let samples: Vec<RawSample> =
            serde_json::from_str(json).map_err(|err| format!("not LoCoMo's format: {err}"))?;
        let mut benchmark = Self {
            dataset: Dataset::Locomo,
            version: 1,
            app_name: APP_NAME.to_owned(),
            sessions: Vec::new(),
            questions: Vec::new(),
            dropped_labels: Vec::new(),
            unlabelled: Vec::new(),
        };
        for (n, sample) in samples.into_iter().enumerate() {
            let at = format!("conversation {} ({})", n + 1, sample.sample_id);
            let sessions = sessions_of(&sample.sample_id, &sample.conversation)
                .map_err(|err| format!("{at}: {err}"))?;
            let ids: std::collections::HashSet<&str> = sessions
                .iter()
                .flat_map(|s| &s.events)
                .map(|e| e.id.as_str())
                .collect();
            for (i, raw) in sample.qa.into_iter().enumerate() {
                let id = format!("{}-q{:03}", sample.sample_id, i + 1);
                let kind = match raw.category {
                    1 => QuestionKind::MultiHop,
                    2 => QuestionKind::Temporal,
                    3 => QuestionKind::OpenDomain,
                    4 => QuestionKind::SingleHop,
                    5 => QuestionKind::Adversarial,
                    other => {
                        return Err(format!(
                            "{at}, question {} ({id}): category {other}, expected 1 to 5",
                            i + 1
                        ));
                    }
                };
                let mut answers: Vec<String> = Vec::new();
                for label in raw.evidence.iter().flat_map(|e| e.split(';')) {
                    let label = label.trim();
                    if ids.contains(label) {
                        if !answers.iter().any(|a| a == label) {
                            answers.push(label.to_owned());
                        }
                    } else {
                        benchmark
                            .dropped_labels
                            .push((id.clone(), label.to_owned()));
                    }
                }
                if answers.is_empty() {
                    benchmark.unlabelled.push(id);
                    continue;
                }
                benchmark.questions.push(Question {
                    id,
                    user_id: sample.sample_id.clone(),
                    kind,
                    question: raw.question,
                    answers,
                    stale: Vec::new(),
                    note: String::new(),
                });
            }
            benchmark.sessions.extend(sessions);
        }
        Ok(benchmark)
    }
}

/// The sessions of one conversation, in session-number order.
fn sessions_of(user: &str, conversation: &Map<String, Value>) -> Result<Vec<Session>, String> {
    let mut numbers: Vec<u32> = conversation
        .keys()
        .filter_map(|key| key.strip_prefix("session_")?.parse().ok())
        .collect();
    numbers.sort_unstable();
    let mut sessions = Vec::with_capacity(numbers.len());
    for number in numbers {
        let key = format!("session_{number}");
        let date_key = format!("{key}_date_time");
        let turns: Vec<RawTurn> =
            serde_json::from_value(conversation[&key].clone()).map_err(|err| {
                format!("{key}: expected a list of turns with speaker, dia_id and text: {err}")
            })?;
        let start = match conversation.get(&date_key) {
            Some(Value::String(date)) => {
                parse_date(date).map_err(|err| format!("{date_key}: {err}"))?
            }
            _ => {
                return Err(format!(
                    "{date_key}: expected the session's date, as \"1:56 pm on 8 May, 2023\""
                ));
            }
        };
        let mut session = Session::new(APP_NAME, user, format!("{user}-session-{number}"));
        for (i, turn) in turns.into_iter().enumerate() {
            let at = start
                .checked_add(jiff::SignedDuration::from_secs(i as i64))
                .map_err(|err| format!("{key}, turn {}: {err}", i + 1))?;
            session.events.push(
                Event::new(
                    turn.speaker,
                    Some(Content::new(vec![Part::text(turn.text)])),
                )
                .with_id(turn.dia_id)
                .at(at),
            );
        }
        sessions.push(session);
    }
    Ok(sessions)
}

/// `1:56 pm on 8 May, 2023`, as UTC.
fn parse_date(text: &str) -> Result<Timestamp, String> {
    let expected = || format!("{text:?} is not a date as \"1:56 pm on 8 May, 2023\"");
    let (time, date) = text.split_once(" on ").ok_or_else(expected)?;
    let (clock, half) = time.trim().split_once(' ').ok_or_else(expected)?;
    let (hour, minute) = clock.split_once(':').ok_or_else(expected)?;
    let hour: i8 = hour.parse().map_err(|_| expected())?;
    let minute: i8 = minute.parse().map_err(|_| expected())?;
    let hour = match (half.to_ascii_lowercase().as_str(), hour) {
        ("am", 12) => 0,
        ("am", 1..=11) => hour,
        ("pm", 12) => 12,
        ("pm", 1..=11) => hour + 12,
        _ => return Err(expected()),
    };
    let mut words = date.split([' ', ',']).filter(|w| !w.is_empty());
    let (Some(day), Some(month), Some(year), None) =
        (words.next(), words.next(), words.next(), words.next())
    else {
        return Err(expected());
    };
    const MONTHS: [&str; 12] = [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ];
    let month = MONTHS
        .iter()
        .position(|m| m.eq_ignore_ascii_case(month))
        .ok_or_else(expected)?;
    let day: i8 = day.parse().map_err(|_| expected())?;
    let year: i16 = year.parse().map_err(|_| expected())?;
    jiff::civil::DateTime::new(year, month as i8 + 1, day, hour, minute, 0, 0)
        .and_then(|at| jiff::tz::Offset::UTC.to_timestamp(at))
        .map_err(|err| format!("{text:?}: {err}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn session_dates_read_as_utc() {
        assert_eq!(
            parse_date("1:56 pm on 8 May, 2023").unwrap().to_string(),
            "2023-05-08T13:56:00Z"
        );
        assert_eq!(
            parse_date("12:09 am on 13 September, 2023")
                .unwrap()
                .to_string(),
            "2023-09-13T00:09:00Z"
        );
        let err = parse_date("13:56 pm on 8 May, 2023").unwrap_err();
        assert!(
            err.contains("not a date as \"1:56 pm on 8 May, 2023\""),
            "{err}"
        );
        assert!(parse_date("1:56 pm on 31 February, 2023").is_err());
    }

    #[test]
    fn turns_become_events_and_labels_that_name_no_turn_are_dropped_and_counted() {
        let json = r#"[{"sample_id": "c", "conversation": {"speaker_a": "A", "speaker_b": "B",
            "session_2_date_time": "9:00 am on 2 May, 2023",
            "session_2": [{"speaker": "B", "dia_id": "D2:1", "text": "later", "blip_caption": "a photo of a cat"}],
            "session_1_date_time": "9:00 am on 1 May, 2023",
            "session_1": [{"speaker": "A", "dia_id": "D1:1", "text": "hi"},
                          {"speaker": "B", "dia_id": "D1:2", "text": "hello"}]},
          "qa": [{"question": "q1", "answer": "x", "evidence": ["D1:2; D2:1", "D"], "category": 1},
                 {"question": "q2", "answer": "x", "evidence": [], "category": 4},
                 {"question": "q3", "adversarial_answer": "x", "evidence": ["D1:1"], "category": 5}]}]"#;
        let b = Benchmark::parse_locomo(json).unwrap();
        assert_eq!(b.dataset, Dataset::Locomo);
        let ids: Vec<&str> = b.sessions.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids, ["c-session-1", "c-session-2"]);
        let first = &b.sessions[0].events[1];
        assert_eq!((first.id.as_str(), first.author.as_str()), ("D1:2", "B"));
        assert_eq!(
            first.content.as_ref().unwrap().texts().collect::<Vec<_>>(),
            ["hello"]
        );
        assert_eq!(first.timestamp.to_string(), "2023-05-01T09:00:01Z");
        let caption = &b.sessions[1].events[0];
        assert_eq!(
            caption
                .content
                .as_ref()
                .unwrap()
                .texts()
                .collect::<Vec<_>>(),
            ["later"]
        );
        assert_eq!(b.questions.len(), 2);
        assert_eq!(b.questions[0].answers, ["D1:2", "D2:1"]);
        assert_eq!(b.questions[1].kind, QuestionKind::Adversarial);
        assert_eq!(b.dropped_labels, [("c-q001".to_owned(), "D".to_owned())]);
        assert_eq!(b.unlabelled, ["c-q002"]);
    }

    #[test]
    fn bad_data_names_the_conversation_and_what_was_expected() {
        let err = Benchmark::parse_locomo("{}").unwrap_err();
        assert!(
            err.starts_with("not LoCoMo's format: invalid type: map"),
            "{err}"
        );
        let json = r#"[{"sample_id": "c", "conversation": {"session_1": []}, "qa": []}]"#;
        assert_eq!(
            Benchmark::parse_locomo(json).unwrap_err(),
            "conversation 1 (c): session_1_date_time: expected the session's date, as \"1:56 pm on 8 May, 2023\""
        );
        let json = r#"[{"sample_id": "c", "conversation": {}, "qa": [{"question": "q", "evidence": [], "category": 7}]}]"#;
        assert_eq!(
            Benchmark::parse_locomo(json).unwrap_err(),
            "conversation 1 (c), question 1 (c-q001): category 7, expected 1 to 5"
        );
        let json = r#"[{"sample_id": "c", "conversation": {"session_1_date_time": "9:00 am on 1 May, 2023", "session_1": [{"speaker": "A"}]}, "qa": []}]"#;
        let err = Benchmark::parse_locomo(json).unwrap_err();
        assert!(
            err.starts_with("conversation 1 (c): session_1: expected a list of turns with speaker, dia_id and text: missing field `dia_id`"),
            "{err}"
        );
    }

    #[test]
    fn an_absent_or_changed_file_is_refused_naming_it_and_where_to_get_it() {
        let absent = Path::new("/nonexistent/locomo10.json");
        let err = Benchmark::locomo(absent).unwrap_err();
        assert!(err.contains("/nonexistent/locomo10.json"), "{err}");
        assert!(err.contains("snap-research/locomo"), "{err}");
        let dir = std::env::temp_dir().join(format!("locomo-changed-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let changed = dir.join("locomo10.json");
        std::fs::write(&changed, "[]").unwrap();
        let err = Benchmark::locomo(&changed).unwrap_err();
        std::fs::remove_dir_all(&dir).unwrap();
        assert!(
            err.contains(LOCOMO_SHA256) && err.contains("(2 bytes)"),
            "{err}"
        );
    }
}
