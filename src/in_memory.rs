use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, PoisonError, RwLock};

use async_trait::async_trait;

use crate::tokenize::{can_match, raw_query_tokens};
use crate::{
    Event, MemoryEntry, MemoryError, MemoryService, SearchMemoryResponse, SearchOptions, Session,
};

mod posting_list;
mod user_store;
mod word_key;

use user_store::UserStore;

/// The session a delta without a session id is stored under, as ADK Python names it.
pub(crate) const UNKNOWN_SESSION_ID: &str = "__unknown_session_id__";

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
///   were first added, events in session order. Each entry's id is its event's id.
/// - **Beyond the two calls** (R9): a delta of events appends those whose id the session does
///   not hold yet; explicit memories are searchable like events, after every session added
///   before the first of them; deleting a memory id forgets every event and memory with that
///   id under the key, and later writes of that id are not stored; a search with a limit
///   returns the first that many entries.
///
/// Searches use an inverted index: their cost grows with the number of events that share a
/// word with the query, not with everything stored. Each distinct word is stored once; a
/// re-add leaves the postings of the session's previous events in place, marked stale by the
/// session's generation, and a word's postings are compacted once more than half of them are
/// stale, so a search never walks more than about twice the events that hold its words.
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

/// The entries of `events` that are stored: those whose content has at least one part, each
/// with its event's id.
fn stored_entries(events: &[Event]) -> impl Iterator<Item = MemoryEntry> + '_ {
    events
        .iter()
        .filter(|event| event.content.as_ref().is_some_and(|c| !c.parts.is_empty()))
        .filter_map(|event| Some(MemoryEntry::from_event(event)?.with_id(event.id.clone())))
}

/// A fresh id for an explicit memory given without one: `memory-1`, `memory-2`, ... in the
/// process.
fn next_memory_id() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    format!("memory-{}", NEXT.fetch_add(1, Ordering::Relaxed))
}

#[async_trait]
impl MemoryService for InMemoryMemoryService {
    async fn add_session_to_memory(&self, session: &Session) -> Result<(), MemoryError> {
        let entries: Vec<MemoryEntry> = stored_entries(&session.events).collect();
        let store = self.user_store_or_insert(&session.app_name, &session.user_id);
        let mut store = store.write().unwrap_or_else(PoisonError::into_inner);
        let entries = store.not_deleted(entries);
        let slot = store.slot_of_session(&session.id);
        store.replace(slot, entries);
        Ok(())
    }

    async fn add_events_to_memory(
        &self,
        app_name: &str,
        user_id: &str,
        session_id: Option<&str>,
        events: &[Event],
    ) -> Result<(), MemoryError> {
        let store = self.user_store_or_insert(app_name, user_id);
        let mut store = store.write().unwrap_or_else(PoisonError::into_inner);
        let slot = store.slot_of_session(session_id.unwrap_or(UNKNOWN_SESSION_ID));
        let mut entries = store.entries(slot).to_vec();
        let mut held: HashSet<String> = entries.iter().filter_map(|e| e.id.clone()).collect();
        let new = store.not_deleted(stored_entries(events).collect());
        for entry in new {
            if entry.id.as_ref().is_some_and(|id| held.insert(id.clone())) {
                entries.push(entry);
            }
        }
        store.replace(slot, entries);
        Ok(())
    }

    async fn add_memory(
        &self,
        app_name: &str,
        user_id: &str,
        memories: &[MemoryEntry],
    ) -> Result<(), MemoryError> {
        let store = self.user_store_or_insert(app_name, user_id);
        let mut store = store.write().unwrap_or_else(PoisonError::into_inner);
        let slot = store.slot_of_memories();
        let mut entries = store.entries(slot).to_vec();
        let new: Vec<MemoryEntry> = memories
            .iter()
            .filter(|memory| !memory.content.parts.is_empty())
            .map(|memory| match memory.id {
                Some(_) => memory.clone(),
                None => memory.clone().with_id(next_memory_id()),
            })
            .collect();
        for memory in store.not_deleted(new) {
            match entries.iter_mut().find(|old| old.id == memory.id) {
                Some(old) => *old = memory,
                None => entries.push(memory),
            }
        }
        store.replace(slot, entries);
        Ok(())
    }

    async fn delete_memory(
        &self,
        app_name: &str,
        user_id: &str,
        memory_id: &str,
    ) -> Result<(), MemoryError> {
        let store = self.user_store_or_insert(app_name, user_id);
        store
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .delete(memory_id);
        Ok(())
    }

    async fn search_memory_with(
        &self,
        app_name: &str,
        user_id: &str,
        query: &str,
        options: &SearchOptions,
    ) -> Result<SearchMemoryResponse, MemoryError> {
        let mut found = self.search_memory(app_name, user_id, query).await?;
        if let Some(limit) = options.limit {
            found.memories.truncate(limit);
        }
        Ok(found)
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
        let mut tokens: Vec<Cow<'_, str>> =
            raw_query_tokens(query).filter_map(live_token).collect();
        tokens.sort_unstable();
        tokens.dedup();
        let memories = store
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .search(&tokens);
        Ok(SearchMemoryResponse::new(memories))
    }
}

/// A token of [`raw_query_tokens`] under the query rule (lowercased), when it can match.
fn live_token(token: &str) -> Option<Cow<'_, str>> {
    if token.is_ascii() {
        if !can_match(token) {
            return None;
        }
        if token.bytes().any(|b| b.is_ascii_uppercase()) {
            Some(Cow::Owned(token.to_ascii_lowercase()))
        } else {
            Some(Cow::Borrowed(token))
        }
    } else {
        let lower = token.to_lowercase();
        can_match(&lower).then_some(Cow::Owned(lower))
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

    fn ids(response: &SearchMemoryResponse) -> Vec<&str> {
        response
            .memories
            .iter()
            .map(|m| m.id.as_deref().unwrap_or("-"))
            .collect()
    }

    #[tokio::test]
    async fn a_delta_appends_new_ids_only_and_without_a_session_id_goes_to_its_own_session() {
        let memory = InMemoryMemoryService::new();
        let event = |id: &str, text: &str| Event::text("user", text).with_id(id);
        let session = Session::new("a", "u", "s-1").with_event(event("e-1", "coffee"));
        memory.add_session_to_memory(&session).await.unwrap();
        let later = Session::new("a", "u", "s-2").with_event(event("e-9", "coffee later"));
        memory.add_session_to_memory(&later).await.unwrap();
        // e-1 is held already (the stored version stays), e-2 is new, an event without parts is
        // not stored.
        let delta = [
            event("e-1", "coffee changed"),
            event("e-2", "more coffee"),
            Event::new("user", Some(Content::new(vec![]))).with_id("e-3"),
        ];
        memory
            .add_events_to_memory("a", "u", Some("s-1"), &delta)
            .await
            .unwrap();
        assert_eq!(
            found(&memory, "a", "u", "coffee").await,
            ["coffee", "more coffee", "coffee later"]
        );
        assert!(found(&memory, "a", "u", "changed").await.is_empty());
        memory
            .add_events_to_memory("a", "u", None, &[event("e-4", "tea")])
            .await
            .unwrap();
        memory
            .add_events_to_memory("a", "u", None, &[event("e-5", "black tea")])
            .await
            .unwrap();
        assert_eq!(found(&memory, "a", "u", "tea").await, ["tea", "black tea"]);
        // The delta's session is the one ADK Python names: adding that session replaces it.
        let unknown = Session::new("a", "u", UNKNOWN_SESSION_ID).with_event(event("e-6", "latte"));
        memory.add_session_to_memory(&unknown).await.unwrap();
        assert!(found(&memory, "a", "u", "tea").await.is_empty());
        // A delta to a new session under a new key.
        memory
            .add_events_to_memory("b", "u", Some("s-1"), &[event("e-1", "mocha")])
            .await
            .unwrap();
        assert_eq!(found(&memory, "b", "u", "mocha").await, ["mocha"]);
        assert!(found(&memory, "a", "u", "mocha").await.is_empty());
    }

    #[tokio::test]
    async fn explicit_memories_come_after_earlier_sessions_get_fresh_ids_and_replace_by_id() {
        let memory = InMemoryMemoryService::new();
        let session = |id: &str, text: &str| {
            Session::new("a", "u", id).with_event(Event::text("user", text).with_id(id))
        };
        memory
            .add_session_to_memory(&session("s-1", "coffee one"))
            .await
            .unwrap();
        let memories = [
            MemoryEntry::new(Content::text("coffee memory")),
            MemoryEntry::new(Content::text("coffee again")),
            MemoryEntry::new(Content::new(vec![])).with_id("m-empty"),
            MemoryEntry::new(Content::text("coffee given")).with_id("m-1"),
        ];
        memory.add_memory("a", "u", &memories).await.unwrap();
        memory
            .add_session_to_memory(&session("s-2", "coffee two"))
            .await
            .unwrap();
        memory
            .add_memory("a", "u", &[MemoryEntry::new(Content::text("coffee last"))])
            .await
            .unwrap();
        let response = memory.search_memory("a", "u", "coffee").await.unwrap();
        let texts: Vec<&str> = response
            .memories
            .iter()
            .flat_map(|m| m.content.texts())
            .collect();
        assert_eq!(
            texts,
            [
                "coffee one",
                "coffee memory",
                "coffee again",
                "coffee given",
                "coffee last",
                "coffee two"
            ]
        );
        let given = ids(&response);
        assert_eq!((given[0], given[3], given[5]), ("s-1", "m-1", "s-2"));
        let fresh: HashSet<&str> = [given[1], given[2], given[4]].into_iter().collect();
        assert_eq!(fresh.len(), 3, "{given:?}");
        assert!(
            fresh.iter().all(|id| id.starts_with("memory-")),
            "{given:?}"
        );
        // The same id replaces the memory in place; a memory without parts is not stored.
        memory
            .add_memory(
                "a",
                "u",
                &[MemoryEntry::new(Content::text("tea given")).with_id("m-1")],
            )
            .await
            .unwrap();
        assert!(
            !found(&memory, "a", "u", "given")
                .await
                .contains(&"coffee given".to_owned())
        );
        assert_eq!(found(&memory, "a", "u", "given").await, ["tea given"]);
        let all = memory.search_memory("a", "u", "coffee tea").await.unwrap();
        assert_eq!(all.memories.len(), 6);
        assert_eq!(ids(&all)[3], "m-1");
        assert!(!ids(&all).contains(&"m-empty"));
    }

    #[tokio::test]
    async fn a_deleted_id_is_forgotten_everywhere_under_its_key_and_never_stored_again() {
        let memory = InMemoryMemoryService::new();
        let event = |id: &str, text: &str| Event::text("user", text).with_id(id);
        for (app, id) in [("a", "s-1"), ("a", "s-2"), ("b", "s-1")] {
            let session = Session::new(app, "u", id)
                .with_event(event("e-1", "coffee shared"))
                .with_event(event(&format!("{id}-own"), "coffee own"));
            memory.add_session_to_memory(&session).await.unwrap();
        }
        memory
            .add_session_to_memory(&Session::new("a", "u", "s-3").with_event(event("e-1", "tea")))
            .await
            .unwrap();
        memory
            .add_memory(
                "a",
                "u",
                &[MemoryEntry::new(Content::text("coffee m")).with_id("e-1")],
            )
            .await
            .unwrap();
        // An unknown id changes nothing.
        memory.delete_memory("a", "u", "nobody").await.unwrap();
        assert_eq!(found(&memory, "a", "u", "coffee tea").await.len(), 6);
        memory.delete_memory("a", "u", "e-1").await.unwrap();
        assert_eq!(
            found(&memory, "a", "u", "coffee tea").await,
            ["coffee own", "coffee own"]
        );
        assert!(found(&memory, "a", "u", "shared tea").await.is_empty());
        assert_eq!(found(&memory, "b", "u", "shared").await, ["coffee shared"]);
        // Later writes of the id, by any call, are not stored; other ids are.
        let again = Session::new("a", "u", "s-1")
            .with_event(event("e-1", "tea again"))
            .with_event(event("e-2", "tea kept"));
        memory.add_session_to_memory(&again).await.unwrap();
        memory
            .add_events_to_memory("a", "u", Some("s-2"), &[event("e-1", "tea delta")])
            .await
            .unwrap();
        memory
            .add_memory(
                "a",
                "u",
                &[MemoryEntry::new(Content::text("tea m")).with_id("e-1")],
            )
            .await
            .unwrap();
        assert_eq!(found(&memory, "a", "u", "tea").await, ["tea kept"]);
    }

    #[tokio::test]
    async fn a_search_with_a_limit_returns_the_first_that_many() {
        let memory = InMemoryMemoryService::new();
        let session = Session::new("a", "u", "s-1").with_events([
            Event::text("user", "coffee one"),
            Event::text("user", "coffee two"),
            Event::text("user", "coffee three"),
        ]);
        memory.add_session_to_memory(&session).await.unwrap();
        let texts = |response: SearchMemoryResponse| -> Vec<String> {
            response
                .memories
                .iter()
                .flat_map(|m| m.content.texts().map(str::to_owned))
                .collect()
        };
        let limited = memory
            .search_memory_with("a", "u", "coffee", &SearchOptions::with_limit(2))
            .await
            .unwrap();
        assert_eq!(texts(limited), ["coffee one", "coffee two"]);
        let plain = memory
            .search_memory_with("a", "u", "coffee", &SearchOptions::default())
            .await
            .unwrap();
        assert_eq!(texts(plain).len(), 3);
    }
}
