use std::fmt;

use serde::Serialize;

use crate::tokenize::{can_match, query_tokens};

/// The query tokens that can never match the reference index ("dead" tokens), in query order.
///
/// ```
/// assert_eq!(memory_conformance::explain("coffee preference?"), ["preference?"]);
/// assert!(memory_conformance::explain("Coffee").is_empty());
/// ```
pub fn explain(query: &str) -> Vec<String> {
    query_tokens(query)
        .into_iter()
        .filter(|token| !can_match(token))
        .collect()
}

/// Each token of `query` with whether it can match the reference index and, if not, why.
///
/// ```
/// use memory_conformance::{explain_tokens, DeadReason};
/// let tokens = explain_tokens("order 4417?");
/// assert!(tokens[0].dead.is_none());
/// assert_eq!(tokens[1].dead, Some(DeadReason::Digit('4')));
/// ```
pub fn explain_tokens(query: &str) -> Vec<TokenExplanation> {
    query_tokens(query)
        .into_iter()
        .map(|token| {
            let dead = token
                .chars()
                .find(|c| !c.is_ascii_alphabetic())
                .map(DeadReason::for_char);
            TokenExplanation { token, dead }
        })
        .collect()
}

/// One query token and, when it is dead, the first character that kills it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct TokenExplanation {
    /// The token, lowercased as the query rule does.
    pub token: String,
    /// Why it can never match; `None` when it can.
    pub dead: Option<DeadReason>,
}

/// Why a query token can never equal a word of the reference index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub enum DeadReason {
    /// Punctuation or a symbol stays on the query token but separates stored words.
    Punctuation(char),
    /// Digits separate stored words; numbers are never indexed.
    Digit(char),
    /// Only ASCII letters form stored words; accented and non-Latin letters separate them.
    NonAsciiLetter(char),
    /// A Unicode space (such as U+00A0) does not split the query but separates stored words.
    UnicodeSpace(char),
    /// Any other character (emoji, control characters) separates stored words.
    Other(char),
}

impl DeadReason {
    fn for_char(c: char) -> Self {
        if c.is_numeric() {
            Self::Digit(c)
        } else if c.is_alphabetic() {
            Self::NonAsciiLetter(c)
        } else if c.is_whitespace() {
            Self::UnicodeSpace(c)
        } else if c.is_ascii_punctuation() || is_unicode_punctuation(c) {
            Self::Punctuation(c)
        } else {
            Self::Other(c)
        }
    }
}

fn is_unicode_punctuation(c: char) -> bool {
    matches!(c, '\u{2010}'..='\u{2027}' | '\u{2030}'..='\u{205E}' | '\u{00A1}'..='\u{00BF}' | '\u{3000}'..='\u{303F}')
}

impl fmt::Display for DeadReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let quoted = |c: &char| format!("{:?}", c.to_string());
        match self {
            Self::Punctuation(c) => write!(
                f,
                "{} stays on the query token but separates stored words",
                quoted(c)
            ),
            Self::Digit(c) => write!(f, "{} is a digit; digits are never stored words", quoted(c)),
            Self::NonAsciiLetter(c) => {
                write!(
                    f,
                    "{} is not an ASCII letter; only A-Z and a-z form stored words",
                    quoted(c)
                )
            }
            Self::UnicodeSpace(c) => write!(
                f,
                "{} does not split the query (only ASCII whitespace does) but separates stored words",
                quoted(c)
            ),
            Self::Other(c) => write!(
                f,
                "{} separates stored words; only A-Z and a-z form them",
                quoted(c)
            ),
        }
    }
}
