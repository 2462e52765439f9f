//! The gate of `VectorMemory` with the kit's deterministic embedder, declared once.

use memory_conformance::conformance::{Gate, Subject};
use memory_conformance::embed::{Embedder, HashedEmbedder};
use memory_conformance::profile::{Capabilities, Limit, Order, Profile, Retrieval, VectorSearch};

use crate::{TOP_K, VectorMemory};

/// What `VectorMemory` with [`HashedEmbedder::default`] declares: vector retrieval with the
/// kit's `hashed-256` embedder and an exact index, the nearest [`TOP_K`] first; entry ids,
/// delete by id and a search limit beyond the two calls.
///
/// ```
/// let profile = memory_vector::profile();
/// assert_eq!(profile.vector().map(|v| v.embedder.as_str()), Some("hashed-256"));
/// ```
pub fn profile() -> Profile {
    let mut profile = Profile::reference()
        .named("vector-hashed")
        .with_provenance(concat!(
            "memory-vector ",
            env!("CARGO_PKG_VERSION"),
            " with the kit's hashed-256 embedder"
        ));
    profile.retrieval = Retrieval::Vector(VectorSearch::exact(HashedEmbedder::default().name()));
    profile.limit = Limit::AtMost(TOP_K);
    profile.order = Order::Relevance;
    profile.capabilities = Capabilities::default();
    profile.capabilities.entry_ids = true;
    profile.capabilities.delete = true;
    profile.capabilities.search_limit = true;
    profile
}

/// The gate of `VectorMemory` with the kit's embedder: every rule against [`profile`], a fresh
/// store per case. `tests/conformance.rs` runs it.
///
/// ```
/// assert_eq!(memory_vector::gate().subject().backend(), "vector-hashed");
/// ```
pub fn gate() -> Gate {
    Gate::new(Subject::new("vector-hashed", profile(), || async {
        VectorMemory::new(HashedEmbedder::default())
    }))
    .describe(concat!(
        "memory-vector ",
        env!("CARGO_PKG_VERSION"),
        ", exact cosine search over the kit's hashed-256 embedder"
    ))
}
