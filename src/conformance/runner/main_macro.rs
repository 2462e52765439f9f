//! `conformance_main!`: the one-file gate of a backend crate.

/// Expands to the `main` of a `harness = false` test target that runs a
/// [`Gate`](crate::conformance::Gate): one test per rule, named `backend::rule.id`, and
/// `backend::snapshot.recall`, which pins the backend's recall on the probe corpus as insta
/// snapshots in the calling crate (`tests/snapshots/` beside the test file, unless the gate
/// says [where](crate::conformance::Gate::snapshots_in)).
///
/// In the backend crate's `Cargo.toml`:
///
/// ```toml
/// [dependencies]
/// memory-conformance = { version = "0.1", default-features = false }
///
/// [dev-dependencies]
/// memory-conformance = "0.1"
///
/// [[test]]
/// name = "conformance"
/// harness = false
/// ```
///
/// and in `tests/conformance.rs`, the gate (a [`Gate`](crate::conformance::Gate), checked by
/// the compiler):
///
/// ```no_run
/// use memory_conformance::InMemoryMemoryService;
/// use memory_conformance::conformance::{Gate, Subject};
/// use memory_conformance::profile::Profile;
///
/// fn gate() -> Gate {
///     Gate::new(Subject::new("my-backend", Profile::reference(), || async {
///         InMemoryMemoryService::new()
///     }))
/// }
///
/// memory_conformance::conformance_main!(gate());
/// ```
///
/// Failing cases are recorded in `proptest-regressions/conformance/` of the calling crate and
/// replayed first; failure reports print the `cargo test` command that reruns the rule.
#[macro_export]
macro_rules! conformance_main {
    ($gate:expr $(,)?) => {
        fn main() -> ::std::process::ExitCode {
            let gate: $crate::conformance::Gate = $gate;
            let snapshot_dir = gate.snapshot_dir().map(::std::borrow::ToOwned::to_owned);
            let target = $crate::__private::TestTarget {
                manifest_dir: ::std::env!("CARGO_MANIFEST_DIR"),
                package: ::std::env!("CARGO_PKG_NAME"),
                file: ::std::file!(),
                module: ::std::module_path!(),
            };
            $crate::__private::main(gate, target, move |name: &str, text: &str| {
                let mut settings = $crate::__private::insta::Settings::clone_current();
                if let ::std::option::Option::Some(dir) = &snapshot_dir {
                    settings.set_snapshot_path(dir);
                    settings.set_prepend_module_to_snapshot(false);
                }
                settings.bind(|| $crate::__private::insta::assert_snapshot!(name, text));
            })
        }
    };
}
