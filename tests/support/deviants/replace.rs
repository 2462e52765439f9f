//! Deviants that store a re-added session otherwise than as a replacement of what it held, touch
//! other sessions, or keep events the reference drops (R2, guide.load-memory).

use memory_conformance::profile::{Profile, Readd};
use memory_conformance::{Event, MemoryEntry, Session, async_trait};

use super::{Answer, Deviation, Done, Search, Store, lock, two_calls};

/// Appends a re-added session's events to the ones it held. Breaks R2.replace.
#[derive(Debug)]
pub struct AppendOnReadd;

#[async_trait]
impl Deviation for AppendOnReadd {
    async fn add_session(&self, store: &Store, session: &Session) -> Done {
        let merged = merge_with_previous(store, session, |previous| {
            let mut merged = session.clone();
            if let Some(previous) = previous {
                merged.events = previous
                    .events
                    .iter()
                    .chain(&session.events)
                    .cloned()
                    .collect();
            }
            merged
        });
        store.add(&merged).await
    }
}

/// Claims `readd = upsert-by-event-id` and writes every event by its id, also those without
/// text, which then erase the text stored under their id. Breaks the declared re-add.
#[derive(Debug)]
pub struct UpsertWritesTextless;

#[async_trait]
impl Deviation for UpsertWritesTextless {
    fn profile(&self) -> Profile {
        let mut profile = two_calls(Profile::reference().named("upsert"));
        profile.readd = Readd::UpsertByEventId;
        profile
    }

    async fn add_session(&self, store: &Store, session: &Session) -> Done {
        let merged = merge_with_previous(store, session, |previous| {
            let mut merged = previous_or_empty(previous, session);
            for event in &session.events {
                match merged.events.iter_mut().find(|old| old.id == event.id) {
                    Some(old) => *old = event.clone(),
                    None => merged.events.push(event.clone()),
                }
            }
            merged
        });
        store.add(&merged).await
    }
}

/// The version of `session` remembered before, or an empty session of its key and id.
fn previous_or_empty(previous: Option<&Session>, session: &Session) -> Session {
    previous.cloned().unwrap_or_else(|| {
        Session::new(
            session.app_name.clone(),
            session.user_id.clone(),
            session.id.clone(),
        )
    })
}

/// Remembers what `merge` makes of the version of `session` remembered before (if any) in its
/// place, or as the last added, and returns it.
fn merge_with_previous(
    store: &Store,
    session: &Session,
    merge: impl FnOnce(Option<&Session>) -> Session,
) -> Session {
    let mut sessions = lock(&store.sessions);
    let previous = sessions
        .iter()
        .position(|s| s.key() == session.key() && s.id == session.id);
    let merged = merge(previous.map(|i| &sessions[i]));
    match previous {
        Some(i) => sessions[i] = merged.clone(),
        None => sessions.push(merged.clone()),
    }
    merged
}

/// Ignores a re-add that holds no text, keeping what the session held. Breaks R2.replace.
#[derive(Debug)]
pub struct IgnoreReaddWithoutText;

#[async_trait]
impl Deviation for IgnoreReaddWithoutText {
    async fn add_session(&self, store: &Store, session: &Session) -> Done {
        let seen = {
            let mut sessions = lock(&store.sessions);
            let seen = sessions
                .iter()
                .any(|s| s.key() == session.key() && s.id == session.id);
            sessions.push(session.clone());
            seen
        };
        if seen && !session.events.iter().any(Event::has_text) {
            return Ok(());
        }
        store.add(session).await
    }
}

/// Keeps only the latest session of a key, emptying the ones before: a fact from an earlier
/// session is lost to a later one. Breaks guide.load-memory.
#[derive(Debug)]
pub struct OnlyLatestSession;

#[async_trait]
impl Deviation for OnlyLatestSession {
    async fn add_session(&self, store: &Store, session: &Session) -> Done {
        let older: Vec<Session> = {
            let mut sessions = lock(&store.sessions);
            let older = sessions
                .iter()
                .filter(|s| s.key() == session.key() && s.id != session.id)
                .cloned()
                .collect();
            sessions.retain(|s| s.key() != session.key());
            sessions.push(session.clone());
            older
        };
        for old in older {
            let emptied = Session::new(old.app_name, old.user_id, old.id);
            store.add(&emptied).await?;
        }
        store.add(session).await
    }
}

/// Returns the events without a word (of every version added) with every search that finds
/// something. Breaks R2.kept-events.
#[derive(Debug)]
pub struct ReturnTextlessEvents;

#[async_trait]
impl Deviation for ReturnTextlessEvents {
    async fn add_session(&self, store: &Store, session: &Session) -> Done {
        store.log(session);
        store.add(session).await
    }

    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        let mut found = store.search(search).await?;
        if !found.memories.is_empty() {
            let textless = store
                .sessions_of(search.app, search.user)
                .iter()
                .flat_map(|s| &s.events)
                .filter(|e| !e.has_text())
                .filter_map(MemoryEntry::from_event)
                .collect::<Vec<_>>();
            found.memories.extend(textless);
        }
        Ok(found)
    }
}

/// Fewer events than this in a write of [`ShortSessionsDropped`] store nothing.
const MIN_EVENTS: usize = 5;

/// Stores nothing of a session that holds fewer than five events (the write answers), a defect
/// reported of a published memory server (MemMachine,
/// <https://github.com/MemMachine/MemMachine/issues/703>: no semantic memory is added unless
/// five messages are). Breaks guide.load-memory.
#[derive(Debug)]
pub struct ShortSessionsDropped;

#[async_trait]
impl Deviation for ShortSessionsDropped {
    async fn add_session(&self, store: &Store, session: &Session) -> Done {
        if session.events.len() < MIN_EVENTS {
            return Ok(());
        }
        store.add(session).await
    }
}

/// Ingests a re-add: stores each event with text whose id the session does not hold yet, keeps
/// the stored version of the others and removes nothing (adk-memshield's re-add). It conforms
/// to its profile, which declares `readd = keep-first`; it breaks the replace rules, as that
/// value implies.
#[derive(Debug)]
pub struct KeepFirstIngest;

#[async_trait]
impl Deviation for KeepFirstIngest {
    fn profile(&self) -> Profile {
        let mut profile = two_calls(Profile::reference().named("keep-first"));
        profile.readd = Readd::KeepFirst;
        profile
    }

    async fn add_session(&self, store: &Store, session: &Session) -> Done {
        let carries_text = |event: &&Event| {
            event
                .content
                .as_ref()
                .is_some_and(|c| c.texts().any(|t| t.chars().any(|c| !c.is_whitespace())))
        };
        let merged = merge_with_previous(store, session, |previous| {
            let mut merged = previous_or_empty(previous, session);
            for event in session.events.iter().filter(carries_text) {
                if !merged.events.iter().any(|old| old.id == event.id) {
                    merged.events.push(event.clone());
                }
            }
            merged
        });
        store.add(&merged).await
    }
}

/// Knows an event by its key and id, not its session: an event whose id another session of
/// the key stores is not stored (adk-inspeximus 0.1.0 does this). Claims `event_ids =
/// "per-key"`, a departure from R6.no-dedup its profile states, and keeps it.
#[derive(Debug)]
pub struct PerKeyEventIds;

#[async_trait]
impl Deviation for PerKeyEventIds {
    fn profile(&self) -> Profile {
        let mut profile = two_calls(Profile::reference().named("per-key event ids"));
        profile.event_ids = memory_conformance::profile::EventIds::PerKey;
        profile
    }

    async fn add_session(&self, store: &Store, session: &Session) -> Done {
        let held: Vec<String> = store
            .sessions_of(&session.app_name, &session.user_id)
            .iter()
            .filter(|s| s.id != session.id)
            .flat_map(|s| &s.events)
            // Only what is stored counts: an event with no part is not.
            .filter(|e| e.content.as_ref().is_some_and(|c| !c.parts.is_empty()))
            .map(|e| e.id.clone())
            .collect();
        let mut kept = session.clone();
        kept.events.retain(|e| !held.contains(&e.id));
        store.keep_latest(&kept);
        store.add(&kept).await
    }
}
