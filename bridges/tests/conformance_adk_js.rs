//! The gate of ADK JS's in-memory memory service (`@google/adk` 2.0.0): every rule of
//! memory-conformance against `Profile::adk_js()`, through `bridges/adk-js/bridge.mjs`, and its
//! recall pinned in `tests/snapshots/`.

memory_conformance::conformance_main! {
    backend: "adk-js",
    profile: memory_conformance::Profile::adk_js(),
    namespaced_factory: memory_conformance_bridges::adk_js_store,
    known_violations: memory_conformance_bridges::ADK_JS_KNOWN_VIOLATIONS.iter().copied(),
    op_timeout: std::time::Duration::from_secs(30),
    available: memory_conformance_bridges::adk_js_available(),
}
