//! The gate of ADK Python's in-memory memory service (`google-adk` 2.13.0): every rule of
//! memory-conformance against `Profile::adk_python()`, through `bridges/adk-python/bridge.py`,
//! and its recall pinned in `tests/snapshots/`.

memory_conformance::conformance_main! {
    backend: "adk-python",
    profile: memory_conformance::Profile::adk_python(),
    namespaced_factory: memory_conformance_bridges::adk_python_store,
    known_violations: memory_conformance_bridges::ADK_PYTHON_KNOWN_VIOLATIONS.iter().copied(),
    op_timeout: std::time::Duration::from_secs(30),
    available: memory_conformance_bridges::adk_python_available(),
}
