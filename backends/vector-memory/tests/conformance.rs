//! The whole gate of `VectorMemory` with the kit's embedder: every rule against its declared
//! profile, and its recall pinned in `tests/snapshots/`.

memory_conformance::conformance_main!(memory_vector::gate());
