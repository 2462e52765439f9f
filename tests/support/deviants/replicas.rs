//! Replicas that claim a shared store (`capabilities.shared`) and do not share it: an
//! in-process store per instance, or instances over one storage that lose or miss each other's
//! writes.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use memory_conformance::conformance::Namespace;
use memory_conformance::profile::Profile;
use memory_conformance::{InMemoryMemoryService, MemoryService, Session, async_trait};

use super::{Answer, Deviation, Done, lock, two_calls};

/// The profile the replicas claim: the reference's two calls, on a shared store.
fn shared() -> Profile {
    let mut profile = two_calls(Profile::reference().named("shared"));
    profile.capabilities.shared = true;
    profile
}

/// Claims a shared store, but each instance keeps its own: the guide's in-process store on each
/// of several replicas. Breaks `capabilities.shared`.
#[derive(Debug)]
pub struct OwnStorePerInstance;

impl Deviation for OwnStorePerInstance {
    fn profile(&self) -> Profile {
        shared()
    }
}

/// How replicas over one storage go wrong. Each instance is a [`Replica`] on the
/// [`SharedStorage`] of its namespace; a replica searches what the storage held when it last
/// loaded it, with the reference's rules.
#[derive(Clone, Copy, Debug)]
pub enum ReplicaFault {
    /// Each instance keeps a copy of the stored sessions, loaded when it opens and again by
    /// every search, and saves its whole copy on every write: a write through an instance that
    /// has not searched since another instance wrote saves over that write.
    StaleCopyWriteBack,
    /// Each instance loads the stored sessions before a write and saves them after it, under
    /// its own lock only: writes through one instance never race, but writes through two at
    /// once each save without the other's.
    UncoordinatedWrites,
    /// Each instance answers a search from the sessions as it last loaded them and loads them
    /// again after answering; its writes update the storage as it is: the first search through
    /// an instance after another instance's write misses that write, a defect of a published
    /// service (adk-inspeximus 0.1.0, `docs/findings/adk-inspeximus-peer-write-missed.md`).
    RefreshAfterSearch,
}

impl ReplicaFault {
    /// The profile the replicas claim, as [`OwnStorePerInstance`] does.
    pub fn profile(self) -> Profile {
        shared()
    }
}

/// The storage every instance opened on one namespace shares: the sessions as last saved, in
/// the order first added.
#[derive(Clone, Default)]
pub struct SharedStorage(Arc<Mutex<Vec<Session>>>);

type Storages = Mutex<HashMap<Namespace, SharedStorage>>;

impl SharedStorage {
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

    fn load(&self) -> Vec<Session> {
        lock(&self.0).clone()
    }

    fn save(&self, sessions: Vec<Session>) {
        *lock(&self.0) = sessions;
    }

    /// Puts `session` in the storage as it is now, in place of its earlier version.
    fn upsert(&self, session: &Session) {
        upsert(&mut lock(&self.0), session);
    }
}

/// Puts `session` in `sessions`, in place of its earlier version or last.
fn upsert(sessions: &mut Vec<Session>, session: &Session) {
    match sessions
        .iter()
        .position(|s| s.key() == session.key() && s.id == session.id)
    {
        Some(i) => sessions[i] = session.clone(),
        None => sessions.push(session.clone()),
    }
}

/// One instance of a replicated backend with a [`ReplicaFault`].
pub struct Replica {
    fault: ReplicaFault,
    storage: SharedStorage,
    /// The sessions as this instance last loaded or wrote them.
    copy: tokio::sync::Mutex<Vec<Session>>,
}

impl Replica {
    /// An instance on `storage`, with its copy loaded.
    pub fn open(fault: ReplicaFault, storage: SharedStorage) -> Self {
        let copy = tokio::sync::Mutex::new(storage.load());
        Self {
            fault,
            storage,
            copy,
        }
    }
}

#[async_trait]
impl MemoryService for Replica {
    async fn add_session_to_memory(&self, session: &Session) -> Done {
        let mut copy = self.copy.lock().await;
        match self.fault {
            ReplicaFault::StaleCopyWriteBack => {}
            ReplicaFault::UncoordinatedWrites => {
                *copy = self.storage.load();
                // The round trip to the storage, during which another instance may load too.
                tokio::time::sleep(std::time::Duration::from_millis(1)).await;
            }
            ReplicaFault::RefreshAfterSearch => {
                upsert(&mut copy, session);
                self.storage.upsert(session);
                return Ok(());
            }
        }
        upsert(&mut copy, session);
        self.storage.save(copy.clone());
        Ok(())
    }

    async fn search_memory(&self, app: &str, user: &str, query: &str) -> Answer {
        let sessions = {
            let mut copy = self.copy.lock().await;
            let loaded = self.storage.load();
            match self.fault {
                ReplicaFault::RefreshAfterSearch => std::mem::replace(&mut *copy, loaded),
                _ => {
                    *copy = loaded;
                    copy.clone()
                }
            }
        };
        let loaded = InMemoryMemoryService::new();
        for session in &sessions {
            loaded.add_session_to_memory(session).await?;
        }
        loaded.search_memory(app, user, query).await
    }
}
