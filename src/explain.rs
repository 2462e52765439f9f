use std::fmt;

use serde::Serialize;

use crate::profile::Profile;
use crate::profile::words::text_words_in;
use crate::profile::{QueryTerms, WordRule};

/// The query tokens that can never match the reference index ("dead" tokens), in query order.
///
/// ```
/// assert_eq!(memory_conformance::explain("coffee preference?"), ["preference?"]);
/// assert!(memory_conformance::explain("Coffee").is_empty());
/// ```
pub fn explain(query: &str) -> Vec<String> {
    crate::tokenize::query_tokens(query)
        .into_iter()
        .filter(|token| !crate::tokenize::can_match(token))
        .collect()
}

/// The query tokens that can never match a backend that behaves as `profile` says, in query
/// order.
///
/// ```
/// use memory_conformance::explain_for;
/// use memory_conformance::profile::Profile;
/// assert_eq!(explain_for(&Profile::reference(), "coffee?"), ["coffee?"]);
/// assert!(explain_for(&Profile::adk_python(), "coffee?").is_empty());
/// ```
pub fn explain_for(profile: &Profile, query: &str) -> Vec<String> {
    explain_tokens_for(profile, query)
        .into_iter()
        .filter(|token| token.dead.is_some())
        .map(|token| token.token)
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
    explain_tokens_for(&Profile::reference(), query)
}

/// Each token of `query` under `profile`'s query and word rules: the terms it searches for,
/// and, when it can never match, why.
///
/// A token is dead when the backend would search for it but no stored word can ever equal it
/// (the reference keeps `?` on `coffee?` but its stored words are letters only), or when the
/// backend drops it because it holds no word (`?` alone under ADK Python's `\w+`), or because
/// the profile's `dropped_words` drop it (a stop word, a term too short to be asked).
///
/// ```
/// use memory_conformance::{DeadReason, explain_tokens_for};
/// use memory_conformance::profile::Profile;
/// let python = explain_tokens_for(&Profile::adk_python(), "coffee? ?");
/// assert_eq!(python[0].terms, ["coffee"]);
/// assert_eq!(python[1].dead, Some(DeadReason::NoWord));
/// let reference = explain_tokens_for(&Profile::reference(), "coffee?");
/// assert_eq!(reference[0].dead, Some(DeadReason::Punctuation('?')));
/// ```
pub fn explain_tokens_for(profile: &Profile, query: &str) -> Vec<TokenExplanation> {
    // Stemming makes no token dead nor alive: where this build has no stemmer, the terms are
    // shown unstemmed.
    if !profile.stemming.is_built() {
        let mut unstemmed = profile.clone();
        unstemmed.stemming = crate::profile::Stemming::None;
        return explain_tokens_for(&unstemmed, query);
    }
    let tokens = cut_for(profile, query);
    if profile.dropped_words.is_none() {
        return tokens;
    }
    tokens
        .into_iter()
        .map(|token| without_dropped(profile, token))
        .collect()
}

/// `token` without the terms `profile` drops (stop words, terms too short to be asked), dead
/// when none is left.
fn without_dropped(profile: &Profile, mut token: TokenExplanation) -> TokenExplanation {
    let dropped = &profile.dropped_words;
    if token.dead.is_some() {
        return token;
    }
    // Where the query is split on separators the token is the term, and its length counts.
    let split = matches!(
        profile.query_terms,
        QueryTerms::Tokens { .. } | QueryTerms::Substrings { .. } | QueryTerms::Phrases { .. }
    );
    if let (true, Some(n)) = (split, dropped.shorter_than)
        && dropped.is_too_short(&token.token)
    {
        return TokenExplanation::dead(&token.token, DeadReason::ShortTerm(n));
    }
    let mut short = None;
    token.terms = token
        .terms
        .into_iter()
        .filter_map(|term| {
            if !split && dropped.is_too_short(&term) {
                short = dropped.shorter_than;
                return None;
            }
            let kept: Vec<&str> = term
                .split(' ')
                .filter(|word| !dropped.is_stop_word(word))
                .collect();
            (!kept.is_empty()).then(|| kept.join(" "))
        })
        .collect();
    if token.terms.is_empty() {
        let reason = short.map_or(DeadReason::StopWord, DeadReason::ShortTerm);
        return TokenExplanation::dead(&token.token, reason);
    }
    token
}

/// Each token of `query` under `profile`'s query and word rules, before any word is dropped.
fn cut_for(profile: &Profile, query: &str) -> Vec<TokenExplanation> {
    let case = profile.case_mapping;
    match profile.query_terms {
        QueryTerms::Tokens { separators } => case
            .lowercase(query)
            .split(|c| separators.contains(c))
            .filter(|token| !token.is_empty())
            .map(|token| {
                let words = text_words_in(profile.event_words, case, token);
                if words.len() == 1 && words[0] == token {
                    TokenExplanation::live(token, vec![token.to_owned()])
                } else {
                    let dead = match profile.event_words {
                        WordRule::AsciiLetters => token
                            .chars()
                            .find(|c| !c.is_ascii_alphabetic())
                            .map_or(DeadReason::NeverAWord, DeadReason::for_char),
                        _ => DeadReason::NeverAWord,
                    };
                    TokenExplanation::dead(token, dead)
                }
            })
            .collect(),
        QueryTerms::Words { .. } => {
            let rule = match profile.event_words {
                WordRule::UnicodeWords { .. } => WordRule::UnicodeWords { script_runs: false },
                other => other,
            };
            query
                .split(char::is_whitespace)
                .filter(|token| !token.is_empty())
                .map(|token| {
                    let words = text_words_in(rule, case, token);
                    let shown = case.lowercase(token);
                    if words.is_empty() {
                        TokenExplanation::dead(&shown, DeadReason::NoWord)
                    } else {
                        TokenExplanation::live(&shown, words)
                    }
                })
                .collect()
        }
        QueryTerms::Phrases { separators } => query
            .split(|c| separators.contains(c))
            .filter(|token| !token.is_empty())
            .map(|token| {
                let operator = matches!(token, "AND" | "OR" | "NOT" | "NEAR");
                let words = if operator || !token.chars().any(char::is_alphanumeric) {
                    Vec::new()
                } else {
                    text_words_in(profile.event_words, case, token)
                };
                if words.is_empty() {
                    TokenExplanation::dead(token, DeadReason::NoWord)
                } else {
                    TokenExplanation::live(token, vec![words.join(" ")])
                }
            })
            .collect(),
        QueryTerms::WordRuns => query
            .split(char::is_whitespace)
            .filter(|token| !token.is_empty())
            .map(|token| {
                let phrases: Vec<String> = crate::profile::words::query_terms(profile, token)
                    .into_iter()
                    .map(|term| term.words.join(" "))
                    .collect();
                let shown = case.lowercase(token);
                if phrases.is_empty() {
                    TokenExplanation::dead(&shown, DeadReason::NoWord)
                } else {
                    TokenExplanation::live(&shown, phrases)
                }
            })
            .collect(),
        // Every token is alive: it matches wherever the stored text holds it.
        QueryTerms::Substrings { separators } => case
            .lowercase(query)
            .split(|c| separators.contains(c))
            .filter(|token| !token.is_empty())
            .map(|token| TokenExplanation::live(token, vec![token.to_owned()]))
            .collect(),
    }
}

/// One query token and, when it is dead, the first character that kills it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct TokenExplanation {
    /// The token, lowercased as the query rule does.
    pub token: String,
    /// Why it can never match; `None` when it can.
    pub dead: Option<DeadReason>,
    /// What the backend searches for with it: the token itself, the words it is cut into, or a
    /// phrase of words joined by spaces; empty when it is dead.
    pub terms: Vec<String>,
}

impl TokenExplanation {
    fn live(token: &str, terms: Vec<String>) -> Self {
        Self {
            token: token.to_owned(),
            dead: None,
            terms,
        }
    }

    fn dead(token: &str, reason: DeadReason) -> Self {
        Self {
            token: token.to_owned(),
            dead: Some(reason),
            terms: Vec::new(),
        }
    }
}

/// Why a query token can never equal a stored word.
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
    /// The backend cuts stored text so that the token is never one whole word of it.
    NeverAWord,
    /// The token holds no word under the backend's rules, so the backend drops it.
    NoWord,
    /// The token's words are all stop words the backend drops (`dropped_words.stop_words`).
    StopWord,
    /// The token has fewer characters than the backend asks (`dropped_words.shorter_than`).
    ShortTerm(usize),
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
            Self::NeverAWord => {
                f.write_str("stored text is cut so that this token is never one whole word of it")
            }
            Self::NoWord => f.write_str("holds no word under these rules, so it is dropped"),
            Self::StopWord => f.write_str("is a stop word the backend drops, so it is not asked"),
            Self::ShortTerm(n) => write!(
                f,
                "has fewer than {n} characters, so the backend does not ask it"
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reason(token: &str) -> Option<DeadReason> {
        explain_tokens(token)[0].dead
    }

    #[test]
    fn a_dead_token_is_blamed_on_the_kind_of_its_first_character_that_is_no_ascii_letter() {
        use DeadReason::*;
        assert_eq!(reason("coffee"), None);
        assert_eq!(reason("order4417"), Some(Digit('4')));
        assert_eq!(reason("café"), Some(NonAsciiLetter('é')));
        assert_eq!(reason("a\u{A0}b"), Some(UnicodeSpace('\u{a0}')));
        assert_eq!(reason("coffee?"), Some(Punctuation('?')));
        assert_eq!(reason("$5"), Some(Punctuation('$')));
        // Unicode punctuation: inverted marks, dashes and quotes, per-mille, CJK marks.
        for c in [
            '¡', '¿', '\u{2010}', '—', '\u{2027}', '‰', '\u{205E}', '。', '\u{303F}',
        ] {
            assert_eq!(reason(&format!("a{c}")), Some(Punctuation(c)), "{c:?}");
        }
        // Symbols outside those ranges, emoji and controls are other characters.
        for c in ['€', '×', '😀', '\u{7}', '\u{2060}'] {
            assert_eq!(reason(&format!("a{c}")), Some(Other(c)), "{c:?}");
        }
    }

    fn explained(profile: &Profile, query: &str) -> Vec<(String, Option<DeadReason>, Vec<String>)> {
        explain_tokens_for(profile, query)
            .into_iter()
            .map(|t| (t.token, t.dead, t.terms))
            .collect()
    }

    fn live(token: &str, terms: &[&str]) -> (String, Option<DeadReason>, Vec<String>) {
        let terms = terms.iter().map(|t| (*t).to_owned()).collect();
        (token.to_owned(), None, terms)
    }

    fn dead(token: &str, reason: DeadReason) -> (String, Option<DeadReason>, Vec<String>) {
        (token.to_owned(), Some(reason), Vec::new())
    }

    #[test]
    fn the_reference_keeps_only_tokens_of_ascii_letters_alive() {
        use DeadReason::*;
        assert_eq!(explain("coffee preference? Tea"), ["preference?"]);
        assert!(explain("Coffee").is_empty());
        assert_eq!(
            explained(&Profile::reference(), "Coffee\tcoffee? 4417 café"),
            [
                live("coffee", &["coffee"]),
                dead("coffee?", Punctuation('?')),
                dead("4417", Digit('4')),
                dead("café", NonAsciiLetter('é')),
            ]
        );
        assert_eq!(
            explain_for(&Profile::reference(), "coffee coffee? tea"),
            ["coffee?"]
        );
    }

    #[test]
    fn a_token_rule_over_other_words_is_alive_only_when_the_token_is_one_whole_word() {
        let mut profile = Profile::reference();
        profile.event_words = WordRule::UnicodeWords { script_runs: false };
        assert_eq!(
            explained(&profile, "café coffee? flat-white"),
            [
                live("café", &["café"]),
                dead("coffee?", DeadReason::NeverAWord),
                dead("flat-white", DeadReason::NeverAWord),
            ]
        );
        assert_eq!(
            explained(&Profile::adk_go(), "Coffee? a\tb"),
            [live("coffee?", &["coffee?"]), live("a\tb", &["a\tb"])]
        );
    }

    #[test]
    fn a_word_rule_searches_for_the_words_of_each_token_and_drops_tokens_without_one() {
        let python = Profile::adk_python();
        assert_eq!(
            explained(&python, "Coffee? ?  私はPython flat-white"),
            [
                live("coffee?", &["coffee"]),
                dead("?", DeadReason::NoWord),
                // The query is cut without the text rule's script runs.
                live("私はpython", &["私はpython"]),
                live("flat-white", &["flat", "white"]),
            ]
        );
        assert_eq!(explain_for(&python, "coffee? ? !"), ["?", "!"]);
        assert_eq!(
            explained(&Profile::adk_rust_in_memory(), "咖啡x"),
            [live("咖啡x", &["咖", "啡", "咖啡", "啡x", "咖啡x"])]
        );
    }

    #[test]
    fn a_phrase_rule_searches_each_token_as_a_phrase_and_drops_operators_and_wordless_ones() {
        assert_eq!(
            explained(
                &Profile::adk_rust_sqlite(),
                "Flat-White AND ?? \u{24B6} Café and"
            ),
            [
                live("Flat-White", &["flat white"]),
                dead("AND", DeadReason::NoWord),
                dead("??", DeadReason::NoWord),
                dead("\u{24B6}", DeadReason::NoWord),
                live("Café", &["cafe"]),
                live("and", &["and"]),
            ]
        );
    }

    #[test]
    fn dropped_words_are_dead_with_the_reason_the_profile_gives() {
        let mut words = Profile::reference();
        words.query_terms = QueryTerms::Words {
            non_ascii_substring: false,
        };
        words.dropped_words =
            crate::profile::DroppedWords::stop_words(["the", "what"]).with_shorter_than(3);
        assert_eq!(
            explained(&words, "What about the-coffee v2"),
            [
                dead("what", DeadReason::StopWord),
                live("about", &["about"]),
                live("the-coffee", &["coffee"]),
                dead("v2", DeadReason::ShortTerm(3)),
            ]
        );
        let mut tokens = Profile::reference();
        tokens.dropped_words = crate::profile::DroppedWords::none().with_shorter_than(3);
        assert_eq!(
            explained(&tokens, "it tea"),
            [dead("it", DeadReason::ShortTerm(3)), live("tea", &["tea"])]
        );
    }

    #[test]
    fn each_reason_reads_as_a_sentence_naming_its_character() {
        use DeadReason::*;
        let cases = [
            (Punctuation('?'), "\"?\" stays on the query token"),
            (Digit('4'), "\"4\" is a digit"),
            (NonAsciiLetter('é'), "\"é\" is not an ASCII letter"),
            (
                UnicodeSpace('\u{a0}'),
                "\"\\u{a0}\" does not split the query",
            ),
            (Other('😀'), "\"😀\" separates stored words"),
            (NeverAWord, "never one whole word"),
            (NoWord, "holds no word"),
            (StopWord, "is a stop word"),
            (ShortTerm(3), "fewer than 3 characters"),
        ];
        for (reason, start) in cases {
            assert!(reason.to_string().contains(start), "{reason:?}: {reason}");
        }
    }
}
