//! Check 4 on stored content: where the query's words are, and whether the index reads there.

use serde::Serialize;
use serde_json::Value;

use crate::profile::Profile;
use crate::profile::words::text_words;
use crate::profile::{ToolData, WordRule};
use crate::{Part, Session};

/// Check 4 on content: for each query token, every place under the searched key where its
/// words are stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct ContentCheck {
    /// One finding per query token that holds a word, in query order.
    pub tokens: Vec<TokenFinding>,
}

/// Where one query token's words are stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct TokenFinding {
    /// The query token, lowercased.
    pub token: String,
    /// Whether the token is dead under the profile's match rules (check 3).
    pub dead: bool,
    /// The first places its words were found, in session and event order (at most
    /// [`PLACES_LISTED`]).
    pub places: Vec<Place>,
    /// Further places its words were found, not listed.
    pub unlisted: usize,
    /// Of those, places the index reads.
    pub unlisted_indexed: usize,
}

/// Places listed at most per query token; the rest are counted.
pub const PLACES_LISTED: usize = 10;

impl TokenFinding {
    /// Whether the words are stored, but only where the index does not read.
    pub fn only_unindexed(&self) -> bool {
        !self.places.is_empty()
            && self.places.iter().all(|place| !place.indexed)
            && self.unlisted_indexed == 0
    }
}

/// One place a query token's words were found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Place {
    /// What kind of stored data holds them.
    pub kind: PlaceKind,
    /// The session.
    pub session: String,
    /// The event, unless the place is session state.
    pub event: Option<String>,
    /// The tool's name for tool data, the state key for state.
    pub name: Option<String>,
    /// Whether the profile's index reads this place.
    pub indexed: bool,
    /// The stored value that holds the words; only when content was asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub excerpt: Option<String>,
}

/// A kind of stored data.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum PlaceKind {
    /// A text part.
    Text,
    /// The arguments of a function call.
    FunctionCall,
    /// A function response.
    FunctionResponse,
    /// Inline data holding UTF-8 text.
    InlineData,
    /// A value in session state.
    State,
}

impl std::fmt::Display for PlaceKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Text => "text",
            Self::FunctionCall => "a function call",
            Self::FunctionResponse => "a function response",
            Self::InlineData => "inline data",
            Self::State => "session state",
        })
    }
}

/// How both sides are cut to find a query's words in stored data: what a person means by a
/// word (NFC Unicode letters, digits and `_`, lowercased), whatever the backend does.
const FINDING_RULE: WordRule = WordRule::UnicodeWords { script_runs: false };

/// Check 4 for `query` over `sessions`: each whitespace token's words, searched as a phrase in
/// every text part, tool call and response, inline data and state value.
pub(crate) fn check<'a>(
    profile: &Profile,
    sessions: impl Iterator<Item = &'a Session> + Clone,
    query: &str,
    dead: impl Fn(&str) -> bool,
    show_content: bool,
) -> ContentCheck {
    let tools_indexed = profile.tool_data == ToolData::Indexed;
    let mut tokens = Vec::new();
    for token in query.split(char::is_whitespace).filter(|t| !t.is_empty()) {
        let words = text_words(FINDING_RULE, token);
        if words.is_empty() {
            continue;
        }
        let token = token.to_lowercase();
        let mut places = Vec::new();
        let (mut unlisted, mut unlisted_indexed) = (0, 0);
        let mut found = |place: Place| {
            if places.len() < PLACES_LISTED {
                places.push(place);
            } else {
                unlisted += 1;
                unlisted_indexed += usize::from(place.indexed);
            }
        };
        for session in sessions.clone() {
            for event in &session.events {
                let Some(content) = &event.content else {
                    continue;
                };
                for part in &content.parts {
                    let (kind, name, texts, indexed) = match part {
                        Part::Text(text) => (PlaceKind::Text, None, vec![text.clone()], true),
                        Part::FunctionCall { name, args } => (
                            PlaceKind::FunctionCall,
                            Some(name.clone()),
                            leaves(args),
                            tools_indexed,
                        ),
                        Part::FunctionResponse { name, response } => (
                            PlaceKind::FunctionResponse,
                            Some(name.clone()),
                            leaves(response),
                            tools_indexed,
                        ),
                        Part::InlineData { mime_type, data } => match std::str::from_utf8(data) {
                            Ok(text) => (
                                PlaceKind::InlineData,
                                Some(mime_type.clone()),
                                vec![text.to_owned()],
                                false,
                            ),
                            Err(_) => continue,
                        },
                    };
                    if let Some(text) = texts.iter().find(|t| holds(t, &words)) {
                        found(Place {
                            kind,
                            session: session.id.clone(),
                            event: Some(event.id.clone()),
                            name,
                            indexed,
                            excerpt: show_content.then(|| excerpt(text)),
                        });
                    }
                }
            }
            for (key, value) in &session.state {
                if let Some(text) = leaves(value).iter().find(|t| holds(t, &words)) {
                    found(Place {
                        kind: PlaceKind::State,
                        session: session.id.clone(),
                        event: None,
                        name: Some(key.clone()),
                        indexed: false,
                        excerpt: show_content.then(|| excerpt(text)),
                    });
                }
            }
        }
        let dead = dead(&token);
        tokens.push(TokenFinding {
            token,
            dead,
            places,
            unlisted,
            unlisted_indexed,
        });
    }
    ContentCheck { tokens }
}

/// Whether `text` holds `words` consecutively.
fn holds(text: &str, words: &[String]) -> bool {
    let stored = text_words(FINDING_RULE, text);
    stored.windows(words.len()).any(|window| window == words)
}

/// Every string and number in a JSON value, as text.
fn leaves(value: &Value) -> Vec<String> {
    let mut out = Vec::new();
    collect(value, &mut out);
    out
}

fn collect(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(s) => out.push(s.clone()),
        Value::Number(n) => out.push(n.to_string()),
        Value::Array(items) => items.iter().for_each(|v| collect(v, out)),
        Value::Object(map) => map.values().for_each(|v| collect(v, out)),
        Value::Bool(_) | Value::Null => {}
    }
}

fn excerpt(text: &str) -> String {
    const MAX: usize = 120;
    if text.chars().count() <= MAX {
        text.to_owned()
    } else {
        let mut cut: String = text.chars().take(MAX).collect();
        cut.push('…');
        cut
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finding(indexed: &[bool]) -> TokenFinding {
        TokenFinding {
            token: "coffee".into(),
            dead: false,
            places: indexed
                .iter()
                .map(|&indexed| Place {
                    kind: PlaceKind::Text,
                    session: "s-1".into(),
                    event: Some("e-1".into()),
                    name: None,
                    indexed,
                    excerpt: None,
                })
                .collect(),
            unlisted: 0,
            unlisted_indexed: 0,
        }
    }

    #[test]
    fn words_are_only_unindexed_when_found_and_never_where_the_index_reads() {
        let mut beyond = finding(&[false]);
        beyond.unlisted = 3;
        assert!(beyond.only_unindexed());
        beyond.unlisted_indexed = 1;
        assert!(!beyond.only_unindexed(), "an unlisted place is indexed");
        assert!(finding(&[false]).only_unindexed());
        assert!(finding(&[false, false]).only_unindexed());
        assert!(!finding(&[]).only_unindexed(), "not found at all");
        assert!(!finding(&[true]).only_unindexed());
        assert!(!finding(&[false, true]).only_unindexed());
    }
}
