use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::{Event, MemoryKey};

/// A conversation, as in ADK's `Session`: its id, the (app name, user id) it belongs to,
/// its state and its ordered events.
///
/// ```
/// use memory_conformance::{Event, Session};
/// let session = Session::new("support", "u-42", "s-1")
///     .with_event(Event::text("user", "My favourite coffee is a flat white."))
///     .with_state("favourite", serde_json::json!("oolong"));
/// assert_eq!((session.app_name.as_str(), session.user_id.as_str()), ("support", "u-42"));
/// assert_eq!(session.events.len(), 1);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Session {
    /// The session's id, unique under its (app name, user id).
    pub id: String,
    /// The application the session belongs to.
    pub app_name: String,
    /// The user the session belongs to.
    pub user_id: String,
    /// Session state: string keys to JSON values. Never part of any event's text.
    #[serde(default)]
    pub state: Map<String, Value>,
    /// The events, in order.
    #[serde(default)]
    pub events: Vec<Event>,
}

impl Session {
    /// An empty session `id` of `user_id` in `app_name`.
    pub fn new(
        app_name: impl Into<String>,
        user_id: impl Into<String>,
        id: impl Into<String>,
    ) -> Self {
        Self {
            id: id.into(),
            app_name: app_name.into(),
            user_id: user_id.into(),
            state: Map::new(),
            events: Vec::new(),
        }
    }

    /// The (app name, user id) the session is stored under.
    pub fn key(&self) -> MemoryKey {
        MemoryKey::new(self.app_name.clone(), self.user_id.clone())
    }

    /// The same session with `event` appended.
    #[must_use]
    pub fn with_event(mut self, event: Event) -> Self {
        self.events.push(event);
        self
    }

    /// The same session with `events` appended.
    #[must_use]
    pub fn with_events(mut self, events: impl IntoIterator<Item = Event>) -> Self {
        self.events.extend(events);
        self
    }

    /// The same session with state `key` set to `value`.
    #[must_use]
    pub fn with_state(mut self, key: impl Into<String>, value: Value) -> Self {
        self.state.insert(key.into(), value);
        self
    }
}
