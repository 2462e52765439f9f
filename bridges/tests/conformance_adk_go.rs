//! The gate of ADK Go's in-memory memory service (`google.golang.org/adk/v2` v2.2.0), as
//! `adk_go_gate()` declares it, through `bridges/adk-go/`, and its recall pinned in
//! `tests/snapshots/`.

memory_conformance::conformance_main!(memory_conformance_bridges::adk_go_gate());
