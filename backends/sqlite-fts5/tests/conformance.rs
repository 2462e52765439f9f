//! The gate of `SqliteFts5MemoryService`: every rule of memory-conformance against its declared
//! profile, as `memory_sqlite_fts5::gate()` declares it, and its recall pinned in
//! `tests/snapshots/`.

memory_conformance::conformance_main!(memory_sqlite_fts5::gate());
