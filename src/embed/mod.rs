//! Embeddings for vector backends: the [`Embedder`] a vector backend embeds text with, and
//! [`HashedEmbedder`], the kit's deterministic one.
//!
//! With the kit's embedder the answer of a vector backend is computable: the harness embeds the
//! query and every stored event the same way, ranks them by cosine similarity and checks that
//! the backend returned the nearest ones (`docs/vector-search.md`). A backend that embeds with
//! a model of its own names it in its gate, so the ranking rules use that model; without one
//! only the contract rules apply.

mod hashed;
mod memoized;

pub use hashed::HashedEmbedder;
pub use memoized::Memoized;

/// Turns texts into vectors of one fixed length.
///
/// ```
/// use memory_conformance::embed::{Embedder, HashedEmbedder, cosine};
/// let embedder = HashedEmbedder::new(256);
/// let vectors = embedder.embed(&["a flat white, please", "Flat white!", "order 4417"]);
/// assert!(cosine(&vectors[0], &vectors[1]) > cosine(&vectors[0], &vectors[2]));
/// ```
pub trait Embedder: Send + Sync {
    /// The embedder's name, as profiles and reports name it (`hashed-256`).
    fn name(&self) -> &str;

    /// The length of every vector.
    fn dimensions(&self) -> usize;

    /// One vector per text, in order, each of [`dimensions`](Self::dimensions) values. A text
    /// with nothing to embed gives the zero vector.
    fn embed(&self, texts: &[&str]) -> Vec<Vec<f32>>;
}

/// Whether `text` holds a word: a letter or a number (Unicode general categories L and N).
/// Under vector search a text without one is not embedded (it is never a result), and a query
/// without one finds nothing, whatever the embedder: a model such as MiniLM gives even the
/// empty string a vector.
///
/// ```
/// use memory_conformance::embed::has_word;
/// assert!(has_word("4417") && has_word("東京") && !has_word(" ?! — "));
/// ```
pub fn has_word(text: &str) -> bool {
    text.chars().any(crate::profile::words::is_letter_or_number)
}

/// The cosine similarity of two vectors, computed in `f64`: their dot product over the
/// product of their lengths, 0 when either is the zero vector (or their lengths differ).
///
/// ```
/// use memory_conformance::embed::cosine;
/// assert_eq!(cosine(&[1.0, 0.0], &[1.0, 0.0]), 1.0);
/// assert_eq!(cosine(&[1.0, 0.0], &[0.0, 1.0]), 0.0);
/// assert_eq!(cosine(&[0.0, 0.0], &[1.0, 0.0]), 0.0);
/// ```
pub fn cosine(a: &[f32], b: &[f32]) -> f64 {
    if a.len() != b.len() {
        return 0.0;
    }
    let (mut dot, mut aa, mut bb) = (0.0_f64, 0.0_f64, 0.0_f64);
    for (&x, &y) in a.iter().zip(b) {
        let (x, y) = (f64::from(x), f64::from(y));
        dot += x * y;
        aa += x * x;
        bb += y * y;
    }
    if aa == 0.0 || bb == 0.0 {
        return 0.0;
    }
    dot / (aa.sqrt() * bb.sqrt())
}
