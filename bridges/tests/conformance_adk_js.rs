//! The gate of ADK JS's in-memory memory service (`@google/adk` 2.0.0), as `adk_js_gate()`
//! declares it, through `bridges/adk-js/bridge.mjs`, and its recall pinned in
//! `tests/snapshots/`.

memory_conformance::conformance_main!(memory_conformance_bridges::adk_js_gate());
