//! The gate of ADK-Rust's `PostgresMemoryService` without an embedder, as `postgres_gate()`
//! declares it, on the PostgreSQL server `servers/start.sh` starts, and its recall pinned in
//! `tests/snapshots/`.

memory_conformance::conformance_main!(memory_conformance_adk_rust::postgres_gate());
