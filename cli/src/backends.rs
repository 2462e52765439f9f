//! The backends bundled in the report, in report order: each one's gate, declared once in its
//! own crate.

use memory_conformance::conformance::Gate;

/// Builds one bundled backend's gate.
type BuildGate = fn() -> Gate;

/// Every bundled backend's name and gate, in report order. A gate is built only when asked
/// for: building one can load a model (vector-minilm's 90 MB of weights) or reach a server.
const BUNDLED: [(&str, BuildGate); 16] = [
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
];

/// Every bundled backend's gate, in report order.
pub fn bundled() -> Vec<Gate> {
    BUNDLED.iter().map(|(_, gate)| gate()).collect()
}

/// The gates of the bundled backends `names`, built in report order; every one when `names`
/// is empty. `Err` names a backend that is not bundled.
pub fn bundled_among(names: &[String]) -> Result<Vec<Gate>, String> {
    if let Some(unknown) = names
        .iter()
        .find(|wanted| !bundled_names().any(|name| name == wanted.as_str()))
    {
        return Err(unknown_backend(unknown));
    }
    Ok(BUNDLED
        .iter()
        .filter(|(name, _)| names.is_empty() || names.iter().any(|wanted| wanted == name))
        .map(|(_, gate)| gate())
        .collect())
}

/// The names of the bundled backends, in report order.
pub fn bundled_names() -> impl Iterator<Item = &'static str> {
    BUNDLED.iter().map(|(name, _)| *name)
}

/// The gate of the bundled backend `name`, and only that one built; `Err` names the bundled
/// backends, or says why the backend cannot run here.
pub fn bundled_gate(name: &str) -> Result<Gate, String> {
    let (_, gate) = BUNDLED
        .iter()
        .find(|(bundled, _)| *bundled == name)
        .ok_or_else(|| unknown_backend(name))?;
    let gate = gate();
    match gate.unavailable_reason() {
        Some(why) => Err(format!("backend {name:?} cannot run here: {why}")),
        None => Ok(gate),
    }
}

/// The error for a backend name that is not bundled, naming the bundled ones.
pub fn unknown_backend(name: &str) -> String {
    format!(
        "no bundled backend is called {name:?}; the bundled backends are: {}",
        bundled_names().collect::<Vec<_>>().join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_name_is_its_gate_s_backend() {
        let built: Vec<String> = bundled()
            .iter()
            .map(|gate| gate.subject().backend().to_owned())
            .collect();
        assert_eq!(built, bundled_names().collect::<Vec<_>>());
    }

    #[test]
    fn an_unknown_name_is_refused_with_the_bundled_names() {
        let err = bundled_gate("sqlite-fts6").unwrap_err();
        assert!(
            err.starts_with(
                "no bundled backend is called \"sqlite-fts6\"; the bundled backends are: reference, sqlite-fts5,"
            ),
            "{err}"
        );
        assert!(bundled_gate("reference").is_ok());
    }

    #[test]
    fn a_choice_of_backends_is_built_in_report_order_and_an_unknown_one_refused() {
        let chosen = bundled_among(&["adk-js".into(), "reference".into()]).unwrap();
        let names: Vec<&str> = chosen.iter().map(|g| g.subject().backend()).collect();
        assert_eq!(names, ["reference", "adk-js"]);
        assert_eq!(bundled_among(&[]).unwrap().len(), bundled_names().count());
        let err = bundled_among(&["reference".into(), "nope".into()]).unwrap_err();
        assert!(
            err.starts_with("no bundled backend is called \"nope\""),
            "{err}"
        );
    }
}
