//! Every field of an entry after the steps that can change it: an entry a search returns must
//! carry the role, the non-text parts, the author and the timestamp of the event it stands
//! for (the timestamp as the profile writes it), not only its text parts ([`same_entry`]).
//!
//! A field that departs on a first add is `result.fidelity`'s alone; the run tells the two
//! apart by asking the backend whether `result.fidelity`'s scenario (a first add into a fresh
//! store, then a search) shows the same departure (`run/field_watch.rs`).

use std::fmt;

use super::identity::same_entry;
use super::oracle::Oracle;
use super::timestamp_format;
use crate::conformance::display::ContentDisplay;
use crate::profile::Timestamps;
use crate::{Content, MemoryEntry, MemoryKey};

/// One field of a returned entry that is not what its event wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Departure {
    /// The entry as the event wrote it (its content, author and timestamp).
    pub(crate) written: MemoryEntry,
    /// Which field differs: `role`, `parts`, `author` or `timestamp`.
    pub(crate) field: Field,
    /// The field as written, and as returned (`None`: absent).
    pub(crate) stored: Option<String>,
    pub(crate) returned: Option<String>,
}

/// An entry's field other than its text parts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Field {
    Role,
    Parts,
    Author,
    Timestamp,
}

impl Field {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Self::Role => "role",
            Self::Parts => "non-text parts",
            Self::Author => "author",
            Self::Timestamp => "timestamp",
        }
    }
}

impl fmt::Display for Departure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown = |value: &Option<String>| match value {
            Some(value) => format!("{value:?}"),
            None => "none".to_owned(),
        };
        write!(
            f,
            "the entry {} carries {} {} where its event wrote {}",
            ContentDisplay(&self.written.content),
            self.field.name(),
            shown(&self.returned),
            shown(&self.stored)
        )
    }
}

/// The first entry of `actual` that no event stored under `key` with its text parts wrote
/// field for field, with the first field that differs from the nearest such event; `None`
/// where every entry is some event's, or may stand for an explicit memory (whose fields are
/// not compared), or for nothing stored (other expectations judge it).
pub(crate) fn first_departure(
    oracle: &Oracle,
    key: &MemoryKey,
    actual: &[MemoryEntry],
) -> Option<Departure> {
    let format = oracle.timestamps();
    actual.iter().find_map(|entry| {
        let written = oracle.written_like(&key.app_name, &key.user_id, &entry.content);
        // An entry that may be an explicit memory's, or is some event's whole, departs not.
        let departures: Vec<Departure> = written
            .into_iter()
            .map(|written| departure(format, written?, entry))
            .collect::<Option<Vec<_>>>()?;
        departures.into_iter().next()
    })
}

/// The first field of `entry` that departs from `written` (its text parts the same), `None`
/// where none does.
pub(crate) fn departure(
    format: Timestamps,
    written: MemoryEntry,
    entry: &MemoryEntry,
) -> Option<Departure> {
    let (field, stored, returned) = if written.content.role != entry.content.role {
        let (stored, returned) = (written.content.role.clone(), entry.content.role.clone());
        (Field::Role, stored, returned)
    } else if written.content.parts != entry.content.parts {
        let parts = |c: &Content| Some(non_text_parts(c));
        (Field::Parts, parts(&written.content), parts(&entry.content))
    } else if written.author != entry.author {
        (Field::Author, written.author.clone(), entry.author.clone())
    } else if !timestamp_format::matches(
        format,
        written.timestamp.as_deref(),
        entry.timestamp.as_deref(),
    ) {
        let stored = written.timestamp.clone();
        (Field::Timestamp, stored, entry.timestamp.clone())
    } else {
        return None;
    };
    debug_assert!(same_entry(&written.content, &entry.content));
    Some(Departure {
        written,
        field,
        stored,
        returned,
    })
}

/// The parts of `content`, as JSON, for a report (the text parts as they are, so an order
/// that changed shows too).
fn non_text_parts(content: &Content) -> String {
    serde_json::to_string(&content.parts).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::Profile;
    use crate::{Event, Part, Session};

    #[test]
    fn an_entry_departs_where_a_field_differs_from_every_event_with_its_text() {
        let mut oracle = Oracle::new(&Profile::reference());
        let event = Event::new(
            "model",
            Some(Content {
                role: Some("model".into()),
                parts: vec![
                    Part::text("tea"),
                    Part::function_call("f", serde_json::json!({"n": 1})),
                ],
            }),
        );
        let session = Session::new("a", "u", "s-1").with_event(event.clone());
        oracle.add(&session);
        let key = session.key();
        let kept = MemoryEntry::from_event(&event).expect("content");
        assert_eq!(
            first_departure(&oracle, &key, std::slice::from_ref(&kept)),
            None
        );
        let mut lost = kept.clone();
        lost.author = None;
        let found = first_departure(&oracle, &key, &[kept.clone(), lost]).expect("departs");
        assert_eq!(found.field, Field::Author);
        assert_eq!(found.returned, None);
        let mut roleless = kept.clone();
        roleless.content.role = None;
        let found = first_departure(&oracle, &key, &[roleless]).expect("departs");
        assert_eq!(found.field, Field::Role);
        assert!(
            found
                .to_string()
                .contains("carries role none where its event wrote \"model\"")
        );
        let mut partless = kept.clone();
        partless.content.parts.truncate(1);
        assert_eq!(
            first_departure(&oracle, &key, &[partless]).map(|d| d.field),
            Some(Field::Parts)
        );
        let mut moved = kept;
        moved.timestamp = Some("2026-01-01T01:00:00.000Z".into());
        assert_eq!(
            first_departure(&oracle, &key, &[moved]).map(|d| d.field),
            Some(Field::Timestamp)
        );
        // An entry that may be an explicit memory's is not compared.
        oracle.add_memories("a", "u", &[MemoryEntry::new(Content::text("tea"))]);
        let bare = MemoryEntry::new(Content::text("tea"));
        assert_eq!(first_departure(&oracle, &key, &[bare]), None);
        // An entry no stored event has the text of is other expectations' to judge.
        let other = MemoryEntry::new(Content::text("coffee"));
        assert_eq!(first_departure(&oracle, &key, &[other]), None);
    }
}
