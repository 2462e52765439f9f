use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, PoisonError, RwLock};

use async_trait::async_trait;

use crate::tokenize::{can_match, event_words, query_tokens};
use crate::{MemoryEntry, MemoryError, MemoryService, SearchMemoryResponse, Session};

/// The reference backend: ADK's in-memory keyword matcher, with its three released defects
/// fixed, behaving exactly as `reference-behaviour.md` (rules R1–R8) describes.
///
/// - **Key**: (app name, user id) is kept as a pair and compared byte for byte, so
///   (`a/b`, `c`) and (`a`, `b/c`) never share a store.
/// - **Write**: a copy of the session's events that have content with at least one part;
///   re-adding a session id replaces what it held, atomically, even with nothing.
/// - **Match**: see [`tokenize`](crate::tokenize): a query token must equal a `[A-Za-z]+` word
///   of a text part. Function calls, function responses, inline data and state are never read.
/// - **Results**: every matching event, unscored and unlimited; sessions in the order their ids
///   were first added, events in session order.
///
/// Searches use an inverted index: their cost grows with the number of events that share a
/// word with the query, not with everything stored.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), memory_conformance::MemoryError> {
/// use memory_conformance::{Event, InMemoryMemoryService, MemoryService, Session};
/// let memory = InMemoryMemoryService::new();
/// let monday = Session::new("support", "u-42", "s-1")
///     .with_event(Event::text("user", "My favourite coffee is a flat white."));
/// memory.add_session_to_memory(&monday).await?;
/// assert_eq!(memory.search_memory("support", "u-42", "coffee").await?.memories.len(), 1);
/// assert_eq!(memory.search_memory("support", "42", "coffee").await?.memories.len(), 0);
/// assert_eq!(memory.search_memory("support", "u-42", "coffee?").await?.memories.len(), 0);
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Default)]
pub struct InMemoryMemoryService {
    apps: RwLock<HashMap<String, UsersOfApp>>,
}

/// User id -> that user's store, for one app name.
type UsersOfApp = HashMap<String, Arc<RwLock<UserStore>>>;

impl InMemoryMemoryService {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    fn user_store(&self, app_name: &str, user_id: &str) -> Option<Arc<RwLock<UserStore>>> {
        let apps = self.apps.read().unwrap_or_else(PoisonError::into_inner);
        apps.get(app_name)?.get(user_id).cloned()
    }

    fn user_store_or_insert(&self, app_name: &str, user_id: &str) -> Arc<RwLock<UserStore>> {
        if let Some(store) = self.user_store(app_name, user_id) {
            return store;
        }
        let mut apps = self.apps.write().unwrap_or_else(PoisonError::into_inner);
        Arc::clone(
            apps.entry(app_name.to_owned())
                .or_default()
                .entry(user_id.to_owned())
                .or_default(),
        )
    }
}

#[async_trait]
impl MemoryService for InMemoryMemoryService {
    async fn add_session_to_memory(&self, session: &Session) -> Result<(), MemoryError> {
        let stored = StoredSession::from_session(session);
        let store = self.user_store_or_insert(&session.app_name, &session.user_id);
        store
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .replace(&session.id, stored);
        Ok(())
    }

    async fn search_memory(
        &self,
        app_name: &str,
        user_id: &str,
        query: &str,
    ) -> Result<SearchMemoryResponse, MemoryError> {
        let Some(store) = self.user_store(app_name, user_id) else {
            return Ok(SearchMemoryResponse::default());
        };
        let mut tokens: Vec<String> = query_tokens(query)
            .into_iter()
            .filter(|t| can_match(t))
            .collect();
        tokens.sort_unstable();
        tokens.dedup();
        let memories = store
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .search(&tokens);
        Ok(SearchMemoryResponse::new(memories))
    }
}

/// Everything stored under one (app name, user id).
#[derive(Debug, Default)]
struct UserStore {
    /// Sessions by slot; a slot is the order in which a session id was first added.
    slots: Vec<StoredSession>,
    slot_of: HashMap<String, usize>,
    /// word -> slot -> indexes of the slot's events that contain the word.
    postings: HashMap<Box<str>, BTreeMap<usize, Vec<usize>>>,
}

impl UserStore {
    fn replace(&mut self, session_id: &str, session: StoredSession) {
        let slot = match self.slot_of.get(session_id) {
            Some(&slot) => {
                for (word, _) in &self.slots[slot].postings {
                    if let Some(by_slot) = self.postings.get_mut(word) {
                        by_slot.remove(&slot);
                        if by_slot.is_empty() {
                            self.postings.remove(word);
                        }
                    }
                }
                slot
            }
            None => {
                self.slots.push(StoredSession::default());
                self.slot_of
                    .insert(session_id.to_owned(), self.slots.len() - 1);
                self.slots.len() - 1
            }
        };
        for (word, events) in &session.postings {
            self.postings
                .entry(word.clone())
                .or_default()
                .insert(slot, events.clone());
        }
        self.slots[slot] = session;
    }

    /// Every event that holds at least one of `tokens`, in slot then event order.
    fn search(&self, tokens: &[String]) -> Vec<MemoryEntry> {
        let mut hits: Vec<(usize, usize)> = Vec::new();
        for token in tokens {
            if let Some(by_slot) = self.postings.get(token.as_str()) {
                for (&slot, events) in by_slot {
                    hits.extend(events.iter().map(|&event| (slot, event)));
                }
            }
        }
        hits.sort_unstable();
        hits.dedup();
        hits.into_iter()
            .map(|(slot, event)| self.slots[slot].entries[event].clone())
            .collect()
    }
}

/// One session as stored: its entries and, for each word, the events that hold it.
#[derive(Debug, Default)]
struct StoredSession {
    entries: Vec<MemoryEntry>,
    postings: Vec<(Box<str>, Vec<usize>)>,
}

impl StoredSession {
    fn from_session(session: &Session) -> Self {
        let entries: Vec<MemoryEntry> = session
            .events
            .iter()
            .filter(|event| event.content.as_ref().is_some_and(|c| !c.parts.is_empty()))
            .filter_map(MemoryEntry::from_event)
            .collect();
        let mut index: HashMap<Box<str>, Vec<usize>> = HashMap::new();
        for (position, entry) in entries.iter().enumerate() {
            for word in entry.content.texts().flat_map(event_words) {
                let positions = index.entry(word.into_boxed_str()).or_default();
                if positions.last() != Some(&position) {
                    positions.push(position);
                }
            }
        }
        Self {
            entries,
            postings: index.into_iter().collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Content, Event};

    async fn found(
        memory: &InMemoryMemoryService,
        app: &str,
        user: &str,
        query: &str,
    ) -> Vec<String> {
        let response = memory.search_memory(app, user, query).await.unwrap();
        response
            .memories
            .iter()
            .map(|m| m.content.texts().collect::<Vec<_>>().join("+"))
            .collect()
    }

    #[tokio::test]
    async fn every_match_once_in_first_add_then_event_order_and_a_readd_replaces_in_place() {
        let memory = InMemoryMemoryService::new();
        let first = Session::new("a", "u", "s-1").with_events([
            Event::text("user", "coffee and more coffee"),
            Event::without_content("user"),
            Event::new("user", Some(Content::new(vec![]))),
            Event::text("model", "tea"),
        ]);
        memory.add_session_to_memory(&first).await.unwrap();
        let second = Session::new("a", "u", "s-2").with_event(Event::text("user", "Coffee, black"));
        memory.add_session_to_memory(&second).await.unwrap();
        assert_eq!(
            found(&memory, "a", "u", "TEA coffee tea").await,
            ["coffee and more coffee", "tea", "Coffee, black"]
        );
        // Re-adding s-1 keeps its place before s-2 and drops the words it no longer holds.
        let again = Session::new("a", "u", "s-1").with_event(Event::text("user", "black tea"));
        memory.add_session_to_memory(&again).await.unwrap();
        assert_eq!(
            found(&memory, "a", "u", "black").await,
            ["black tea", "Coffee, black"]
        );
        assert!(found(&memory, "a", "u", "more").await.is_empty());
        let third = Session::new("a", "u", "s-3").with_event(Event::text("user", "black"));
        memory.add_session_to_memory(&third).await.unwrap();
        memory
            .add_session_to_memory(&Session::new("a", "u", "s-2"))
            .await
            .unwrap();
        assert_eq!(
            found(&memory, "a", "u", "black").await,
            ["black tea", "black"]
        );
    }

    #[tokio::test]
    async fn stores_are_per_exact_pair_and_dead_tokens_find_nothing() {
        let memory = InMemoryMemoryService::new();
        let session = Session::new("a/b", "c", "s-1").with_event(Event::text("user", "coffee"));
        memory.add_session_to_memory(&session).await.unwrap();
        assert_eq!(found(&memory, "a/b", "c", "coffee").await, ["coffee"]);
        assert!(found(&memory, "a", "b/c", "coffee").await.is_empty());
        assert!(found(&memory, "a/b", "C", "coffee").await.is_empty());
        assert!(found(&memory, "a/b", "c", "coffee? tea").await.is_empty());
        assert!(found(&memory, "a/b", "c", "").await.is_empty());
    }
}
