//! The store and its search.

use std::sync::Arc;

use memory_conformance::embed::{Embedder, has_word};
use memory_conformance::{
    Event, MemoryEntry, MemoryError, MemoryService, SearchMemoryResponse, SearchOptions, Session,
    async_trait,
};

use crate::{EventStore, nearest_first};

/// How many entries a search returns at most, unless it asks for fewer.
pub const TOP_K: usize = 10;

/// A way to break the store, for showing that the rules catch it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Deviation {
    /// Searches every key's events, not only the key asked for.
    AcrossKeys,
    /// A re-add appends the new version's events and keeps the old ones.
    KeepsOldVersions,
    /// Cuts to the first ten stored events, then ranks them.
    CutsBeforeRanking,
}

/// An in-memory store of embedded events, searched by cosine similarity.
///
/// - **Key**: (app name, user id) kept apart, byte for byte; then the session id.
/// - **Write**: a re-add replaces the session's events (those whose content has a part). An
///   event's text parts are joined with a space and embedded; an event whose text holds no word
///   (a letter or number: tool data, inline data, punctuation only) is stored but never
///   returned.
/// - **Search**: the query's vector against every stored vector of the key; the nearest
///   [`TOP_K`] (or as many as the search asks for) by cosine similarity, ties in insertion
///   order. A query
///   with no word returns nothing.
/// - **Entries** carry the event's id; [`delete_memory`](MemoryService::delete_memory) forgets
///   every event with that id under the key, and the id is not stored again.
pub struct VectorMemory {
    embedder: Arc<dyn Embedder>,
    deviation: Option<Deviation>,
    /// Each event's vector; `None` for an event whose text has no word: never a result.
    store: EventStore<Vec<f32>>,
}

impl VectorMemory {
    /// An empty store embedding with `embedder`.
    pub fn new(embedder: impl Embedder + 'static) -> Self {
        Self::with_embedder(Arc::new(embedder))
    }

    /// An empty store embedding with a shared `embedder`.
    pub fn with_embedder(embedder: Arc<dyn Embedder>) -> Self {
        Self {
            embedder,
            deviation: None,
            store: EventStore::default(),
        }
    }

    /// The same store, broken as `deviation` says.
    #[must_use]
    pub fn with_deviation(mut self, deviation: Deviation) -> Self {
        self.deviation = Some(deviation);
        self
    }

    /// The embedder's name (`hashed-256`).
    pub fn embedder(&self) -> &str {
        self.embedder.name()
    }

    /// Each event's text embedded, kept where it holds a word.
    fn embed_events(&self, events: &[(&Event, String)]) -> Vec<Option<Vec<f32>>> {
        let texts: Vec<&str> = events.iter().map(|(_, t)| t.as_str()).collect();
        let vectors = self.embedder.embed(&texts);
        vectors
            .into_iter()
            .zip(texts)
            .map(|(vector, text)| has_word(text).then_some(vector))
            .collect()
    }

    fn search(&self, app: &str, user: &str, query: &str, limit: usize) -> Vec<MemoryEntry> {
        if !has_word(query) {
            return Vec::new();
        }
        let [query] = self.embedder.embed(&[query]).try_into().unwrap_or_default();
        let rank = |events: &[(&MemoryEntry, &Vec<f32>)]| {
            let events = match self.deviation {
                Some(Deviation::CutsBeforeRanking) => &events[..limit.min(events.len())],
                _ => events,
            };
            nearest_first(&query, events.iter().map(|(_, vector)| vector.as_slice()))
                .into_iter()
                .take(limit)
                .map(|(i, _)| events[i].0.clone())
                .collect()
        };
        match self.deviation {
            Some(Deviation::AcrossKeys) => self.store.indexed_in_every_key(rank),
            _ => self.store.indexed(app, user, rank),
        }
    }
}

#[async_trait]
impl MemoryService for VectorMemory {
    async fn add_session_to_memory(&self, session: &Session) -> Result<(), MemoryError> {
        let embed = |events: &[(&Event, String)]| self.embed_events(events);
        match self.deviation {
            Some(Deviation::KeepsOldVersions) => self.store.append(session, embed),
            _ => self.store.add(session, embed),
        }
        Ok(())
    }

    async fn search_memory(
        &self,
        app_name: &str,
        user_id: &str,
        query: &str,
    ) -> Result<SearchMemoryResponse, MemoryError> {
        Ok(SearchMemoryResponse::new(
            self.search(app_name, user_id, query, TOP_K),
        ))
    }

    async fn search_memory_with(
        &self,
        app_name: &str,
        user_id: &str,
        query: &str,
        options: &SearchOptions,
    ) -> Result<SearchMemoryResponse, MemoryError> {
        let limit = options.limit.unwrap_or(TOP_K);
        Ok(SearchMemoryResponse::new(
            self.search(app_name, user_id, query, limit),
        ))
    }

    async fn delete_memory(
        &self,
        app_name: &str,
        user_id: &str,
        memory_id: &str,
    ) -> Result<(), MemoryError> {
        self.store.delete(app_name, user_id, memory_id);
        Ok(())
    }
}

impl std::fmt::Debug for VectorMemory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VectorMemory")
            .field("embedder", &self.embedder.name())
            .field("deviation", &self.deviation)
            .finish_non_exhaustive()
    }
}
