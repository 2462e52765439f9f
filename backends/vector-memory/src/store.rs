//! Events kept in memory by key and session, each with what a backend indexed of it.

use std::collections::{HashMap, HashSet};
use std::sync::{PoisonError, RwLock};

use memory_conformance::{Event, MemoryEntry, Session};

/// Events kept in memory, each with `I`, what a backend indexed of it: the store under
/// [`VectorMemory`](crate::VectorMemory), for any in-memory backend with the same contract.
///
/// - **Key**: (app name, user id) kept apart, byte for byte; then the session id.
/// - **Write**: [`add`](Self::add) keeps a session's events whose content has a part, each as
///   its [entry](MemoryEntry::from_event) carrying the event's id, and replaces what the
///   session held. An event indexed as `None` is kept but never a candidate.
/// - **Read**: [`indexed`](Self::indexed) gives the key's indexed events, sessions in the
///   order they were first added, events in order.
/// - **Delete**: [`delete`](Self::delete) forgets every event with an id under the key, and
///   the id is not stored again.
///
/// ```
/// use memory_conformance::{Event, Session};
/// use memory_vector::EventStore;
/// let store: EventStore<usize> = EventStore::default();
/// let session = Session::new("support", "u-42", "s-1")
///     .with_event(Event::text("user", "flat white"))
///     .with_event(Event::text("user", "?!"));
/// store.add(&session, |events| {
///     events.iter().map(|(_, text)| text.contains("white").then_some(text.len())).collect()
/// });
/// let found = store.indexed("support", "u-42", |events| {
///     events.iter().map(|(_, length)| **length).collect::<Vec<_>>()
/// });
/// assert_eq!(found, [10]);
/// assert!(store.indexed("support", "42", |events| events.is_empty()));
/// ```
pub struct EventStore<I> {
    keys: RwLock<HashMap<(String, String), Key<I>>>,
}

/// What one key holds.
struct Key<I> {
    sessions: Vec<StoredSession<I>>,
    deleted: HashSet<String>,
}

struct StoredSession<I> {
    id: String,
    events: Vec<(MemoryEntry, Option<I>)>,
}

impl<I> Default for EventStore<I> {
    fn default() -> Self {
        Self {
            keys: RwLock::default(),
        }
    }
}

impl<I> Default for Key<I> {
    fn default() -> Self {
        Self {
            sessions: Vec::new(),
            deleted: HashSet::new(),
        }
    }
}

impl<I> EventStore<I> {
    /// Stores `session`'s events whose content has a part and whose id was not deleted under
    /// its key, replacing what the session held. `index` is called outside any lock with those
    /// events, each with its text parts joined with a space, and returns what it indexed of
    /// each, in order (an event it gives nothing for is kept but never a candidate).
    pub fn add(
        &self,
        session: &Session,
        index: impl FnOnce(&[(&Event, String)]) -> Vec<Option<I>>,
    ) {
        self.write(session, index, false);
    }

    /// [`add`](Self::add), but the session's new events are appended to what it held.
    pub(crate) fn append(
        &self,
        session: &Session,
        index: impl FnOnce(&[(&Event, String)]) -> Vec<Option<I>>,
    ) {
        self.write(session, index, true);
    }

    fn write(
        &self,
        session: &Session,
        index: impl FnOnce(&[(&Event, String)]) -> Vec<Option<I>>,
        append: bool,
    ) {
        let key = (session.app_name.clone(), session.user_id.clone());
        let deleted = {
            let keys = self.keys.read().unwrap_or_else(PoisonError::into_inner);
            keys.get(&key)
                .map(|k| k.deleted.clone())
                .unwrap_or_default()
        };
        let kept: Vec<(&Event, String)> = session
            .events
            .iter()
            .filter(|e| e.content.as_ref().is_some_and(|c| !c.parts.is_empty()))
            .filter(|e| !deleted.contains(&e.id))
            .map(|e| {
                let text = e
                    .content
                    .as_ref()
                    .map(|c| c.texts().collect::<Vec<_>>().join(" "))
                    .unwrap_or_default();
                (e, text)
            })
            .collect();
        let indexed = index(&kept)
            .into_iter()
            .chain(std::iter::repeat_with(|| None));
        let mut events: Vec<(MemoryEntry, Option<I>)> = kept
            .iter()
            .zip(indexed)
            .filter_map(|((event, _), indexed)| {
                let entry = MemoryEntry::from_event(event)?.with_id(event.id.clone());
                Some((entry, indexed))
            })
            .collect();
        let mut keys = self.keys.write().unwrap_or_else(PoisonError::into_inner);
        let stored = keys.entry(key).or_default();
        match stored.sessions.iter_mut().find(|s| s.id == session.id) {
            Some(old) if append => old.events.append(&mut events),
            Some(old) => old.events = events,
            None => stored.sessions.push(StoredSession {
                id: session.id.clone(),
                events,
            }),
        }
    }

    /// `read` called with the indexed events under (`app`, `user`), sessions in the order
    /// they were first added, events in order; what it returns.
    pub fn indexed<R>(
        &self,
        app: &str,
        user: &str,
        read: impl FnOnce(&[(&MemoryEntry, &I)]) -> R,
    ) -> R {
        let keys = self.keys.read().unwrap_or_else(PoisonError::into_inner);
        let key = keys.get(&(app.to_owned(), user.to_owned()));
        read(&indexed(key.into_iter()))
    }

    /// [`indexed`](Self::indexed) over every key.
    pub(crate) fn indexed_in_every_key<R>(
        &self,
        read: impl FnOnce(&[(&MemoryEntry, &I)]) -> R,
    ) -> R {
        let keys = self.keys.read().unwrap_or_else(PoisonError::into_inner);
        read(&indexed(keys.values()))
    }

    /// Forgets every event with the id `memory_id` under (`app`, `user`), now and in every
    /// later write.
    pub fn delete(&self, app: &str, user: &str, memory_id: &str) {
        let mut keys = self.keys.write().unwrap_or_else(PoisonError::into_inner);
        let key = keys.entry((app.to_owned(), user.to_owned())).or_default();
        key.deleted.insert(memory_id.to_owned());
        for session in &mut key.sessions {
            session
                .events
                .retain(|(entry, _)| entry.id.as_deref() != Some(memory_id));
        }
    }
}

fn indexed<'k, I: 'k>(keys: impl Iterator<Item = &'k Key<I>>) -> Vec<(&'k MemoryEntry, &'k I)> {
    keys.flat_map(|key| &key.sessions)
        .flat_map(|session| &session.events)
        .filter_map(|(entry, indexed)| Some((entry, indexed.as_ref()?)))
        .collect()
}
