use memory_conformance::benchmark::{QuestionKind, RecallFloor};
use memory_conformance::conformance::{Gate, Namespace, Subject};

use crate::{SqliteFts5MemoryService, profile};

/// The conformance gate of [`SqliteFts5MemoryService`]: backend `sqlite-fts5`, its
/// [`profile`], every case on its own database file in the kit's scratch folder (so the
/// durability and shared-store rules reopen it), deleted when the case is over. No known
/// violation. Its recall floor is what it measured on the recall benchmark, less a margin: 63%
/// of the answers within the first five overall, and all of them on numbers and identifiers,
/// which FTS5 indexes. Its test target, the command line and the report all run this one
/// declaration.
///
/// A database that cannot be opened panics in the factory; the harness reports the panic as
/// the failure of the rule that opened it.
///
/// ```
/// let gate = memory_sqlite_fts5::gate();
/// assert_eq!(gate.subject().backend(), "sqlite-fts5");
/// assert!(gate.known_violations().is_empty());
/// ```
pub fn gate() -> Gate {
    let subject = Subject::namespaced("sqlite-fts5", profile(), open)
        .cleanup_with(Namespace::remove_scratch_files);
    Gate::new(subject)
        .describe(concat!(
            "memory-sqlite-fts5 ",
            env!("CARGO_PKG_VERSION"),
            ", on a file per case"
        ))
        .recall_floor(RecallFloor::recall_at_5(0.6).kind(QuestionKind::NumberId, 0.95))
}

async fn open(namespace: Namespace) -> SqliteFts5MemoryService {
    let path = namespace
        .scratch_file("db")
        .unwrap_or_else(|err| panic!("no scratch file for {namespace}: {err}"));
    SqliteFts5MemoryService::open(&path)
        .unwrap_or_else(|err| panic!("cannot open the case's database {}: {err}", path.display()))
}
