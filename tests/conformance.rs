//! The reference backend through the one-file gate, exactly as a backend crate writes it
//! (plus `snapshots_in`, because the kit keeps its snapshots in the top-level folder).

memory_conformance::conformance_main!(
    memory_conformance::conformance::Gate::reference().snapshots_in("../snapshots")
);
