//! The gate of `VectorMemory` with all-MiniLM-L6-v2: every rule against its declared profile,
//! the expected nearest events computed with the same model, and its recall pinned in
//! `tests/snapshots/`.

memory_conformance::conformance_main!(memory_vector::minilm_gate());
