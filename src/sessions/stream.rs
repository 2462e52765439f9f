//! Reading session JSON from a reader without holding it whole: every event is parsed into the
//! kit's model as soon as it is read, and only a skeleton of the document (everything but the
//! events, and each session's first event, for format detection) is kept as JSON.

use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;
use std::io::Read;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

use super::node::Node;
use super::{SessionsError, event};
use crate::Event;

/// What streaming collected: the events of each session, by the session's JSON path, the
/// parts skipped in them, and the first error.
#[derive(Default)]
pub(crate) struct Streamed {
    pub(crate) events: HashMap<String, Vec<Event>>,
    pub(crate) skipped: usize,
    error: Option<SessionsError>,
}

/// The skeleton of the JSON `reader` holds, and the events streamed out of it.
pub(crate) fn skeleton(reader: impl Read) -> Result<(Value, Streamed), SessionsError> {
    let sink = RefCell::new(Streamed::default());
    let mut deserializer = serde_json::Deserializer::from_reader(std::io::BufReader::new(reader));
    let parsed = Skeleton {
        path: "$".to_owned(),
        sink: &sink,
        events: false,
    }
    .deserialize(&mut deserializer)
    .and_then(|value| deserializer.end().map(|()| value));
    let mut streamed = sink.into_inner();
    if let Some(error) = streamed.error.take() {
        return Err(error);
    }
    let value = parsed.map_err(SessionsError::syntax)?;
    Ok((value, streamed))
}

/// Where a session may be: the root, an item of a root array, an item of `sessions`.
fn may_hold_a_session(path: &str) -> bool {
    let item = |rest: &str| {
        rest.strip_prefix('[')
            .and_then(|r| r.strip_suffix(']'))
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    };
    path == "$"
        || path.strip_prefix('$').is_some_and(item)
        || path.strip_prefix("$.sessions").is_some_and(item)
}

/// A JSON value read into the skeleton, at `path`. Where it is a session's `events` (`events`
/// set), an array is streamed instead, each event parsed as it is read (the skeleton keeps the
/// first, for format detection); anything else is kept whole, for the error.
struct Skeleton<'s> {
    path: String,
    sink: &'s RefCell<Streamed>,
    events: bool,
}

impl Skeleton<'_> {
    /// The value at `path`, below this one.
    fn child(&self, path: String, events: bool) -> Self {
        Self {
            path,
            sink: self.sink,
            events,
        }
    }

    /// Each event of a session's `events` array parsed and sent to the sink; the first kept.
    fn stream_events<'de, A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut events = Vec::new();
        let mut first = None;
        while let Some(value) = seq.next_element::<Value>()? {
            let node = Node {
                value: &value,
                path: format!("{}[{}]", self.path, events.len()),
            };
            let mut sink = self.sink.borrow_mut();
            match event(&node, &mut sink.skipped) {
                Ok(parsed) => events.push(parsed),
                Err(error) => {
                    sink.error = Some(error);
                    return Err(de::Error::custom("an event could not be read"));
                }
            }
            if first.is_none() {
                first = Some(value);
            }
        }
        let session = self
            .path
            .strip_suffix(".events")
            .unwrap_or(&self.path)
            .to_owned();
        self.sink.borrow_mut().events.insert(session, events);
        Ok(Value::Array(first.into_iter().collect()))
    }
}

impl<'de> DeserializeSeed<'de> for Skeleton<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Skeleton<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("JSON")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        if self.events {
            return self.stream_events(seq);
        }
        let mut items = Vec::new();
        while let Some(item) =
            seq.next_element_seed(self.child(format!("{}[{}]", self.path, items.len()), false))?
        {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let session = may_hold_a_session(&self.path);
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let path = child_path(&self.path, &key);
            let value = map.next_value_seed(self.child(path, session && key == "events"))?;
            out.insert(key, value);
        }
        Ok(Value::Object(out))
    }
}

fn child_path(parent: &str, name: &str) -> String {
    if !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        format!("{parent}.{name}")
    } else {
        format!("{parent}[{name:?}]")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sessions_are_at_the_root_in_a_root_array_or_in_sessions() {
        for path in ["$", "$[0]", "$[12]", "$.sessions[3]"] {
            assert!(may_hold_a_session(path), "{path}");
        }
        for path in [
            "$.state",
            "$[0].state",
            "$[]",
            "$[x]",
            "$.sessions",
            "$.other[0]",
        ] {
            assert!(!may_hold_a_session(path), "{path}");
        }
    }
}
