//! Whether a backend stems the words it matches: none (the contract), or Snowball English.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

/// Whether a lexical backend reduces each word to its stem before it matches, so that
/// "brewing" finds "I brewed".
///
/// Under [`Stemming::English`], every word of stored text and every word of a query is
/// stemmed after the word rule, the case mapping and the dropped words (a stop word is
/// recognised as written, before stemming; a term too short to be asked is counted before it
/// too), and a query term matches a stored word when their stems are equal; a phrase (and a
/// word run) matches where the stored words, each compared by its stem, follow each other as
/// the phrase's do. A substring (`query_terms = substrings`, and a non-ASCII word's substring
/// under ADK Python's rule) is matched unstemmed, in the text as stored.
///
/// The stemmer is Snowball's English algorithm (Porter2), as PostgreSQL's `english` text
/// search configuration, Elasticsearch's and Tantivy's English analysers and Snowball
/// pipelines for BM25 have it. SQLite FTS5's `porter` tokenizer runs the original Porter
/// algorithm, another stemmer: on the kit's generated words (every form of every family of
/// the lexicon, and the words of its questions) the two relate the same forms, but for two
/// kinds of word. Porter turns a final `y` into `i` only where the letters before it hold a
/// vowel, and Porter2 after any consonant but the word's first letter, with `dying` and `lying` as exceptions (`die`,
/// `lie`) and `ies` after one letter taken to `ie`: so Porter2 joins `fly`, `flies` and
/// `flying` (`fli`), `try`, `tries`, `tried` and `trying` (`tri`), `die`, `dies`, `died` and
/// `dying` (`die`), and `lie`, `lies` and `lying` (`lie`), which Porter keeps apart (`fly` and
/// `fli`; `try` and `tri`; `die`, `di` and `dy`); and Porter2 takes `-ly` off (`quickly`,
/// `badly`, `warmly`, `coldly`, `manly`), where Porter keeps it (`quickli`). A backend on
/// FTS5's `porter` fails `english` on those words.
///
/// The stemmer is built with the kit's `stemming` feature, which its `harness` feature (on by
/// default) turns on; without it, a profile file that declares `stemming = "english"` is
/// refused, and diagnosis computes no expected number of entries under it.
///
/// ```
/// use memory_conformance::profile::Stemming;
/// assert_eq!(Stemming::English.stem("brewing"), "brew");
/// assert_eq!(Stemming::English.stem("brewed"), "brew");
/// assert_eq!(Stemming::None.stem("brewing"), "brewing");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Stemming {
    /// No stemming: a query word matches only an equal stored word (the contract).
    #[default]
    None,
    /// Snowball English (Porter2): a query word matches a stored word with the same stem.
    English,
}

impl Stemming {
    /// `word` (as the word rules give it, lowercased) reduced to its stem under this value:
    /// what a backend declaring it indexes and looks up.
    ///
    /// # Panics
    ///
    /// Under [`Stemming::English`] in a build without the kit's `stemming` feature.
    pub fn stem(self, word: &str) -> Cow<'_, str> {
        match self {
            Self::None => Cow::Borrowed(word),
            Self::English => english(word),
        }
    }

    /// Whether this build can stem as the value says (the `stemming` feature is on, or the
    /// value stems nothing).
    pub(crate) fn is_built(self) -> bool {
        self == Self::None || cfg!(feature = "stemming")
    }
}

#[cfg(feature = "stemming")]
fn english(word: &str) -> Cow<'_, str> {
    rust_stemmers::Stemmer::create(rust_stemmers::Algorithm::English).stem(word)
}

#[cfg(not(feature = "stemming"))]
fn english(_: &str) -> Cow<'_, str> {
    panic!(
        "`stemming = \"english\"` needs the kit's `stemming` feature (in its default `harness` \
         feature)"
    )
}

#[cfg(all(test, feature = "stemming"))]
mod tests {
    use super::Stemming;

    #[test]
    fn english_stems_regular_inflections_together_and_leaves_irregular_forms() {
        let stem = |word| Stemming::English.stem(word).into_owned();
        for family in [
            ["brew", "brews", "brewing", "brewed"],
            ["bake", "bakes", "baking", "baked"],
            ["run", "runs", "running", "run"],
        ] {
            assert!(
                family.iter().all(|w| stem(w) == stem(family[0])),
                "{family:?}"
            );
        }
        assert_ne!(stem("ran"), stem("run"));
        assert_ne!(stem("went"), stem("go"));
        // A word that is no English word is stemmed all the same, by its letters.
        assert_eq!(stem("café"), "café");
        assert_eq!(stem("4417"), "4417");
    }
}
