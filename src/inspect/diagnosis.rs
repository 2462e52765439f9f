use std::fmt;

use serde::Serialize;

use crate::{MemoryKey, TokenExplanation};

use super::KeyDifference;

/// The answer of [`InspectingMemoryService::diagnose`](super::InspectingMemoryService::diagnose):
/// the seed's four checks for one search, in order, from what the decorator saw (keys and
/// counts, never stored content) and the query.
///
/// [`Diagnosis::verdict`] names the first check that fails; `Display` reads like a debugging
/// walk-through.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Diagnosis {
    /// The key that was searched.
    pub key: MemoryKey,
    /// The query that was searched.
    pub query: String,
    /// Check 1: was anything written at all?
    pub written: Written,
    /// Check 2: was it written under this key?
    pub right_key: RightKey,
    /// Check 3: do the match rules accept the query?
    pub match_rules: MatchRules,
    /// Check 4: is there text to find under this key?
    pub indexed_text: IndexedText,
}

/// Check 1: every successful write the decorator saw, under any key.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Written {
    /// Distinct keys written under.
    pub keys: usize,
    /// Distinct sessions written.
    pub sessions: usize,
    /// Events in those sessions, as last written.
    pub events: usize,
}

/// Check 2: the sessions under the searched key, and written keys that nearly equal it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct RightKey {
    /// Sessions written under the searched key.
    pub sessions: usize,
    /// Keys written that differ from the searched one only by [`KeyDifference`]s.
    pub near_misses: Vec<NearMiss>,
}

/// A written key that nearly equals the searched one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct NearMiss {
    /// The key that was written.
    pub key: MemoryKey,
    /// How it differs from the searched key.
    pub differences: Vec<KeyDifference>,
    /// Sessions written under it.
    pub sessions: usize,
}

/// Check 3: each query token, and why the dead ones can never match the reference index.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct MatchRules {
    /// The query's tokens under the reference query rule.
    pub tokens: Vec<TokenExplanation>,
}

impl MatchRules {
    /// The tokens that can never match.
    pub fn dead(&self) -> impl Iterator<Item = &TokenExplanation> {
        self.tokens.iter().filter(|token| token.dead.is_some())
    }

    /// Whether at least one token can match.
    pub fn any_live(&self) -> bool {
        self.tokens.iter().any(|token| token.dead.is_none())
    }
}

/// Check 4: how much of what was written under the key has text a lexical index can read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct IndexedText {
    /// Events written under the key.
    pub events: usize,
    /// Of those, events with no non-empty text part (tool calls and results, inline data,
    /// no content): facts that only they hold can never be found.
    pub events_without_text: usize,
}

/// The first check that fails, or that all four pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub enum Verdict {
    /// Check 1: nothing was ever written through this service.
    NothingWritten,
    /// Check 2: nothing was written under the searched key.
    WrongKey,
    /// Check 3: no token of the query can match (blank query, or every token dead).
    QueryCannotMatch,
    /// Check 4: nothing written under the key carries text.
    NoIndexedText,
    /// All four checks pass: the stored words and the query's words differ.
    ChecksPass,
}

impl Diagnosis {
    /// The first failing check, in the seed's order.
    pub fn verdict(&self) -> Verdict {
        if self.written.sessions == 0 {
            Verdict::NothingWritten
        } else if self.right_key.sessions == 0 {
            Verdict::WrongKey
        } else if !self.match_rules.any_live() {
            Verdict::QueryCannotMatch
        } else if self.indexed_text.events == self.indexed_text.events_without_text {
            Verdict::NoIndexedText
        } else {
            Verdict::ChecksPass
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::NothingWritten => {
                "check 1 fails: memory is never written. Nothing in the runner calls \
                 add_session_to_memory; call it when a session is worth remembering."
            }
            Self::WrongKey => {
                "check 2 fails: the writer and the reader use different keys. Build the app \
                 name and user id in one shared function used by every writer and reader."
            }
            Self::QueryCannotMatch => {
                "check 3 fails: no token of the query can match the index. Query with plain \
                 words, or use a backend that normalises punctuation, digits and accents."
            }
            Self::NoIndexedText => {
                "check 4 fails: nothing under this key carries text. Restate tool results in \
                 text, or write a summary event, before adding the session."
            }
            Self::ChecksPass => {
                "all four checks pass: if the search still misses, the stored words differ \
                 from the query's (a synonym, a different form); a ranked or semantic backend \
                 is the fix."
            }
        })
    }
}

const LABEL_WIDTH: usize = 18;

impl fmt::Display for Diagnosis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pad = " ".repeat(LABEL_WIDTH + 3);
        writeln!(
            f,
            "diagnosis of a search under {} for {:?}",
            self.key, self.query
        )?;

        let Written {
            keys,
            sessions,
            events,
        } = &self.written;
        if *sessions == 0 {
            writeln!(
                f,
                "1. {:<LABEL_WIDTH$}NO: nothing was ever written through this service",
                "written?"
            )?;
        } else {
            writeln!(
                f,
                "1. {:<LABEL_WIDTH$}yes: {} ({}) under {}",
                "written?",
                count(*sessions, "session"),
                count(*events, "event"),
                count(*keys, "key")
            )?;
        }

        if *sessions == 0 {
            writeln!(f, "2. {:<LABEL_WIDTH$}not reached", "right key?")?;
        } else if self.right_key.sessions == 0 {
            writeln!(
                f,
                "2. {:<LABEL_WIDTH$}NO: nothing was written under {}",
                "right key?", self.key
            )?;
            if self.right_key.near_misses.is_empty() {
                writeln!(f, "{pad}no written key nearly equals it")?;
            }
            for near in &self.right_key.near_misses {
                let differences: Vec<String> =
                    near.differences.iter().map(ToString::to_string).collect();
                writeln!(
                    f,
                    "{pad}near miss: {} ({}), {}",
                    near.key,
                    differences.join(", "),
                    count(near.sessions, "session")
                )?;
            }
        } else {
            writeln!(
                f,
                "2. {:<LABEL_WIDTH$}yes: {} under {}",
                "right key?",
                count(self.right_key.sessions, "session"),
                self.key
            )?;
        }

        let tokens = &self.match_rules.tokens;
        let dead: Vec<&TokenExplanation> = self.match_rules.dead().collect();
        if tokens.is_empty() {
            writeln!(
                f,
                "3. {:<LABEL_WIDTH$}NO: the query is blank",
                "match rules?"
            )?;
        } else {
            let answer = if self.match_rules.any_live() {
                "yes"
            } else {
                "NO"
            };
            writeln!(
                f,
                "3. {:<LABEL_WIDTH$}{answer}: {} of {} can match",
                "match rules?",
                tokens.len() - dead.len(),
                count(tokens.len(), "token")
            )?;
            for token in dead {
                if let Some(reason) = token.dead {
                    writeln!(f, "{pad}dead: {:?}: {reason}", token.token)?;
                }
            }
        }

        let IndexedText {
            events,
            events_without_text,
        } = self.indexed_text;
        if self.right_key.sessions == 0 {
            writeln!(f, "4. {:<LABEL_WIDTH$}not reached", "indexed text?")?;
        } else {
            let answer = if events > events_without_text {
                "yes"
            } else {
                "NO"
            };
            writeln!(
                f,
                "4. {:<LABEL_WIDTH$}{answer}: {} of {} under this key carry no text; facts only in them can never be found",
                "indexed text?",
                events_without_text,
                count(events, "event")
            )?;
        }
        write!(f, "verdict: {}", self.verdict())
    }
}

fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}
