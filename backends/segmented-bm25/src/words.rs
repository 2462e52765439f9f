//! The backend's words: NFC, then UAX #29 words, lowercased.

use unicode_normalization::UnicodeNormalization;
use unicode_segmentation::UnicodeSegmentation;

use crate::Normalisation;

/// The words of `text`: under [`Normalisation::Nfc`] the text is put in NFC first, then cut
/// into the words of Unicode word segmentation (UAX #29: the segments that hold an
/// alphanumeric character), each lowercased; repeats are kept.
///
/// ```
/// use memory_segmented_bm25::{Normalisation, words};
/// assert_eq!(words("Can't stop: 3.14 flat_white!", Normalisation::Nfc), ["can't", "stop", "3.14", "flat_white"]);
/// assert_eq!(words("cafe\u{301}", Normalisation::Nfc), ["café"]);
/// assert_eq!(words("cafe\u{301}", Normalisation::None), ["cafe\u{301}"]);
/// ```
pub fn words(text: &str, normalisation: Normalisation) -> Vec<String> {
    let normalised: String = match normalisation {
        Normalisation::Nfc => text.nfc().collect(),
        Normalisation::None => text.to_owned(),
    };
    normalised.unicode_words().map(str::to_lowercase).collect()
}
