//! A full disk under ADK-Rust's `SqliteMemoryService` (adk-memory, through the adapter): its
//! database on a 1 MiB tmpfs, written until the disk refuses. The refused add must be a
//! `MemoryError` naming the full disk, every add acknowledged before it found exactly once
//! afterwards (through the same instance and after a reopen), and once there is room again the
//! refused session taken. Needs root, to mount the tmpfs (see the shared module).

#[path = "faults/full_disk.rs"]
mod full_disk;

use std::process::ExitCode;
use std::sync::Arc;

use memory_conformance::MemoryService;
use memory_conformance_adk_rust::AdkRustMemory;

fn main() -> ExitCode {
    full_disk::main(
        "sqlite::a_full_disk_refuses_an_add_and_loses_nothing_acknowledged",
        None,
        |disk| {
            let path = disk.dir.join("memory.db");
            full_disk::runtime()?.block_on(full_disk::fill_then_check(disk, || {
                let opened = AdkRustMemory::open_sqlite(&path);
                async move {
                    opened
                        .await
                        .map(|memory| Arc::new(memory) as Arc<dyn MemoryService>)
                }
            }))
        },
    )
}
