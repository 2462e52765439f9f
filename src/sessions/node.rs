use serde_json::{Map, Value};

use super::SessionsError;

/// A JSON value with the path that leads to it, so every error can say where it is.
#[derive(Clone, Debug)]
pub(crate) struct Node<'a> {
    pub(crate) value: &'a Value,
    pub(crate) path: String,
}

impl<'a> Node<'a> {
    pub(crate) fn root(value: &'a Value) -> Self {
        Self {
            value,
            path: "$".to_owned(),
        }
    }

    /// The first of `names` that is present and not `null` (ADK Python writes `null` for
    /// every absent field).
    pub(crate) fn optional(&self, names: &[&str]) -> Option<Node<'a>> {
        let map = self.value.as_object()?;
        names.iter().find_map(|name| match map.get(*name) {
            None | Some(Value::Null) => None,
            Some(value) => Some(Node {
                value,
                path: child_path(&self.path, name),
            }),
        })
    }

    pub(crate) fn required(&self, names: &[&str], what: &str) -> Result<Node<'a>, SessionsError> {
        self.optional(names).ok_or_else(|| {
            let alternatives = if names.len() > 1 {
                format!(" (`{}`)", names.join("` or `"))
            } else {
                String::new()
            };
            SessionsError::at(
                child_path(&self.path, names[0]),
                format!("missing: expected {what}{alternatives}"),
            )
        })
    }

    /// The string at one of `names`, required.
    pub(crate) fn string(&self, names: &[&str], what: &str) -> Result<String, SessionsError> {
        let node = self.required(names, &format!("{what} (a string)"))?;
        node.str(&format!("{what} (a string)")).map(str::to_owned)
    }

    pub(crate) fn str(&self, expected: &str) -> Result<&'a str, SessionsError> {
        self.value.as_str().ok_or_else(|| self.mismatch(expected))
    }

    pub(crate) fn object(&self, expected: &str) -> Result<&'a Map<String, Value>, SessionsError> {
        self.value
            .as_object()
            .ok_or_else(|| self.mismatch(expected))
    }

    pub(crate) fn items(&self, expected: &str) -> Result<Vec<Node<'a>>, SessionsError> {
        let items = self
            .value
            .as_array()
            .ok_or_else(|| self.mismatch(expected))?;
        Ok(items
            .iter()
            .enumerate()
            .map(|(index, value)| Node {
                value,
                path: format!("{}[{index}]", self.path),
            })
            .collect())
    }

    pub(crate) fn mismatch(&self, expected: &str) -> SessionsError {
        SessionsError::at(
            self.path.clone(),
            format!("expected {expected}, found {}", describe(self.value)),
        )
    }
}

fn child_path(parent: &str, name: &str) -> String {
    if !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        format!("{parent}.{name}")
    } else {
        format!("{parent}[{name:?}]")
    }
}

/// What a value is, for an error message: its type, and the value itself only when it is a
/// number, a boolean or null (never a string: strings may be stored content).
fn describe(value: &Value) -> String {
    match value {
        Value::Null => "null".to_owned(),
        Value::Bool(b) => format!("the boolean {b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => format!("a string of {} characters", s.chars().count()),
        Value::Array(items) => format!("an array of {}", items.len()),
        Value::Object(_) => "an object".to_owned(),
    }
}
