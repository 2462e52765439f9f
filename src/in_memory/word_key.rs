//! A word of the reference's index as a hash map key, held inline when it is short so that
//! interning a new word does not allocate.

use std::borrow::Borrow;
use std::hash::{Hash, Hasher};

/// The longest word held inline, in bytes.
const INLINE: usize = 22;

/// A word; hashes and compares as its bytes, so a map keyed by it is searched with
/// `word.as_bytes()` (without checking UTF-8 on every comparison).
#[derive(Clone, Debug)]
pub(super) enum WordKey {
    Inline { len: u8, bytes: [u8; INLINE] },
    Heap(Box<str>),
}

impl WordKey {
    pub(super) fn new(word: &str) -> Self {
        match u8::try_from(word.len()) {
            Ok(len) if word.len() <= INLINE => {
                let mut bytes = [0; INLINE];
                bytes[..word.len()].copy_from_slice(word.as_bytes());
                Self::Inline { len, bytes }
            }
            _ => Self::Heap(word.into()),
        }
    }

    pub(super) fn as_bytes(&self) -> &[u8] {
        match self {
            Self::Inline { len, bytes } => &bytes[..usize::from(*len)],
            Self::Heap(word) => word.as_bytes(),
        }
    }
}

impl Borrow<[u8]> for WordKey {
    fn borrow(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl Hash for WordKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_bytes().hash(state);
    }
}

impl PartialEq for WordKey {
    fn eq(&self, other: &Self) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl Eq for WordKey {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_and_long_words_are_found_by_their_bytes() {
        let long = "x".repeat(INLINE + 1);
        let mut map = foldhash::HashMap::default();
        for word in ["", "a", "coffee", &"y".repeat(INLINE), &long] {
            map.insert(WordKey::new(word), word.len());
        }
        assert!(matches!(WordKey::new("coffee"), WordKey::Inline { .. }));
        assert!(matches!(WordKey::new(&long), WordKey::Heap(_)));
        for word in ["", "a", "coffee", &"y".repeat(INLINE), &long] {
            assert_eq!(map.get(word.as_bytes()), Some(&word.len()), "{word}");
            assert_eq!(WordKey::new(word).as_bytes(), word.as_bytes());
        }
        assert_eq!(map.get(b"coffe".as_slice()), None);
    }
}
