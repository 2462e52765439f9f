//! The backends bundled in the report, in report order: each one's gate, declared once in its
//! own crate.

use memory_conformance::conformance::Gate;
use memory_conformance_cli::Backends;

/// Every bundled backend's name and the function that builds its gate, in report order. A
/// gate is built only when asked for: building one can load a model (vector-minilm's 90 MB of
/// weights) or reach a server.
pub const BUNDLED: Backends = Backends::new(&[
    ("reference", Gate::reference),
    ("sqlite-fts5", memory_sqlite_fts5::gate),
    ("segmented-bm25", memory_segmented_bm25::gate),
    ("vector-hashed", memory_vector::gate),
    ("vector-minilm", memory_vector::minilm_gate),
    ("hybrid", memory_hybrid::gate),
    (
        "adk-rust-in-memory",
        memory_conformance_adk_rust::in_memory_gate,
    ),
    ("adk-rust-sqlite", memory_conformance_adk_rust::sqlite_gate),
    (
        "adk-rust-postgres",
        memory_conformance_adk_rust::postgres_gate,
    ),
    (
        "adk-rust-postgres-vector",
        memory_conformance_adk_rust::postgres_vector_gate,
    ),
    ("adk-rust-redis", memory_conformance_adk_rust::redis_gate),
    ("adk-python", memory_conformance_bridges::adk_python_gate),
    (
        "adk-python-sqlite",
        memory_conformance_bridges::adk_python_sqlite_gate,
    ),
    ("adk-js", memory_conformance_bridges::adk_js_gate),
    ("adk-java", memory_conformance_bridges::adk_java_gate),
    ("adk-go", memory_conformance_bridges::adk_go_gate),
]);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_name_is_its_gate_s_backend() {
        let built: Vec<String> = BUNDLED
            .all()
            .iter()
            .map(|gate| gate.subject().backend().to_owned())
            .collect();
        assert_eq!(built, BUNDLED.names().collect::<Vec<_>>());
    }

    #[test]
    fn an_unknown_name_is_refused_with_the_bundled_names() {
        let err = BUNDLED.gate("sqlite-fts6").unwrap_err();
        assert!(
            err.starts_with(
                "no bundled backend is called \"sqlite-fts6\"; the bundled backends are: reference, sqlite-fts5,"
            ),
            "{err}"
        );
        assert!(BUNDLED.gate("reference").is_ok());
    }

    #[test]
    fn a_choice_of_backends_is_built_in_report_order_and_an_unknown_one_refused() {
        let chosen = BUNDLED
            .among(&["adk-js".into(), "reference".into()])
            .unwrap();
        let names: Vec<&str> = chosen.iter().map(|g| g.subject().backend()).collect();
        assert_eq!(names, ["reference", "adk-js"]);
        assert_eq!(BUNDLED.among(&[]).unwrap().len(), BUNDLED.names().count());
        let err = BUNDLED
            .among(&["reference".into(), "nope".into()])
            .unwrap_err();
        assert!(
            err.starts_with("no bundled backend is called \"nope\""),
            "{err}"
        );
    }
}
