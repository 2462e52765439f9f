//! What a diagnosis concludes: the first check that fails, or that all four pass, and what to
//! do about it.

use std::fmt;

use serde::Serialize;

use super::{Diagnosis, IndexedText};
use crate::inspect::content::TokenFinding;

/// The first check that fails, or that all four pass: what a diagnosis concludes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub enum Conclusion {
    /// No memory search was made: the agent has no `load_memory` tool, or the model never
    /// called it.
    NoSearch,
    /// Check 1: nothing was ever written through this service.
    NothingWritten,
    /// Check 2: nothing was written under the searched key.
    WrongKey,
    /// Checks 1 and 2 are not known (sessions alone do not say what was written to memory),
    /// and checks 3 and 4 do not explain the miss: memory was never written, or written under
    /// another key.
    WriteNotKnown,
    /// Check 3: no token of the query can match (blank query, or every token dead).
    QueryCannotMatch,
    /// Check 4: nothing written under the key carries text.
    NoIndexedText,
    /// Check 4 from counts only: some events under the key carry no text, and the query's
    /// words may be only in them; the sessions themselves would tell.
    PerhapsNotIndexed,
    /// Check 4: the query's words are stored only where the index does not read (tool calls
    /// and responses, inline data, session state).
    NotIndexed,
    /// Checks 4 and 3: the query's words are stored only where the index does not read, and a
    /// token holding them can never match (the seed's "Where's order 4417?"). From counts
    /// only: a search that missed, events without text under the key and dead tokens.
    NotIndexedAndCannotMatch,
    /// All four checks pass: the stored words and the query's words differ.
    ChecksPass,
    /// The search finds what is stored: nothing is wrong.
    Found,
}

impl Conclusion {
    /// Whether nothing wrong was found ([`ChecksPass`](Self::ChecksPass) or
    /// [`Found`](Self::Found)).
    pub fn nothing_wrong(self) -> bool {
        matches!(self, Self::ChecksPass | Self::Found)
    }
}

impl Diagnosis {
    /// The failing checks, in the seed's order (1, 2, then 3 and 4 together); checks 1 and 2
    /// only from memory-write evidence.
    pub fn conclusion(&self) -> Conclusion {
        if self.no_search_made {
            return Conclusion::NoSearch;
        }
        let known = self.written.known;
        if known && self.written.sessions == 0 {
            return Conclusion::NothingWritten;
        }
        if known && self.right_key.sessions == 0 {
            return Conclusion::WrongKey;
        }
        if self.hits.is_some_and(|hits| hits > 0) {
            return Conclusion::Found;
        }
        let IndexedText {
            events,
            events_without_text,
            content,
        } = &self.indexed_text;
        if !known && *events == 0 {
            return if self.match_rules.any_live() {
                Conclusion::WriteNotKnown
            } else {
                Conclusion::QueryCannotMatch
            };
        }
        let no_text = events == events_without_text;
        let (cannot_match, not_indexed) = match content {
            Some(content) => (
                !self.match_rules.any_live()
                    || content
                        .tokens
                        .iter()
                        .any(|t| t.dead && !t.places.is_empty()),
                content.tokens.iter().any(TokenFinding::only_unindexed),
            ),
            None => {
                let missed = self.hits == Some(0) && self.match_rules.any_live();
                (
                    !self.match_rules.any_live() || (missed && self.match_rules.dead_count() > 0),
                    no_text || (missed && *events_without_text > 0),
                )
            }
        };
        match (cannot_match, not_indexed) {
            (true, true) => Conclusion::NotIndexedAndCannotMatch,
            (true, false) => Conclusion::QueryCannotMatch,
            (false, true) if content.is_none() && no_text => Conclusion::NoIndexedText,
            (false, true) if content.is_none() => Conclusion::PerhapsNotIndexed,
            (false, true) => Conclusion::NotIndexed,
            (false, false) if no_text => Conclusion::NoIndexedText,
            (false, false) if !known => Conclusion::WriteNotKnown,
            (false, false) => Conclusion::ChecksPass,
        }
    }
}

impl fmt::Display for Conclusion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::NoSearch => {
                "no memory search: the agent has no load_memory tool, or the model never \
                 called it. Give the agent the tool; if it has it, the instruction or the \
                 prompt needs work, not memory."
            }
            Self::WriteNotKnown => {
                "checks 1 and 2 are not known from sessions: what was written to memory is not \
                 in a session store, and checks 3 and 4 do not explain the miss, so memory was \
                 never written or was written under another key. The decorator's memory.write \
                 log lines (--log) or the memory store itself would tell which."
            }
            Self::PerhapsNotIndexed => {
                "check 4 is not settled from counts: some events under this key carry no text, \
                 and the query's words may be only in them. Diagnose with the sessions \
                 themselves (--database or --session) to see where the words are."
            }
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
            Self::NotIndexed => {
                "check 4 fails: the query's words are stored only in tool calls, tool results, \
                 inline data or session state, which the index does not read. Have the agent \
                 restate the fact in text, or write a summary event, before adding the session."
            }
            Self::NotIndexedAndCannotMatch => {
                "check 4 plus check 3: the fact is stored only where the index does not read \
                 (tool data, inline data, session state), and the query token that names it can \
                 never match. Have the agent restate the fact in text, and move to a retrieval \
                 backend that indexes digits and normalises punctuation."
            }
            Self::Found => "nothing wrong found: the search finds what is stored.",
            Self::ChecksPass => {
                "all four checks pass: if the search still misses, the stored words differ \
                 from the query's (a synonym, a different form); a ranked or semantic backend \
                 is the fix."
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_passing_checks_and_a_found_search_are_nothing_wrong() {
        use Conclusion::*;
        for verdict in [ChecksPass, Found] {
            assert!(verdict.nothing_wrong(), "{verdict:?}");
        }
        for verdict in [
            NoSearch,
            WriteNotKnown,
            PerhapsNotIndexed,
            NothingWritten,
            WrongKey,
            QueryCannotMatch,
            NoIndexedText,
            NotIndexed,
            NotIndexedAndCannotMatch,
        ] {
            assert!(!verdict.nothing_wrong(), "{verdict:?}");
        }
    }
}
