//! The backends bundled in the report: each with its profile, what exactly runs, and its
//! declared known violations (the same declaration its own gate uses).

use memory_conformance::conformance::Namespace;
use memory_conformance::{Gate, InMemoryMemoryService, Profile, Subject};
use memory_sqlite_fts5::SqliteFts5MemoryService;

/// A backend the report runs.
pub struct Bundled {
    /// The name in reports.
    pub name: &'static str,
    /// What exactly runs (package and version).
    pub version: String,
    /// Subject, profile and known violations; it says so when it cannot run here.
    pub gate: Gate,
}

/// Every bundled backend, in report order.
pub fn bundled() -> Vec<Bundled> {
    vec![
        Bundled {
            name: "reference",
            version: format!("memory-conformance {}", env!("CARGO_PKG_VERSION")),
            gate: Gate::new(Subject::new("reference", Profile::reference(), || async {
                InMemoryMemoryService::new()
            })),
        },
        Bundled {
            name: "sqlite-fts5",
            version: format!(
                "memory-sqlite-fts5 {}, on a file per case",
                env!("CARGO_PKG_VERSION")
            ),
            gate: Gate::new(
                Subject::namespaced("sqlite-fts5", memory_sqlite_fts5::profile(), sqlite_fts5)
                    .cleanup_with(Namespace::remove_scratch_files),
            ),
        },
        Bundled {
            name: "adk-rust-in-memory",
            version: "adk-memory 2.3.0 (crates.io), InMemoryMemoryService, through the adapter".into(),
            gate: memory_conformance_adk_rust::in_memory_gate(),
        },
        Bundled {
            name: "adk-rust-sqlite",
            version: "adk-memory 2.3.0 (crates.io), SqliteMemoryService on a file per case, through the adapter"
                .into(),
            gate: memory_conformance_adk_rust::sqlite_gate(),
        },
        Bundled {
            name: "adk-python",
            version: "google-adk 2.13.0 (PyPI), InMemoryMemoryService, through the process bridge"
                .into(),
            gate: memory_conformance_bridges::adk_python_gate(),
        },
        Bundled {
            name: "adk-js",
            version: "@google/adk 2.0.0 (npm), InMemoryMemoryService, through the process bridge"
                .into(),
            gate: memory_conformance_bridges::adk_js_gate(),
        },
    ]
}

async fn sqlite_fts5(namespace: Namespace) -> SqliteFts5MemoryService {
    let path = namespace
        .scratch_file("db")
        .expect("a scratch file for the case");
    SqliteFts5MemoryService::open(&path).expect("open the case's database")
}
