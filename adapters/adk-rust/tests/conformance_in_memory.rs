//! The gate of ADK-Rust's `InMemoryMemoryService`: every rule of memory-conformance against
//! `Profile::adk_rust_in_memory()`, and its recall pinned in `tests/snapshots/`.

use memory_conformance_adk_rust::AdkRustMemory;

memory_conformance::conformance_main! {
    backend: "adk-rust-in-memory",
    profile: memory_conformance::Profile::adk_rust_in_memory(),
    factory: || async { AdkRustMemory::new(adk_memory::InMemoryMemoryService::new()) },
    known_violations: memory_conformance_adk_rust::IN_MEMORY_KNOWN_VIOLATIONS.iter().copied(),
}
