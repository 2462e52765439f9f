//! ADK Python's `SqliteMemoryService` (`google-adk` 2.13.0, on a database file per store),
//! through `adk-python/sqlite_bridge.py` and protocol v2.

use std::process::Command;

use memory_conformance::conformance::Gate;
use memory_conformance::profile::Profile;
use tokio::sync::OnceCell;

use crate::adk_python::{installed, script_command};
use crate::launch::Bridged;

static ADK_PYTHON_SQLITE: Bridged = Bridged {
    name: "adk-python-sqlite",
    version: "google-adk 2.13.0",
    registry: "PyPI",
    service: "SqliteMemoryService on a database file per store",
    installed,
    command: adk_python_sqlite_command,
    child: &CHILD,
};

static CHILD: OnceCell<Result<memory_conformance::process::ProcessBridge, String>> =
    OnceCell::const_new();

/// The gate of ADK Python's SQLite memory service: every rule against
/// [`Profile::adk_python_sqlite`], durability and the shared store included (each store's
/// instances reach one database file, through protocol v2's `open`). Its upsert by event id
/// implies the known violations of the two replace rules; its naive timestamps are a profile
/// dimension (`timestamps = naive isoformat`), a departure from `R6.entries` that
/// `result.fidelity` checks as declared, so nothing is declared by hand. Every test is ignored,
/// with the install command as the reason, where `bash bridges/install.sh` has not been run.
pub fn adk_python_sqlite_gate() -> Gate {
    ADK_PYTHON_SQLITE.gate(Profile::adk_python_sqlite())
}

/// The command of ADK Python's SQLite bridge child, as the gate runs it, for a test that
/// starts the child itself: with a `TMPDIR` of its own, for instance, since each store's
/// database file is made in the child's temporary folder.
pub fn adk_python_sqlite_command() -> Command {
    script_command("sqlite_bridge.py")
}
