//! The gates of ADK-Rust's memory services: subject, profile and known violations, declared
//! once for the test targets and for reports.

use std::time::Duration;

use adk_memory::{InMemoryMemoryService, SqliteMemoryService};
use memory_conformance::conformance::Namespace;
use memory_conformance::{Gate, Profile, Subject};

use crate::AdkRustMemory;

/// The rules `adk_memory::InMemoryMemoryService` 2.3.0 breaks, with the reason.
pub const IN_MEMORY_KNOWN_VIOLATIONS: &[(&str, &str)] = &[(
    "replace.readd_with_nothing",
    "add_session returns before touching the store when no entry has a word, so a re-add with no text keeps the old \
     text (adk-memory 2.3.0 src/inmemory.rs:65-67)",
)];

/// The rules `adk_memory::SqliteMemoryService` 2.3.0 breaks, with the reason.
pub const SQLITE_KNOWN_VIOLATIONS: &[(&str, &str)] = &[
    (
        "replace.readd_replaces",
        "add_session only inserts rows and never deletes the session's old ones, so a re-add appends (adk-memory \
         2.3.0 src/sqlite.rs:277-298)",
    ),
    (
        "replace.readd_with_nothing",
        "add_session returns early on an empty entry list and otherwise only inserts, so a re-add with no text keeps \
         the old text (adk-memory 2.3.0 src/sqlite.rs:273-275, 277-298)",
    ),
];

/// How long one call of `SqliteMemoryService` may take in its gate (a rule may take six
/// times as long): opening a database runs its migrations, and a busy disk stalls `fsync`.
pub const SQLITE_OP_TIMEOUT: Duration = Duration::from_secs(30);

/// The gate of `adk_memory::InMemoryMemoryService` behind [`AdkRustMemory`]: backend
/// `adk-rust-in-memory`, [`Profile::adk_rust_in_memory`], [`IN_MEMORY_KNOWN_VIOLATIONS`].
pub fn in_memory_gate() -> Gate {
    let subject = Subject::new(
        "adk-rust-in-memory",
        Profile::adk_rust_in_memory(),
        || async { AdkRustMemory::new(InMemoryMemoryService::new()) },
    );
    declare(Gate::new(subject), IN_MEMORY_KNOWN_VIOLATIONS)
}

/// The gate of `adk_memory::SqliteMemoryService` behind [`AdkRustMemory`]: backend
/// `adk-rust-sqlite`, [`Profile::adk_rust_sqlite`], [`SQLITE_KNOWN_VIOLATIONS`],
/// [`SQLITE_OP_TIMEOUT`], one database file per namespace ([`gate_database`]), deleted when
/// the case is over.
pub fn sqlite_gate() -> Gate {
    let subject = Subject::namespaced("adk-rust-sqlite", Profile::adk_rust_sqlite(), gate_database)
        .op_timeout(SQLITE_OP_TIMEOUT)
        .cleanup_with(Namespace::remove_scratch_files);
    declare(Gate::new(subject), SQLITE_KNOWN_VIOLATIONS)
}

/// The SQLite memory of `namespace`, on the kit's scratch file of the namespace: the same
/// namespace reopens the same file, so `durability.reopen` and `scope.shared` run. A failure
/// to open or migrate it panics, and the harness reports the panic as the failure of the
/// rule that opened it.
pub async fn gate_database(namespace: Namespace) -> AdkRustMemory<SqliteMemoryService> {
    let opened = match namespace.scratch_file("db") {
        Ok(path) => AdkRustMemory::open_sqlite(&path)
            .await
            .map_err(|err| format!("{}: {err}", path.display())),
        Err(err) => Err(format!("no scratch file for {namespace}: {err}")),
    };
    opened.unwrap_or_else(|err| panic!("cannot open the gate's SQLite memory {err}"))
}

fn declare(gate: Gate, known_violations: &[(&str, &str)]) -> Gate {
    known_violations.iter().fold(gate, |gate, (rule, reason)| {
        gate.known_violation(*rule, *reason)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_declarations_name_rules_of_the_kit_with_reasons() {
        for gate in [in_memory_gate(), sqlite_gate()] {
            gate.validate().unwrap();
            assert!(!gate.known_violations().is_empty());
        }
        assert_eq!(in_memory_gate().subject().backend(), "adk-rust-in-memory");
        assert_eq!(sqlite_gate().subject().backend(), "adk-rust-sqlite");
        assert_eq!(
            sqlite_gate().subject().profile(),
            &Profile::adk_rust_sqlite()
        );
    }
}
