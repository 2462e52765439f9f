//! One entry ready to be written: an event's or an explicit memory's stored columns.

use memory_conformance::{Content, Event, MemoryEntry};

use crate::failure::Failure;
use crate::indexed_text::indexed_text;

/// The columns of one `memory_events` row, and the text its FTS5 row indexes.
#[derive(Debug)]
pub(crate) struct StoredEntry {
    /// The entry's id: its event's id, or the explicit memory's; `None` for a memory given
    /// without one, which gets a fresh id when written.
    pub(crate) memory_id: Option<String>,
    pub(crate) author: Option<String>,
    pub(crate) timestamp: Option<String>,
    pub(crate) content_json: String,
    pub(crate) indexed_text: String,
}

impl StoredEntry {
    /// The stored form of every event of `events` whose content has at least one part, in
    /// order: [`MemoryEntry::from_event`] with the event's id. Fails when an event's content
    /// cannot be stored so that it reads back.
    pub(crate) fn from_events(
        events: &[Event],
        index_tool_data: bool,
    ) -> Result<Vec<Self>, Failure> {
        events
            .iter()
            .filter(|event| event.content.as_ref().is_some_and(|c| !c.parts.is_empty()))
            .filter_map(|event| MemoryEntry::from_event(event).map(|entry| (event, entry)))
            .map(|(event, entry)| {
                let what = || format!("event {:?}", event.id);
                Self::new(Some(event.id.clone()), entry, index_tool_data, what)
            })
            .collect()
    }

    /// The stored form of every memory of `memories` that has at least one part, in order,
    /// as given (id, content, author, timestamp). Fails when a memory's content cannot be
    /// stored so that it reads back.
    pub(crate) fn from_memories(
        memories: &[MemoryEntry],
        index_tool_data: bool,
    ) -> Result<Vec<Self>, Failure> {
        memories
            .iter()
            .enumerate()
            .filter(|(_, memory)| !memory.content.parts.is_empty())
            .map(|(n, memory)| {
                let what = || match &memory.id {
                    Some(id) => format!("memory {id:?}"),
                    None => format!("memory {n} (without an id)"),
                };
                Self::new(memory.id.clone(), memory.clone(), index_tool_data, what)
            })
            .collect()
    }

    fn new(
        memory_id: Option<String>,
        entry: MemoryEntry,
        index_tool_data: bool,
        what: impl Fn() -> String,
    ) -> Result<Self, Failure> {
        let content_json = serde_json::to_string(&entry.content)?;
        // Read it back now so that a stored entry can never break a later search (JSON nested
        // deeper than serde_json reads, for example).
        serde_json::from_str::<Content>(&content_json)
            .map_err(|err| format!("the content of {} does not read back: {err}", what()))?;
        Ok(Self {
            memory_id,
            author: entry.author,
            timestamp: entry.timestamp,
            indexed_text: indexed_text(&entry.content, index_tool_data),
            content_json,
        })
    }
}
