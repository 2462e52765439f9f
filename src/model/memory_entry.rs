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
    /// The memory's id, when the backend gives entries one (the `entry_ids` capability): what
    /// [`MemoryService::delete_memory`](crate::MemoryService::delete_memory) takes. The
    /// reference gives an event's entry the event's id, as ADK Python's in-memory service does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
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
            id: None,
            content,
            author: None,
            timestamp: None,
        }
    }

    /// The same entry with `id` set.
    #[must_use]
    pub fn with_id(mut self, id: impl Into<String>) -> Self {
        self.id = Some(id.into());
        self
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
        let civil = jiff::tz::Offset::UTC.to_datetime(timestamp);
        let year = civil.year();
        if !(1000..=9999).contains(&year) {
            return timestamp.strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string();
        }
        // The same text as the `strftime` above, written digit by digit: entries are made for
        // every stored event, and `strftime` reads its format string on each call.
        let fields = [
            (i32::from(year), 4, b'-'),
            (i32::from(civil.month()), 2, b'-'),
            (i32::from(civil.day()), 2, b'T'),
            (i32::from(civil.hour()), 2, b':'),
            (i32::from(civil.minute()), 2, b':'),
            (i32::from(civil.second()), 2, b'.'),
            (civil.subsec_nanosecond() / 1_000_000, 3, b'Z'),
        ];
        let mut text = [0_u8; 24];
        let mut at = 0;
        for (mut value, width, separator) in fields {
            for digit in (0..width).rev() {
                text[at + digit] = b'0' + (value % 10) as u8;
                value /= 10;
            }
            text[at + width] = separator;
            at += width + 1;
        }
        String::from_utf8_lossy(&text).into_owned()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_format_as_strftime_does() {
        let strftime = |t: Timestamp| t.strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string();
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let mut instants = vec![
            Timestamp::UNIX_EPOCH,
            Timestamp::MIN,
            Timestamp::MAX,
            "0999-12-31T23:59:59.999999999Z".parse().unwrap(),
            "1000-01-01T00:00:00Z".parse().unwrap(),
            "9999-12-30T21:59:59.999Z".parse().unwrap(),
            "2026-01-01T00:00:01.250Z".parse().unwrap(),
            "1969-12-31T23:59:59.000000001Z".parse().unwrap(),
        ];
        for _ in 0..10_000 {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let span = Timestamp::MAX.as_second() - Timestamp::MIN.as_second();
            let second = Timestamp::MIN.as_second() + (seed >> 1) as i64 % span;
            let nanos = (seed % 1_000_000_000) as i32 * i32::from(!seed.is_multiple_of(3));
            instants.extend(Timestamp::new(second, nanos).ok());
        }
        for instant in instants {
            assert_eq!(MemoryEntry::format_timestamp(instant), strftime(instant));
        }
    }
}
