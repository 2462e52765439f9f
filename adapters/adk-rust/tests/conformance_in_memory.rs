//! The gate of ADK-Rust's `InMemoryMemoryService`, as `in_memory_gate()` declares it, and its
//! recall pinned in `tests/snapshots/`.

memory_conformance::conformance_main!(memory_conformance_adk_rust::in_memory_gate());
