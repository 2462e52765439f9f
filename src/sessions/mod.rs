//! Reading the sessions ADK users have: session JSON in every shape the ADK languages write it
//! (detected automatically), and ADK Python's session database.
//!
//! [`read_sessions`] takes one session, an array of sessions or a `{"sessions": [...]}` list
//! as any of the [`SessionFormat`]s write them: keys in snake case or camel case, `null` for an
//! absent field, timestamps as RFC 3339 strings, epoch seconds (integer or float) or epoch
//! milliseconds, parts tagged as the kit, the ADK languages or ADK-Rust tag them. Unknown
//! fields are ignored; a part of a kind the kit's model has no place for (file data, code
//! execution, thoughts without text) is skipped and counted. An error names the JSON path of
//! the problem and what was expected there.
//!
//! ```
//! use memory_conformance::sessions::{SessionFormat, read_sessions};
//! let js = r#"{"id": "monday", "appName": "support", "userId": "42", "state": {},
//!   "lastUpdateTime": 1767225601250,
//!   "events": [{"id": "e-1", "author": "user", "timestamp": 1767225601250,
//!     "content": {"role": "user", "parts": [{"text": "My favourite coffee is a flat white."}]}}]}"#;
//! let loaded = read_sessions(js).unwrap();
//! assert_eq!(loaded.format, SessionFormat::AdkJs);
//! assert_eq!(loaded.sessions[0].events[0].timestamp.to_string(), "2026-01-01T00:00:01.25Z");
//!
//! let err = read_sessions(r#"{"id": "s", "appName": "a", "userId": 42}"#).unwrap_err();
//! assert_eq!(err.to_string(), "$.userId: expected the user id (a string), found the number 42");
//! ```

#[cfg(feature = "session-database")]
mod database;
mod error;
mod format;
mod node;
mod part;
mod stream;
mod timestamp;

use std::io::Read;

use serde_json::Value;

use crate::{Content, Event, Session};

#[cfg(feature = "session-database")]
pub use database::{DatabaseError, read_session_database};
pub use error::SessionsError;
pub use format::SessionFormat;

use node::Node;
use stream::Streamed;

/// Sessions read from one source, with the format they were detected as.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct LoadedSessions {
    /// The format the source was detected as (of its first session).
    pub format: SessionFormat,
    /// The sessions, in source order.
    pub sessions: Vec<Session>,
    /// Parts skipped because the kit's model has no kind for them (file data, executable
    /// code, thoughts without text): no lexical index reads them either.
    pub skipped_parts: usize,
}

/// Reads sessions from JSON text in any [`SessionFormat`], detected automatically.
///
/// # Errors
///
/// When the text is not JSON, or a field the model needs is missing or of the wrong type: the
/// error names the JSON path and what was expected.
pub fn read_sessions(text: &str) -> Result<LoadedSessions, SessionsError> {
    read_sessions_from(text.as_bytes())
}

/// [`read_sessions`] on a reader, streamed: each event is read into the model as soon as it is
/// parsed, so memory holds the sessions (as the model keeps them) and never the whole JSON.
///
/// # Errors
///
/// As [`read_sessions`]; also when the reader fails (reported as invalid JSON).
pub fn read_sessions_from(reader: impl Read) -> Result<LoadedSessions, SessionsError> {
    let (skeleton, mut streamed) = stream::skeleton(reader)?;
    read(&skeleton, Some(&mut streamed))
}

/// [`read_sessions`] on a parsed JSON value.
///
/// # Errors
///
/// As [`read_sessions`].
pub fn read_sessions_value(value: &Value) -> Result<LoadedSessions, SessionsError> {
    read(value, None)
}

/// The sessions of `value`; a session whose events were streamed takes them from `streamed`.
fn read(
    value: &Value,
    mut streamed: Option<&mut Streamed>,
) -> Result<LoadedSessions, SessionsError> {
    let root = Node::root(value);
    let items: Vec<Node<'_>> = match value {
        Value::Array(_) => root.items("an array of sessions")?,
        Value::Object(map) if map.contains_key("sessions") && !map.contains_key("events") => root
            .required(&["sessions"], "the list of sessions")?
            .items("an array of sessions")?,
        Value::Object(_) => vec![root],
        _ => {
            return Err(root
                .mismatch("a session (an object), an array of sessions or {\"sessions\": [...]}"));
        }
    };
    let format = items
        .first()
        .map_or(SessionFormat::Kit, |first| format::detect(first.value));
    let mut skipped_parts = streamed.as_ref().map_or(0, |s| s.skipped);
    let sessions = items
        .iter()
        .map(|item| session(item, &mut skipped_parts, streamed.as_deref_mut()))
        .collect::<Result<_, _>>()?;
    Ok(LoadedSessions {
        format,
        sessions,
        skipped_parts,
    })
}

fn session(
    node: &Node<'_>,
    skipped: &mut usize,
    streamed: Option<&mut Streamed>,
) -> Result<Session, SessionsError> {
    node.object("a session (an object)")?;
    let id = node.string(&["id"], "the session id")?;
    let app_name = node.string(&["app_name", "appName"], "the app name")?;
    let user_id = node.string(&["user_id", "userId"], "the user id")?;
    let mut session = Session::new(app_name, user_id, id);
    if let Some(state) = node.optional(&["state"]) {
        session.state = state.object("the session state (an object)")?.clone();
    }
    if let Some(events) = streamed.and_then(|s| s.events.remove(&node.path)) {
        session.events = events;
    } else if let Some(events) = node.optional(&["events"]) {
        for item in events.items("an array of events")? {
            session.events.push(event(&item, skipped)?);
        }
    }
    Ok(session)
}

pub(crate) fn event(node: &Node<'_>, skipped: &mut usize) -> Result<Event, SessionsError> {
    node.object("an event (an object)")?;
    let id = node.string(&["id"], "the event id")?;
    let author = node.string(&["author"], "the event's author")?;
    let timestamp = timestamp::read(&node.required(&["timestamp"], "the event's timestamp")?)?;
    let content = match node.optional(&["content"]) {
        Some(content) => Some(self::content(&content, skipped)?),
        None => None,
    };
    Ok(Event::new(author, content).with_id(id).at(timestamp))
}

fn content(node: &Node<'_>, skipped: &mut usize) -> Result<Content, SessionsError> {
    node.object("the event's content (an object)")?;
    let mut parts = Vec::new();
    if let Some(items) = node.optional(&["parts"]) {
        for item in items.items("an array of parts")? {
            match part::read(&item)? {
                Some(part) => parts.push(part),
                None => *skipped += 1,
            }
        }
    }
    let mut content = Content::new(parts);
    if let Some(role) = node.optional(&["role"]) {
        content = content.with_role(role.str("the content's role (a string)")?);
    }
    Ok(content)
}
