//! The gates of ADK-Rust's memory services: subject, profile and known violations, declared
//! once for the test targets, the command line and reports.

use std::time::Duration;

use adk_memory::{InMemoryMemoryService, SqliteMemoryService};
use memory_conformance::conformance::{Gate, Namespace, Subject};
use memory_conformance::profile::Profile;

use crate::AdkRustMemory;

/// How long one call of `SqliteMemoryService` may take in its gate (a rule may take six
/// times as long): opening a database runs its migrations, and a busy disk stalls `fsync`.
const SQLITE_OP_TIMEOUT: Duration = Duration::from_secs(30);

/// The gate of `adk_memory::InMemoryMemoryService` 2.3.0 behind [`AdkRustMemory`]: backend
/// `adk-rust-in-memory`, [`Profile::adk_rust_in_memory`], whose `readd = replace unless no
/// text` implies its one known violation (add_session returns before touching the store when
/// no entry has a word, adk-memory 2.3.0 src/inmemory.rs:65-67).
pub fn in_memory_gate() -> Gate {
    let subject = Subject::new(
        "adk-rust-in-memory",
        Profile::adk_rust_in_memory(),
        || async { AdkRustMemory::new(InMemoryMemoryService::new()) },
    );
    Gate::new(subject)
        .describe("adk-memory 2.3.0 (crates.io), InMemoryMemoryService, through the adapter")
}

/// The gate of `adk_memory::SqliteMemoryService` 2.3.0 behind [`AdkRustMemory`]: backend
/// `adk-rust-sqlite`, [`Profile::adk_rust_sqlite`], whose `readd = append` implies its known
/// violations (add_session only inserts rows, adk-memory 2.3.0 src/sqlite.rs:273-298), one
/// database file per namespace in the kit's scratch folder, deleted when the case is over.
pub fn sqlite_gate() -> Gate {
    let subject = Subject::namespaced("adk-rust-sqlite", Profile::adk_rust_sqlite(), open_sqlite)
        .op_timeout(SQLITE_OP_TIMEOUT)
        .cleanup_with(Namespace::remove_scratch_files);
    Gate::new(subject).describe(
        "adk-memory 2.3.0 (crates.io), SqliteMemoryService on a file per case, through the adapter",
    )
}

/// The SQLite memory of `namespace`, on the kit's scratch file of the namespace: the same
/// namespace reopens the same file, so `durability.reopen` and `scope.shared` run. A failure
/// to open or migrate it panics, and the harness reports the panic as the failure of the
/// rule that opened it.
async fn open_sqlite(namespace: Namespace) -> AdkRustMemory<SqliteMemoryService> {
    let opened = match namespace.scratch_file("db") {
        Ok(path) => AdkRustMemory::open_sqlite(&path)
            .await
            .map_err(|err| format!("{}: {err}", path.display())),
        Err(err) => Err(format!("no scratch file for {namespace}: {err}")),
    };
    opened.unwrap_or_else(|err| panic!("cannot open the gate's SQLite memory {err}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_profiles_imply_the_known_violations_and_nothing_is_declared_twice() {
        let ids = |gate: &Gate| -> Vec<String> {
            gate.known_violations()
                .iter()
                .map(|k| k.rule_id().to_owned())
                .collect()
        };
        assert_eq!(ids(&in_memory_gate()), ["replace.readd_with_nothing"]);
        assert_eq!(
            ids(&sqlite_gate()),
            ["replace.readd_replaces", "replace.readd_with_nothing"]
        );
        for gate in [in_memory_gate(), sqlite_gate()] {
            gate.validate().unwrap();
            assert!(
                gate.known_violations()
                    .iter()
                    .all(|k| k.implied_by().is_some())
            );
        }
    }
}
