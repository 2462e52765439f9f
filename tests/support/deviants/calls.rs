//! Deviants of the calls beyond the two (R9): deltas, explicit memories, deletion, entry ids and
//! a search's limit. Each claims the reference's capabilities, as the reference does.

use std::sync::atomic::Ordering;

use memory_conformance::profile::Profile;
use memory_conformance::{
    Event, MemoryEntry, MemoryService, SearchMemoryResponse, SearchOptions, Session, async_trait,
};

use super::{Answer, Deviation, Done, Search, Store, lock};

/// Stores a delta as the whole session, replacing the events it held. Breaks R9.delta.
#[derive(Debug)]
pub struct DeltaReplaces;

#[async_trait]
impl Deviation for DeltaReplaces {
    fn profile(&self) -> Profile {
        Profile::reference()
    }

    async fn add_events(
        &self,
        store: &Store,
        app: &str,
        user: &str,
        session_id: Option<&str>,
        events: &[Event],
    ) -> Done {
        let session = Session::new(app, user, session_id.unwrap_or("__unknown_session_id__"))
            .with_events(events.iter().cloned());
        store.add(&session).await
    }
}

/// `add_memory` answers but stores nothing. Breaks R9.memories.
#[derive(Debug)]
pub struct MemoriesDropped;

#[async_trait]
impl Deviation for MemoriesDropped {
    fn profile(&self) -> Profile {
        Profile::reference()
    }

    async fn add_memory(&self, _: &Store, _: &str, _: &str, _: &[MemoryEntry]) -> Done {
        Ok(())
    }
}

/// Deletes by rewriting each session of the key without the memory, so a re-add brings it
/// back. Breaks R9.delete.
#[derive(Debug)]
pub struct DeleteForgetsOnReadd;

#[async_trait]
impl Deviation for DeleteForgetsOnReadd {
    fn profile(&self) -> Profile {
        Profile::reference()
    }

    async fn add_session(&self, store: &Store, session: &Session) -> Done {
        store.keep_latest(session);
        store.add(session).await
    }

    async fn delete(&self, store: &Store, app: &str, user: &str, id: &str) -> Done {
        // Nothing remembers the deletion.
        for mut session in store.sessions_of(app, user) {
            session.events.retain(|e| e.id != id);
            store.add(&session).await?;
        }
        Ok(())
    }
}

/// Deletes the id under every key it holds, not only the caller's. Breaks R9.delete-scoped.
#[derive(Debug)]
pub struct DeleteUnderEveryKey;

#[async_trait]
impl Deviation for DeleteUnderEveryKey {
    fn profile(&self) -> Profile {
        Profile::reference()
    }

    async fn add_session(&self, store: &Store, session: &Session) -> Done {
        store.keep_latest(session);
        store.add(session).await
    }

    async fn delete(&self, store: &Store, _: &str, _: &str, id: &str) -> Done {
        let keys: Vec<(String, String)> = lock(&store.sessions)
            .iter()
            .map(|s| (s.app_name.clone(), s.user_id.clone()))
            .collect();
        for (app, user) in keys {
            store.reference.delete_memory(&app, &user, id).await?;
        }
        Ok(())
    }
}

/// Deletes every memory of every session it holds, under every key, when asked to delete one, a
/// defect reported of a published memory library (mem0,
/// <https://github.com/mem0ai/mem0/issues/3746>: `delete_all` for one user resets the whole
/// vector store), modelled on `delete_memory`, the one deletion of the trait. Breaks
/// R9.delete-scoped.
#[derive(Debug)]
pub struct DeleteWipesAll;

#[async_trait]
impl Deviation for DeleteWipesAll {
    fn profile(&self) -> Profile {
        Profile::reference()
    }

    async fn add_session(&self, store: &Store, session: &Session) -> Done {
        store.keep_latest(session);
        store.add(session).await
    }

    async fn delete(&self, store: &Store, _: &str, _: &str, _: &str) -> Done {
        let held: Vec<(String, String, String)> = lock(&store.sessions)
            .iter()
            .flat_map(|s| {
                s.events
                    .iter()
                    .map(|e| (s.app_name.clone(), s.user_id.clone(), e.id.clone()))
            })
            .collect();
        for (app, user, id) in held {
            store.reference.delete_memory(&app, &user, &id).await?;
        }
        Ok(())
    }
}

/// `delete_memory` answers and removes nothing, a defect reported of a published memory
/// backend (supermemory, <https://github.com/supermemoryai/supermemory/issues/142>: a deleted
/// memory is still shown in search results). Breaks R9.delete.
#[derive(Debug)]
pub struct DeleteIgnored;

#[async_trait]
impl Deviation for DeleteIgnored {
    fn profile(&self) -> Profile {
        Profile::reference()
    }

    async fn delete(&self, _: &Store, _: &str, _: &str, _: &str) -> Done {
        Ok(())
    }
}

/// Answers a fresh id on every entry of every search. Breaks R9.entry-ids.
#[derive(Debug)]
pub struct UnstableIds;

#[async_trait]
impl Deviation for UnstableIds {
    fn profile(&self) -> Profile {
        Profile::reference()
    }

    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        let mut found = store.search(search).await?;
        for entry in &mut found.memories {
            let n = store.counter.fetch_add(1, Ordering::Relaxed);
            entry.id = Some(format!("m-{n}"));
        }
        Ok(found)
    }
}

/// Ignores a search's limit. Breaks R9.search-limit.
#[derive(Debug)]
pub struct LimitIgnored;

#[async_trait]
impl Deviation for LimitIgnored {
    fn profile(&self) -> Profile {
        Profile::reference()
    }

    async fn search_with(&self, store: &Store, search: Search<'_>, _: &SearchOptions) -> Answer {
        self.search(store, search).await
    }
}

/// How many entries a search of [`LimitCappedAtTopK`] ever answers to a limit.
const TOP_K: usize = 6;

/// Cuts a search with a limit to at most six entries, whatever the limit, a defect reported of
/// a published agent's memory (DeepChat, <https://github.com/ThinkInAIXYZ/deepchat/issues/1884>:
/// `memory.search`'s limit is silently capped by the retrieval `topK`, six by default). Breaks
/// R9.search-limit.
#[derive(Debug)]
pub struct LimitCappedAtTopK;

#[async_trait]
impl Deviation for LimitCappedAtTopK {
    fn profile(&self) -> Profile {
        Profile::reference()
    }

    async fn search_with(
        &self,
        store: &Store,
        search: Search<'_>,
        options: &SearchOptions,
    ) -> Answer {
        let mut found = self.search(store, search).await?;
        found
            .memories
            .truncate(options.limit.map_or(TOP_K, |limit| limit.min(TOP_K)));
        Ok(found)
    }
}

/// Cuts a limited search to its limit before matching: the first `limit` events stored under
/// the key, of which those that match the query. Breaks R9.search-limit wherever events that
/// do not match come before the matches.
#[derive(Debug)]
pub struct LimitBeforeMatch;

#[async_trait]
impl Deviation for LimitBeforeMatch {
    fn profile(&self) -> Profile {
        Profile::reference()
    }

    async fn add_session(&self, store: &Store, session: &Session) -> Done {
        store.log(session);
        store.add(session).await
    }

    async fn search_with(
        &self,
        store: &Store,
        search: Search<'_>,
        options: &SearchOptions,
    ) -> Answer {
        let mut all = super::query::matching(store, search, |_| true).memories;
        if let Some(limit) = options.limit {
            all.truncate(limit);
        }
        let live = super::query::live_tokens(search.query);
        let memories = all
            .into_iter()
            .filter(|entry| {
                let words = super::query::words(entry);
                live.iter().any(|t| words.contains(t))
            })
            .collect();
        Ok(SearchMemoryResponse::new(memories))
    }
}
