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

/// The writes and searches a diagnosis is made from.
///
/// Writes are kept per (key, session id), the last one winning, as a backend that replaces on
/// re-add keeps them. A write known with its content (a session file, a session database, the
/// decorator with [`log_content`](super::InspectingMemoryService::log_content)) lets check 4
/// look at the content; a write known from counts only (a log line) gives check 4 its counts.
///
/// ```
/// use memory_conformance::inspect::Evidence;
/// use memory_conformance::{Event, Session};
/// use memory_conformance::inspect::Verdict;
/// use memory_conformance::profile::Profile;
/// let evidence = Evidence::from_sessions([Session::new("support", "u-42", "monday")
///     .with_event(Event::text("user", "My favourite coffee is a flat white."))]);
/// let diagnosis = evidence.diagnose("support", "u-42", "coffee?", &Profile::reference());
/// assert_eq!(diagnosis.verdict(), Verdict::QueryCannotMatch);
/// let diagnosis = evidence.diagnose("support", "u-42", "coffee?", &Profile::adk_python());
/// assert_eq!(diagnosis.verdict(), Verdict::Found);
/// ```
#[derive(Clone, Debug, Default)]
pub struct Evidence {
    writes: BTreeMap<MemoryKey, BTreeMap<String, WriteRecord>>,
    searches: Vec<SearchRecord>,
    show_content: bool,
}

#[derive(Clone, Debug)]
struct WriteRecord {
    events: usize,
    text_events: usize,
    session: Option<Session>,
}

/// One search seen: its key, and what is known of its query and result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct SearchRecord {
    /// The key searched.
    pub key: MemoryKey,
    /// The query, when it is known (logged with content, or given).
    pub query: Option<String>,
    /// The number of query tokens, when logged.
    pub tokens: Option<usize>,
    /// The dead tokens, when logged by name (the guide's `memory.query ... dead=[...]`).
    pub dead_tokens: Option<Vec<String>>,
    /// The number of dead tokens, when logged as a count.
    pub dead: Option<usize>,
    /// The number of entries found, when known.
    pub hits: Option<usize>,
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
        }
    }
}

/// Searches kept at most, the latest; older ones are forgotten.
const SEARCHES_KEPT: usize = 256;

impl Evidence {
    /// No writes, no searches.
    pub fn new() -> Self {
        Self::default()
    }

    /// Every session written, with its content.
    pub fn from_sessions(sessions: impl IntoIterator<Item = Session>) -> Self {
        let mut evidence = Self::new();
        for session in sessions {
            evidence.record_session(session);
        }
        evidence
    }

    /// Also puts the stored values where check 4 finds the query's words into the diagnosis
    /// (`Place::excerpt`). Off by default: stored content often holds personal data.
    #[must_use]
    pub fn show_content(mut self, enabled: bool) -> Self {
        self.show_content = enabled;
        self
    }

    /// A write of `session`, with its content.
    pub fn record_session(&mut self, session: Session) {
        let record = WriteRecord {
            events: session.events.len(),
            text_events: session.events.iter().filter(|e| e.has_text()).count(),
            session: None,
        };
        let (key, id) = (session.key(), session.id.clone());
        self.writes.entry(key).or_default().insert(
            id,
            WriteRecord {
                session: Some(session),
                ..record
            },
        );
    }

    /// A write known from counts only: `events` events of which `text_events` carry text.
    pub fn record_write(
        &mut self,
        key: MemoryKey,
        session: impl Into<String>,
        events: usize,
        text_events: usize,
    ) {
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

    /// Adds everything `other` saw: its writes (replacing the same sessions) and its searches.
    pub fn extend(&mut self, other: Evidence) {
        for (key, sessions) in other.writes {
            self.writes.entry(key).or_default().extend(sessions);
        }
        for search in other.searches {
            self.record_search(search);
        }
    }

    /// Whether no write and no search was seen.
    pub fn is_empty(&self) -> bool {
        self.writes.is_empty() && self.searches.is_empty()
    }

    /// The four checks for a search of `query` under (`app_name`, `user_id`), with
    /// `profile`'s match rules.
    pub fn diagnose(
        &self,
        app_name: &str,
        user_id: &str,
        query: &str,
        profile: &Profile,
    ) -> Diagnosis {
        let mut search = SearchRecord::new(MemoryKey::new(app_name, user_id));
        search.query = Some(query.to_owned());
        search.hits = self
            .searches
            .iter()
            .rev()
            .find(|seen| seen.key == search.key && seen.query.as_deref() == Some(query))
            .and_then(|seen| seen.hits);
        self.diagnose_search(&search, profile)
    }

    /// The four checks for `search`, which may know its query only by counts (a log line).
    pub fn diagnose_search(&self, search: &SearchRecord, profile: &Profile) -> Diagnosis {
        let key = search.key.clone();
        let written = Written {
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
        let near_misses = self
            .writes
            .iter()
            .filter_map(|(written_key, sessions)| {
                Some(NearMiss {
                    differences: near_miss(&key, written_key)?,
                    key: written_key.clone(),
                    sessions: sessions.len(),
                })
            })
            .collect();
        let right_key = RightKey {
            sessions: under_key.map_or(0, BTreeMap::len),
            near_misses,
        };
        let records: Vec<&WriteRecord> = under_key.into_iter().flat_map(BTreeMap::values).collect();
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
        // Content mode: every write seen carries its session (files, a database, the decorator
        // under log_content), so the search's result can be computed, also under a wrong key.
        let all_content = written.sessions > 0
            && self
                .writes
                .values()
                .flat_map(BTreeMap::values)
                .all(|w| w.session.is_some());
        let sessions = records.iter().filter_map(|w| w.session.as_ref());
        let (content, hits) = match (&search.query, all_content) {
            (Some(query), true) => {
                let dead_tokens: Vec<String> = match_rules
                    .tokens
                    .iter()
                    .filter(|t| t.dead.is_some())
                    .map(|t| t.token.clone())
                    .collect();
                let check = content::check(
                    profile,
                    sessions.clone(),
                    query,
                    |token| {
                        dead_tokens.iter().any(|d| d == token)
                            || explain_tokens_for(profile, token)
                                .iter()
                                .all(|t| t.dead.is_some())
                    },
                    self.show_content,
                );
                let hits = search.hits.or(Some(hits_under(profile, sessions, query)));
                (Some(check).filter(|_| !records.is_empty()), hits)
            }
            _ => (None, search.hits),
        };
        let indexed_text = IndexedText {
            events: records.iter().map(|w| w.events).sum(),
            events_without_text: records.iter().map(|w| w.events - w.text_events).sum(),
            content,
        };
        Diagnosis {
            key,
            query: search.query.clone(),
            profile: profile.name.clone(),
            hits,
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
