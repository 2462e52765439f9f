//! The lexical half's words: as SQLite FTS5's `unicode61 remove_diacritics 2` tokenizer cuts
//! them.

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

/// The words of `text`: diacritics removed (NFD, combining marks dropped), lowercased, cut at
/// every character that is not a letter or a number; repeats are kept.
///
/// ```
/// use memory_hybrid::words;
/// assert_eq!(words("Where's order #4417? FLAT-white, Café"), ["where", "s", "order", "4417", "flat", "white", "cafe"]);
/// ```
pub fn words(text: &str) -> Vec<String> {
    let folded: String = text
        .nfd()
        .filter(|c| !is_combining_mark(*c))
        .flat_map(char::to_lowercase)
        .collect();
    folded
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_owned)
        .collect()
}
