//! What every deviant wraps: the reference, what the deviant remembers beside it, and the
//! queue of its postponed writes.

use std::collections::HashMap;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use memory_conformance::{
    Content, Event, InMemoryMemoryService, MemoryEntry, MemoryService, Session,
};
use tokio::sync::mpsc::UnboundedSender;

use super::{Answer, Done, lock};

/// A search as the caller made it.
#[derive(Clone, Copy, Debug)]
pub struct Search<'a> {
    pub app: &'a str,
    pub user: &'a str,
    pub query: &'a str,
}

impl<'a> Search<'a> {
    /// The same search for `query`.
    pub fn with_query<'b>(self, query: &'b str) -> Search<'b>
    where
        'a: 'b,
    {
        Search { query, ..self }
    }
}

/// The reference a deviant bends, and what the deviant keeps beside it. A fresh one per
/// instance.
#[derive(Default)]
pub struct Store {
    /// The reference.
    pub(super) reference: Arc<InMemoryMemoryService>,
    /// Sessions as the deviant saw them added, kept as each deviant needs.
    pub(super) sessions: Mutex<Vec<Session>>,
    /// Contents as stored after rewriting -> contents as added, for the deviants that rewrite
    /// text ([`index`](super::index)).
    pub(super) originals: Mutex<HashMap<String, Content>>,
    /// A counter that numbers every entry returned, for
    /// [`UnstableIds`](super::calls::UnstableIds).
    pub(super) counter: AtomicU64,
    /// The reference rebuilt from `sessions` after every write, for
    /// [`LostWrites`](super::concurrency::LostWrites).
    pub(super) rebuilt: Mutex<Arc<InMemoryMemoryService>>,
    /// Postponed writes, which a background task applies in order, each when due.
    queue: Mutex<Option<UnboundedSender<(Instant, Write)>>>,
}

impl Store {
    /// The reference's `add_session_to_memory`.
    pub async fn add(&self, session: &Session) -> Done {
        self.reference.add_session_to_memory(session).await
    }

    /// The reference's answer to `search`.
    pub async fn search(&self, search: Search<'_>) -> Answer {
        self.reference
            .search_memory(search.app, search.user, search.query)
            .await
    }

    /// Remembers `session` after every session added before it, earlier versions included.
    pub fn log(&self, session: &Session) {
        lock(&self.sessions).push(session.clone());
    }

    /// Remembers `session` in place of its earlier version, as the last added.
    pub fn keep_latest(&self, session: &Session) {
        let mut sessions = lock(&self.sessions);
        sessions.retain(|s| !(s.key() == session.key() && s.id == session.id));
        sessions.push(session.clone());
    }

    /// The sessions remembered under (`app`, `user`), in the order remembered.
    pub fn sessions_of(&self, app: &str, user: &str) -> Vec<Session> {
        lock(&self.sessions)
            .iter()
            .filter(|s| s.app_name == app && s.user_id == user)
            .cloned()
            .collect()
    }

    /// Queues `write` to be applied to the reference `delay` from now, after every write
    /// queued before.
    pub(super) fn later(&self, write: Write, delay: Duration) {
        let mut queue = lock(&self.queue);
        let sender = queue.get_or_insert_with(|| {
            let (sender, mut writes) = tokio::sync::mpsc::unbounded_channel::<(Instant, Write)>();
            let reference = Arc::clone(&self.reference);
            tokio::spawn(async move {
                while let Some((due, write)) = writes.recv().await {
                    tokio::time::sleep_until(due.into()).await;
                    let _ = write.apply(&reference).await;
                }
            });
            sender
        });
        let _ = sender.send((Instant::now() + delay, write));
    }
}

/// A write made later, with what it was made with.
pub(super) enum Write {
    Session(Session),
    Events {
        app: String,
        user: String,
        session_id: Option<String>,
        events: Vec<Event>,
    },
    Memories {
        app: String,
        user: String,
        memories: Vec<MemoryEntry>,
    },
    Delete {
        app: String,
        user: String,
        id: String,
    },
}

impl Write {
    async fn apply(self, reference: &InMemoryMemoryService) -> Done {
        match self {
            Self::Session(session) => reference.add_session_to_memory(&session).await,
            Self::Events {
                app,
                user,
                session_id,
                events,
            } => {
                reference
                    .add_events_to_memory(&app, &user, session_id.as_deref(), &events)
                    .await
            }
            Self::Memories {
                app,
                user,
                memories,
            } => reference.add_memory(&app, &user, &memories).await,
            Self::Delete { app, user, id } => reference.delete_memory(&app, &user, &id).await,
        }
    }
}
