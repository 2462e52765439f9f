use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::{Content, Part};

/// One event of a session, as in ADK's `Event`: who wrote it, what it holds and when.
///
/// Every constructor gives the event a fresh id (unique within the process) and the current
/// time; [`Event::at`] pins the time for reproducible tests.
///
/// ```
/// use memory_conformance::{Event, Timestamp};
/// let event = Event::text("user", "My favourite coffee is a flat white.")
///     .at("2026-01-01T00:00:01.250Z".parse::<Timestamp>().unwrap());
/// assert_eq!(event.author, "user");
/// assert_eq!(event.timestamp.to_string(), "2026-01-01T00:00:01.25Z");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Event {
    /// The event's id.
    pub id: String,
    /// Who wrote it (`"user"`, an agent's name, `"model"`).
    pub author: String,
    /// What it holds; `None` for events such as state changes that carry no content.
    #[serde(default)]
    pub content: Option<Content>,
    /// When it happened, a UTC instant (nanosecond precision; RFC 3339 in JSON).
    pub timestamp: Timestamp,
}

impl Event {
    /// An event holding `content` (or none), with a fresh id and the current time.
    pub fn new(author: impl Into<String>, content: Option<Content>) -> Self {
        Self {
            id: next_event_id(),
            author: author.into(),
            content,
            timestamp: Timestamp::now(),
        }
    }

    /// An event with one text part.
    pub fn text(author: impl Into<String>, text: impl Into<String>) -> Self {
        Self::new(author, Some(Content::text(text)))
    }

    /// An event with the given parts.
    pub fn with_parts(author: impl Into<String>, parts: Vec<Part>) -> Self {
        Self::new(author, Some(Content::new(parts)))
    }

    /// An event with one function-call part.
    pub fn function_call(author: impl Into<String>, name: impl Into<String>, args: Value) -> Self {
        Self::with_parts(author, vec![Part::function_call(name, args)])
    }

    /// An event with one function-response part.
    pub fn function_response(
        author: impl Into<String>,
        name: impl Into<String>,
        response: Value,
    ) -> Self {
        Self::with_parts(author, vec![Part::function_response(name, response)])
    }

    /// An event with one inline-data part.
    pub fn inline_data(
        author: impl Into<String>,
        mime_type: impl Into<String>,
        data: impl Into<Vec<u8>>,
    ) -> Self {
        Self::with_parts(author, vec![Part::inline_data(mime_type, data)])
    }

    /// An event without content.
    pub fn without_content(author: impl Into<String>) -> Self {
        Self::new(author, None)
    }

    /// The same event at `timestamp`.
    #[must_use]
    pub fn at(mut self, timestamp: Timestamp) -> Self {
        self.timestamp = timestamp;
        self
    }

    /// The same event with `id`.
    #[must_use]
    pub fn with_id(mut self, id: impl Into<String>) -> Self {
        self.id = id.into();
        self
    }

    /// Whether the event carries at least one non-empty text part.
    pub fn has_text(&self) -> bool {
        self.content.as_ref().is_some_and(Content::has_text)
    }
}

fn next_event_id() -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    static PROCESS: OnceLock<u64> = OnceLock::new();
    let process = *PROCESS.get_or_init(|| {
        let nanos = Timestamp::now().as_nanosecond() as u64;
        nanos ^ u64::from(std::process::id()).rotate_left(32)
    });
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    format!("e-{:08x}-{n}", process as u32)
}
