//! The bridge protocol's messages: one JSON object per line (see `docs/bridge-protocol.md`).

use serde::Serialize;
use serde_json::{Map, Value};

use crate::Session;

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
    /// `search_memory` on the store (through one instance of it, in v2).
    Search {
        store: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        instance: Option<u64>,
        app_name: &'a str,
        user_id: &'a str,
        query: &'a str,
    },
    /// Close one instance; the store's storage stays (v2).
    Close { store: &'a str, instance: u64 },
    /// Forget the store: close its instances and remove its storage.
    Drop { store: &'a str },
}

impl Op<'_> {
    /// The operation's name, as on the wire.
    pub(crate) fn name(&self) -> &'static str {
        match self {
            Self::Hello { .. } => "hello",
            Self::Reset { .. } => "reset",
            Self::Open { .. } => "open",
            Self::Add { .. } => "add",
            Self::Search { .. } => "search",
            Self::Close { .. } => "close",
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
            },
        )
        .unwrap();
        assert_eq!(
            search,
            r#"{"id":4,"op":"search","store":"s","instance":2,"app_name":"support","user_id":"u-42","query":"coffee"}"#
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
