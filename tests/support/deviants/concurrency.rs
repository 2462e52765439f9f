//! Deviants that lose or tear concurrent writes (R8).

use std::sync::Arc;

use memory_conformance::{InMemoryMemoryService, MemoryService, Session, async_trait};

use super::{Answer, Deviation, Done, Search, Store, lock};

/// Replaces a session by emptying it, then adding its events one at a time, yielding between:
/// a concurrent search sees a mix of versions. Breaks R8.atomic-replace.
#[derive(Debug)]
pub struct TornReplace;

#[async_trait]
impl Deviation for TornReplace {
    async fn add_session(&self, store: &Store, session: &Session) -> Done {
        let empty = Session::new(
            session.app_name.clone(),
            session.user_id.clone(),
            session.id.clone(),
        );
        store.add(&empty).await?;
        for n in 1..=session.events.len() {
            tokio::task::yield_now().await;
            let prefix = empty
                .clone()
                .with_events(session.events[..n].iter().cloned());
            store.add(&prefix).await?;
        }
        Ok(())
    }
}

/// Each write reads every session stored, yields, and saves them all back with its own: of two
/// concurrent writes, the later save loses the other's. Breaks R8.adds-land.
#[derive(Debug)]
pub struct LostWrites;

#[async_trait]
impl Deviation for LostWrites {
    async fn add_session(&self, store: &Store, session: &Session) -> Done {
        let mut snapshot = lock(&store.sessions).clone();
        tokio::task::yield_now().await;
        snapshot.retain(|s| !(s.key() == session.key() && s.id == session.id));
        snapshot.push(session.clone());
        let rebuilt = InMemoryMemoryService::new();
        for stored in &snapshot {
            rebuilt.add_session_to_memory(stored).await?;
        }
        *lock(&store.sessions) = snapshot;
        *lock(&store.rebuilt) = Arc::new(rebuilt);
        Ok(())
    }

    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        let rebuilt = Arc::clone(&lock(&store.rebuilt));
        rebuilt
            .search_memory(search.app, search.user, search.query)
            .await
    }
}
