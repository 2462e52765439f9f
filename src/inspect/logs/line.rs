//! Which memory record a log line holds, and in which [`LogFormat`]: the kit's plain or JSON
//! lines, or the debugging guide's (also inside a JSON logger's line).

use serde_json::Value;

use super::LogFormat;
use super::fields::{fields, unquote};

/// A memory record: its name (`memory.write`) and its fields, as logged.
pub(super) struct Record {
    pub(super) name: String,
    pub(super) fields: Vec<(String, String)>,
}

const NAMES: [&str; 3] = ["memory.write", "memory.search", "memory.query"];

/// The record `line` holds and its format: `None` for a line that holds none, an error for a
/// record that cannot be read.
pub(super) fn parse_line(line: &str) -> Result<Option<(LogFormat, Record)>, String> {
    let trimmed = line.trim();
    if trimmed.starts_with('{')
        && let Ok(Value::Object(object)) = serde_json::from_str::<Value>(trimmed)
    {
        return Ok(json_record(&object));
    }
    let Some((start, name)) = NAMES
        .iter()
        .filter_map(|name| find_name(line, name).map(|at| (at, *name)))
        .min()
    else {
        return Ok(None);
    };
    let rest = &line[start + name.len()..];
    let format = if rest.contains("textEvents=")
        || rest.contains(" ms=")
        || rest.contains(" q=")
        || (rest.contains("key=") && !rest.contains("key=\""))
    {
        LogFormat::Guide
    } else {
        LogFormat::KitPlain
    };
    let fields = if name == "memory.query" && format == LogFormat::Guide {
        guide_query_fields(rest)?
    } else {
        fields(rest)?
    };
    Ok(Some((
        format,
        Record {
            name: name.to_owned(),
            fields,
        },
    )))
}

/// Where `name` occurs as a whole record name: followed by a space or the end of the line, not
/// by `.failed`.
fn find_name(line: &str, name: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(found) = line[from..].find(name) {
        let at = from + found;
        let after = &line[at + name.len()..];
        let before_ok = at == 0 || !line[..at].ends_with(|c: char| c.is_alphanumeric() || c == '.');
        if before_ok && (after.is_empty() || after.starts_with([' ', ':'])) {
            return Some(at);
        }
        from = at + name.len();
    }
    None
}

/// The guide's `memory.query q=<query> dead=[<tokens>]`: the query may hold spaces.
/// Fields before `q=` (the key, the call and invocation ids) are read as fields; of a line
/// without `q=` (the shipped plugins' redacted line: counts and shapes) only the key is.
fn guide_query_fields(rest: &str) -> Result<Vec<(String, String)>, String> {
    let rest = rest.trim_start();
    let (before, body) = if let Some(body) = rest.strip_prefix("q=") {
        ("", body)
    } else if let Some(at) = rest.find(" q=") {
        (&rest[..at], &rest[at + 3..])
    } else {
        return Ok(fields(rest)?
            .into_iter()
            .filter(|(k, _)| k == "key")
            .collect());
    };
    let mut out = fields(before)?;
    match body.rfind(" dead=[") {
        Some(at) => {
            out.push(("q".to_owned(), body[..at].to_owned()));
            out.push(("dead".to_owned(), body[at + 6..].trim_end().to_owned()));
        }
        None => out.push(("q".to_owned(), body.trim_end().to_owned())),
    }
    Ok(out)
}

fn json_record(object: &serde_json::Map<String, Value>) -> Option<(LogFormat, Record)> {
    let fields = match object.get("fields") {
        Some(Value::Object(fields)) => fields,
        _ => object,
    };
    let message = fields.get("message").and_then(Value::as_str)?;
    if NAMES.contains(&message) {
        let fields = fields
            .iter()
            .filter(|(k, _)| *k != "message")
            .map(|(k, v)| {
                let text = match v {
                    Value::String(s) => unquote(s),
                    other => other.to_string(),
                };
                (k.clone(), text)
            })
            .collect();
        return Some((
            LogFormat::KitJson,
            Record {
                name: message.to_owned(),
                fields,
            },
        ));
    }
    // A JSON logger around the guide's line (`{"message": "memory.write key=..."}`).
    parse_line(message)
        .ok()
        .flatten()
        .filter(|(format, _)| *format == LogFormat::Guide)
}
