//! The gate of `HybridMemory` with all-MiniLM-L6-v2: every rule against its declared profile,
//! and its recall pinned in `tests/snapshots/`.

memory_conformance::conformance_main!(memory_hybrid::gate());
