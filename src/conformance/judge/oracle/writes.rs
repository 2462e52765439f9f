//! The oracle's writes: a session, a delta of events, explicit memories and a forget, each
//! stored as the profile says (its re-add, delta, duplicates and blank-event rules).

use std::collections::HashSet;

use crate::conformance::judge::identity::same_entry;
use crate::profile::words::{IndexedEvent, indexed_text};
use crate::profile::{BlankEvents, Duplicates, EventIds, EventsDelta, Readd};
use crate::{Content, Event, MemoryEntry, Session};

use super::{ModelEvent, ModelSession, ModelStore, Oracle, UNKNOWN_SESSION_ID};

impl Oracle {
    /// A model event of `content`, indexed and (under vector search) embedded: a text
    /// without a word (a letter or number) is not embedded, whatever the embedder.
    fn model_event(&self, id: String, content: Content, author: &str, at: &str) -> ModelEvent {
        let blank = self.embedder.is_some()
            && self.profile.blank_events == BlankEvents::RankedLast
            && content.texts().any(|t| !t.is_empty())
            && !crate::embed::has_word(&indexed_text(&self.profile, &content));
        let vector = self.embedder.as_ref().and_then(|embedder| {
            let text = indexed_text(&self.profile, &content);
            if !crate::embed::has_word(&text) {
                return None;
            }
            let [vector] = embedder.embed(&[text.as_str()]).try_into().ok()?;
            Some(vector)
        });
        let look = (self.profile.duplicates == Duplicates::Merged).then(|| {
            let text: Vec<&str> = content.texts().filter(|t| !t.is_empty()).collect();
            (author.to_owned(), text.join(" "), at.to_owned())
        });
        ModelEvent {
            id,
            indexed: IndexedEvent::new(&self.profile, &content),
            content,
            vector,
            look,
            blank,
            written: None,
        }
    }

    /// The stored events of `events`: those whose content has a part, and whose id was not
    /// deleted under the store.
    fn model_events(&self, store: &ModelStore, events: &[Event]) -> Vec<ModelEvent> {
        events
            .iter()
            .filter(|event| !store.deleted.contains(&event.id))
            .filter_map(|event| Some((event, event.content.as_ref()?)))
            .filter(|(_, content)| !content.parts.is_empty())
            .map(|(event, content)| {
                let at = event
                    .timestamp
                    .round(jiff::Unit::Microsecond)
                    .unwrap_or(event.timestamp)
                    .to_string();
                let mut model =
                    self.model_event(event.id.clone(), content.clone(), &event.author, &at);
                model.written = Some((event.author.clone(), event.timestamp));
                model
            })
            .collect()
    }

    /// Where event ids are unique per key: drops the events whose id a session of `store`
    /// other than `session_id` holds.
    fn skip_held_elsewhere(
        &self,
        store: &ModelStore,
        session_id: &str,
        events: &mut Vec<ModelEvent>,
    ) {
        if self.profile.event_ids != EventIds::PerKey {
            return;
        }
        let held: HashSet<&str> = store
            .sessions
            .iter()
            .filter(|s| !s.memories && s.id != session_id)
            .flat_map(|s| s.events.iter().map(|e| e.id.as_str()))
            .collect();
        events.retain(|e| !held.contains(e.id.as_str()));
    }

    /// The store of (`app_name`, `user_id`), made empty if new.
    fn store_mut(&mut self, app_name: &str, user_id: &str) -> &mut ModelStore {
        let key = self.store_key(app_name, user_id);
        self.stores.entry(key).or_default()
    }

    /// Applies `add_session_to_memory(session)`.
    pub(crate) fn add(&mut self, session: &Session) {
        let readd = self.profile.readd;
        let mut store = std::mem::take(self.store_mut(&session.app_name, &session.user_id));
        let mut events = self.model_events(&store, &session.events);
        self.skip_held_elsewhere(&store, &session.id, &mut events);
        let carries_words = events.iter().any(|e| e.indexed.has_words());
        // A first add is a re-add over an empty session. Every re-add rule then stores what a
        // plain add stores (an upsert writes by event id), except that replace-unless-no-text
        // keeps nothing when no event has a word: events that could never match anyway.
        let existing = store.session_mut(&session.id);
        match readd {
            Readd::Replace => existing.events = events,
            Readd::Append => existing.events.extend(events),
            Readd::ReplaceUnlessNoText if !carries_words => {}
            Readd::ReplaceUnlessNoText => existing.events = events,
            Readd::UpsertByEventId => upsert(&mut existing.events, events),
            Readd::KeepFirst => ingest(&mut existing.events, events),
        }
        *self.store_mut(&session.app_name, &session.user_id) = store;
    }

    /// Applies `add_events_to_memory(app_name, user_id, session_id, events)` as the profile's
    /// `events_delta` capability says (nothing where it declares none).
    pub(crate) fn add_events(
        &mut self,
        app_name: &str,
        user_id: &str,
        session_id: Option<&str>,
        events: &[Event],
    ) {
        let Some(delta) = self.profile.capabilities.events_delta else {
            return;
        };
        let mut store = std::mem::take(self.store_mut(app_name, user_id));
        let mut events = self.model_events(&store, events);
        let session_id = session_id.unwrap_or(UNKNOWN_SESSION_ID);
        self.skip_held_elsewhere(&store, session_id, &mut events);
        let session = store.session_mut(session_id);
        match delta {
            EventsDelta::AppendNewIds => append_new_ids(&mut session.events, events),
            EventsDelta::UpsertByEventId => upsert(&mut session.events, events),
        }
        *self.store_mut(app_name, user_id) = store;
    }

    /// Applies `add_memory(app_name, user_id, memories)`: each memory with a part is stored
    /// after the others, or over the one with its id.
    pub(crate) fn add_memories(&mut self, app_name: &str, user_id: &str, memories: &[MemoryEntry]) {
        let deleted = self.store_mut(app_name, user_id).deleted.clone();
        let new: Vec<ModelEvent> = memories
            .iter()
            .filter(|memory| !memory.content.parts.is_empty())
            .filter(|memory| memory.id.as_ref().is_none_or(|id| !deleted.contains(id)))
            .map(|memory| {
                self.model_event(
                    memory.id.clone().unwrap_or_default(),
                    memory.content.clone(),
                    memory.author.as_deref().unwrap_or_default(),
                    memory.timestamp.as_deref().unwrap_or_default(),
                )
            })
            .collect();
        let session = self.store_mut(app_name, user_id).memories_mut();
        for memory in new {
            match session
                .events
                .iter_mut()
                .find(|old| !memory.id.is_empty() && old.id == memory.id)
            {
                Some(old) => *old = memory,
                None => session.events.push(memory),
            }
        }
    }

    /// Applies `delete_memory(app_name, user_id, id)`, where `id` is what the backend gave the
    /// memory holding `content`: every stored event or memory with that id goes (the id is the
    /// event's, as the contract's backends give it), and that id is never stored again under
    /// the key. Other events with the same content stay: deletion is by id only. An id the
    /// oracle never saw (one the backend gave a memory added without one, or made up) names
    /// the one memory the backend returned it for: the first holding `content` goes.
    pub(crate) fn forget(&mut self, app_name: &str, user_id: &str, id: &str, content: &Content) {
        let store = self.store_mut(app_name, user_id);
        let known = store
            .sessions
            .iter()
            .flat_map(|s| &s.events)
            .any(|e| e.id == id);
        if known {
            for session in &mut store.sessions {
                session.events.retain(|e| e.id != id);
            }
            store.deleted.insert(id.to_owned());
            return;
        }
        for session in &mut store.sessions {
            if let Some(at) = session
                .events
                .iter()
                .position(|e| same_entry(&e.content, content))
            {
                session.events.remove(at);
                return;
            }
        }
    }
}

impl ModelStore {
    /// The session `id`, after the others if new.
    fn session_mut(&mut self, id: &str) -> &mut ModelSession {
        let i = match self.sessions.iter().position(|s| !s.memories && s.id == id) {
            Some(i) => i,
            None => {
                self.sessions.push(ModelSession {
                    id: id.to_owned(),
                    memories: false,
                    events: Vec::new(),
                });
                self.sessions.len() - 1
            }
        };
        &mut self.sessions[i]
    }

    /// The explicit memories' session, after the others if new.
    fn memories_mut(&mut self) -> &mut ModelSession {
        let i = match self.sessions.iter().position(|s| s.memories) {
            Some(i) => i,
            None => {
                self.sessions.push(ModelSession {
                    id: String::new(),
                    memories: true,
                    events: Vec::new(),
                });
                self.sessions.len() - 1
            }
        };
        &mut self.sessions[i]
    }
}

/// Stores each of `events` whose id `stored` does not hold yet after the stored events; the
/// others keep their stored version.
fn append_new_ids(stored: &mut Vec<ModelEvent>, events: Vec<ModelEvent>) {
    append_new_ids_of(stored, events.into_iter());
}

/// As [`append_new_ids`], of the events that carry text only.
fn ingest(stored: &mut Vec<ModelEvent>, events: Vec<ModelEvent>) {
    append_new_ids_of(stored, events.into_iter().filter(carries_text));
}

fn append_new_ids_of(stored: &mut Vec<ModelEvent>, events: impl Iterator<Item = ModelEvent>) {
    for event in events {
        if !stored.iter().any(|old| old.id == event.id) {
            stored.push(event);
        }
    }
}

/// Whether `event` has a text part holding a character other than whitespace, or is a blank
/// event the profile ranks (whose text counts as any other).
fn carries_text(event: &ModelEvent) -> bool {
    event.blank
        || event
            .content
            .texts()
            .any(|text| text.chars().any(|c| !c.is_whitespace()))
}

/// Writes each of `events` that carries text under its id: over the stored event with that id,
/// or after the stored events.
fn upsert(stored: &mut Vec<ModelEvent>, events: Vec<ModelEvent>) {
    for event in events.into_iter().filter(carries_text) {
        match stored.iter_mut().find(|old| old.id == event.id) {
            Some(old) => *old = event,
            None => stored.push(event),
        }
    }
}
