//! [`Memoized`]: an embedder that embeds each distinct text once.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

use super::Embedder;

/// `E`, remembering the vector of every text it embedded, so a text is embedded once however
/// often it is asked for. A real model under a gate meets the same generated texts again and
/// again (in the backend and in the rules' expected answers): memoized, it embeds each once.
///
/// ```
/// use memory_conformance::embed::{Embedder, HashedEmbedder, Memoized};
/// let embedder = Memoized::new(HashedEmbedder::new(8));
/// let once = embedder.embed(&["coffee", "tea", "coffee"]);
/// assert_eq!(once[0], once[2]);
/// assert_eq!(embedder.remembered(), 2);
/// ```
pub struct Memoized<E> {
    inner: E,
    vectors: Mutex<HashMap<String, Vec<f32>>>,
}

impl<E: Embedder> Memoized<E> {
    /// `inner`, memoized.
    pub fn new(inner: E) -> Self {
        Self {
            inner,
            vectors: Mutex::default(),
        }
    }

    /// How many distinct texts it has embedded.
    pub fn remembered(&self) -> usize {
        self.vectors
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }
}

impl<E: Embedder> Embedder for Memoized<E> {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn dimensions(&self) -> usize {
        self.inner.dimensions()
    }

    fn embed(&self, texts: &[&str]) -> Vec<Vec<f32>> {
        let missing: Vec<&str> = {
            let vectors = self.vectors.lock().unwrap_or_else(PoisonError::into_inner);
            let mut missing: Vec<&str> = texts
                .iter()
                .copied()
                .filter(|t| !vectors.contains_key(*t))
                .collect();
            missing.sort_unstable();
            missing.dedup();
            missing
        };
        // Embedded outside the lock: another thread may embed the same text meanwhile, and
        // both get the same vector.
        let embedded = if missing.is_empty() {
            Vec::new()
        } else {
            self.inner.embed(&missing)
        };
        let mut vectors = self.vectors.lock().unwrap_or_else(PoisonError::into_inner);
        for (text, vector) in missing.into_iter().zip(embedded) {
            vectors.insert(text.to_owned(), vector);
        }
        texts
            .iter()
            .map(|t| vectors.get(*t).cloned().unwrap_or_default())
            .collect()
    }
}

impl<E: Embedder> std::fmt::Debug for Memoized<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Memoized")
            .field("embedder", &self.inner.name())
            .field("remembered", &self.remembered())
            .finish()
    }
}
