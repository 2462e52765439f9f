//! The backends bundled in the report, in report order: each one's gate, declared once in its
//! own crate.

use memory_conformance::conformance::Gate;

/// Every bundled backend's gate, in report order.
pub fn bundled() -> Vec<Gate> {
    vec![
        Gate::reference(),
        memory_sqlite_fts5::gate(),
        memory_segmented_bm25::gate(),
        memory_vector::gate(),
        memory_vector::minilm_gate(),
        memory_conformance_adk_rust::in_memory_gate(),
        memory_conformance_adk_rust::sqlite_gate(),
        memory_conformance_adk_rust::postgres_gate(),
        memory_conformance_adk_rust::postgres_vector_gate(),
        memory_conformance_adk_rust::redis_gate(),
        memory_conformance_bridges::adk_python_gate(),
        memory_conformance_bridges::adk_python_sqlite_gate(),
        memory_conformance_bridges::adk_js_gate(),
    ]
}
