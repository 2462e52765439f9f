//! The whole gate of `KeywordMemory`: every rule of memory-conformance against its declared
//! profile, and its recall pinned in `tests/snapshots/`.

memory_conformance::conformance_main! {
    backend: "keyword-memory",
    profile: example_keyword_memory::KeywordMemory::profile(),
    factory: || async { example_keyword_memory::KeywordMemory::default() },
}
