//! The bridge protocol's messages: one JSON object per line (see `docs/bridge-protocol.md`).

use serde::Serialize;
use serde_json::{Map, Value};

use crate::Session;

/// The version of the bridge protocol this kit speaks. A child that answers `hello` with
/// another version is rejected.
pub const PROTOCOL_VERSION: u32 = 1;

/// One operation the kit asks of the child.
#[derive(Clone, Copy, Debug, Serialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub(crate) enum Op<'a> {
    /// The handshake: which protocol, which backend, which version.
    Hello { protocol: u32 },
    /// Create the store, or empty it.
    Reset { store: &'a str },
    /// `add_session_to_memory` on the store.
    Add {
        store: &'a str,
        session: &'a Session,
    },
    /// `search_memory` on the store.
    Search {
        store: &'a str,
        app_name: &'a str,
        user_id: &'a str,
        query: &'a str,
    },
    /// Forget the store.
    Drop { store: &'a str },
}

impl Op<'_> {
    /// The operation's name, as on the wire.
    pub(crate) fn name(&self) -> &'static str {
        match self {
            Self::Hello { .. } => "hello",
            Self::Reset { .. } => "reset",
            Self::Add { .. } => "add",
            Self::Search { .. } => "search",
            Self::Drop { .. } => "drop",
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
    /// The other fields on success (`ok: true`), the child's message on failure.
    pub(crate) body: Result<Map<String, Value>, String>,
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
            .ok_or_else(|| format!("`id` is {id}, not a non-negative integer"))?,
        None => return Err("no `id`".into()),
    };
    let ok = match fields.remove("ok") {
        Some(Value::Bool(ok)) => ok,
        Some(other) => return Err(format!("`ok` is {other}, not true or false")),
        None => return Err("no `ok`".into()),
    };
    let body = if ok {
        Ok(fields)
    } else {
        Err(match fields.remove("error") {
            Some(Value::String(message)) => message,
            Some(other) => other.to_string(),
            None => "(the child gave no `error` message)".into(),
        })
    };
    Ok(Reply { id, body })
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
                session: &session,
            },
        )
        .unwrap();
        assert_eq!(
            add,
            r#"{"id":3,"op":"add","store":"s","session":{"id":"s-1","app_name":"support","user_id":"u-42","state":{},"events":[]}}"#
        );
        let hello = encode(
            1,
            &Op::Hello {
                protocol: PROTOCOL_VERSION,
            },
        )
        .unwrap();
        assert_eq!(hello, r#"{"id":1,"op":"hello","protocol":1}"#);
    }

    #[test]
    fn responses_are_read_strictly() {
        let reply = decode(r#"{"id":4,"ok":true,"memories":[]}"#).unwrap();
        assert_eq!(reply.id, 4);
        assert_eq!(reply.body.unwrap()["memories"], serde_json::json!([]));
        let failed = decode(r#"{"id":5,"ok":false,"error":"no store \"s\""}"#).unwrap();
        assert_eq!(failed.body, Err("no store \"s\"".into()));
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
            "`ok` is \"yes\", not true or false"
        );
    }
}
