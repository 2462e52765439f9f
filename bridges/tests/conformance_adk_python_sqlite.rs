//! The gate of ADK Python's SQLite memory service (`google-adk` 2.13.0), as
//! `adk_python_sqlite_gate()` declares it, through `bridges/adk-python/sqlite_bridge.py`, and
//! its recall pinned in `tests/snapshots/`.

memory_conformance::conformance_main!(memory_conformance_bridges::adk_python_sqlite_gate());
