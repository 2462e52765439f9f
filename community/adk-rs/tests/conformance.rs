//! The gate of adk-rs 0.6.0's `InMemoryMemoryService`: every rule of memory-conformance against
//! the profile `profile.toml` declares, and its recall pinned in `tests/snapshots/`.

memory_conformance::conformance_main!(memory_conformance_adk_rs::gate());
