use std::fmt;

use serde::Serialize;

use crate::{MemoryKey, TokenExplanation};

use super::content::{ContentCheck, PlaceKind, TokenFinding};
use super::{KeyDifference, SearchSource};

/// The answer of [`InspectingMemoryService::diagnose`](super::InspectingMemoryService::diagnose)
/// and [`Evidence::diagnose`](super::Evidence::diagnose): the seed's four checks for one
/// search, in order, from what was seen (keys and counts, and content where it is available)
/// and the query, under a profile's match rules.
///
/// [`Diagnosis::conclusion`] names the failing checks; `Display` reads like a debugging
/// walk-through. Neither ever holds stored content, except the excerpts of check 4 when they
/// were asked for ([`Evidence::show_content`](super::Evidence::show_content)).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Diagnosis {
    /// The key that was searched.
    pub key: MemoryKey,
    /// The query that was searched, when it is known (a log line without content has only
    /// its counts).
    pub query: Option<String>,
    /// The name of the profile whose match rules the query was explained under.
    pub profile: String,
    /// The entries the search returns, when known: logged, recorded in the conversation that
    /// made it, or computed from the content written to memory under the profile's rules.
    pub hits: Option<usize>,
    /// Where the search was seen.
    pub search: SearchSource,
    /// The stored session whose conversation made the search (its text is never counted as
    /// what the search could find).
    pub searching_session: Option<String>,
    /// Check 1: was anything written at all?
    pub written: Written,
    /// Check 2: was it written under this key?
    pub right_key: RightKey,
    /// Check 3: do the match rules accept the query?
    pub match_rules: MatchRules,
    /// Check 4: is there text to find under this key?
    pub indexed_text: IndexedText,
}

/// Check 1: every successful write the decorator (or its log) saw, under any key.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Written {
    /// Whether writes are known at all: a session store does not record what was written to
    /// memory, so from sessions alone checks 1 and 2 are not known.
    pub known: bool,
    /// Distinct keys written under.
    pub keys: usize,
    /// Distinct sessions written.
    pub sessions: usize,
    /// Events in those sessions, as last written.
    pub events: usize,
}

/// Check 2: the sessions under the searched key, and written keys that nearly equal it (when
/// writes are not known: the keys sessions are stored under that nearly equal it).
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

/// Check 3: each query token, and why the dead ones can never match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct MatchRules {
    /// The query's tokens under the profile's query rule (when the query is not known, the
    /// dead tokens a log line named).
    pub tokens: Vec<TokenExplanation>,
    /// When the query is not known: the counts a log line gave.
    pub logged: Option<LoggedTokens>,
}

/// The token counts of a logged search whose query text was not logged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct LoggedTokens {
    /// Query tokens, when logged.
    pub tokens: Option<usize>,
    /// Dead tokens, when logged.
    pub dead: Option<usize>,
}

impl MatchRules {
    /// The tokens that can never match.
    pub fn dead(&self) -> impl Iterator<Item = &TokenExplanation> {
        self.tokens.iter().filter(|token| token.dead.is_some())
    }

    /// Whether at least one token can match (from the counts, for a logged search; when
    /// they are not logged either, it is assumed).
    pub fn any_live(&self) -> bool {
        match self.logged {
            None => self.tokens.iter().any(|token| token.dead.is_none()),
            Some(LoggedTokens {
                tokens: Some(tokens),
                dead: Some(dead),
            }) => dead < tokens,
            Some(LoggedTokens {
                tokens: Some(tokens),
                dead: None,
            }) => tokens > 0,
            Some(_) => true,
        }
    }

    /// How many tokens are dead.
    pub fn dead_count(&self) -> usize {
        self.logged
            .and_then(|logged| logged.dead)
            .unwrap_or_else(|| self.dead().count())
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
    /// Where the query's words are stored, when the content is available.
    pub content: Option<ContentCheck>,
}

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

const LABEL_WIDTH: usize = 18;

impl fmt::Display for Diagnosis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pad = " ".repeat(LABEL_WIDTH + 3);
        match &self.query {
            Some(query) => write!(f, "diagnosis of a search under {} for {query:?}", self.key)?,
            None => write!(
                f,
                "diagnosis of a search under {} (query not logged)",
                self.key
            )?,
        }
        if let Some(hits) = self.hits {
            write!(f, ": {}", count(hits, "hit"))?;
        }
        writeln!(f)?;

        if let Some(session) = &self.searching_session {
            writeln!(
                f,
                "   the search recorded in session {session:?} under {}; its own conversation is not counted",
                self.key
            )?;
        }
        let Written {
            known,
            keys,
            sessions,
            events,
        } = &self.written;
        let found = self.hits.filter(|hits| *hits > 0);
        if let (false, Some(hits)) = (known, found) {
            writeln!(
                f,
                "1. {:<LABEL_WIDTH$}yes: the search returned {hits} {}",
                "written?",
                if hits == 1 { "entry" } else { "entries" }
            )?;
            writeln!(
                f,
                "2. {:<LABEL_WIDTH$}yes: they were written under {}",
                "right key?", self.key
            )?;
        } else if !known {
            writeln!(
                f,
                "1. {:<LABEL_WIDTH$}not known from sessions: what was written to memory is not in a session store",
                "written?"
            )?;
            writeln!(
                f,
                "{pad}the decorator's memory.write log lines (--log) or the memory store itself would tell"
            )?;
            writeln!(
                f,
                "2. {:<LABEL_WIDTH$}not known from sessions",
                "right key?"
            )?;
            for near in &self.right_key.near_misses {
                let differences: Vec<String> =
                    near.differences.iter().map(ToString::to_string).collect();
                writeln!(
                    f,
                    "{pad}sessions are stored under a near key: {} ({}), {}",
                    near.key,
                    differences.join(", "),
                    count(near.sessions, "session")
                )?;
            }
        } else if *sessions == 0 {
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

        if !known {
            // Said with check 1.
        } else if *sessions == 0 {
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

        self.fmt_match_rules(f, &pad)?;
        self.fmt_indexed_text(f, &pad)?;
        write!(f, "verdict: {}", self.conclusion())
    }
}

impl Diagnosis {
    fn fmt_match_rules(&self, f: &mut fmt::Formatter<'_>, pad: &str) -> fmt::Result {
        let rules = if self.profile == "reference" {
            String::new()
        } else {
            format!(" under {}'s rules", self.profile)
        };
        let tokens = &self.match_rules.tokens;
        let dead: Vec<&TokenExplanation> = self.match_rules.dead().collect();
        let answer = if self.match_rules.any_live() {
            "yes"
        } else {
            "NO"
        };
        match self.match_rules.logged {
            Some(LoggedTokens {
                tokens: Some(n),
                dead: logged_dead,
            }) => {
                let dead_n = logged_dead.unwrap_or(dead.len());
                writeln!(
                    f,
                    "3. {:<LABEL_WIDTH$}{answer}: {} of {} can match{rules} (from the log)",
                    "match rules?",
                    n.saturating_sub(dead_n),
                    count(n, "token")
                )?;
            }
            Some(_) => writeln!(
                f,
                "3. {:<LABEL_WIDTH$}unknown: the log names neither the query nor its token counts",
                "match rules?"
            )?,
            None if tokens.is_empty() => writeln!(
                f,
                "3. {:<LABEL_WIDTH$}NO: the query is blank",
                "match rules?"
            )?,
            None => writeln!(
                f,
                "3. {:<LABEL_WIDTH$}{answer}: {} of {} can match{rules}",
                "match rules?",
                tokens.len() - dead.len(),
                count(tokens.len(), "token")
            )?,
        }
        for token in dead {
            if let Some(reason) = token.dead {
                writeln!(f, "{pad}dead: {:?}: {reason}", token.token)?;
            }
        }
        Ok(())
    }

    fn fmt_indexed_text(&self, f: &mut fmt::Formatter<'_>, pad: &str) -> fmt::Result {
        let IndexedText {
            events,
            events_without_text,
            content,
        } = &self.indexed_text;
        if self.written.known && self.right_key.sessions == 0 {
            return writeln!(f, "4. {:<LABEL_WIDTH$}not reached", "indexed text?");
        }
        if !self.written.known && *events == 0 {
            return writeln!(
                f,
                "4. {:<LABEL_WIDTH$}not known: no session is stored under this key (the searching conversation left out)",
                "indexed text?"
            );
        }
        let Some(content) = content else {
            let conclusion = self.conclusion();
            let answer = if conclusion == Conclusion::NotIndexedAndCannotMatch
                || events == events_without_text
            {
                "NO"
            } else if conclusion == Conclusion::PerhapsNotIndexed {
                "not settled"
            } else {
                "yes"
            };
            writeln!(
                f,
                "4. {:<LABEL_WIDTH$}{answer}: {} of {} under this key carry no text; facts only in them can never be found",
                "indexed text?",
                events_without_text,
                count(*events, "event")
            )?;
            if self.hits == Some(0) && *events_without_text > 0 {
                writeln!(
                    f,
                    "{pad}from counts only: diagnose the sessions themselves to see where the query's words are"
                )?;
            }
            return Ok(());
        };
        let unindexed = content.tokens.iter().any(TokenFinding::only_unindexed);
        let answer = if unindexed || events == events_without_text {
            "NO"
        } else {
            "yes"
        };
        let summary = if unindexed {
            "some of the query's words are stored only where the index does not read"
        } else if content.tokens.iter().any(|t| !t.places.is_empty()) {
            "the query's words that are stored are in indexed text"
        } else {
            "none of the query's words is stored under this key"
        };
        writeln!(
            f,
            "4. {:<LABEL_WIDTH$}{answer}: {summary} ({} of {} carry no text)",
            "indexed text?",
            events_without_text,
            count(*events, "event")
        )?;
        if !self.written.known {
            writeln!(
                f,
                "{pad}(from the sessions stored under this key, the searching conversation left out)"
            )?;
        }
        for token in &content.tokens {
            if token.places.is_empty() {
                writeln!(f, "{pad}{:?}: not stored under this key", token.token)?;
                continue;
            }
            for place in &token.places {
                let mut at = format!("session {:?}", place.session);
                if let Some(event) = &place.event {
                    at.push_str(&format!(", event {event:?}"));
                }
                if let Some(name) = &place.name {
                    let label = match place.kind {
                        PlaceKind::State => "key",
                        PlaceKind::InlineData => "MIME type",
                        _ => "tool",
                    };
                    at.push_str(&format!(", {label} {name:?}"));
                }
                let read = if place.indexed {
                    "indexed"
                } else {
                    "not indexed"
                };
                write!(
                    f,
                    "{pad}{:?}: in {} ({at}): {read}",
                    token.token, place.kind
                )?;
                if let Some(excerpt) = &place.excerpt {
                    write!(f, ": {excerpt:?}")?;
                }
                writeln!(f)?;
            }
            if token.unlisted > 0 {
                writeln!(
                    f,
                    "{pad}{:?}: and in {} more {} ({} indexed)",
                    token.token,
                    token.unlisted,
                    if token.unlisted == 1 {
                        "place"
                    } else {
                        "places"
                    },
                    token.unlisted_indexed
                )?;
            }
        }
        Ok(())
    }
}

fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explain_tokens_for;
    use crate::profile::Profile;

    fn rules(query: &str, logged: Option<(Option<usize>, Option<usize>)>) -> MatchRules {
        MatchRules {
            tokens: explain_tokens_for(&Profile::reference(), query),
            logged: logged.map(|(tokens, dead)| LoggedTokens { tokens, dead }),
        }
    }

    #[test]
    fn a_query_can_match_when_one_token_is_live() {
        assert!(rules("coffee? tea", None).any_live());
        assert!(!rules("coffee? 4417", None).any_live());
        assert_eq!(rules("coffee? 4417 tea", None).dead_count(), 2);
    }

    #[test]
    fn logged_counts_decide_when_the_query_was_not_logged() {
        assert!(rules("", Some((Some(3), Some(2)))).any_live());
        assert!(!rules("", Some((Some(2), Some(2)))).any_live());
        assert!(!rules("", Some((Some(0), Some(0)))).any_live());
        assert!(rules("", Some((Some(1), None))).any_live());
        assert!(!rules("", Some((Some(0), None))).any_live());
        assert!(rules("", Some((None, Some(4)))).any_live());
        assert_eq!(rules("", Some((Some(5), Some(3)))).dead_count(), 3);
        assert_eq!(rules("coffee?", Some((Some(5), None))).dead_count(), 1);
    }

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

    use crate::inspect::content::Place;

    /// A diagnosis of a search for `query` under one key holding one session of `events`
    /// events, `events_without_text` of them without text, with `hits` logged or computed.
    fn diagnosis(
        query: &str,
        hits: Option<usize>,
        events: usize,
        events_without_text: usize,
        content: Option<Vec<TokenFinding>>,
    ) -> Diagnosis {
        Diagnosis {
            key: MemoryKey::new("support", "u-42"),
            query: Some(query.to_owned()),
            profile: "reference".to_owned(),
            hits,
            search: SearchSource::Given,
            searching_session: None,
            written: Written {
                known: true,
                keys: 1,
                sessions: 1,
                events,
            },
            right_key: RightKey {
                sessions: 1,
                near_misses: Vec::new(),
            },
            match_rules: rules(query, None),
            indexed_text: IndexedText {
                events,
                events_without_text,
                content: content.map(|tokens| ContentCheck { tokens }),
            },
        }
    }

    fn finding(token: &str, dead: bool, places: Vec<Place>) -> TokenFinding {
        TokenFinding {
            token: token.to_owned(),
            dead,
            places,
            unlisted: 0,
            unlisted_indexed: 0,
        }
    }

    fn place(kind: PlaceKind, name: Option<&str>, indexed: bool) -> Place {
        Place {
            kind,
            session: "s-1".to_owned(),
            event: Some("e-1".to_owned()),
            name: name.map(str::to_owned),
            indexed,
            excerpt: None,
        }
    }

    /// The line of check 4 in the walk-through.
    fn check_4(diagnosis: &Diagnosis) -> String {
        let text = diagnosis.to_string();
        text.lines()
            .find(|line| line.starts_with("4. "))
            .unwrap_or_else(|| panic!("no check 4 line in:\n{text}"))
            .to_owned()
    }

    #[test]
    fn live_words_stored_in_indexed_text_pass_every_check() {
        let stored = finding("tea", false, vec![place(PlaceKind::Text, None, true)]);
        let diagnosis = diagnosis("tea", Some(0), 2, 0, Some(vec![stored]));
        assert_eq!(diagnosis.conclusion(), Conclusion::ChecksPass);
        assert!(
            check_4(&diagnosis)
                .contains("yes: the query's words that are stored are in indexed text"),
            "{diagnosis}"
        );
    }

    #[test]
    fn words_stored_nowhere_under_text_free_events_have_no_indexed_text() {
        let missing = finding("tea", false, Vec::new());
        let diagnosis = diagnosis("tea", Some(0), 2, 2, Some(vec![missing]));
        assert_eq!(diagnosis.conclusion(), Conclusion::NoIndexedText);
        let line = check_4(&diagnosis);
        assert!(
            line.contains("NO: none of the query's words is stored under this key"),
            "{line}"
        );
        assert!(
            diagnosis
                .to_string()
                .contains("\"tea\": not stored under this key")
        );
    }

    #[test]
    fn words_stored_nowhere_under_text_events_pass_the_checks() {
        let missing = finding("tea", false, Vec::new());
        let diagnosis = diagnosis("tea", Some(0), 2, 0, Some(vec![missing]));
        assert_eq!(diagnosis.conclusion(), Conclusion::ChecksPass);
        assert!(check_4(&diagnosis).contains("yes: none of the query's words"));
    }

    #[test]
    fn words_only_in_unindexed_places_read_no_and_name_the_place() {
        let unindexed = finding(
            "photo",
            false,
            vec![place(PlaceKind::InlineData, Some("image/png"), false)],
        );
        let diagnosis = diagnosis("photo", Some(0), 2, 1, Some(vec![unindexed]));
        assert_eq!(diagnosis.conclusion(), Conclusion::NotIndexed);
        assert!(check_4(&diagnosis).contains("NO: some of the query's words are stored only"));
        let text = diagnosis.to_string();
        assert!(
            text.contains("\"photo\": in inline data (session \"s-1\", event \"e-1\", MIME type \"image/png\"): not indexed"),
            "{text}"
        );
        let tool = finding(
            "photo",
            false,
            vec![place(PlaceKind::FunctionCall, Some("lookup"), false)],
        );
        let text = self::diagnosis("photo", Some(0), 2, 1, Some(vec![tool])).to_string();
        assert!(text.contains("tool \"lookup\""), "{text}");
    }

    #[test]
    fn from_counts_a_missed_search_with_only_live_tokens_and_text_passes() {
        let diagnosis = diagnosis("tea", Some(0), 3, 0, None);
        assert_eq!(diagnosis.conclusion(), Conclusion::ChecksPass);
        let text = diagnosis.to_string();
        assert!(
            check_4(&diagnosis).contains("yes: 0 of 3 events under this key carry no text"),
            "{text}"
        );
        assert!(!text.contains("from counts only"), "{text}");
    }

    #[test]
    fn from_counts_text_free_events_under_a_missed_search_say_so() {
        let diagnosis = diagnosis("tea", Some(0), 3, 1, None);
        // The counts cannot say the query's words are only in the text-free events, and the
        // verdict never says more than its own check-4 line.
        assert_eq!(diagnosis.conclusion(), Conclusion::PerhapsNotIndexed);
        let text = diagnosis.to_string();
        assert!(
            check_4(&diagnosis).contains("not settled: 1 of 3 events"),
            "{text}"
        );
        assert!(text.contains("verdict: check 4 is not settled"), "{text}");
        assert!(text.contains("from counts only"), "{text}");
        // Without a hit count there was no miss to explain.
        let unknown = self::diagnosis("tea", None, 3, 1, None).to_string();
        assert!(!unknown.contains("from counts only"), "{unknown}");
    }

    #[test]
    fn from_counts_only_text_free_events_read_no() {
        let diagnosis = diagnosis("tea", Some(0), 2, 2, None);
        assert_eq!(diagnosis.conclusion(), Conclusion::NoIndexedText);
        assert!(check_4(&diagnosis).contains("NO: 2 of 2 events"));
    }

    #[test]
    fn from_counts_a_dead_token_over_text_free_events_reads_no_at_check_4() {
        let diagnosis = diagnosis("4417 order", Some(0), 3, 1, None);
        assert_eq!(diagnosis.conclusion(), Conclusion::NotIndexedAndCannotMatch);
        assert!(check_4(&diagnosis).contains("NO: 1 of 3 events"));
    }

    #[test]
    fn a_blank_query_says_so_at_check_3() {
        let text = diagnosis("", Some(0), 1, 0, None).to_string();
        assert!(text.contains("NO: the query is blank"), "{text}");
    }

    #[test]
    fn a_dead_token_only_fails_check_3_when_its_words_are_stored() {
        let live = || finding("tea", false, vec![place(PlaceKind::Text, None, true)]);
        let unstored = finding("coffee?", true, Vec::new());
        let diagnosis = diagnosis("tea coffee?", Some(0), 2, 0, Some(vec![live(), unstored]));
        assert_eq!(diagnosis.conclusion(), Conclusion::ChecksPass);
        let stored = finding("coffee?", true, vec![place(PlaceKind::Text, None, true)]);
        let diagnosis = self::diagnosis("tea coffee?", Some(0), 2, 0, Some(vec![live(), stored]));
        assert_eq!(diagnosis.conclusion(), Conclusion::QueryCannotMatch);
    }
}
