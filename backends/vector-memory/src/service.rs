//! The store and its search.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, PoisonError, RwLock};

use memory_conformance::embed::{Embedder, cosine, has_word};
use memory_conformance::{
    Event, MemoryEntry, MemoryError, MemoryService, SearchMemoryResponse, SearchOptions, Session,
    async_trait,
};

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
    stores: RwLock<HashMap<(String, String), Store>>,
}

#[derive(Default)]
struct Store {
    sessions: Vec<StoredSession>,
    deleted: HashSet<String>,
}

struct StoredSession {
    id: String,
    events: Vec<StoredEvent>,
}

struct StoredEvent {
    entry: MemoryEntry,
    /// `None` for an event whose text has no word: never a result.
    vector: Option<Vec<f32>>,
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
            stores: RwLock::default(),
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

    fn embed_events(&self, events: &[Event], deleted: &HashSet<String>) -> Vec<StoredEvent> {
        let kept: Vec<(&Event, String)> = events
            .iter()
            .filter(|e| e.content.as_ref().is_some_and(|c| !c.parts.is_empty()))
            .filter(|e| !deleted.contains(&e.id))
            .map(|e| {
                let text = e
                    .content
                    .as_ref()
                    .map(|c| c.texts().collect::<Vec<_>>().join(" "))
                    .unwrap_or_default();
                (e, text)
            })
            .collect();
        let texts: Vec<&str> = kept.iter().map(|(_, t)| t.as_str()).collect();
        let vectors = self.embedder.embed(&texts);
        kept.into_iter()
            .zip(vectors)
            .filter_map(|((event, _), vector)| {
                let entry = MemoryEntry::from_event(event)?.with_id(event.id.clone());
                let vector = has_word(&entry.content.texts().collect::<Vec<_>>().join(" "))
                    .then_some(vector);
                Some(StoredEvent { entry, vector })
            })
            .collect()
    }

    fn search(&self, app: &str, user: &str, query: &str, limit: usize) -> Vec<MemoryEntry> {
        if !has_word(query) {
            return Vec::new();
        }
        let [query] = self.embedder.embed(&[query]).try_into().unwrap_or_default();
        let stores = self.stores.read().unwrap_or_else(PoisonError::into_inner);
        let key = (app.to_owned(), user.to_owned());
        let keys: Vec<&Store> = match self.deviation {
            Some(Deviation::AcrossKeys) => stores.values().collect(),
            _ => stores.get(&key).into_iter().collect(),
        };
        let mut candidates: Vec<(f64, &MemoryEntry)> = keys
            .into_iter()
            .flat_map(|store| &store.sessions)
            .flat_map(|session| &session.events)
            .filter_map(|event| Some((cosine(&query, event.vector.as_ref()?), &event.entry)))
            .collect();
        if self.deviation == Some(Deviation::CutsBeforeRanking) {
            candidates.truncate(limit);
        }
        // Stable: ties keep insertion order.
        candidates.sort_by(|a, b| b.0.total_cmp(&a.0));
        candidates.truncate(limit);
        candidates.into_iter().map(|(_, e)| e.clone()).collect()
    }
}

#[async_trait]
impl MemoryService for VectorMemory {
    async fn add_session_to_memory(&self, session: &Session) -> Result<(), MemoryError> {
        let key = (session.app_name.clone(), session.user_id.clone());
        let deleted = {
            let stores = self.stores.read().unwrap_or_else(PoisonError::into_inner);
            stores
                .get(&key)
                .map(|s| s.deleted.clone())
                .unwrap_or_default()
        };
        let mut events = self.embed_events(&session.events, &deleted);
        let mut stores = self.stores.write().unwrap_or_else(PoisonError::into_inner);
        let store = stores.entry(key).or_default();
        match store.sessions.iter_mut().find(|s| s.id == session.id) {
            Some(stored) if self.deviation == Some(Deviation::KeepsOldVersions) => {
                stored.events.append(&mut events);
            }
            Some(stored) => stored.events = events,
            None => store.sessions.push(StoredSession {
                id: session.id.clone(),
                events,
            }),
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
        let key = (app_name.to_owned(), user_id.to_owned());
        let mut stores = self.stores.write().unwrap_or_else(PoisonError::into_inner);
        let store = stores.entry(key).or_default();
        store.deleted.insert(memory_id.to_owned());
        for session in &mut store.sessions {
            session
                .events
                .retain(|e| e.entry.id.as_deref() != Some(memory_id));
        }
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
