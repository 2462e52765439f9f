//! The bridge protocol's messages: one JSON object per line (see `docs/bridge-protocol.md`).

use serde::Serialize;
use serde_json::{Map, Value};

use crate::{Event, MemoryEntry, Session};

/// The version of the bridge protocol this kit speaks. It also accepts a child that answers
/// `hello` with version 1 (every v1 request is unchanged in v2); any other version is rejected.
pub const PROTOCOL_VERSION: u32 = 2;

/// The oldest protocol version the kit still speaks.
pub(crate) const OLDEST_PROTOCOL_VERSION: u32 = 1;

/// One operation the kit asks of the child.
#[derive(Clone, Copy, Debug, Serialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub(crate) enum Op<'a> {
    /// The handshake: which protocol, which backend, which version.
    Hello { protocol: u32 },
    /// Create the store, or empty it (v1).
    Reset { store: &'a str },
    /// Open a new instance of the backend on the store's storage, created empty on the store's
    /// first `open` (v2). The answer carries the instance's number.
    Open { store: &'a str },
    /// `add_session_to_memory` on the store (through one instance of it, in v2).
    Add {
        store: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        instance: Option<u64>,
        session: &'a Session,
    },
    /// `search_memory` on the store (through one instance of it, in v2); with a `limit`,
    /// `search_memory_with` (v2).
    Search {
        store: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        instance: Option<u64>,
        app_name: &'a str,
        user_id: &'a str,
        query: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        limit: Option<usize>,
    },
    /// `add_events_to_memory`: a delta of events for a session or none (v2).
    AddEvents {
        store: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        instance: Option<u64>,
        app_name: &'a str,
        user_id: &'a str,
        session_id: Option<&'a str>,
        events: &'a [Event],
    },
    /// `add_memory`: explicit memories (v2).
    AddMemory {
        store: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        instance: Option<u64>,
        app_name: &'a str,
        user_id: &'a str,
        memories: &'a [MemoryEntry],
    },
    /// `delete_memory`: forget a memory by its id (v2).
    Delete {
        store: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        instance: Option<u64>,
        app_name: &'a str,
        user_id: &'a str,
        memory_id: &'a str,
    },
    /// Close one instance; the store's storage stays (v2).
    Close { store: &'a str, instance: u64 },
    /// Forget the store: close its instances and remove its storage.
    Drop { store: &'a str },
}

impl Op<'_> {
    /// The handshake's name, as on the wire.
    pub(crate) const HELLO: &'static str = "hello";

    /// The operation's name, as on the wire.
    pub(crate) fn name(&self) -> &'static str {
        match self {
            Self::Hello { .. } => Self::HELLO,
            Self::Reset { .. } => "reset",
            Self::Open { .. } => "open",
            Self::Add { .. } => "add",
            Self::Search { .. } => "search",
            Self::AddEvents { .. } => "add_events",
            Self::AddMemory { .. } => "add_memory",
            Self::Delete { .. } => "delete",
            Self::Close { .. } => "close",
            Self::Drop { .. } => "drop",
        }
    }

    /// Whether the operation carries generated content to the child (events, a query, a
    /// memory, user and session ids): from the first such call on, what the child writes is
    /// redacted in messages (see `StderrTail`). The handshake and the calls on whole stores
    /// carry only the kit's own names.
    pub(crate) fn carries_content(&self) -> bool {
        match self {
            Self::Hello { .. }
            | Self::Reset { .. }
            | Self::Open { .. }
            | Self::Close { .. }
            | Self::Drop { .. } => false,
            Self::Add { .. }
            | Self::Search { .. }
            | Self::AddEvents { .. }
            | Self::AddMemory { .. }
            | Self::Delete { .. } => true,
        }
    }

    /// The trait's call an operation stands for, as [`MemoryError::Unsupported`] names it
    /// when the child answers that its backend does not support it.
    ///
    /// [`MemoryError::Unsupported`]: crate::MemoryError::Unsupported
    pub(crate) fn call(&self) -> &'static str {
        match self {
            Self::Search { limit: Some(_), .. } => "search options (a result limit)",
            Self::Search { .. } => "search_memory",
            Self::Add { .. } => "add_session_to_memory",
            Self::AddEvents { .. } => "add_events_to_memory",
            Self::AddMemory { .. } => "add_memory",
            Self::Delete { .. } => "delete_memory",
            other => other.name(),
        }
    }
}

#[derive(Serialize)]
struct Request<'a> {
    id: u64,
    #[serde(flatten)]
    op: &'a Op<'a>,
}

/// The request line for `op` (without its newline).
pub(crate) fn encode(id: u64, op: &Op<'_>) -> Result<String, serde_json::Error> {
    serde_json::to_string(&Request { id, op })
}

/// A response line, read.
#[derive(Debug, PartialEq)]
pub(crate) struct Reply {
    /// The request it answers.
    pub(crate) id: u64,
    /// The other fields on success (`ok: true`), the child's refusal on failure.
    pub(crate) body: Result<Map<String, Value>, Refusal>,
}

/// A request the child answered with `ok: false`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Refusal {
    /// The child's `error` message.
    pub(crate) message: String,
    /// Whether the child said its backend does not support the operation
    /// (`"unsupported": true`), rather than that it failed.
    pub(crate) unsupported: bool,
}

/// Reads a response line; `Err` says why the line is not a response.
pub(crate) fn decode(line: &str) -> Result<Reply, String> {
    let value: Value = serde_json::from_str(line).map_err(|err| format!("not JSON: {err}"))?;
    let Value::Object(mut fields) = value else {
        return Err("not a JSON object".into());
    };
    let id = match fields.remove("id") {
        Some(id) => id
            .as_u64()
            .ok_or_else(|| format!("`id` is {}, not a non-negative integer", kind(&id)))?,
        None => return Err("no `id`".into()),
    };
    let ok = match fields.remove("ok") {
        Some(Value::Bool(ok)) => ok,
        Some(other) => return Err(format!("`ok` is {}, not true or false", kind(&other))),
        None => return Err("no `ok`".into()),
    };
    let body = if ok {
        Ok(fields)
    } else {
        let message = match fields.remove("error") {
            Some(Value::String(message)) => message,
            Some(other) => other.to_string(),
            None => "(the child gave no `error` message)".into(),
        };
        let unsupported = fields.remove("unsupported") == Some(Value::Bool(true));
        Err(Refusal {
            message,
            unsupported,
        })
    };
    Ok(Reply { id, body })
}

/// A field's value as a reason names it: a number or `null` as it is, anything else by its
/// kind, since a string can quote stored content (the line itself is quoted as the redaction
/// policy allows).
fn kind(value: &Value) -> String {
    match value {
        Value::Null | Value::Number(_) => value.to_string(),
        Value::Bool(_) => "a boolean".into(),
        Value::String(_) => "a string".into(),
        Value::Array(_) => "an array".into(),
        Value::Object(_) => "an object".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_are_one_object_with_the_id_first() {
        let session = Session::new("support", "u-42", "s-1");
        let add = encode(
            3,
            &Op::Add {
                store: "s",
                instance: None,
                session: &session,
            },
        )
        .unwrap();
        assert_eq!(
            add,
            r#"{"id":3,"op":"add","store":"s","session":{"id":"s-1","app_name":"support","user_id":"u-42","state":{},"events":[]}}"#
        );
        let search = encode(
            4,
            &Op::Search {
                store: "s",
                instance: Some(2),
                app_name: "support",
                user_id: "u-42",
                query: "coffee",
                limit: None,
            },
        )
        .unwrap();
        assert_eq!(
            search,
            r#"{"id":4,"op":"search","store":"s","instance":2,"app_name":"support","user_id":"u-42","query":"coffee"}"#
        );
        let delete = encode(
            6,
            &Op::Delete {
                store: "s",
                instance: None,
                app_name: "support",
                user_id: "u-42",
                memory_id: "e-1",
            },
        )
        .unwrap();
        assert_eq!(
            delete,
            r#"{"id":6,"op":"delete","store":"s","app_name":"support","user_id":"u-42","memory_id":"e-1"}"#
        );
        let delta = encode(
            7,
            &Op::AddEvents {
                store: "s",
                instance: Some(1),
                app_name: "a",
                user_id: "u",
                session_id: None,
                events: &[],
            },
        )
        .unwrap();
        assert_eq!(
            delta,
            r#"{"id":7,"op":"add_events","store":"s","instance":1,"app_name":"a","user_id":"u","session_id":null,"events":[]}"#
        );
        let close = encode(
            5,
            &Op::Close {
                store: "s",
                instance: 2,
            },
        )
        .unwrap();
        assert_eq!(close, r#"{"id":5,"op":"close","store":"s","instance":2}"#);
        let hello = encode(
            1,
            &Op::Hello {
                protocol: PROTOCOL_VERSION,
            },
        )
        .unwrap();
        assert_eq!(hello, r#"{"id":1,"op":"hello","protocol":2}"#);
    }

    #[test]
    fn responses_are_read_strictly() {
        let reply = decode(r#"{"id":4,"ok":true,"memories":[]}"#).unwrap();
        assert_eq!(reply.id, 4);
        assert_eq!(reply.body.unwrap()["memories"], serde_json::json!([]));
        let failed = decode(r#"{"id":5,"ok":false,"error":"no store \"s\""}"#).unwrap();
        let refusal = |message: &str, unsupported| Refusal {
            message: message.into(),
            unsupported,
        };
        assert_eq!(failed.body, Err(refusal("no store \"s\"", false)));
        let gap = decode(r#"{"id":6,"ok":false,"error":"no delete","unsupported":true}"#).unwrap();
        assert_eq!(gap.body, Err(refusal("no delete", true)));
        assert_eq!(
            decode("Traceback (most recent call last):")
                .unwrap_err()
                .split(':')
                .next(),
            Some("not JSON")
        );
        assert_eq!(decode("[1]").unwrap_err(), "not a JSON object");
        assert_eq!(decode(r#"{"ok":true}"#).unwrap_err(), "no `id`");
        assert_eq!(
            decode(r#"{"id":-1,"ok":true}"#).unwrap_err(),
            "`id` is -1, not a non-negative integer"
        );
        assert_eq!(
            decode(r#"{"id":1,"ok":"yes"}"#).unwrap_err(),
            "`ok` is a string, not true or false"
        );
    }
}
