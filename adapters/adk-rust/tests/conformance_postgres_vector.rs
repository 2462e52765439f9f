//! The gate of ADK-Rust's `PostgresMemoryService` with the kit's embedder (pgvector HNSW), as
//! `postgres_vector_gate()` declares it, on the PostgreSQL server `servers/start.sh` starts,
//! and its recall pinned in `tests/snapshots/`.

memory_conformance::conformance_main!(memory_conformance_adk_rust::postgres_vector_gate());
