use serde::{Deserialize, Serialize};

use crate::Part;

/// The content of an event: an optional role and ordered parts, as in ADK's `Content`.
///
/// ```
/// use memory_conformance::{Content, Part};
/// let content = Content::new(vec![Part::text("flat"), Part::text("white")]).with_role("user");
/// assert_eq!(content.texts().collect::<Vec<_>>(), ["flat", "white"]);
/// assert!(content.has_text());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Content {
    /// Who produced the content (`"user"`, `"model"`), when known.
    #[serde(default)]
    pub role: Option<String>,
    /// The parts, in order.
    #[serde(default)]
    pub parts: Vec<Part>,
}

impl Content {
    /// Content made of `parts`, without a role.
    pub fn new(parts: Vec<Part>) -> Self {
        Self { role: None, parts }
    }

    /// Content made of one text part.
    pub fn text(text: impl Into<String>) -> Self {
        Self::new(vec![Part::text(text)])
    }

    /// The same content with `role` set.
    #[must_use]
    pub fn with_role(mut self, role: impl Into<String>) -> Self {
        self.role = Some(role.into());
        self
    }

    /// The text of every text part, in order (other kinds of part are skipped).
    pub fn texts(&self) -> impl Iterator<Item = &str> {
        self.parts.iter().filter_map(Part::as_text)
    }

    /// The content as the entry it is to every rule but `result.fidelity`, and to the recall
    /// probes and benchmarks: its text parts, in order (the role and other kinds of part
    /// aside); `None` without a text part.
    #[cfg(feature = "harness")]
    pub(crate) fn entry_key(&self) -> Option<String> {
        let texts: Vec<&str> = self.texts().collect();
        (!texts.is_empty()).then(|| texts.join("\u{1f}"))
    }

    /// Whether at least one part is non-empty text: the only content a text index can ever find.
    pub fn has_text(&self) -> bool {
        self.texts().any(|text| !text.is_empty())
    }
}
