//! The store and its search.

use std::collections::HashSet;
use std::sync::Arc;

use memory_conformance::embed::{Embedder, has_word};
use memory_conformance::{
    Event, MemoryEntry, MemoryError, MemoryService, SearchMemoryResponse, SearchOptions, Session,
    async_trait,
};
use memory_segmented_bm25::bm25;
use memory_sqlite_fts5::WORD_RULE;
use memory_vector::{EventStore, TOP_K};

use crate::fusion::{fuse, nearest};

/// An in-memory store, each event ranked by bm25 and by cosine similarity, the two rankings
/// fused by reciprocal rank.
///
/// - **Key**: (app name, user id) kept apart, byte for byte; then the session id.
/// - **Write**: a re-add replaces the session's events (those whose content has a part). An
///   event is indexed as `author: text`, its text parts joined with a space: its words under
///   [`WORD_RULE`] (as FTS5's `unicode61 remove_diacritics 2` cuts them) for bm25, the whole
///   for the embedder. An event whose text holds no
///   word (tool data, inline data, punctuation only) is stored but never returned.
/// - **Search**: bm25 over the key's events that hold a query word (statistics over the key's
///   events only), and the 100 nearest by cosine of those at least 0.3 similar; each event
///   scores `1 / (20 + rank)` in each list it is in, the best [`TOP_K`] (or as many as the search asks
///   for) come back, ties in insertion order. A query with no word returns nothing.
/// - **Entries** carry the event's id; [`delete_memory`](MemoryService::delete_memory) forgets
///   every event with that id under the key, and the id is not stored again.
///
/// The store is [`memory_vector`]'s, with its contract.
pub struct HybridMemory {
    embedder: Arc<dyn Embedder>,
    store: EventStore<Indexed>,
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
            store: EventStore::default(),
        }
    }

    /// Each event with a word indexed as `author: text`: its words and its vector.
    fn index_events(&self, events: &[(&Event, String)]) -> Vec<Option<Indexed>> {
        let texts: Vec<Option<String>> = events
            .iter()
            .map(|(event, text)| has_word(text).then(|| format!("{}: {text}", event.author)))
            .collect();
        let batch: Vec<&str> = texts.iter().flatten().map(String::as_str).collect();
        let mut vectors = self.embedder.embed(&batch).into_iter();
        texts
            .into_iter()
            .map(|text| {
                let text = text?;
                Some(Indexed {
                    words: WORD_RULE.words(&text),
                    vector: vectors.next()?,
                })
            })
            .collect()
    }

    fn search(&self, app: &str, user: &str, query: &str, limit: usize) -> Vec<MemoryEntry> {
        if !has_word(query) || limit == 0 {
            return Vec::new();
        }
        let [vector] = self.embedder.embed(&[query]).try_into().unwrap_or_default();
        let mut terms = WORD_RULE.words(query);
        let mut seen = HashSet::new();
        terms.retain(|term| seen.insert(term.clone()));
        self.store.indexed(app, user, |events| {
            let documents: Vec<&[String]> =
                events.iter().map(|(_, i)| i.words.as_slice()).collect();
            let dense = nearest(&vector, events.iter().map(|(_, i)| i.vector.as_slice()));
            fuse(&[bm25(&documents, &terms), dense])
                .into_iter()
                .take(limit)
                .map(|i| events[i].0.clone())
                .collect()
        })
    }
}

#[async_trait]
impl MemoryService for HybridMemory {
    async fn add_session_to_memory(&self, session: &Session) -> Result<(), MemoryError> {
        self.store.add(session, |events| self.index_events(events));
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

impl std::fmt::Debug for HybridMemory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HybridMemory")
            .field("embedder", &self.embedder.name())
            .finish_non_exhaustive()
    }
}
