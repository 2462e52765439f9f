//! [`HashedEmbedder`]: hashed word and trigram features, the kit's deterministic embedder.

use unicode_normalization::UnicodeNormalization;

use super::Embedder;
use crate::profile::words::is_letter_or_number;

/// The weight of a whole word's feature.
const WORD_WEIGHT: f64 = 1.0;
/// The weight of each character trigram's feature.
const TRIGRAM_WEIGHT: f64 = 0.5;

/// The kit's deterministic embedder: hashed word and character-trigram features in a fixed
/// number of dimensions, normalised to length 1. The same text gives the same vector, bit for
/// bit, on every machine and in every language that follows the algorithm (the Python and
/// JavaScript bridge helpers carry it too):
///
/// 1. The text is put in Unicode NFC, then lowercased (full Unicode lowercase).
/// 2. Its words are the maximal runs of letters and numbers (Unicode general categories L and
///    N); everything else separates.
/// 3. Each word gives the feature `w:` + the word, of weight 1, and each run of three
///    characters (code points) of `<` + the word + `>` gives the feature `t:` + those three
///    characters, of weight 1/2, so `coffee` and `coffees` share most of their features.
/// 4. A feature's 64-bit FNV-1a hash of its UTF-8 bytes picks its dimension (the hash modulo
///    the dimensions) and its sign (minus when the hash's top bit is set); its weight is added
///    there, in `f64`. The sums are exact: every weight is a multiple of 1/2.
/// 5. The vector is divided by its Euclidean length (in `f64`, correctly rounded) and each
///    value rounded to `f32`. A text without a word gives the zero vector.
///
/// Words shared between a query and a text make them similar, inflections make them somewhat
/// similar, and paraphrases without a shared word are not similar at all: it is a lexical
/// model with vector arithmetic, which is exactly what makes a vector backend's answers
/// computable in tests. For meaning, gate with a real model.
///
/// ```
/// use memory_conformance::embed::{Embedder, HashedEmbedder};
/// let embedder = HashedEmbedder::new(64);
/// assert_eq!(embedder.name(), "hashed-64");
/// let [v] = embedder.embed(&["Café au lait"]).try_into().unwrap();
/// assert_eq!(v.len(), 64);
/// let length: f32 = v.iter().map(|x| x * x).sum::<f32>().sqrt();
/// assert!((length - 1.0).abs() < 1e-6);
/// assert!(embedder.embed(&["?!"])[0].iter().all(|&x| x == 0.0));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HashedEmbedder {
    dimensions: usize,
    name: String,
}

impl HashedEmbedder {
    /// The embedder of the profiles that name it `hashed-256`.
    pub const DEFAULT_DIMENSIONS: usize = 256;

    /// An embedder into `dimensions` dimensions (at least 1).
    pub fn new(dimensions: usize) -> Self {
        let dimensions = dimensions.max(1);
        Self {
            dimensions,
            name: format!("hashed-{dimensions}"),
        }
    }

    /// The embedder a name like `hashed-256` stands for, if it is one.
    ///
    /// ```
    /// use memory_conformance::embed::HashedEmbedder;
    /// assert_eq!(HashedEmbedder::named("hashed-32"), Some(HashedEmbedder::new(32)));
    /// assert_eq!(HashedEmbedder::named("hashed-0"), None);
    /// assert_eq!(HashedEmbedder::named("minilm"), None);
    /// ```
    pub fn named(name: &str) -> Option<Self> {
        let dimensions: usize = name.strip_prefix("hashed-")?.parse().ok()?;
        (dimensions > 0 && dimensions.to_string() == name["hashed-".len()..])
            .then(|| Self::new(dimensions))
    }

    /// The vector of one text.
    pub fn embed_one(&self, text: &str) -> Vec<f32> {
        let mut sums = vec![0.0_f64; self.dimensions];
        let mut add = |feature: &str, weight: f64| {
            let hash = fnv1a(feature.as_bytes());
            let slot = (hash % self.dimensions as u64) as usize;
            sums[slot] += if hash >> 63 == 1 { -weight } else { weight };
        };
        let text: String = text.nfc().collect::<String>().to_lowercase();
        let mut feature = String::new();
        for word in text
            .split(|c: char| !is_letter_or_number(c))
            .filter(|w| !w.is_empty())
        {
            feature.clear();
            feature.push_str("w:");
            feature.push_str(word);
            add(&feature, WORD_WEIGHT);
            let padded: Vec<char> = std::iter::once('<')
                .chain(word.chars())
                .chain(std::iter::once('>'))
                .collect();
            for trigram in padded.windows(3) {
                feature.clear();
                feature.push_str("t:");
                feature.extend(trigram);
                add(&feature, TRIGRAM_WEIGHT);
            }
        }
        let length = sums.iter().map(|x| x * x).sum::<f64>().sqrt();
        if length == 0.0 {
            return vec![0.0; self.dimensions];
        }
        sums.iter().map(|x| (x / length) as f32).collect()
    }
}

impl Default for HashedEmbedder {
    fn default() -> Self {
        Self::new(Self::DEFAULT_DIMENSIONS)
    }
}

impl Embedder for HashedEmbedder {
    fn name(&self) -> &str {
        &self.name
    }

    fn dimensions(&self) -> usize {
        self.dimensions
    }

    fn embed(&self, texts: &[&str]) -> Vec<Vec<f32>> {
        texts.iter().map(|text| self.embed_one(text)).collect()
    }
}

/// 64-bit FNV-1a.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &byte in bytes {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::embed::cosine;

    #[test]
    fn fnv1a_is_the_published_function() {
        // The FNV reference test vectors.
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn vectors_are_pinned_so_every_language_can_check_its_port() {
        // The Python and JavaScript ports in the bridge helpers are compared with these
        // vectors, and many more, bit for bit by bridges/tests/hashed_embedder.rs.
        let pinned = |text: &str, dimensions: usize| -> String {
            let v = HashedEmbedder::new(dimensions).embed_one(text);
            let values: Vec<String> = v.iter().map(|x| format!("{x:.8}")).collect();
            values.join(" ")
        };
        assert_eq!(
            pinned("Coffee?", 16),
            "0.00000000 0.00000000 -0.50000000 0.00000000 0.00000000 0.00000000 0.00000000 \
             0.50000000 -0.50000000 -0.50000000 0.00000000 0.00000000 0.00000000 0.00000000 \
             0.00000000 0.00000000"
        );
        assert_eq!(
            pinned(
                "My favourite café is Zürich-based; order #4417 shipped 東京!",
                32
            ),
            "0.00000000 0.00000000 0.22941573 0.00000000 0.11470786 0.00000000 0.00000000 \
             0.22941573 0.11470786 0.22941573 0.34412360 0.22941573 0.00000000 0.11470786 \
             0.11470786 0.45883146 -0.11470786 0.00000000 -0.11470786 0.22941573 0.00000000 \
             0.22941573 0.11470786 0.11470786 -0.11470786 0.22941573 0.34412360 0.00000000 \
             0.22941573 0.00000000 0.00000000 0.11470786"
        );
    }

    #[test]
    fn words_are_letters_and_numbers_after_nfc_and_lowercase() {
        let e = HashedEmbedder::new(256);
        // NFD and NFC spell the same word; case and punctuation do not count.
        assert_eq!(e.embed_one("cafe\u{301}"), e.embed_one("CAFÉ!"));
        assert_eq!(e.embed_one("flat-white"), e.embed_one("flat white"));
        assert_eq!(e.embed_one("order 4417"), e.embed_one("Order: 4417."));
        assert_ne!(e.embed_one("order 4417"), e.embed_one("order 4418"));
        // `_` is no letter or number, so it separates.
        assert_eq!(e.embed_one("flat_white"), e.embed_one("flat white"));
        assert!(e.embed_one("").iter().all(|&x| x == 0.0));
        assert!(e.embed_one(" \t?! — ").iter().all(|&x| x == 0.0));
    }

    #[test]
    fn shared_words_weigh_more_than_shared_trigrams() {
        let e = HashedEmbedder::new(256);
        let query = e.embed_one("coffee");
        let exact = cosine(&query, &e.embed_one("I like coffee"));
        let inflected = cosine(&query, &e.embed_one("I like coffees"));
        let unrelated = cosine(&query, &e.embed_one("I like tea"));
        assert!(exact > inflected, "{exact} {inflected}");
        assert!(inflected > unrelated + 0.15, "{inflected} {unrelated}");
        assert!((cosine(&query, &query) - 1.0).abs() < 1e-9);
    }

    #[test]
    fn any_text_embeds_without_panicking_into_unit_or_zero_vectors() {
        let e = HashedEmbedder::new(7);
        for text in [
            "\0",
            "🦀🦀",
            "İstanbul",
            "ǅ",
            "\u{301}",
            &"x".repeat(1 << 20),
            "東京",
        ] {
            let v = e.embed_one(text);
            assert_eq!(v.len(), 7);
            let length: f64 = v.iter().map(|&x| f64::from(x).powi(2)).sum::<f64>().sqrt();
            assert!(
                length == 0.0 || (length - 1.0).abs() < 1e-6,
                "{text:?}: {length}"
            );
        }
        assert_eq!(HashedEmbedder::new(0).dimensions(), 1);
    }
}
