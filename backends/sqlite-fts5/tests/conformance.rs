//! The gate of `SqliteFts5MemoryService`: every rule of memory-conformance against its declared
//! profile, each case on its own database file (the durability and shared-store rules reopen
//! it), and its recall pinned in `tests/snapshots/`. It declares no known violation.

use memory_conformance::conformance::Namespace;
use memory_sqlite_fts5::SqliteFts5MemoryService;

async fn open(namespace: Namespace) -> SqliteFts5MemoryService {
    let path = namespace
        .scratch_file("db")
        .expect("a scratch file for the case");
    SqliteFts5MemoryService::open(&path).expect("open the case's database")
}

memory_conformance::conformance_main! {
    backend: "sqlite-fts5",
    profile: memory_sqlite_fts5::profile(),
    namespaced_factory: open,
    cleanup: Namespace::remove_scratch_files,
}
