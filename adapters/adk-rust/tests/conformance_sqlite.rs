//! The gate of ADK-Rust's `SqliteMemoryService`, as `sqlite_gate()` declares it, and its
//! recall pinned in `tests/snapshots/`.

memory_conformance::conformance_main!(memory_conformance_adk_rust::sqlite_gate());
