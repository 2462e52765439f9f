//! Deviants that keep an entry's text and change another of its fields only after a later
//! step (R6.entries): a re-add, a delta, a reopen, another instance. Each keeps every field on
//! a first add, so `result.fidelity` passes it, and the rule whose scenario ran the later step
//! must catch it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use memory_conformance::conformance::Namespace;
use memory_conformance::profile::Profile;
use memory_conformance::{
    Event, InMemoryMemoryService, MemoryService, SearchOptions, Session, async_trait,
};

use super::{Answer, Deviation, Done, Store, lock, two_calls};

/// Stores a re-added session with its events' authors emptied, as a store whose update path
/// forgets a column its insert path writes. Breaks R6.entries after a re-add.
#[derive(Debug)]
pub struct AuthorLostOnReadd;

#[async_trait]
impl Deviation for AuthorLostOnReadd {
    async fn add_session(&self, store: &Store, session: &Session) -> Done {
        let readd = store
            .sessions_of(&session.app_name, &session.user_id)
            .iter()
            .any(|s| s.id == session.id);
        store.log(session);
        let mut session = session.clone();
        if readd {
            session.events.iter_mut().for_each(|e| e.author.clear());
        }
        store.add(&session).await
    }
}

/// Stores a delta's events with their text parts only, role and non-text parts dropped, as a
/// delta path that writes the text column alone. Breaks R6.entries after a delta.
#[derive(Debug)]
pub struct RoleAndPartsLostOnDelta;

#[async_trait]
impl Deviation for RoleAndPartsLostOnDelta {
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
        let events: Vec<Event> = events
            .iter()
            .cloned()
            .map(|mut event| {
                if let Some(content) = &mut event.content
                    && content.texts().next().is_some()
                {
                    content.role = None;
                    content.parts.retain(|p| p.as_text().is_some());
                }
                event
            })
            .collect();
        store
            .reference
            .add_events_to_memory(app, user, session_id, &events)
            .await
    }
}

/// What a namespace's storage holds: its sessions as last written, in the order first added.
#[derive(Clone, Default)]
pub struct Saved(Arc<Mutex<Vec<Session>>>);

type Storages = Mutex<HashMap<Namespace, Saved>>;

impl Saved {
    fn storages() -> &'static Storages {
        static STORAGES: OnceLock<Storages> = OnceLock::new();
        STORAGES.get_or_init(Storages::default)
    }

    /// The storage of `namespace`, empty when first asked for.
    pub fn of(namespace: &Namespace) -> Self {
        lock(Self::storages())
            .entry(namespace.clone())
            .or_default()
            .clone()
    }

    /// Removes the storage of `namespace` (the subject's cleanup).
    pub fn remove(namespace: &Namespace) {
        lock(Self::storages()).remove(namespace);
    }

    fn save(&self, session: &Session) {
        let mut sessions = lock(&self.0);
        match sessions
            .iter()
            .position(|s| s.key() == session.key() && s.id == session.id)
        {
            Some(i) => sessions[i] = session.clone(),
            None => sessions.push(session.clone()),
        }
    }
}

/// How a [`Reloaded`] instance reads back what another wrote.
#[derive(Clone, Copy, Debug)]
pub enum ReloadFault {
    /// A durable store that writes each event's time as local time (UTC+1) and reads it back
    /// as UTC: an instance opened on the storage sees every stored time an hour late, the
    /// instance that wrote it the right one. Breaks R6.entries after a reopen.
    TimestampShiftedOnReopen,
    /// A shared store that saves no author: each instance sees the authors of what it wrote
    /// itself, and none of what another instance wrote. Breaks R6.entries through a second
    /// instance.
    AuthorLostThroughPeers,
}

impl ReloadFault {
    /// The profile it claims: the reference's two calls, durable or shared.
    pub fn profile(self) -> Profile {
        let mut profile = two_calls(Profile::reference().named(format!("{self:?}")));
        match self {
            Self::TimestampShiftedOnReopen => profile.capabilities.durable = true,
            Self::AuthorLostThroughPeers => profile.capabilities.shared = true,
        }
        profile
    }

    /// `session` as an instance reads it back from the storage.
    fn read_back(self, mut session: Session) -> Session {
        for event in &mut session.events {
            match self {
                Self::TimestampShiftedOnReopen => {
                    event.timestamp = event
                        .timestamp
                        .checked_add(jiff::SignedDuration::from_hours(1))
                        .unwrap_or(event.timestamp);
                }
                Self::AuthorLostThroughPeers => event.author.clear(),
            }
        }
        session
    }
}

/// One instance on a namespace's [`Saved`] storage: it searches the reference over what the
/// storage holds, read back with its [`ReloadFault`], but over the sessions it wrote itself as
/// it wrote them.
pub struct Reloaded {
    fault: ReloadFault,
    saved: Saved,
    /// The sessions this instance wrote, each as written last.
    written: tokio::sync::Mutex<Vec<Session>>,
}

impl Reloaded {
    /// An instance on `saved`.
    pub fn open(fault: ReloadFault, saved: Saved) -> Self {
        Self {
            fault,
            saved,
            written: tokio::sync::Mutex::default(),
        }
    }
}

#[async_trait]
impl MemoryService for Reloaded {
    async fn add_session_to_memory(&self, session: &Session) -> Done {
        let mut written = self.written.lock().await;
        written.retain(|s| !(s.key() == session.key() && s.id == session.id));
        written.push(session.clone());
        self.saved.save(session);
        Ok(())
    }

    async fn search_memory(&self, app: &str, user: &str, query: &str) -> Answer {
        let written = self.written.lock().await.clone();
        let sessions = lock(&self.saved.0).clone();
        let loaded = InMemoryMemoryService::new();
        for session in sessions {
            let own = written
                .iter()
                .find(|s| s.key() == session.key() && s.id == session.id && *s == &session);
            let session = match own {
                Some(own) => own.clone(),
                None => self.fault.read_back(session),
            };
            loaded.add_session_to_memory(&session).await?;
        }
        loaded.search_memory(app, user, query).await
    }

    async fn search_memory_with(
        &self,
        app: &str,
        user: &str,
        query: &str,
        options: &SearchOptions,
    ) -> Answer {
        let mut found = self.search_memory(app, user, query).await?;
        if let Some(limit) = options.limit {
            found.memories.truncate(limit);
        }
        Ok(found)
    }
}
