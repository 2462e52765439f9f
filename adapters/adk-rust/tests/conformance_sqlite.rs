//! The gate of ADK-Rust's `SqliteMemoryService`: every rule of memory-conformance against
//! `Profile::adk_rust_sqlite()`, one database file per namespace, and its recall pinned in
//! `tests/snapshots/`.

use memory_conformance::conformance::Namespace;

memory_conformance::conformance_main! {
    backend: "adk-rust-sqlite",
    profile: memory_conformance::Profile::adk_rust_sqlite(),
    namespaced_factory: memory_conformance_adk_rust::gate_database,
    cleanup: Namespace::remove_scratch_files,
    known_violations: memory_conformance_adk_rust::SQLITE_KNOWN_VIOLATIONS.iter().copied(),
    op_timeout: memory_conformance_adk_rust::SQLITE_OP_TIMEOUT,
}
