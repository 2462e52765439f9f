//! How the harness writes the model's values in a failure report: a session on one line, a
//! content with its parts, a list of contents or entries, a count of entries. Nothing here
//! knows a scenario, so the scenario, its comparison and its mismatch all print with it.

use std::fmt;

use crate::{Content, MemoryEntry, Part, Session};

/// A session as one line: key, id, events.
pub(crate) struct SessionDisplay<'a>(pub(crate) &'a Session);

impl fmt::Display for SessionDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let session = self.0;
        write!(f, "{} session {:?} [", session.key(), session.id)?;
        for (i, event) in session.events.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            match &event.content {
                None => write!(f, "{}: <no content>", event.author)?,
                Some(content) => write!(f, "{}: {}", event.author, ContentDisplay(content))?,
            }
        }
        f.write_str("]")?;
        if !session.state.is_empty() {
            write!(
                f,
                " state {}",
                serde_json::Value::Object(session.state.clone())
            )?;
        }
        Ok(())
    }
}

/// Contents as a bracketed list.
pub(crate) struct ContentsDisplay<'a>(pub(crate) &'a [Content]);

impl fmt::Display for ContentsDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[")?;
        for (i, content) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{}", ContentDisplay(content))?;
        }
        f.write_str("]")
    }
}

/// A text longer than this many bytes shows as its size, its first and its last [`SHOWN`]
/// characters, so a report stays readable and a text cut short shows where it ends.
const LONG_TEXT: usize = 400;

/// The characters shown of each end of a long text.
const SHOWN: usize = 40;

/// One content, its parts joined with `+`: text quoted (a long one by its size and its ends),
/// other parts in angle brackets, inline data with its first bytes; the role first, when there is one, so two contents that differ
/// only in their role read differently.
pub(crate) struct ContentDisplay<'a>(pub(crate) &'a Content);

impl fmt::Display for ContentDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(role) = &self.0.role {
            write!(f, "(role {role:?}) ")?;
        }
        if self.0.parts.is_empty() {
            return f.write_str("<no parts>");
        }
        for (i, part) in self.0.parts.iter().enumerate() {
            if i > 0 {
                f.write_str("+")?;
            }
            match part {
                Part::Text(text) if text.len() > LONG_TEXT => {
                    let head: String = text.chars().take(SHOWN).collect();
                    let tail: Vec<char> = text.chars().rev().take(SHOWN).collect();
                    let tail: String = tail.into_iter().rev().collect();
                    write!(f, "<text of {} bytes {head:?}…{tail:?}>", text.len())?
                }
                Part::Text(text) => write!(f, "{text:?}")?,
                Part::FunctionCall { name, args } => write!(f, "<call {name} {args}>")?,
                Part::FunctionResponse { name, response } => {
                    write!(f, "<response {name} {response}>")?
                }
                Part::InlineData { mime_type, data } => {
                    let head: String = data.iter().take(8).map(|b| format!("{b:02x}")).collect();
                    let more = if data.len() > 8 { "…" } else { "" };
                    write!(f, "<{mime_type}, {} bytes {head}{more}>", data.len())?
                }
            }
        }
        Ok(())
    }
}

/// Entries as a bracketed list of contents, with author and timestamp when asked.
pub(crate) struct EntriesDisplay<'a> {
    pub(crate) entries: &'a [MemoryEntry],
    pub(crate) with_metadata: bool,
}

impl fmt::Display for EntriesDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[")?;
        for (i, entry) in self.entries.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{}", ContentDisplay(&entry.content))?;
            if self.with_metadata {
                write!(f, " by {:?} at {:?}", entry.author, entry.timestamp)?;
                if let Some(id) = &entry.id {
                    write!(f, " id {id:?}")?;
                }
            }
        }
        f.write_str("]")
    }
}

/// `1 entry`, `3 entries`.
pub(crate) fn count(n: usize) -> String {
    if n == 1 {
        "1 entry".into()
    } else {
        format!("{n} entries")
    }
}
