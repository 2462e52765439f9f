//! The reference backend through the one-file gate, exactly as a backend crate writes it
//! (plus `snapshot_path`, because the kit keeps its snapshots in the top-level folder).

memory_conformance::conformance_main! {
    backend: "reference",
    profile: memory_conformance::Profile::reference(),
    factory: || async { memory_conformance::InMemoryMemoryService::new() },
    snapshot_path: "../snapshots",
}
