//! The words a backend drops before it matches: stop words, and query terms too short to ask.

use std::collections::BTreeSet;

use serde::Serialize;

/// The words a lexical backend drops: stop words, from stored text and from queries alike, and
/// query terms shorter than a number of characters. The default drops nothing (the contract).
///
/// A stop word is never indexed nor asked: it is left out of the words of stored text (an
/// event all of whose words are stop words carries no word, as an event without a word) and
/// out of a query's terms (a phrase loses its stop words; a term left without a word goes). A
/// query term of fewer than `shorter_than` characters is not asked, stored text untouched:
/// characters are code points, counted in the token as the query writes it, before
/// lowercasing, where the query rule splits on separators (tokens, substrings, phrases), in the
/// run for word runs, and in the word for words. A query whose terms are all dropped finds
/// nothing.
///
/// ```
/// use memory_conformance::profile::DroppedWords;
/// let dropped = DroppedWords::stop_words(["the", "or"]).with_shorter_than(3);
/// assert!(dropped.is_stop_word("the"));
/// assert!(dropped.is_too_short("v2"));
/// assert!(!dropped.is_too_short("tea"));
/// assert!(!DroppedWords::default().is_too_short("a"));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct DroppedWords {
    /// Lowercase words dropped from stored text and from queries; empty when none is.
    pub stop_words: BTreeSet<String>,
    /// Query terms of fewer characters than this are dropped; `None` when none is.
    pub shorter_than: Option<usize>,
}

/// English stop words, as common stop lists have them (and as the kit's lexicon draws them):
/// the stop list the kit tries where it looks for the value a failure fits.
pub(crate) const ENGLISH_STOP_WORDS: [&str; 32] = [
    "the", "a", "an", "and", "or", "but", "of", "to", "in", "on", "at", "for", "with", "is", "are",
    "was", "were", "be", "it", "this", "that", "i", "you", "we", "they", "my", "your", "not", "no",
    "as", "by", "from",
];

impl DroppedWords {
    /// Nothing dropped: the contract.
    pub fn none() -> Self {
        Self::default()
    }

    /// These stop words dropped, each lowercase, from stored text and queries.
    pub fn stop_words<S: Into<String>>(words: impl IntoIterator<Item = S>) -> Self {
        Self {
            stop_words: words.into_iter().map(Into::into).collect(),
            shorter_than: None,
        }
    }

    /// The same, and query terms of fewer than `chars` characters dropped too.
    #[must_use]
    pub fn with_shorter_than(mut self, chars: usize) -> Self {
        self.shorter_than = Some(chars);
        self
    }

    /// Whether nothing is dropped.
    pub fn is_none(&self) -> bool {
        self.stop_words.is_empty() && self.shorter_than.is_none()
    }

    /// Whether `word` (as the word rules give it, lowercased) is a stop word.
    pub fn is_stop_word(&self, word: &str) -> bool {
        self.stop_words.contains(word)
    }

    /// Whether a query term written `term` (before lowercasing) is too short to be asked.
    pub fn is_too_short(&self, term: &str) -> bool {
        self.shorter_than.is_some_and(|n| term.chars().count() < n)
    }

    /// Why this value cannot be declared, if it cannot: an empty or not lowercase stop word,
    /// or `shorter_than` 0 (which drops nothing: leave it out).
    pub(crate) fn refusal(&self) -> Option<String> {
        if self.shorter_than == Some(0) {
            return Some(
                "`dropped_words.shorter_than`: 0 drops nothing; leave it out, or give the \
                 length (in characters) a query term needs to be asked"
                    .into(),
            );
        }
        for word in &self.stop_words {
            if word.is_empty() || word.chars().any(char::is_whitespace) {
                return Some(format!(
                    "`dropped_words.stop_words` holds {word:?}: a stop word is one word, not \
                     empty and without whitespace"
                ));
            }
            if *word != word.to_lowercase() {
                return Some(format!(
                    "`dropped_words.stop_words` holds {word:?}: stop words are written \
                     lowercase, as the word rules give words ({:?})",
                    word.to_lowercase()
                ));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::DroppedWords;

    #[test]
    fn a_term_is_too_short_by_its_code_points_as_written() {
        let dropped = DroppedWords::none().with_shorter_than(3);
        assert!(dropped.is_too_short("it"));
        assert!(dropped.is_too_short("咖啡"));
        assert!(!dropped.is_too_short("v22"));
        // `İs` is two code points as written, three once lowercased: it is dropped.
        assert!(dropped.is_too_short("İs"));
    }

    #[test]
    fn bad_values_are_refused_with_the_rule() {
        assert!(DroppedWords::none().refusal().is_none());
        let zero = DroppedWords::none().with_shorter_than(0);
        assert!(zero.refusal().unwrap().contains("0 drops nothing"));
        let upper = DroppedWords::stop_words(["The"]);
        assert!(upper.refusal().unwrap().contains("lowercase"));
        let empty = DroppedWords::stop_words([""]);
        assert!(empty.refusal().unwrap().contains("not empty"));
    }
}
