//! Helpers shared by the integration tests.
#![allow(dead_code)]

use memory_conformance::{Event, MemoryEntry, MemoryService, SearchMemoryResponse, Timestamp};

/// A fixed instant `millis` milliseconds after 2026-01-01T00:00:00Z.
pub fn at(millis: i64) -> Timestamp {
    Timestamp::from_millisecond(1_767_225_600_000 + millis).expect("in range")
}

/// The first text part of every entry, in response order.
pub fn texts(response: &SearchMemoryResponse) -> Vec<String> {
    response
        .memories
        .iter()
        .map(|entry| entry.content.texts().next().unwrap_or_default().to_owned())
        .collect()
}

/// How many entries `query` finds under (`app`, `user`); panics on an error.
pub async fn hits(memory: &impl MemoryService, app: &str, user: &str, query: &str) -> usize {
    memory
        .search_memory(app, user, query)
        .await
        .unwrap_or_else(|err| panic!("search {query:?} failed: {err:?}"))
        .memories
        .len()
}

/// The entry a search returns for `event`: the kit's entry of the event, carrying the event's
/// id.
pub fn entry_of(event: &Event) -> MemoryEntry {
    MemoryEntry::from_event(event)
        .expect("the event has content")
        .with_id(event.id.clone())
}
