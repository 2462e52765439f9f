//! The gate of ADK Java's in-memory memory service (`com.google.adk:google-adk` 1.8.0), as
//! `adk_java_gate()` declares it, through `bridges/adk-java/`, and its recall pinned in
//! `tests/snapshots/`.

memory_conformance::conformance_main!(memory_conformance_bridges::adk_java_gate());
