//! Seeing inside a memory service without changing the agent: a logging decorator, the
//! four-check diagnosis, and the [`Evidence`] it is made from: what the decorator saw, sessions
//! read from files or a database, or log lines read with [`read_log`].

mod content;
mod diagnosis;
mod evidence;
mod logs;
mod near_miss;
mod recorded;
mod redact;

use std::sync::{Mutex, PoisonError};
use std::time::Instant;

use async_trait::async_trait;

pub use content::{ContentCheck, PLACES_LISTED, Place, PlaceKind, TokenFinding};
pub use diagnosis::{
    Conclusion, Diagnosis, IndexedText, LoggedTokens, MatchRules, NearMiss, RightKey, Written,
};
pub use evidence::{Evidence, SearchRecord, SearchSource};
pub use logs::{LogEncoding, LogError, LogFormat, LogRead, decode_log, read_log};
pub use near_miss::KeyDifference;
pub use redact::shape;

use crate::model::KeyRef;
use crate::profile::Profile;
use crate::tokenize::{raw_query_tokens, raw_token_can_match};
use crate::{
    Event, MemoryEntry, MemoryError, MemoryKey, MemoryService, SearchMemoryResponse, SearchOptions,
    Session, explain_tokens_for,
};

/// A decorator over any [`MemoryService`] that logs every call with [`tracing`] and can
/// [`diagnose`](Self::diagnose) a search that came back empty.
///
/// Each successful write emits `memory.write` (fields `key`, `session`, `events`,
/// `text_events`: events with a non-empty text part, the only ones a text index can find);
/// each search emits `memory.search` (fields `key`, `tokens`, `dead`, `hits`, `elapsed_ms`).
/// Failed calls emit `memory.write.failed` / `memory.search.failed` with the error. By default
/// only keys, counts and timings are logged, never content: the query text and the stored text
/// appear only after [`log_content`](Self::log_content), which also keeps a copy of each
/// written session so that check 4 can say where the query's words are.
///
/// Dead tokens are counted and explained under the [`Profile`] of the wrapped service
/// ([`with_profile`](Self::with_profile); the reference's by default).
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), memory_conformance::MemoryError> {
/// use memory_conformance::{Event, InMemoryMemoryService, MemoryService, Session};
/// use memory_conformance::inspect::{Conclusion, InspectingMemoryService};
/// let memory = InspectingMemoryService::new(InMemoryMemoryService::new());
/// memory.add_session_to_memory(&Session::new("support", "42", "s-1")
///     .with_event(Event::text("user", "My favourite coffee is a flat white."))).await?;
/// let diagnosis = memory.diagnose("support", "u-42", "coffee preference?");
/// assert_eq!(diagnosis.conclusion(), Conclusion::WrongKey);
/// println!("{diagnosis}");
/// # Ok(())
/// # }
/// ```
#[derive(Debug)]
pub struct InspectingMemoryService<S> {
    inner: S,
    log_content: bool,
    profile: Option<Profile>,
    seen: Mutex<Evidence>,
    searches: Mutex<RecentSearches>,
}

/// The results of the latest searches, by a hash of (app name, user id, query): no content and
/// no allocation per search.
#[derive(Debug, Default)]
struct RecentSearches {
    entries: Vec<(u64, usize)>,
    next: usize,
}

impl RecentSearches {
    const KEPT: usize = 256;

    fn record(&mut self, search: u64, hits: usize) {
        if self.entries.len() < Self::KEPT {
            self.entries.push((search, hits));
        } else {
            self.entries[self.next] = (search, hits);
        }
        self.next = (self.next + 1) % Self::KEPT;
    }

    /// The hits of the latest search with this hash.
    fn hits(&self, search: u64) -> Option<usize> {
        let (newer, older) = self.entries.split_at(self.next.min(self.entries.len()));
        newer
            .iter()
            .rev()
            .chain(older.iter().rev())
            .find(|(hash, _)| *hash == search)
            .map(|(_, hits)| *hits)
    }
}

/// A multiply-rotate hash (as rustc's FxHash) over the three strings, eight bytes at a time,
/// each followed by its length: cheap next to a search, and only ever compared, never trusted
/// as a key.
fn search_hash(app_name: &str, user_id: &str, query: &str) -> u64 {
    const K: u64 = 0xf135_7aea_2e62_a9c5;
    let mix = |hash: u64, word: u64| (hash.rotate_left(26) ^ word).wrapping_mul(K);
    let mut hash = 0;
    for part in [app_name, user_id, query] {
        let mut chunks = part.as_bytes().chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0; 8];
            word.copy_from_slice(chunk);
            hash = mix(hash, u64::from_le_bytes(word));
        }
        let mut tail = [0; 8];
        tail[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
        hash = mix(mix(hash, u64::from_le_bytes(tail)), part.len() as u64);
    }
    hash
}

impl<S> InspectingMemoryService<S> {
    /// Wraps `inner`; logs keys, counts and timings only.
    pub fn new(inner: S) -> Self {
        Self {
            inner,
            log_content: false,
            profile: None,
            seen: Mutex::new(Evidence::new()),
            searches: Mutex::new(RecentSearches::default()),
        }
    }

    /// Explains queries under `profile`, the declared behaviour of the wrapped service,
    /// instead of the reference's rules: under [`Profile::adk_python`], `coffee?` is not dead.
    ///
    /// ```
    /// use memory_conformance::InMemoryMemoryService;
    /// use memory_conformance::inspect::InspectingMemoryService;
    /// use memory_conformance::profile::Profile;
    /// let memory = InspectingMemoryService::new(InMemoryMemoryService::new())
    ///     .with_profile(Profile::adk_python());
    /// let diagnosis = memory.diagnose("support", "u-42", "coffee?");
    /// assert!(diagnosis.match_rules.dead().next().is_none());
    /// ```
    #[must_use]
    pub fn with_profile(mut self, profile: Profile) -> Self {
        self.profile = (profile != Profile::reference()).then_some(profile);
        self
    }

    /// The profile queries are explained under.
    pub fn profile(&self) -> Profile {
        self.profile.clone().unwrap_or_else(Profile::reference)
    }

    /// Also logs the query text on searches and the stored text on writes, and keeps a copy of
    /// each written session for check 4. For development only: queries and memories often
    /// hold personal data.
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
    /// writes this decorator saw succeed (keys and counts, and the sessions themselves under
    /// [`log_content`](Self::log_content)), the result of the latest such search it saw, and
    /// the query.
    pub fn diagnose(&self, app_name: &str, user_id: &str, query: &str) -> Diagnosis {
        let mut search = SearchRecord::new(MemoryKey::new(app_name, user_id));
        search.query = Some(query.to_owned());
        search.hits = self
            .searches
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .hits(search_hash(app_name, user_id, query));
        let seen = self.seen.lock().unwrap_or_else(PoisonError::into_inner);
        seen.diagnose_search(&search, &self.profile())
    }

    fn dead_count(&self, query: &str) -> usize {
        match &self.profile {
            None => raw_query_tokens(query)
                .filter(|t| !raw_token_can_match(t))
                .count(),
            Some(profile) => explain_tokens_for(profile, query)
                .iter()
                .filter(|t| t.dead.is_some())
                .count(),
        }
    }
}

#[async_trait]
impl<S: MemoryService> MemoryService for InspectingMemoryService<S> {
    async fn add_session_to_memory(&self, session: &Session) -> Result<(), MemoryError> {
        let key = session.key();
        let events = session.events.len();
        let text_events = session.events.iter().filter(|e| e.has_text()).count();
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
                    tracing::info!(name: "memory.write", key = %key, session = %session.id, events,
                        text_events, elapsed_ms, texts = ?texts, "memory.write");
                } else {
                    tracing::info!(name: "memory.write", key = %key, session = %session.id, events,
                        text_events, elapsed_ms, "memory.write");
                }
                let mut seen = self.seen.lock().unwrap_or_else(PoisonError::into_inner);
                if self.log_content {
                    seen.record_session(session.clone());
                } else {
                    seen.record_write(key, session.id.clone(), events, text_events);
                }
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
        let dead = || self.dead_count(query);
        if let Ok(found) = &result {
            self.searches
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .record(search_hash(app_name, user_id, query), found.memories.len());
        }
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

    /// Forwards the search; a search with options is logged as `memory.search` with its
    /// `limit`, and is not kept for [`diagnose`](Self::diagnose).
    async fn search_memory_with(
        &self,
        app_name: &str,
        user_id: &str,
        query: &str,
        options: &SearchOptions,
    ) -> Result<SearchMemoryResponse, MemoryError> {
        let Some(limit) = options.limit else {
            return self.search_memory(app_name, user_id, query).await;
        };
        let result = self
            .inner
            .search_memory_with(app_name, user_id, query, options)
            .await;
        let key = KeyRef(app_name, user_id);
        match &result {
            Ok(found) => tracing::info!(name: "memory.search", key = %key, limit,
                hits = found.memories.len(), "memory.search"),
            Err(error) => tracing::warn!(name: "memory.search.failed", key = %key, limit,
                error = %error, "memory.search.failed"),
        }
        result
    }

    /// Forwards the delta, logged as `memory.delta` with the key, the session and the count
    /// of events.
    async fn add_events_to_memory(
        &self,
        app_name: &str,
        user_id: &str,
        session_id: Option<&str>,
        events: &[Event],
    ) -> Result<(), MemoryError> {
        let result = self
            .inner
            .add_events_to_memory(app_name, user_id, session_id, events)
            .await;
        let (key, session, events) = (
            KeyRef(app_name, user_id),
            session_id.unwrap_or(""),
            events.len(),
        );
        match &result {
            Ok(()) => {
                tracing::info!(name: "memory.delta", key = %key, session, events, "memory.delta")
            }
            Err(error) => tracing::warn!(name: "memory.delta.failed", key = %key, session, events,
                error = %error, "memory.delta.failed"),
        }
        result
    }

    /// Forwards the memories, logged as `memory.add_memory` with the key and their count.
    async fn add_memory(
        &self,
        app_name: &str,
        user_id: &str,
        memories: &[MemoryEntry],
    ) -> Result<(), MemoryError> {
        let result = self.inner.add_memory(app_name, user_id, memories).await;
        let (key, memories) = (KeyRef(app_name, user_id), memories.len());
        match &result {
            Ok(()) => {
                tracing::info!(name: "memory.add_memory", key = %key, memories, "memory.add_memory")
            }
            Err(error) => tracing::warn!(name: "memory.add_memory.failed", key = %key, memories,
                error = %error, "memory.add_memory.failed"),
        }
        result
    }

    /// Forwards the deletion, logged as `memory.delete` with the key (the id is the
    /// backend's, no content, and is logged too).
    async fn delete_memory(
        &self,
        app_name: &str,
        user_id: &str,
        memory_id: &str,
    ) -> Result<(), MemoryError> {
        let result = self.inner.delete_memory(app_name, user_id, memory_id).await;
        let key = KeyRef(app_name, user_id);
        match &result {
            Ok(()) => {
                tracing::info!(name: "memory.delete", key = %key, id = memory_id, "memory.delete")
            }
            Err(error) => tracing::warn!(name: "memory.delete.failed", key = %key, id = memory_id,
                error = %error, "memory.delete.failed"),
        }
        result
    }
}

pub(crate) fn elapsed_ms(started: Instant) -> f64 {
    // Whole microseconds, so logs read 0.042 rather than 0.042000000000000003.
    started.elapsed().as_micros() as f64 / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::InMemoryMemoryService;
    use std::collections::HashSet;
    use std::time::Duration;

    #[test]
    fn a_search_hash_tells_apart_searches_that_differ_anywhere_and_only_those() {
        let long = "0123456789abcdef-tail";
        let searches = [
            ("a", "u", "coffee"),
            ("a", "u", "tea"),
            ("a", "v", "coffee"),
            ("b", "u", "coffee"),
            ("ab", "c", "q"),
            ("a", "bc", "q"),
            ("a", "", "bcq"),
            ("", "", ""),
            ("a", "u", long),
            ("a", "u", "x123456789abcdef-tail"),
            ("a", "u", "0123456789abcdef-tall"),
            ("a", "u", "0123456789abcdef-tail "),
        ];
        let hashes: HashSet<u64> = searches
            .iter()
            .map(|(app, user, query)| search_hash(app, user, query))
            .collect();
        assert_eq!(hashes.len(), searches.len());
        assert_eq!(
            search_hash("a", "u", long),
            search_hash("a", "u", &["0123456789abcdef", "-tail"].concat())
        );
    }

    #[test]
    fn dead_tokens_are_counted_under_the_reference_or_the_declared_profile() {
        let reference = InspectingMemoryService::new(InMemoryMemoryService::new());
        assert_eq!(reference.dead_count("Coffee coffee? 4417 café tea"), 3);
        assert_eq!(reference.dead_count(""), 0);
        let python = InspectingMemoryService::new(InMemoryMemoryService::new())
            .with_profile(Profile::adk_python());
        assert_eq!(python.dead_count("Coffee coffee? ? 4417"), 1);
    }

    #[test]
    fn elapsed_time_reads_in_milliseconds_of_whole_microseconds() {
        let started = Instant::now() - Duration::from_millis(1500);
        let ms = elapsed_ms(started);
        assert!((1500.0..60_000.0).contains(&ms), "{ms}");
        let micros = ms * 1000.0;
        assert!((micros - micros.round()).abs() < 1e-6, "{ms}");
    }

    #[test]
    fn recent_searches_keep_the_latest_result_of_each_search() {
        let mut recent = RecentSearches::default();
        recent.record(1, 0);
        recent.record(2, 5);
        recent.record(1, 3);
        assert_eq!(
            (recent.hits(1), recent.hits(2), recent.hits(9)),
            (Some(3), Some(5), None)
        );
        for n in 0..RecentSearches::KEPT as u64 {
            recent.record(100 + n, n as usize);
        }
        assert_eq!(
            recent.hits(1),
            None,
            "forgotten once 256 newer searches came"
        );
        recent.record(100, 77);
        assert_eq!(recent.hits(100), Some(77), "the newest wins after wrapping");
        assert_eq!(recent.hits(101), Some(1));
    }
}
