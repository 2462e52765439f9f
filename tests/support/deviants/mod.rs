//! Deliberately deviant backends, for the harness to catch: each is the reference bent by one
//! [`Deviation`], and breaks exactly one behaviour (or none, where its profile declares the
//! departure).
//!
//! A deviant is a unit struct named for what it does, declared in the file of the clause it
//! breaks (`key`, `replace`, `index`, `query`, `words`, `result`, `concurrency`, `calls`,
//! `liveness`, `visibility`, `replicas`, `fields`), with its whole deviation in its `impl Deviation`: the profile it
//! claims and the hooks it bends. A hook it leaves out behaves as the reference does.
//! [`Deviant`] makes one a [`MemoryService`] over a fresh [`Store`].

pub mod calls;
pub mod concurrency;
pub mod fields;
pub mod index;
pub mod key;
pub mod liveness;
pub mod query;
pub mod replace;
pub mod replicas;
pub mod result;
mod store;
pub mod visibility;
pub mod words;

use std::time::Duration;

use memory_conformance::profile::{Capabilities, Profile};
use memory_conformance::{
    Event, MemoryEntry, MemoryError, MemoryService, SearchMemoryResponse, SearchOptions, Session,
    async_trait,
};

pub use store::{Search, Store};

use store::Write;

/// What a write answers.
pub type Done = Result<(), MemoryError>;

/// What a search answers.
pub type Answer = Result<SearchMemoryResponse, MemoryError>;

/// When a deviant's writes show in its searches.
#[derive(Clone, Copy, Debug)]
pub enum Visible {
    /// As soon as the write answers, as the reference's do.
    AtOnce,
    /// This long after the write answered, each write after the ones before it.
    After(Duration),
    /// Never: every write answers and is dropped.
    Never,
}

/// One way of departing from the reference. Every hook defaults to the reference's behaviour
/// on the [`Store`]; a deviant overrides the ones it bends. Its `Debug` name is the backend's
/// name in failure reports and in the pinned matrix (`snapshots/deviant_rule_matrix.snap`),
/// and `Any` lets a test tell one deviant from another.
#[async_trait]
pub trait Deviation: std::fmt::Debug + std::any::Any + Send + Sync {
    /// The profile the deviant claims. The default: the reference's, with the two calls only
    /// (`add_session_to_memory` and `search_memory`) and no capability beyond them.
    fn profile(&self) -> Profile {
        two_calls(Profile::reference())
    }

    /// When its writes show. The default: at once. Writes that show later are made on the
    /// reference when due, as they were called; no write hook sees them, nor writes that never
    /// show.
    fn writes_visible(&self) -> Visible {
        Visible::AtOnce
    }

    /// Its `add_session_to_memory`.
    async fn add_session(&self, store: &Store, session: &Session) -> Done {
        store.add(session).await
    }

    /// Its `search_memory`.
    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        store.search(search).await
    }

    /// Its `search_memory_with`. The default: its [`search`](Self::search), cut to the limit.
    async fn search_with(
        &self,
        store: &Store,
        search: Search<'_>,
        options: &SearchOptions,
    ) -> Answer {
        let mut found = self.search(store, search).await?;
        if let Some(limit) = options.limit {
            found.memories.truncate(limit);
        }
        Ok(found)
    }

    /// Its `add_events_to_memory`.
    async fn add_events(
        &self,
        store: &Store,
        app: &str,
        user: &str,
        session_id: Option<&str>,
        events: &[Event],
    ) -> Done {
        store
            .reference
            .add_events_to_memory(app, user, session_id, events)
            .await
    }

    /// Its `add_memory`.
    async fn add_memory(
        &self,
        store: &Store,
        app: &str,
        user: &str,
        memories: &[MemoryEntry],
    ) -> Done {
        store.reference.add_memory(app, user, memories).await
    }

    /// Its `delete_memory`.
    async fn delete(&self, store: &Store, app: &str, user: &str, id: &str) -> Done {
        store.reference.delete_memory(app, user, id).await
    }
}

/// `profile` with the two calls only: no capability beyond `add_session_to_memory` and
/// `search_memory`.
fn two_calls(mut profile: Profile) -> Profile {
    profile.capabilities = Capabilities::default();
    profile
}

/// A [`Deviation`] as a backend, on a store of its own.
pub struct Deviant {
    deviation: &'static dyn Deviation,
    store: Store,
}

impl Deviant {
    /// `deviation` as a backend with an empty store.
    pub fn new(deviation: &'static dyn Deviation) -> Self {
        Self {
            deviation,
            store: Store::default(),
        }
    }

    /// Whether `write` is not made now (queued or dropped), as the deviation's writes show.
    fn postponed(&self, write: impl FnOnce() -> Write) -> bool {
        match self.deviation.writes_visible() {
            Visible::AtOnce => false,
            Visible::After(delay) => {
                self.store.later(write(), delay);
                true
            }
            Visible::Never => true,
        }
    }
}

#[async_trait]
impl MemoryService for Deviant {
    async fn add_session_to_memory(&self, session: &Session) -> Done {
        if self.postponed(|| Write::Session(session.clone())) {
            return Ok(());
        }
        self.deviation.add_session(&self.store, session).await
    }

    async fn search_memory(&self, app: &str, user: &str, query: &str) -> Answer {
        let search = Search { app, user, query };
        self.deviation.search(&self.store, search).await
    }

    async fn search_memory_with(
        &self,
        app: &str,
        user: &str,
        query: &str,
        options: &SearchOptions,
    ) -> Answer {
        let search = Search { app, user, query };
        self.deviation
            .search_with(&self.store, search, options)
            .await
    }

    async fn add_events_to_memory(
        &self,
        app: &str,
        user: &str,
        session_id: Option<&str>,
        events: &[Event],
    ) -> Done {
        let write = || Write::Events {
            app: app.to_owned(),
            user: user.to_owned(),
            session_id: session_id.map(str::to_owned),
            events: events.to_vec(),
        };
        if self.postponed(write) {
            return Ok(());
        }
        self.deviation
            .add_events(&self.store, app, user, session_id, events)
            .await
    }

    async fn add_memory(&self, app: &str, user: &str, memories: &[MemoryEntry]) -> Done {
        let write = || Write::Memories {
            app: app.to_owned(),
            user: user.to_owned(),
            memories: memories.to_vec(),
        };
        if self.postponed(write) {
            return Ok(());
        }
        self.deviation
            .add_memory(&self.store, app, user, memories)
            .await
    }

    async fn delete_memory(&self, app: &str, user: &str, id: &str) -> Done {
        let write = || Write::Delete {
            app: app.to_owned(),
            user: user.to_owned(),
            id: id.to_owned(),
        };
        if self.postponed(write) {
            return Ok(());
        }
        self.deviation.delete(&self.store, app, user, id).await
    }
}

/// `mutex`'s value, also after a panic while it was held.
fn lock<T>(mutex: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}
