//! The whole gate of `KeywordMemory`: every rule of memory-conformance against its declared
//! profile, and its recall pinned in `tests/snapshots/`.

memory_conformance::conformance_main!(example_keyword_memory::KeywordMemory::gate());
