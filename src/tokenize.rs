//! The reference backend's two tokenisation rules, shared by the backend, [`explain`](crate::explain),
//! the inspecting decorator and the harness, so that all of them agree by construction.
//!
//! - **Query rule** ([`query_tokens`]): lowercase (Unicode's full case mapping,
//!   [`CaseMapping::Full`](crate::profile::CaseMapping::Full); a backend that lowercases code
//!   point by code point declares `case_mapping = simple`, see
//!   [`CaseMapping::lowercase`](crate::profile::CaseMapping::lowercase)), split on runs of ASCII
//!   whitespace (space, `\t`, `\n`, `\x0B`, `\f`, `\r`, as Java's `\s`), drop empty tokens.
//!   Punctuation stays attached: `coffee?` is one token.
//! - **Event rule** ([`event_words`]): every run of `[A-Za-z]+` in a text part, ASCII-lowercased.
//!   Digits, `_`, accented and non-Latin letters separate words.
//!
//! A query token matches an event when it equals one of the event's words, so a token that is
//! not made only of ASCII letters can never match ([`can_match`]).
//!
//! ```
//! use memory_conformance::tokenize::{can_match, event_words, query_tokens};
//! assert_eq!(query_tokens("Where's order 4417?"), ["where's", "order", "4417?"]);
//! assert_eq!(event_words("Order 4417 shipped, café flat-white").collect::<Vec<_>>(),
//!            ["order", "shipped", "caf", "flat", "white"]);
//! assert!(can_match("order") && !can_match("where's"));
//! ```

/// Whether `c` separates query tokens: the six ASCII whitespace characters of Java's `\s`.
///
/// Unlike [`char::is_ascii_whitespace`], this includes the vertical tab `\x0B`. Unicode spaces
/// such as U+00A0 do not separate tokens.
pub fn is_query_separator(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\u{0B}' | '\u{0C}' | '\r')
}

/// The query's tokens under the query rule: lowercased, split on ASCII whitespace, non-empty.
pub fn query_tokens(query: &str) -> Vec<String> {
    query
        .to_lowercase()
        .split(is_query_separator)
        .filter(|token| !token.is_empty())
        .map(str::to_owned)
        .collect()
}

/// The query's tokens before lowercasing, without allocating. Splitting first and lowercasing
/// each token gives the same tokens as [`query_tokens`]: no character lowercases to whitespace.
pub(crate) fn raw_query_tokens(query: &str) -> impl Iterator<Item = &str> {
    query
        .split(is_query_separator)
        .filter(|token| !token.is_empty())
}

/// [`can_match`] for a token of [`raw_query_tokens`], lowercasing only when it is not ASCII.
pub(crate) fn raw_token_can_match(token: &str) -> bool {
    if token.is_ascii() {
        can_match(token)
    } else {
        can_match(&token.to_lowercase())
    }
}

/// The words of one text under the event rule: each run of ASCII letters, lowercased.
pub fn event_words(text: &str) -> impl Iterator<Item = String> + '_ {
    raw_event_words(text).map(str::to_ascii_lowercase)
}

/// The words of one text under the event rule before lowercasing, without allocating: each
/// run of ASCII letters as written. A byte of a multi-byte UTF-8 character is never an ASCII
/// letter, so scanning bytes finds the same runs as scanning characters.
pub(crate) fn raw_event_words(text: &str) -> impl Iterator<Item = &str> {
    let bytes = text.as_bytes();
    let mut at = 0;
    std::iter::from_fn(move || {
        while at < bytes.len() && !bytes[at].is_ascii_alphabetic() {
            at += 1;
        }
        if at == bytes.len() {
            return None;
        }
        let start = at;
        while at < bytes.len() && bytes[at].is_ascii_alphabetic() {
            at += 1;
        }
        Some(&text[start..at])
    })
}

/// Whether a query token (as produced by [`query_tokens`]) can ever equal an event word:
/// it must be non-empty and made only of ASCII letters.
pub fn can_match(token: &str) -> bool {
    !token.is_empty() && token.bytes().all(|b| b.is_ascii_alphabetic())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_split_on_the_six_ascii_spaces_only_and_keep_punctuation() {
        for c in [' ', '\t', '\n', '\u{0B}', '\u{0C}', '\r'] {
            assert!(is_query_separator(c), "{c:?}");
        }
        for c in ['a', '\u{A0}', '\u{85}', '\u{3000}', '_', '-'] {
            assert!(!is_query_separator(c), "{c:?}");
        }
        let query = " Coffee?\t\x0BTEA\u{A0}x  Ünïcode ";
        assert_eq!(query_tokens(query), ["coffee?", "tea\u{a0}x", "ünïcode"]);
        assert_eq!(
            raw_query_tokens(query).collect::<Vec<_>>(),
            ["Coffee?", "TEA\u{a0}x", "Ünïcode"]
        );
        assert!(query_tokens(" \t\r\n").is_empty());
        assert_eq!(raw_query_tokens(" \t\r\n").count(), 0);
    }

    #[test]
    fn events_hold_runs_of_ascii_letters_and_only_those_tokens_can_match() {
        assert_eq!(
            event_words("Order 4417: flat_white, CAFÉ!").collect::<Vec<_>>(),
            ["order", "flat", "white", "caf"]
        );
        assert_eq!(event_words("4417 _ é").count(), 0);
        assert!(can_match("coffee"));
        assert!(!can_match(""));
        assert!(!can_match("coffee?"));
        assert!(!can_match("4417"));
        assert!(!can_match("café"));
        assert!(raw_token_can_match("Coffee"));
        assert!(raw_token_can_match("COFFEE"));
        assert!(!raw_token_can_match("Coffee?"));
        assert!(!raw_token_can_match("CAFÉ"));
        // The Kelvin sign lowercases to an ASCII `k`.
        assert!(raw_token_can_match("\u{212A}ey"));
    }
}
