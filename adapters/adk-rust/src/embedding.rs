//! [`KitEmbeddingProvider`]: a memory-conformance [`Embedder`] as adk-memory's
//! `EmbeddingProvider`.

use adk_memory::EmbeddingProvider;
use memory_conformance::async_trait;
use memory_conformance::embed::Embedder;

/// A memory-conformance [`Embedder`] (the kit's deterministic
/// [`HashedEmbedder`](memory_conformance::embed::HashedEmbedder), or any other) as the
/// `adk_memory::EmbeddingProvider` a `PostgresMemoryService` embeds with, so the rules embed
/// exactly as the backend does and can compute the nearest events.
///
/// `embed` gives one vector per text, in order, each of `dimensions()` values, and never
/// fails; a text without a word (adk-memory embeds an entry without text as `" "`) is the
/// zero vector.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// use adk_memory::EmbeddingProvider;
/// use memory_conformance::embed::HashedEmbedder;
/// use memory_conformance_adk_rust::KitEmbeddingProvider;
///
/// let provider = KitEmbeddingProvider::new(HashedEmbedder::default());
/// let vectors = provider.embed(&["flat white".into(), " ".into()]).await.unwrap();
/// assert_eq!((provider.dimensions(), vectors.len()), (256, 2));
/// assert!(vectors[1].iter().all(|x| *x == 0.0));
/// # }
/// ```
#[derive(Clone, Debug, Default)]
pub struct KitEmbeddingProvider<E> {
    embedder: E,
}

impl<E: Embedder> KitEmbeddingProvider<E> {
    /// `embedder` as an `EmbeddingProvider`.
    pub fn new(embedder: E) -> Self {
        Self { embedder }
    }

    /// The wrapped embedder.
    pub fn embedder(&self) -> &E {
        &self.embedder
    }
}

#[async_trait]
impl<E: Embedder> EmbeddingProvider for KitEmbeddingProvider<E> {
    async fn embed(&self, texts: &[String]) -> adk_core::Result<Vec<Vec<f32>>> {
        let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
        Ok(self.embedder.embed(&texts))
    }

    fn dimensions(&self) -> usize {
        self.embedder.dimensions()
    }
}
