//! The gate of ADK Python's in-memory memory service (`google-adk` 2.13.0), as
//! `adk_python_gate()` declares it, through `bridges/adk-python/bridge.py`, and its recall
//! pinned in `tests/snapshots/`.

memory_conformance::conformance_main!(memory_conformance_bridges::adk_python_gate());
