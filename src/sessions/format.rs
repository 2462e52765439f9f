use std::fmt;

use serde::Serialize;
use serde_json::Value;

/// The shapes of session JSON [`read_sessions`](super::read_sessions) recognises.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum SessionFormat {
    /// The kit's own serde model: snake case, RFC 3339 timestamps, parts tagged
    /// `{"function_call": {...}}`.
    Kit,
    /// ADK Python's `Session.model_dump_json()`: snake case, `null` for absent fields, float
    /// epoch-second timestamps.
    AdkPython,
    /// ADK Python's `Session.model_dump_json(by_alias=True)`, what its API server returns:
    /// camel case, `null` for absent fields, float epoch-second timestamps.
    AdkPythonAliases,
    /// ADK JS's `JSON.stringify(session)`: camel case, epoch-millisecond timestamps.
    AdkJs,
    /// ADK Java's Jackson JSON (`Session.toJson()`): camel case, event timestamps in epoch
    /// milliseconds, `lastUpdateTime` in epoch seconds.
    AdkJava,
    /// ADK-Rust's serde JSON: snake case, RFC 3339 timestamps, the event's content flattened
    /// into it, untagged parts (`{"name", "args"}`, `{"functionResponse": {...}}`).
    AdkRust,
}

impl fmt::Display for SessionFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Kit => "memory-conformance JSON",
            Self::AdkPython => "ADK Python JSON (model_dump_json)",
            Self::AdkPythonAliases => {
                "ADK Python JSON (model_dump_json by_alias, as its API server returns it)"
            }
            Self::AdkJs => "ADK JS JSON (JSON.stringify)",
            Self::AdkJava => "ADK Java JSON (Jackson)",
            Self::AdkRust => "ADK-Rust JSON (serde)",
        })
    }
}

/// Epoch values below this are seconds, at or above it milliseconds: 1e11 seconds is the
/// year 5138, 1e11 milliseconds is 1973.
pub(crate) const MILLIS_FROM: f64 = 1e11;

/// The format of one session object, from its keys and the type of its timestamps.
pub(crate) fn detect(session: &Value) -> SessionFormat {
    let Some(map) = session.as_object() else {
        return SessionFormat::Kit;
    };
    let events = map.get("events").and_then(Value::as_array);
    let first_event = events.and_then(|events| events.first());
    let event_time = first_event.and_then(|event| event.get("timestamp"));
    let camel = map.contains_key("appName") || map.contains_key("userId");
    let is_millis = |v: Option<&Value>| v.and_then(Value::as_f64).is_some_and(|t| t >= MILLIS_FROM);
    let is_seconds = |v: Option<&Value>| v.and_then(Value::as_f64).is_some_and(|t| t < MILLIS_FROM);
    if camel {
        let last_update = map.get("lastUpdateTime");
        if is_seconds(event_time) {
            SessionFormat::AdkPythonAliases
        } else if is_millis(event_time) {
            if is_seconds(last_update) {
                SessionFormat::AdkJava
            } else {
                SessionFormat::AdkJs
            }
        } else if is_millis(last_update) {
            SessionFormat::AdkJs
        } else {
            SessionFormat::AdkPythonAliases
        }
    } else if event_time.is_some_and(Value::is_number)
        || map.get("last_update_time").is_some_and(Value::is_number)
    {
        SessionFormat::AdkPython
    } else if map.contains_key("last_update_time")
        || first_event.is_some_and(|event| {
            event.get("invocation_id").is_some() || event.get("actions").is_some()
        })
    {
        SessionFormat::AdkRust
    } else {
        SessionFormat::Kit
    }
}
