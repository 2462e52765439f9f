//! A full disk under ADK Python's `SqliteMemoryService` (google-adk 2.13.0, through its bridge
//! child): the child's temporary folder, where each store's database file is made, on a 1 MiB
//! tmpfs, written until the disk refuses. The refused add must be a `MemoryError` naming the
//! full disk, every add acknowledged before it found exactly once afterwards (through the same
//! instance and a new one), and once there is room again the refused session taken. Needs root,
//! to mount the tmpfs (see the shared module), and the package installed
//! (`bash bridges/install.sh`); shows as ignored without either.

#[path = "../../adapters/adk-rust/tests/faults/full_disk.rs"]
mod full_disk;

use std::process::ExitCode;
use std::sync::Arc;

use memory_conformance::MemoryService;
use memory_conformance::process::ProcessBridge;
use memory_conformance_bridges::{adk_python_sqlite_command, adk_python_sqlite_gate};

fn main() -> ExitCode {
    full_disk::main(
        "adk-python-sqlite::a_full_disk_refuses_an_add_and_loses_nothing_acknowledged",
        adk_python_sqlite_gate()
            .unavailable_reason()
            .map(str::to_owned),
        |disk| {
            full_disk::runtime()?.block_on(async {
                let mut command = adk_python_sqlite_command();
                command.env("TMPDIR", &disk.dir);
                let bridge = ProcessBridge::spawn(command)
                    .await
                    .map_err(|err| format!("the bridge child did not start: {err}"))?;
                full_disk::fill_then_check(disk, || async {
                    bridge
                        .open("full-disk")
                        .await
                        .map(|memory| Arc::new(memory) as Arc<dyn MemoryService>)
                })
                .await
            })
        },
    )
}
