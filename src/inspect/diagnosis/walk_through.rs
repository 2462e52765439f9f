//! A diagnosis as a debugging walk-through: the searched key and query, then each check's
//! answer and the verdict.

use std::fmt;

use super::conclusion::Conclusion;
use super::{Diagnosis, IndexedText, LoggedTokens, Written};
use crate::TokenExplanation;
use crate::inspect::content::{PlaceKind, TokenFinding};

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

        if self.no_search_made {
            writeln!(
                f,
                "   no such search was made: the log holds no memory search at all (the model never called load_memory); the checks say what this one would meet"
            )?;
        }
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
