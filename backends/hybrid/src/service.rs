//! The store and its search.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, PoisonError, RwLock};

use memory_conformance::embed::{Embedder, cosine, has_word};
use memory_conformance::{
    Event, MemoryEntry, MemoryError, MemoryService, SearchMemoryResponse, SearchOptions, Session,
    async_trait,
};

use crate::fusion::{bm25, fuse, nearest};
use crate::words::words;

/// How many entries a search returns at most, unless it asks for fewer.
pub const TOP_K: usize = 10;

/// An in-memory store, each event ranked by bm25 and by cosine similarity, the two rankings
/// fused by reciprocal rank.
///
/// - **Key**: (app name, user id) kept apart, byte for byte; then the session id.
/// - **Write**: a re-add replaces the session's events (those whose content has a part). An
///   event is indexed as `author: text`, its text parts joined with a space: its
///   [words](crate::words) (as FTS5's `unicode61 remove_diacritics 2` cuts them) for bm25, the
///   whole for the embedder. An event whose text holds no
///   word (tool data, inline data, punctuation only) is stored but never returned.
/// - **Search**: bm25 over the key's events that hold a query word (statistics over the key's
///   events only), and the 100 nearest by cosine of those at least 0.3 similar; each event
///   scores `1 / (20 + rank)` in each list it is in, the best [`TOP_K`] (or as many as the search asks
///   for) come back, ties in insertion order. A query with no word returns nothing.
/// - **Entries** carry the event's id; [`delete_memory`](MemoryService::delete_memory) forgets
///   every event with that id under the key, and the id is not stored again.
pub struct HybridMemory {
    embedder: Arc<dyn Embedder>,
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
    indexed: Option<Indexed>,
}

struct Indexed {
    words: Vec<String>,
    vector: Vec<f32>,
}

impl HybridMemory {
    /// An empty store embedding with `embedder`.
    pub fn new(embedder: impl Embedder + 'static) -> Self {
        Self::with_embedder(Arc::new(embedder))
    }

    /// An empty store embedding with a shared `embedder`.
    pub fn with_embedder(embedder: Arc<dyn Embedder>) -> Self {
        Self {
            embedder,
            stores: RwLock::default(),
        }
    }

    fn index_events(&self, events: &[Event], deleted: &HashSet<String>) -> Vec<StoredEvent> {
        let kept: Vec<(MemoryEntry, Option<String>)> = events
            .iter()
            .filter(|e| e.content.as_ref().is_some_and(|c| !c.parts.is_empty()))
            .filter(|e| !deleted.contains(&e.id))
            .filter_map(|event| {
                let entry = MemoryEntry::from_event(event)?.with_id(event.id.clone());
                let text = entry.content.texts().collect::<Vec<_>>().join(" ");
                let indexed = has_word(&text).then(|| format!("{}: {text}", event.author));
                Some((entry, indexed))
            })
            .collect();
        let texts: Vec<&str> = kept.iter().filter_map(|(_, t)| t.as_deref()).collect();
        let mut vectors = self.embedder.embed(&texts).into_iter();
        kept.into_iter()
            .map(|(entry, text)| StoredEvent {
                entry,
                indexed: text.and_then(|text| {
                    Some(Indexed {
                        words: words(&text),
                        vector: vectors.next()?,
                    })
                }),
            })
            .collect()
    }

    fn search(&self, app: &str, user: &str, query: &str, limit: usize) -> Vec<MemoryEntry> {
        if !has_word(query) || limit == 0 {
            return Vec::new();
        }
        let [vector] = self.embedder.embed(&[query]).try_into().unwrap_or_default();
        let mut terms = words(query);
        let mut seen = HashSet::new();
        terms.retain(|term| seen.insert(term.clone()));
        let stores = self.stores.read().unwrap_or_else(PoisonError::into_inner);
        let Some(store) = stores.get(&(app.to_owned(), user.to_owned())) else {
            return Vec::new();
        };
        let events: Vec<(&MemoryEntry, &Indexed)> = store
            .sessions
            .iter()
            .flat_map(|session| &session.events)
            .filter_map(|event| Some((&event.entry, event.indexed.as_ref()?)))
            .collect();
        let documents: Vec<&[String]> = events.iter().map(|(_, i)| i.words.as_slice()).collect();
        let similarities: Vec<Option<f64>> = events
            .iter()
            .map(|(_, i)| Some(cosine(&vector, &i.vector)))
            .collect();
        let fused = fuse(&[bm25(&documents, &terms), nearest(&similarities)]);
        fused
            .into_iter()
            .take(limit)
            .map(|i| events[i].0.clone())
            .collect()
    }
}

#[async_trait]
impl MemoryService for HybridMemory {
    async fn add_session_to_memory(&self, session: &Session) -> Result<(), MemoryError> {
        let key = (session.app_name.clone(), session.user_id.clone());
        let deleted = {
            let stores = self.stores.read().unwrap_or_else(PoisonError::into_inner);
            stores
                .get(&key)
                .map(|s| s.deleted.clone())
                .unwrap_or_default()
        };
        let events = self.index_events(&session.events, &deleted);
        let mut stores = self.stores.write().unwrap_or_else(PoisonError::into_inner);
        let store = stores.entry(key).or_default();
        match store.sessions.iter_mut().find(|s| s.id == session.id) {
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

impl std::fmt::Debug for HybridMemory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HybridMemory")
            .field("embedder", &self.embedder.name())
            .finish_non_exhaustive()
    }
}
