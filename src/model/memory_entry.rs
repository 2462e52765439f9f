use jiff::Timestamp;
use serde::{Deserialize, Serialize};

use crate::{Content, Event};

/// One search result, as in ADK's `MemoryEntry`: the content of a stored event with its
/// author and timestamp.
///
/// ```
/// use memory_conformance::{Event, MemoryEntry, Timestamp};
/// let event = Event::text("user", "hi").at("2026-01-01T00:00:01.25Z".parse::<Timestamp>().unwrap());
/// let entry = MemoryEntry::from_event(&event).unwrap();
/// assert_eq!(entry.author.as_deref(), Some("user"));
/// assert_eq!(entry.timestamp.as_deref(), Some("2026-01-01T00:00:01.250Z"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct MemoryEntry {
    /// The event's content, all parts, unchanged.
    pub content: Content,
    /// The event's author, when the backend keeps it.
    #[serde(default)]
    pub author: Option<String>,
    /// The event's time as an RFC 3339 UTC string with milliseconds and a `Z`
    /// (`2026-01-01T00:00:01.250Z`), when the backend keeps it.
    #[serde(default)]
    pub timestamp: Option<String>,
}

impl MemoryEntry {
    /// An entry holding `content`, without author or timestamp.
    pub fn new(content: Content) -> Self {
        Self {
            content,
            author: None,
            timestamp: None,
        }
    }

    /// The same entry with `author` set.
    #[must_use]
    pub fn with_author(mut self, author: impl Into<String>) -> Self {
        self.author = Some(author.into());
        self
    }

    /// The same entry with `timestamp` set, verbatim.
    #[must_use]
    pub fn with_timestamp(mut self, timestamp: impl Into<String>) -> Self {
        self.timestamp = Some(timestamp.into());
        self
    }

    /// The entry the reference backend returns for `event`: its content, author and
    /// [formatted](Self::format_timestamp) timestamp; `None` when the event has no content.
    pub fn from_event(event: &Event) -> Option<Self> {
        let content = event.content.clone()?;
        Some(
            Self::new(content)
                .with_author(event.author.clone())
                .with_timestamp(Self::format_timestamp(event.timestamp)),
        )
    }

    /// Formats an instant the way entries carry it: RFC 3339, UTC, milliseconds, `Z`.
    ///
    /// ```
    /// use memory_conformance::{MemoryEntry, Timestamp};
    /// let t = Timestamp::from_millisecond(1_767_225_601_250).unwrap();
    /// assert_eq!(MemoryEntry::format_timestamp(t), "2026-01-01T00:00:01.250Z");
    /// ```
    pub fn format_timestamp(timestamp: Timestamp) -> String {
        timestamp.strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string()
    }
}

/// The answer to a search: the matching entries, as in ADK's `SearchMemoryResponse`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct SearchMemoryResponse {
    /// The entries found, in the backend's order.
    #[serde(default)]
    pub memories: Vec<MemoryEntry>,
}

impl SearchMemoryResponse {
    /// A response holding `memories`.
    pub fn new(memories: Vec<MemoryEntry>) -> Self {
        Self { memories }
    }
}
