//! A full disk under sqlite-fts5: its database on a 1 MiB tmpfs, written until the disk
//! refuses. The refused add is a `MemoryError` naming the full disk, every add acknowledged
//! before it is found afterwards (through the same instance and after a reopen), and once there
//! is room again the store takes writes. Needs root, to mount the tmpfs (see the shared module).

#[path = "../../../adapters/adk-rust/tests/faults/full_disk.rs"]
mod full_disk;

use std::process::ExitCode;
use std::sync::Arc;

use memory_conformance::MemoryService;
use memory_sqlite_fts5::SqliteFts5MemoryService;

fn main() -> ExitCode {
    full_disk::main(
        "a_full_disk_refuses_an_add_and_loses_nothing_acknowledged",
        None,
        |disk| {
            let path = disk.dir.join("memory.db");
            full_disk::runtime()?.block_on(full_disk::fill_then_check(disk, || {
                let path = path.clone();
                async move {
                    SqliteFts5MemoryService::open(&path)
                        .map(|memory| Arc::new(memory) as Arc<dyn MemoryService>)
                }
            }))
        },
    )
}
