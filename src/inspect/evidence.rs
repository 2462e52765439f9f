//! What is known about a memory service's writes and searches, from any source: the
//! decorator, session files, a session database or log lines.

use std::collections::BTreeMap;

use serde::Serialize;

use super::content;
use super::diagnosis::{
    Diagnosis, IndexedText, LoggedTokens, MatchRules, NearMiss, RightKey, Written,
};
use super::near_miss::near_miss;
use crate::profile::Profile;
use crate::profile::words::{IndexedEvent, query_terms};
use crate::profile::{Limit, MultiWord};
use crate::{MemoryKey, Session, explain_tokens_for};

/// The writes and searches a diagnosis is made from, each kept apart by where it comes from.
///
/// *Memory writes* come from the decorator or its `memory.write` log lines: they alone answer
/// checks 1 and 2. Writes are kept per (key, session id), the last one winning, as a backend
/// that replaces on re-add keeps them; a write known with its content (the decorator with
/// [`log_content`](super::InspectingMemoryService::log_content), [`from_sessions`](Self::from_sessions))
/// lets check 4 look at the content, one known from counts only gives check 4 its counts.
///
/// *Stored sessions* come from a session store (session files, a session database): a session
/// service is not the memory service, so they say nothing of what was written to memory
/// (checks 1 and 2 are then "not known"), but they are the content check 4 reads, and they
/// record the searches the application made (its `load_memory` calls and their responses). The
/// searching conversation's own text is never content for its search.
///
/// *Searches* come from `memory.search` log lines or from stored conversations.
///
/// ```
/// use memory_conformance::inspect::{Conclusion, Evidence};
/// use memory_conformance::{Event, Session};
/// use memory_conformance::profile::Profile;
/// let evidence = Evidence::from_sessions([Session::new("support", "u-42", "monday")
///     .with_event(Event::text("user", "My favourite coffee is a flat white."))]);
/// let diagnosis = evidence.diagnose("support", "u-42", "coffee?", &Profile::reference());
/// assert_eq!(diagnosis.conclusion(), Conclusion::QueryCannotMatch);
/// let diagnosis = evidence.diagnose("support", "u-42", "coffee?", &Profile::adk_python());
/// assert_eq!(diagnosis.conclusion(), Conclusion::Found);
///
/// // The same session from a session store: what was written to memory is not known.
/// let stored = Evidence::from_session_store([Session::new("support", "u-42", "monday")
///     .with_event(Event::text("user", "My favourite coffee is a flat white."))]);
/// let diagnosis = stored.diagnose("support", "u-42", "coffee", &Profile::reference());
/// assert_eq!(diagnosis.conclusion(), Conclusion::WriteNotKnown);
/// ```
#[derive(Clone, Debug)]
pub struct Evidence {
    writes: BTreeMap<MemoryKey, BTreeMap<String, WriteRecord>>,
    writes_known: bool,
    stored: BTreeMap<MemoryKey, BTreeMap<String, Session>>,
    searches: Vec<SearchRecord>,
    /// Whether the evidence holds a log of the application's memory calls (the decorator's
    /// lines, the kit's tracing), which records every search the application made.
    searches_logged: bool,
    show_content: bool,
}

impl Default for Evidence {
    fn default() -> Self {
        Self::new()
    }
}

#[derive(Clone, Debug)]
struct WriteRecord {
    events: usize,
    text_events: usize,
    session: Option<Session>,
}

/// Where a search was seen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub enum SearchSource {
    /// Named by the caller (`diagnose`'s arguments): it may never have been made.
    Given,
    /// A `memory.search` line of a log, or the decorator.
    Log,
    /// A `load_memory` call and its response recorded in a stored conversation.
    Session,
}

/// One search seen: its key, and what is known of its query and result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct SearchRecord {
    /// The key searched.
    pub key: MemoryKey,
    /// The query, when it is known (logged with content, recorded in a session, or given).
    pub query: Option<String>,
    /// The number of query tokens, when logged.
    pub tokens: Option<usize>,
    /// The dead tokens, when logged by name (the guide's `memory.query ... dead=[...]`).
    pub dead_tokens: Option<Vec<String>>,
    /// The number of dead tokens, when logged as a count.
    pub dead: Option<usize>,
    /// The number of entries found, when known.
    pub hits: Option<usize>,
    /// The stored session (under `key`) whose conversation made the search, when known.
    pub session: Option<String>,
    /// Where the search was seen.
    pub source: SearchSource,
}

impl SearchRecord {
    /// A search of `key` about which nothing else is known yet.
    pub fn new(key: MemoryKey) -> Self {
        Self {
            key,
            query: None,
            tokens: None,
            dead_tokens: None,
            dead: None,
            hits: None,
            session: None,
            source: SearchSource::Given,
        }
    }
}

/// Searches kept at most, the latest; older ones are forgotten.
const SEARCHES_KEPT: usize = 256;

impl Evidence {
    /// No writes, no searches, no stored sessions, seen by something every write passes
    /// through (the decorator, its log): until a write is recorded, nothing was written.
    pub fn new() -> Self {
        Self {
            writes: BTreeMap::new(),
            writes_known: true,
            stored: BTreeMap::new(),
            searches: Vec::new(),
            searches_logged: false,
            show_content: false,
        }
    }

    /// Every session written to memory, with its content.
    pub fn from_sessions(sessions: impl IntoIterator<Item = Session>) -> Self {
        let mut evidence = Self::new();
        for session in sessions {
            evidence.record_session(session);
        }
        evidence
    }

    /// Sessions read from a session store (files, a database), with the searches their
    /// conversations record; nothing is known of what was written to memory.
    pub fn from_session_store(sessions: impl IntoIterator<Item = Session>) -> Self {
        let mut evidence = Self::new();
        evidence.writes_known = false;
        for session in sessions {
            evidence.record_stored_session(session);
        }
        evidence
    }

    /// Evidence that does not see every write (a log of searches only): checks 1 and 2 are
    /// not known until a write is recorded.
    #[must_use]
    /// The same evidence, read from a log of the application's memory calls: it records
    /// every search the application made, so when it holds none, none was made.
    pub(crate) fn searches_logged(mut self) -> Self {
        self.searches_logged = true;
        self
    }

    pub(crate) fn writes_unknown(mut self) -> Self {
        self.writes_known = !self.writes.is_empty();
        self
    }

    /// Also puts the stored values where check 4 finds the query's words into the diagnosis
    /// (`Place::excerpt`). Off by default: stored content often holds personal data.
    #[must_use]
    pub fn show_content(mut self, enabled: bool) -> Self {
        self.show_content = enabled;
        self
    }

    /// A write of `session` to memory, with its content.
    pub fn record_session(&mut self, session: Session) {
        let record = WriteRecord {
            events: session.events.len(),
            text_events: session.events.iter().filter(|e| e.has_text()).count(),
            session: None,
        };
        let (key, id) = (session.key(), session.id.clone());
        self.writes_known = true;
        self.writes.entry(key).or_default().insert(
            id,
            WriteRecord {
                session: Some(session),
                ..record
            },
        );
    }

    /// A session read from a session store, and the searches its conversation records.
    pub fn record_stored_session(&mut self, session: Session) {
        for search in super::recorded::searches_in(&session) {
            self.record_search(search);
        }
        self.stored
            .entry(session.key())
            .or_default()
            .insert(session.id.clone(), session);
    }

    /// A write known from counts only: `events` events of which `text_events` carry text.
    pub fn record_write(
        &mut self,
        key: MemoryKey,
        session: impl Into<String>,
        events: usize,
        text_events: usize,
    ) {
        self.writes_known = true;
        self.writes.entry(key).or_default().insert(
            session.into(),
            WriteRecord {
                events,
                text_events: text_events.min(events),
                session: None,
            },
        );
    }

    /// A search seen.
    pub fn record_search(&mut self, search: SearchRecord) {
        if self.searches.len() == SEARCHES_KEPT {
            self.searches.drain(..SEARCHES_KEPT / 2);
        }
        self.searches.push(search);
    }

    /// The searches seen, oldest first.
    pub fn searches(&self) -> &[SearchRecord] {
        &self.searches
    }

    pub(crate) fn searches_mut(&mut self) -> &mut Vec<SearchRecord> {
        &mut self.searches
    }

    /// Whether what was written to memory is known (a decorator or its write lines saw it).
    pub fn writes_known(&self) -> bool {
        self.writes_known
    }

    /// The stored sessions, and how many of them hold events.
    pub fn stored_sessions(&self) -> (usize, usize) {
        let sessions = self.stored.values().flat_map(BTreeMap::values);
        (
            sessions.clone().count(),
            sessions.filter(|s| !s.events.is_empty()).count(),
        )
    }

    /// Adds everything `other` saw: its writes (replacing the same sessions), its stored
    /// sessions and its searches.
    pub fn extend(&mut self, other: Evidence) {
        self.writes_known |= other.writes_known;
        self.searches_logged |= other.searches_logged;
        for (key, sessions) in other.writes {
            self.writes.entry(key).or_default().extend(sessions);
        }
        for (key, sessions) in other.stored {
            self.stored.entry(key).or_default().extend(sessions);
        }
        for search in other.searches {
            self.record_search(search);
        }
    }

    /// Whether no write, no stored session and no search was seen.
    pub fn is_empty(&self) -> bool {
        self.writes.is_empty() && self.stored.is_empty() && self.searches.is_empty()
    }

    /// The four checks for a search of `query` under (`app_name`, `user_id`), with
    /// `profile`'s match rules; the result of the latest such search seen, when one was.
    pub fn diagnose(
        &self,
        app_name: &str,
        user_id: &str,
        query: &str,
        profile: &Profile,
    ) -> Diagnosis {
        let mut search = SearchRecord::new(MemoryKey::new(app_name, user_id));
        search.query = Some(query.to_owned());
        if let Some(seen) = self
            .searches
            .iter()
            .rev()
            .find(|seen| seen.key == search.key && seen.query.as_deref() == Some(query))
        {
            search.hits = seen.hits;
            search.session.clone_from(&seen.session);
        }
        self.diagnose_search(&search, profile)
    }

    /// The four checks for `search`, which may know its query only by counts (a log line).
    pub fn diagnose_search(&self, search: &SearchRecord, profile: &Profile) -> Diagnosis {
        let key = search.key.clone();
        let written = Written {
            known: self.writes_known,
            keys: self.writes.len(),
            sessions: self.writes.values().map(BTreeMap::len).sum(),
            events: self
                .writes
                .values()
                .flat_map(BTreeMap::values)
                .map(|w| w.events)
                .sum(),
        };
        let under_key = self.writes.get(&key);
        let stored_under_key = self.stored.get(&key);
        // Near misses among the keys written to memory, or (when that is not known) among
        // the keys sessions are stored under.
        let near_misses = if self.writes_known {
            self.writes
                .iter()
                .filter_map(|(written_key, sessions)| {
                    Some(NearMiss {
                        differences: near_miss(&key, written_key)?,
                        key: written_key.clone(),
                        sessions: sessions.len(),
                    })
                })
                .collect()
        } else {
            self.stored
                .iter()
                .filter_map(|(stored_key, sessions)| {
                    Some(NearMiss {
                        differences: near_miss(&key, stored_key)?,
                        key: stored_key.clone(),
                        sessions: sessions.len(),
                    })
                })
                .collect()
        };
        let right_key = RightKey {
            sessions: under_key.map_or(0, BTreeMap::len),
            near_misses,
        };
        let records: Vec<&WriteRecord> = under_key.into_iter().flat_map(BTreeMap::values).collect();
        // The content written under the key: each write's own copy, or the stored session of
        // that key and id; when writes are not known, the sessions stored under the key but
        // the searching conversation.
        let (content_sessions, all_content): (Vec<&Session>, bool) = if self.writes_known {
            let sessions: Vec<&Session> = under_key
                .into_iter()
                .flatten()
                .filter_map(|(id, write)| {
                    write
                        .session
                        .as_ref()
                        .or_else(|| stored_under_key.and_then(|stored| stored.get(id)))
                })
                .collect();
            let all = written.sessions > 0
                && self.writes.iter().all(|(written_key, sessions)| {
                    sessions.iter().all(|(id, write)| {
                        write.session.is_some()
                            || self
                                .stored
                                .get(written_key)
                                .is_some_and(|stored| stored.contains_key(id))
                    })
                });
            (sessions, all)
        } else {
            let sessions = stored_under_key
                .into_iter()
                .flatten()
                .filter(|(id, _)| search.session.as_ref() != Some(*id))
                .map(|(_, session)| session)
                .collect();
            (sessions, false)
        };
        let match_rules = match &search.query {
            Some(query) => MatchRules {
                tokens: explain_tokens_for(profile, query),
                logged: None,
            },
            None => {
                let tokens = match &search.dead_tokens {
                    Some(dead) => dead
                        .iter()
                        .flat_map(|token| explain_tokens_for(profile, token))
                        .collect(),
                    None => Vec::new(),
                };
                MatchRules {
                    tokens,
                    logged: Some(LoggedTokens {
                        tokens: search.tokens,
                        dead: search
                            .dead
                            .or_else(|| search.dead_tokens.as_ref().map(Vec::len)),
                    }),
                }
            }
        };
        let (content, hits) = match &search.query {
            Some(query) if !content_sessions.is_empty() || all_content => {
                let dead_tokens: Vec<String> = match_rules
                    .tokens
                    .iter()
                    .filter(|t| t.dead.is_some())
                    .map(|t| t.token.clone())
                    .collect();
                let check = content::check(
                    profile,
                    content_sessions.iter().copied(),
                    query,
                    |token| {
                        dead_tokens.iter().any(|d| d == token)
                            || explain_tokens_for(profile, token)
                                .iter()
                                .all(|t| t.dead.is_some())
                    },
                    self.show_content,
                );
                // Without a stemmer in this build, a stemming profile's count is not computed.
                let computed = (all_content && profile.stemming.is_built())
                    .then(|| hits_under(profile, content_sessions.iter().copied(), query));
                (
                    Some(check).filter(|_| !content_sessions.is_empty()),
                    search.hits.or(computed),
                )
            }
            _ => (None, search.hits),
        };
        let indexed_text = if self.writes_known {
            IndexedText {
                events: records.iter().map(|w| w.events).sum(),
                events_without_text: records.iter().map(|w| w.events - w.text_events).sum(),
                content,
            }
        } else {
            let events = content_sessions.iter().flat_map(|s| &s.events);
            IndexedText {
                events: events.clone().count(),
                events_without_text: events.filter(|e| !e.has_text()).count(),
                content,
            }
        };
        Diagnosis {
            key,
            query: search.query.clone(),
            profile: profile.name.clone(),
            hits,
            search: search.source,
            searching_session: search.session.clone(),
            no_search_made: self.searches_logged && self.searches.is_empty(),
            written,
            right_key,
            match_rules,
            indexed_text,
        }
    }
}

/// How many entries a backend behaving as `profile` says returns for `query` over `sessions`.
fn hits_under<'a>(
    profile: &Profile,
    sessions: impl Iterator<Item = &'a Session>,
    query: &str,
) -> usize {
    let terms = query_terms(profile, query);
    if terms.is_empty() {
        return 0;
    }
    let found = sessions
        .flat_map(|session| &session.events)
        .filter_map(|event| event.content.as_ref())
        .filter(|content| !content.parts.is_empty())
        .filter(|content| {
            let indexed = IndexedEvent::new(profile, content);
            match profile.multi_word {
                MultiWord::AnyWord => terms.iter().any(|term| indexed.matches(term)),
                MultiWord::AllWords => terms.iter().all(|term| indexed.matches(term)),
            }
        })
        .count();
    match profile.limit {
        Limit::AtMost(limit) => found.min(limit),
        _ => found,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inspect::Conclusion;

    fn search(app: &str, query: &str, hits: usize) -> SearchRecord {
        let mut search = SearchRecord::new(MemoryKey::new(app, "u"));
        search.query = Some(query.to_owned());
        search.hits = Some(hits);
        search
    }

    #[test]
    fn the_oldest_half_of_the_searches_is_forgotten_once_the_store_is_full() {
        let mut evidence = Evidence::new();
        for n in 0..=SEARCHES_KEPT {
            evidence.record_search(search("a", "coffee", n));
        }
        let hits: Vec<_> = evidence.searches().iter().map(|s| s.hits).collect();
        assert_eq!(hits.len(), SEARCHES_KEPT / 2 + 1);
        assert_eq!(hits[0], Some(SEARCHES_KEPT / 2));
        assert_eq!(hits.last(), Some(&Some(SEARCHES_KEPT)));
        evidence.searches_mut().clear();
        assert!(evidence.searches().is_empty());
    }

    #[test]
    fn evidence_is_empty_until_a_write_or_a_search_and_extends_with_both() {
        assert!(Evidence::new().is_empty());
        let mut searched = Evidence::new();
        searched.record_search(search("a", "coffee", 1));
        assert!(!searched.is_empty());
        let mut written = Evidence::new();
        written.record_write(MemoryKey::new("a", "u"), "s-1", 2, 1);
        assert!(!written.is_empty());
        written.extend(searched);
        assert_eq!(written.searches(), [search("a", "coffee", 1)]);
        let mut both = Evidence::new();
        both.extend(written);
        assert!(!both.is_empty());
        assert_eq!(both.searches().len(), 1);
    }

    #[test]
    fn from_content_a_diagnosis_counts_the_hits_the_profile_would_return() {
        use crate::Event;
        let session = Session::new("a", "u", "s-1").with_events(
            ["coffee", "coffee tea", "tea", "milk"]
                .map(|t| Event::text("user", t))
                .into_iter()
                .chain((0..12).map(|n| Event::text("user", format!("espresso {n}")))),
        );
        let evidence = Evidence::from_sessions([session]);
        let hits =
            |query: &str, profile: &Profile| evidence.diagnose("a", "u", query, profile).hits;
        let reference = Profile::reference();
        assert_eq!(hits("coffee", &reference), Some(2));
        assert_eq!(hits("coffee tea", &reference), Some(3));
        assert_eq!(hits("coffee?", &reference), Some(0));
        assert_eq!(hits("", &reference), Some(0));
        assert_eq!(hits("espresso", &reference), Some(12));
        assert_eq!(hits("coffee tea", &Profile::adk_rust_sqlite()), Some(1));
        assert_eq!(hits("espresso", &Profile::adk_rust_in_memory()), Some(10));
    }

    #[test]
    fn a_word_of_the_content_check_is_dead_when_dead_alone_or_in_the_query() {
        use crate::Event;
        let session = Session::new("a", "u", "s-1").with_event(Event::text("user", "coffee? x"));
        let evidence = Evidence::from_sessions([session]);
        // The reference's query token is `coffee?\u{a0}x`; the check looks for `coffee?` and `x`.
        let diagnosis = evidence.diagnose("a", "u", "coffee?\u{A0}x", &Profile::reference());
        let content = diagnosis.indexed_text.content.expect("content mode");
        let dead: Vec<(&str, bool)> = content
            .tokens
            .iter()
            .map(|t| (t.token.as_str(), t.dead))
            .collect();
        assert_eq!(dead, [("coffee?", true), ("x", false)]);
    }

    #[test]
    fn stored_sessions_leave_checks_1_and_2_unknown_and_the_searching_conversation_out() {
        use crate::{Content, Event, Part};
        use serde_json::json;
        let monday = Session::new("support", "u-42", "monday")
            .with_event(Event::text("user", "My favourite coffee is a flat white."));
        let thursday = Session::new("support", "u-42", "thursday").with_events([
            Event::text("user", "What coffee do I usually get?"),
            Event::new(
                "agent",
                Some(Content::new(vec![Part::function_call(
                    "load_memory",
                    json!({"query": "coffee"}),
                )])),
            ),
            Event::new(
                "agent",
                Some(Content::new(vec![Part::function_response(
                    "load_memory",
                    json!({"result": {"memories": []}}),
                )])),
            ),
        ]);
        let profile = Profile::reference();
        let evidence = Evidence::from_session_store([thursday.clone()]);
        assert!(!evidence.writes_known());
        let [search] = evidence.searches() else {
            panic!("one search: {:?}", evidence.searches());
        };
        assert_eq!(
            (search.hits, search.session.as_deref()),
            (Some(0), Some("thursday"))
        );
        // Thursday's own question holds "coffee": it is not what the search could find.
        let alone = evidence.diagnose_search(search, &profile);
        assert_eq!(alone.indexed_text.events, 0);
        assert_eq!(alone.conclusion(), Conclusion::WriteNotKnown);
        // Monday stored under the key holds it in text: checks 3 and 4 pass, 1 and 2 unknown.
        let both = Evidence::from_session_store([monday.clone(), thursday]);
        let diagnosis = both.diagnose_search(&both.searches()[0], &profile);
        assert_eq!(diagnosis.indexed_text.events, 1);
        assert_eq!(
            diagnosis.hits,
            Some(0),
            "the recorded result, never a computed one"
        );
        assert_eq!(diagnosis.conclusion(), Conclusion::WriteNotKnown);
        // A log of writes makes checks 1 and 2 known, and keeps its keys apart from the store's.
        let mut logged = both.clone();
        let mut writes = Evidence::new();
        writes.record_write(MemoryKey::new("support", "42"), "monday", 1, 1);
        logged.extend(writes);
        let diagnosis = logged.diagnose_search(&logged.searches()[0], &profile);
        assert_eq!(diagnosis.conclusion(), Conclusion::WrongKey);
        assert_eq!(diagnosis.written.sessions, 1);
        // Written under the searched key: the stored copy of that session is check 4's content.
        let mut fixed = both;
        let mut writes = Evidence::new();
        writes.record_write(MemoryKey::new("support", "u-42"), "monday", 1, 1);
        fixed.extend(writes);
        let diagnosis = fixed.diagnose("support", "u-42", "coffee", &profile);
        assert_eq!(diagnosis.conclusion(), Conclusion::ChecksPass);
        assert!(diagnosis.indexed_text.content.is_some());
    }

    #[test]
    fn a_diagnosis_takes_the_hits_of_the_latest_search_of_the_same_key_and_query() {
        let mut evidence = Evidence::new();
        evidence.record_search(search("a", "coffee", 1));
        evidence.record_search(search("a", "coffee", 2));
        evidence.record_search(search("b", "coffee", 3));
        evidence.record_search(search("a", "tea", 4));
        let profile = Profile::reference();
        let hits = |app: &str, query: &str| evidence.diagnose(app, "u", query, &profile).hits;
        assert_eq!(hits("a", "coffee"), Some(2));
        assert_eq!(hits("b", "coffee"), Some(3));
        assert_eq!(hits("a", "tea"), Some(4));
        assert_eq!(hits("b", "tea"), None);
        assert_eq!(hits("c", "milk"), None);
        // With nothing written, no result can be computed from content.
        let nothing = Evidence::new().diagnose("a", "u", "coffee", &profile);
        assert_eq!(nothing.hits, None);
    }
}
