//! Reading `memory.write`, `memory.search` and `memory.query` log lines into [`Evidence`], so
//! the four checks can run from a log file alone.

use std::error::Error;
use std::fmt;

use serde::Serialize;
use serde_json::Value;

use super::{Evidence, SearchRecord};
use crate::MemoryKey;

/// The log formats [`read_log`] recognises, line by line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum LogFormat {
    /// The kit's decorator through `tracing-subscriber`'s plain formatter:
    /// `INFO memory.write key="support"/"42" session=s-1 events=2 text_events=1 elapsed_ms=0.01`.
    KitPlain,
    /// The kit's decorator through `tracing-subscriber`'s JSON formatter (fields nested under
    /// `"fields"` or flattened).
    KitJson,
    /// The debugging guide's Java decorator and plugin:
    /// `memory.write key=support/42 session=s-1 events=2 textEvents=1`,
    /// `memory.search key=support/u-42 tokens=2 hits=0 ms=3`,
    /// `memory.query q=coffee preference? dead=[preference?]`.
    Guide,
}

impl fmt::Display for LogFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::KitPlain => "memory-conformance tracing (plain)",
            Self::KitJson => "memory-conformance tracing (JSON)",
            Self::Guide => "the debugging guide's decorator",
        })
    }
}

/// What a log held: the writes and searches, and the formats its lines were in.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct LogRead {
    /// The writes (counts only) and searches the lines record.
    pub evidence: Evidence,
    /// Every format seen, in order of first appearance.
    pub formats: Vec<LogFormat>,
    /// Lines that were memory records.
    pub records: usize,
}

/// A memory record line that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogError {
    line: usize,
    message: String,
}

impl LogError {
    /// The line number, from 1.
    pub fn line(&self) -> usize {
        self.line
    }
}

impl fmt::Display for LogError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl Error for LogError {}

/// Reads the `memory.write`, `memory.search` and `memory.query` lines of a log, in any
/// [`LogFormat`] (formats may mix); every other line is skipped. A write counts only its key,
/// session and counts; a search its key, counts and hits; a `memory.query` line gives the next
/// search (the guide's plugin logs before the tool runs) or the previous one (the kit's
/// `load_memory` logs after it) its query and dead tokens. Content the kit logs under
/// `log_content` (`texts=[...]`) is never read.
///
/// ```
/// use memory_conformance::inspect::read_log;
/// use memory_conformance::inspect::Verdict;
/// use memory_conformance::profile::Profile;
/// let log = "memory.query q=coffee preference? dead=[preference?]\n\
///            memory.search key=support/u-42 tokens=2 hits=0 ms=3\n\
///            memory.write key=support/42 session=monday events=2 textEvents=1\n";
/// let read = read_log(log).unwrap();
/// let search = read.evidence.searches().last().unwrap();
/// assert_eq!(search.query.as_deref(), Some("coffee preference?"));
/// let diagnosis = read.evidence.diagnose_search(search, &Profile::reference());
/// assert_eq!(diagnosis.verdict(), Verdict::WrongKey);
/// ```
///
/// # Errors
///
/// When a line is a memory record but a field it needs is missing or malformed.
pub fn read_log(text: &str) -> Result<LogRead, LogError> {
    let mut read = LogRead {
        evidence: Evidence::new(),
        formats: Vec::new(),
        records: 0,
    };
    let mut pending_query: Option<(Option<String>, Option<Vec<String>>)> = None;
    for (index, line) in text.lines().enumerate() {
        let at = |message: String| LogError {
            line: index + 1,
            message,
        };
        let Some((format, record)) = parse_line(line).map_err(at)? else {
            continue;
        };
        read.records += 1;
        if !read.formats.contains(&format) {
            read.formats.push(format);
        }
        let field = |name: &str| {
            record
                .fields
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v)
        };
        let number = |names: &[&str]| -> Result<Option<usize>, LogError> {
            for name in names {
                if let Some(value) = field(name) {
                    return value
                        .trim()
                        .parse::<usize>()
                        .map(Some)
                        .map_err(|_| at(format!("{}: `{name}` is not a count", record.name)));
                }
            }
            Ok(None)
        };
        match record.name.as_str() {
            "memory.write" => {
                let key =
                    key_of(field("key"), format).map_err(|m| at(format!("memory.write: {m}")))?;
                let session = field("session").cloned().unwrap_or_default();
                let events = number(&["events"])?
                    .ok_or_else(|| at("memory.write: no `events` count".to_owned()))?;
                let text_events = number(&["text_events", "textEvents"])?.unwrap_or(events);
                read.evidence
                    .record_write(key, session, events, text_events);
            }
            "memory.search" => {
                let key =
                    key_of(field("key"), format).map_err(|m| at(format!("memory.search: {m}")))?;
                let mut search = SearchRecord::new(key);
                search.tokens = number(&["tokens"])?;
                search.dead = number(&["dead"])?;
                search.hits = number(&["hits"])?;
                search.query = field("query").cloned();
                if let Some((query, dead)) = pending_query.take() {
                    search.query = search.query.or(query);
                    search.dead_tokens = dead;
                }
                read.evidence.record_search(search);
            }
            "memory.query" => {
                let query = field("q").or_else(|| field("query")).cloned();
                let dead = field("dead")
                    .filter(|d| d.starts_with('['))
                    .or_else(|| field("dead_tokens"))
                    .map(|d| list(d));
                // The kit's load_memory logs after its search, with the key: complete it.
                let previous = read.evidence.searches_mut().last_mut().filter(|s| {
                    format != LogFormat::Guide
                        && field("key").is_some()
                        && key_of(field("key"), format).ok().as_ref() == Some(&s.key)
                });
                match previous {
                    Some(search) => {
                        search.query = search.query.take().or(query);
                        search.dead_tokens = search.dead_tokens.take().or(dead);
                    }
                    None => pending_query = Some((query, dead)),
                }
            }
            _ => {}
        }
    }
    Ok(read)
}

struct Record {
    name: String,
    fields: Vec<(String, String)>,
}

const NAMES: [&str; 3] = ["memory.write", "memory.search", "memory.query"];

fn parse_line(line: &str) -> Result<Option<(LogFormat, Record)>, String> {
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
        guide_query_fields(rest)
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
fn guide_query_fields(rest: &str) -> Vec<(String, String)> {
    let rest = rest.trim_start();
    let Some(body) = rest.strip_prefix("q=") else {
        return Vec::new();
    };
    match body.rfind(" dead=[") {
        Some(at) => vec![
            ("q".to_owned(), body[..at].to_owned()),
            ("dead".to_owned(), body[at + 6..].trim_end().to_owned()),
        ],
        None => vec![("q".to_owned(), body.trim_end().to_owned())],
    }
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

/// `name=value` pairs: values bare, Rust-debug quoted (`"a b"`), a quoted key (`"a"/"b"`) or a
/// bracketed list.
fn fields(rest: &str) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    let chars: Vec<char> = rest.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        while i < chars.len() && chars[i].is_whitespace() {
            i += 1;
        }
        let start = i;
        while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
            i += 1;
        }
        if i == start || i >= chars.len() || chars[i] != '=' {
            // Not a field (the message word, free text): skip to the next space.
            while i < chars.len() && !chars[i].is_whitespace() {
                i += 1;
            }
            continue;
        }
        let name: String = chars[start..i].iter().collect();
        i += 1;
        let value_start = i;
        if i < chars.len() && chars[i] == '[' {
            let mut depth = 0;
            let mut quoted = false;
            while i < chars.len() {
                match chars[i] {
                    '\\' if quoted => i += 1,
                    '"' => quoted = !quoted,
                    '[' if !quoted => depth += 1,
                    ']' if !quoted => {
                        depth -= 1;
                        if depth == 0 {
                            i += 1;
                            break;
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
        } else if i < chars.len() && chars[i] == '"' {
            i = skip_quoted(&chars, i)?;
            if i + 1 < chars.len() && chars[i] == '/' && chars[i + 1] == '"' {
                i = skip_quoted(&chars, i + 1)?;
            }
        } else {
            while i < chars.len() && !chars[i].is_whitespace() {
                i += 1;
            }
        }
        let raw: String = chars[value_start..i.min(chars.len())].iter().collect();
        out.push((name, unquote(&raw)));
    }
    Ok(out)
}

/// The index after the closing quote of the quoted string starting at `start`.
fn skip_quoted(chars: &[char], start: usize) -> Result<usize, String> {
    let mut i = start + 1;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 2,
            '"' => return Ok(i + 1),
            _ => i += 1,
        }
    }
    Err("a quoted value is not closed".to_owned())
}

/// A Rust-debug quoted string without its quotes and escapes; other text unchanged.
fn unquote(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let whole = chars.first() == Some(&'"') && skip_quoted(&chars, 0) == Ok(chars.len());
    let Some(inner) = text
        .strip_prefix('"')
        .and_then(|t| t.strip_suffix('"'))
        .filter(|_| whole)
    else {
        return text.to_owned();
    };
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('0') => out.push('\0'),
            Some('u') => {
                let code: String = chars.by_ref().skip(1).take_while(|c| *c != '}').collect();
                if let Some(c) = u32::from_str_radix(&code, 16).ok().and_then(char::from_u32) {
                    out.push(c);
                }
            }
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}

/// A key as logged: the kit's `"app"/"user"` or the guide's `app/user` (split at the first
/// `/`).
fn key_of(value: Option<&String>, format: LogFormat) -> Result<MemoryKey, String> {
    let value = value.ok_or("no `key`")?;
    if value.starts_with('"') {
        let chars: Vec<char> = value.chars().collect();
        let end = skip_quoted(&chars, 0)?;
        let app: String = chars[..end].iter().collect();
        let rest: String = chars[end..].iter().collect();
        let user = rest
            .strip_prefix('/')
            .filter(|u| u.starts_with('"'))
            .ok_or_else(|| format!("key {value} is not \"app\"/\"user\""))?;
        return Ok(MemoryKey::new(unquote(&app), unquote(user)));
    }
    let _ = format;
    let (app, user) = value
        .split_once('/')
        .ok_or_else(|| format!("key {value:?} has no `/` between app name and user id"))?;
    Ok(MemoryKey::new(app, user))
}

/// A logged list: `[a, b]` (Java's `List.toString`) or `["a", "b"]` (Rust's debug).
fn list(text: &str) -> Vec<String> {
    let inner = text.trim().trim_start_matches('[').trim_end_matches(']');
    if inner.trim().is_empty() {
        return Vec::new();
    }
    if inner.trim_start().starts_with('"') {
        let chars: Vec<char> = inner.chars().collect();
        let mut out = Vec::new();
        let mut i = 0;
        while i < chars.len() {
            if chars[i] == '"' {
                let Ok(end) = skip_quoted(&chars, i) else {
                    break;
                };
                out.push(unquote(&chars[i..end].iter().collect::<String>()));
                i = end;
            } else {
                i += 1;
            }
        }
        out
    } else {
        inner.split(", ").map(str::to_owned).collect()
    }
}
