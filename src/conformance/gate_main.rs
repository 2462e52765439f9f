//! `conformance_main!`: the one-file gate of a backend crate.

use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use super::gate::{Gate, PinSnapshot};
use super::subject::{Cleanup, Factory, Namespace, Subject, erase};
use crate::{MemoryService, Profile};

/// Expands to the `main` of a `harness = false` test target that gates a backend with every
/// rule of the kit: one test per rule, named `backend::rule.id`.
///
/// In the backend crate's `Cargo.toml`:
///
/// ```toml
/// [dev-dependencies]
/// memory-conformance = "0.1"
///
/// [[test]]
/// name = "conformance"
/// harness = false
/// ```
///
/// and in `tests/conformance.rs`:
///
/// ```ignore
/// memory_conformance::conformance_main! {
///     backend: "my-backend",
///     profile: memory_conformance::Profile::reference(),
///     factory: || async { MyBackend::default() },
/// }
/// ```
///
/// Fields: `backend` (name), `profile`, and either `factory` (a fresh isolated instance per
/// call) or `namespaced_factory` (`|namespace| async move { .. }`: the same namespace reaches
/// the same storage); optionally `known_violations: [("rule.id", "reason"), ..]`, `cases`
/// (per rule), `op_timeout` (a `Duration`), `snapshot_path` (where the recall snapshots go,
/// relative to the test file; default `snapshots/` beside it) and `available` (a
/// `Result<(), String>`: on `Err(reason)` every test shows as ignored with the reason, for
/// backends that need an interpreter or a package; say how to install it) and `cleanup`
/// (`|namespace| ..`, run after each case of a namespaced factory, to delete its storage). Failing cases are recorded in
/// `proptest-regressions/conformance/` of the calling crate and replayed first.
#[macro_export]
macro_rules! conformance_main {
    ($($field:ident : $value:expr),+ $(,)?) => {
        fn main() -> ::std::process::ExitCode {
            let mut gate = $crate::__private::GateMain::new(
                ::std::env!("CARGO_MANIFEST_DIR"),
                ::std::env!("CARGO_PKG_NAME"),
            );
            $( $crate::__conformance_field!(gate, $field, $value); )+
            let snapshot_path = gate.snapshot_path();
            gate.pin_recall_with(move |name: &str, text: &str| {
                let mut settings = $crate::__private::insta::Settings::clone_current();
                if let Some(path) = &snapshot_path {
                    settings.set_snapshot_path(path);
                    settings.set_prepend_module_to_snapshot(false);
                }
                settings.bind(|| $crate::__private::insta::assert_snapshot!(name, text));
            });
            gate.run()
        }
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! __conformance_field {
    ($gate:ident, backend, $value:expr) => { $gate.backend($value); };
    ($gate:ident, profile, $value:expr) => { $gate.profile($value); };
    ($gate:ident, factory, $value:expr) => { $gate.factory($value); };
    ($gate:ident, namespaced_factory, $value:expr) => { $gate.namespaced_factory($value); };
    ($gate:ident, known_violation, $value:expr) => { $gate.known_violations($value); };
    ($gate:ident, known_violations, $value:expr) => { $gate.known_violations($value); };
    ($gate:ident, cases, $value:expr) => { $gate.cases($value); };
    ($gate:ident, op_timeout, $value:expr) => { $gate.op_timeout($value); };
    ($gate:ident, snapshot_path, $value:expr) => { $gate.set_snapshot_path($value); };
    ($gate:ident, available, $value:expr) => { $gate.available($value); };
    ($gate:ident, cleanup, $value:expr) => { $gate.cleanup($value); };
    ($gate:ident, $other:ident, $value:expr) => {
        ::std::compile_error!(::std::concat!(
            "conformance_main!: unknown field `", ::std::stringify!($other),
            "`; the fields are backend, profile, factory, namespaced_factory, known_violations, cases, op_timeout, snapshot_path, available, cleanup"
        ));
    };
}

/// What `conformance_main!` collects before it runs the gate.
#[doc(hidden)]
pub struct GateMain {
    manifest_dir: &'static str,
    package: &'static str,
    backend: Option<String>,
    profile: Option<Profile>,
    factory: Option<Arc<Factory>>,
    known_violations: Vec<(String, String)>,
    cases: Option<u32>,
    op_timeout: Option<Duration>,
    pin: Option<Box<PinSnapshot>>,
    snapshot_path: Option<String>,
    unavailable: Option<String>,
    cleanup: Option<Box<Cleanup>>,
}

impl GateMain {
    pub fn new(manifest_dir: &'static str, package: &'static str) -> Self {
        Self {
            manifest_dir,
            package,
            backend: None,
            profile: None,
            factory: None,
            known_violations: Vec::new(),
            cases: None,
            op_timeout: None,
            pin: None,
            snapshot_path: None,
            unavailable: None,
            cleanup: None,
        }
    }

    pub fn cleanup(&mut self, cleanup: impl Fn(&Namespace) + Send + Sync + 'static) {
        self.cleanup = Some(Box::new(cleanup));
    }

    pub fn available(&mut self, available: Result<(), String>) {
        self.unavailable = available.err();
    }

    pub fn set_snapshot_path(&mut self, path: impl Into<String>) {
        self.snapshot_path = Some(path.into());
    }

    pub fn snapshot_path(&self) -> Option<String> {
        self.snapshot_path.clone()
    }

    pub fn pin_recall_with(&mut self, pin: impl Fn(&str, &str) + Send + Sync + 'static) {
        self.pin = Some(Box::new(pin));
    }

    pub fn backend(&mut self, backend: impl Into<String>) {
        self.backend = Some(backend.into());
    }

    pub fn profile(&mut self, profile: Profile) {
        self.profile = Some(profile);
    }

    pub fn factory<F, Fut, B>(&mut self, factory: F)
    where
        F: Fn() -> Fut + Send + Sync + 'static,
        Fut: std::future::Future<Output = B> + Send + 'static,
        B: MemoryService + 'static,
    {
        self.factory = Some(erase(move |_: Namespace| factory()));
    }

    pub fn namespaced_factory<F, Fut, B>(&mut self, factory: F)
    where
        F: Fn(Namespace) -> Fut + Send + Sync + 'static,
        Fut: std::future::Future<Output = B> + Send + 'static,
        B: MemoryService + 'static,
    {
        self.factory = Some(erase(factory));
    }

    pub fn known_violations<'a>(&mut self, declared: impl IntoIterator<Item = (&'a str, &'a str)>) {
        self.known_violations.extend(
            declared
                .into_iter()
                .map(|(rule, reason)| (rule.to_owned(), reason.to_owned())),
        );
    }

    pub fn cases(&mut self, cases: u32) {
        self.cases = Some(cases);
    }

    pub fn op_timeout(&mut self, timeout: Duration) {
        self.op_timeout = Some(timeout);
    }

    pub fn run(self) -> ExitCode {
        let (Some(backend), Some(profile), Some(factory)) =
            (self.backend, self.profile, self.factory)
        else {
            eprintln!(
                "conformance_main!: the fields backend, profile and factory (or namespaced_factory) are required"
            );
            return ExitCode::FAILURE;
        };
        let target = test_target_name();
        let mut subject = Subject::from_parts(backend, profile, factory)
            .failure_records(
                Path::new(self.manifest_dir)
                    .join("proptest-regressions")
                    .join("conformance"),
            )
            .reproduce_with(format!(
                "PROPTEST_RNG_SEED={{seed}} cargo test -p {} --test {target} -- --exact '{{rule}}'",
                self.package
            ));
        if let Some(cases) = self.cases {
            subject = subject.cases(cases);
        }
        if let Some(timeout) = self.op_timeout {
            subject = subject.op_timeout(timeout);
        }
        if let Some(cleanup) = self.cleanup {
            subject = subject.cleanup_with(cleanup);
        }
        let mut gate = self
            .known_violations
            .into_iter()
            .fold(Gate::new(subject), |gate, (rule, reason)| {
                gate.known_violation(rule, reason)
            });
        if let Some(pin) = self.pin {
            gate = gate.pin_recall_with(pin);
        }
        if let Some(reason) = self.unavailable {
            gate = gate.unavailable(reason);
        }
        gate.main()
    }
}

/// The test target's name, from the binary's file name (`conformance-0123abcd` → `conformance`).
fn test_target_name() -> String {
    let binary = std::env::args().next().unwrap_or_default();
    let stem = Path::new(&binary)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("conformance")
        .to_owned();
    match stem.rsplit_once('-') {
        Some((name, hash)) if hash.chars().all(|c| c.is_ascii_hexdigit()) => name.to_owned(),
        _ => stem,
    }
}
