//! Seeing inside a memory service without changing the agent: a logging decorator and the
//! four-check diagnosis.

mod diagnosis;
mod near_miss;

use std::collections::BTreeMap;
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

use async_trait::async_trait;

pub use diagnosis::{Diagnosis, IndexedText, MatchRules, NearMiss, RightKey, Verdict, Written};
pub use near_miss::KeyDifference;

use crate::model::KeyRef;
use crate::tokenize::{raw_query_tokens, raw_token_can_match};
use crate::{MemoryError, MemoryKey, MemoryService, SearchMemoryResponse, Session, explain_tokens};

/// A decorator over any [`MemoryService`] that logs every call with [`tracing`] and can
/// [`diagnose`](Self::diagnose) a search that came back empty.
///
/// Each successful write emits `memory.write` (fields `key`, `session`, `events`,
/// `text_events`: events with a non-empty text part, the only ones a text index can find);
/// each search emits `memory.search` (fields `key`, `tokens`, `dead`, `hits`, `elapsed_ms`).
/// Failed calls emit `memory.write.failed` / `memory.search.failed` with the error. By default
/// only keys, counts and timings are logged, never content: the query text and the stored text
/// appear only after [`log_content`](Self::log_content).
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), memory_conformance::MemoryError> {
/// use memory_conformance::{Event, InMemoryMemoryService, MemoryService, Session};
/// use memory_conformance::inspect::{InspectingMemoryService, Verdict};
/// let memory = InspectingMemoryService::new(InMemoryMemoryService::new());
/// memory.add_session_to_memory(&Session::new("support", "42", "s-1")
///     .with_event(Event::text("user", "My favourite coffee is a flat white."))).await?;
/// let diagnosis = memory.diagnose("support", "u-42", "coffee preference?");
/// assert_eq!(diagnosis.verdict(), Verdict::WrongKey);
/// println!("{diagnosis}");
/// # Ok(())
/// # }
/// ```
#[derive(Debug)]
pub struct InspectingMemoryService<S> {
    inner: S,
    log_content: bool,
    seen: Mutex<BTreeMap<MemoryKey, BTreeMap<String, WriteCounts>>>,
}

/// What the decorator remembers of one session's last write: counts, never content.
#[derive(Clone, Copy, Debug)]
struct WriteCounts {
    events: usize,
    text_events: usize,
}

impl<S> InspectingMemoryService<S> {
    /// Wraps `inner`; logs keys, counts and timings only.
    pub fn new(inner: S) -> Self {
        Self {
            inner,
            log_content: false,
            seen: Mutex::new(BTreeMap::new()),
        }
    }

    /// Also logs the query text on searches and the stored text on writes. For development
    /// only: queries and memories often hold personal data.
    #[must_use]
    pub fn log_content(mut self, enabled: bool) -> Self {
        self.log_content = enabled;
        self
    }

    /// The wrapped service.
    pub fn inner(&self) -> &S {
        &self.inner
    }

    /// Walks the four checks for a search of `query` under (`app_name`, `user_id`), from the
    /// writes this decorator saw succeed (keys and counts only) and the query.
    pub fn diagnose(&self, app_name: &str, user_id: &str, query: &str) -> Diagnosis {
        let key = MemoryKey::new(app_name, user_id);
        let seen = self.seen.lock().unwrap_or_else(PoisonError::into_inner);
        let written = Written {
            keys: seen.len(),
            sessions: seen.values().map(BTreeMap::len).sum(),
            events: seen
                .values()
                .flat_map(BTreeMap::values)
                .map(|c| c.events)
                .sum(),
        };
        let under_key = seen.get(&key);
        let near_misses = seen
            .iter()
            .filter_map(|(written_key, sessions)| {
                let differences = near_miss::near_miss(&key, written_key)?;
                Some(NearMiss {
                    key: written_key.clone(),
                    differences,
                    sessions: sessions.len(),
                })
            })
            .collect();
        let right_key = RightKey {
            sessions: under_key.map_or(0, BTreeMap::len),
            near_misses,
        };
        let counts = under_key.into_iter().flat_map(BTreeMap::values);
        let indexed_text = IndexedText {
            events: counts.clone().map(|c| c.events).sum(),
            events_without_text: counts.map(|c| c.events - c.text_events).sum(),
        };
        Diagnosis {
            key,
            query: query.to_owned(),
            written,
            right_key,
            match_rules: MatchRules {
                tokens: explain_tokens(query),
            },
            indexed_text,
        }
    }
}

#[async_trait]
impl<S: MemoryService> MemoryService for InspectingMemoryService<S> {
    async fn add_session_to_memory(&self, session: &Session) -> Result<(), MemoryError> {
        let key = session.key();
        let counts = WriteCounts {
            events: session.events.len(),
            text_events: session.events.iter().filter(|e| e.has_text()).count(),
        };
        let started = Instant::now();
        let result = self.inner.add_session_to_memory(session).await;
        let elapsed_ms = elapsed_ms(started);
        match &result {
            Ok(()) => {
                if self.log_content {
                    let texts: Vec<&str> = session
                        .events
                        .iter()
                        .filter_map(|e| e.content.as_ref())
                        .flat_map(|c| c.texts())
                        .collect();
                    tracing::info!(name: "memory.write", key = %key, session = %session.id, events = counts.events,
                        text_events = counts.text_events, elapsed_ms, texts = ?texts, "memory.write");
                } else {
                    tracing::info!(name: "memory.write", key = %key, session = %session.id, events = counts.events,
                        text_events = counts.text_events, elapsed_ms, "memory.write");
                }
                self.seen
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .entry(key)
                    .or_default()
                    .insert(session.id.clone(), counts);
            }
            Err(error) => {
                tracing::warn!(name: "memory.write.failed", key = %key, session = %session.id, elapsed_ms,
                    error = %error, "memory.write.failed");
            }
        }
        result
    }

    async fn search_memory(
        &self,
        app_name: &str,
        user_id: &str,
        query: &str,
    ) -> Result<SearchMemoryResponse, MemoryError> {
        // Timing costs as much as a small search: only when a subscriber takes the events.
        let started = tracing::enabled!(tracing::Level::WARN).then(Instant::now);
        let result = self.inner.search_memory(app_name, user_id, query).await;
        let elapsed_ms = started.map_or(0.0, elapsed_ms);
        // Field values are computed only when a subscriber takes the event.
        let key = KeyRef(app_name, user_id);
        let tokens = || raw_query_tokens(query).count();
        let dead = || {
            raw_query_tokens(query)
                .filter(|t| !raw_token_can_match(t))
                .count()
        };
        match (&result, self.log_content) {
            (Ok(found), false) => {
                tracing::info!(name: "memory.search", key = %key, tokens = tokens(), dead = dead(),
                hits = found.memories.len(), elapsed_ms, "memory.search")
            }
            (Ok(found), true) => {
                tracing::info!(name: "memory.search", key = %key, tokens = tokens(), dead = dead(),
                hits = found.memories.len(), elapsed_ms, query = ?query, "memory.search")
            }
            (Err(error), _) => {
                tracing::warn!(name: "memory.search.failed", key = %key, tokens = tokens(),
                elapsed_ms, error = %error, "memory.search.failed")
            }
        }
        result
    }
}

pub(crate) fn elapsed_ms(started: Instant) -> f64 {
    // Whole microseconds, so logs read 0.042 rather than 0.042000000000000003.
    started.elapsed().as_micros() as f64 / 1000.0
}
