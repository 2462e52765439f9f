//! One user's store: sessions in the order their ids were first added, and bm25 over their
//! events' words.

use memory_conformance::MemoryEntry;

use crate::bm25;

/// A stored event: the entry a search returns and the words it is found by.
#[derive(Debug)]
pub(crate) struct Indexed {
    pub(crate) entry: MemoryEntry,
    pub(crate) words: Vec<String>,
}

/// The sessions of one (app name, user id) pair.
#[derive(Debug, Default)]
pub(crate) struct UserStore {
    sessions: Vec<(String, Vec<Indexed>)>,
}

impl UserStore {
    /// Replaces what session `id` held with `events` (also with none).
    pub(crate) fn replace(&mut self, id: &str, events: Vec<Indexed>) {
        match self.sessions.iter_mut().find(|(session, _)| session == id) {
            Some((_, held)) => *held = events,
            None => self.sessions.push((id.to_owned(), events)),
        }
    }

    /// The entries that hold at least one of `terms`, best [`bm25`] score first (ties in
    /// insertion order), at most `limit`; events without a word take no part.
    pub(crate) fn search(&self, terms: &[String], limit: usize) -> Vec<MemoryEntry> {
        let events: Vec<&Indexed> = self
            .sessions
            .iter()
            .flat_map(|(_, events)| events)
            .filter(|event| !event.words.is_empty())
            .collect();
        let documents: Vec<&[String]> = events.iter().map(|e| e.words.as_slice()).collect();
        bm25(&documents, terms)
            .into_iter()
            .take(limit)
            .map(|i| events[i].entry.clone())
            .collect()
    }
}
