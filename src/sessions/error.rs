use std::error::Error;
use std::fmt;
use std::path::Path;

/// Why sessions could not be read: where (the file, the JSON path) and what was expected.
///
/// ```
/// let err = memory_conformance::sessions::read_sessions(r#"[{"id": 1}]"#).unwrap_err();
/// assert_eq!(err.path(), "$[0].id");
/// assert_eq!(err.to_string(), "$[0].id: expected the session id (a string), found the number 1");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionsError {
    file: Option<String>,
    path: String,
    message: String,
}

impl SessionsError {
    pub(crate) fn at(path: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            file: None,
            path: path.into(),
            message: message.into(),
        }
    }

    pub(crate) fn syntax(err: serde_json::Error) -> Self {
        Self::at(
            "",
            format!(
                "not valid JSON: {err} (line {}, column {})",
                err.line(),
                err.column()
            ),
        )
        .strip_position(&err)
    }

    fn strip_position(mut self, err: &serde_json::Error) -> Self {
        // serde_json appends " at line L column C" itself; keep one copy.
        let suffix = format!(" at line {} column {}", err.line(), err.column());
        self.message = self.message.replacen(&suffix, "", 1);
        self
    }

    /// The same error, naming `file` as its source.
    #[must_use]
    pub fn in_file(mut self, file: &Path) -> Self {
        self.file = Some(file.display().to_string());
        self
    }

    /// The file the error is in, when known.
    pub fn file(&self) -> Option<&str> {
        self.file.as_deref()
    }

    /// The JSON path of the problem (`$[0].events[2].timestamp`); empty when the source could
    /// not be read or is not JSON.
    pub fn path(&self) -> &str {
        &self.path
    }
}

impl fmt::Display for SessionsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.file, self.path.is_empty()) {
            (Some(file), true) => write!(f, "{file}: {}", self.message),
            (Some(file), false) => write!(f, "{file}: {}: {}", self.path, self.message),
            (None, true) => f.write_str(&self.message),
            (None, false) => write!(f, "{}: {}", self.path, self.message),
        }
    }
}

impl Error for SessionsError {}
