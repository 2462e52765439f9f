use std::fmt;

use serde::{Deserialize, Serialize};

/// The first level of a memory store: the (app name, user id) pair a search names.
///
/// Displayed with both parts quoted, `"support"/"u-42"`, so that whitespace, case and
/// separators that make two keys differ stay visible in logs and reports.
///
/// ```
/// use memory_conformance::MemoryKey;
/// assert_eq!(MemoryKey::new("support", "u-42 ").to_string(), r#""support"/"u-42 ""#);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct MemoryKey {
    /// The application's name.
    pub app_name: String,
    /// The user's id.
    pub user_id: String,
}

impl MemoryKey {
    /// The key (`app_name`, `user_id`).
    pub fn new(app_name: impl Into<String>, user_id: impl Into<String>) -> Self {
        Self {
            app_name: app_name.into(),
            user_id: user_id.into(),
        }
    }
}

impl fmt::Display for MemoryKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        KeyRef(&self.app_name, &self.user_id).fmt(f)
    }
}

/// A borrowed (app name, user id) displayed like [`MemoryKey`], for logging without copying.
pub(crate) struct KeyRef<'a>(pub(crate) &'a str, pub(crate) &'a str);

impl fmt::Display for KeyRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}/{:?}", self.0, self.1)
    }
}
