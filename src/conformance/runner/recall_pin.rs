//! Pinning a backend's recall on the probe corpus as two insta snapshots in the calling
//! crate, with a message that says what to do when one is missing or changed.

use std::path::{Path, PathBuf};

use crate::conformance::declare::gate::Gate;
use crate::conformance::run::call_guard::panic_message;

/// Where the gate's test target is, as `conformance_main!` sees it where it expands.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct TestTarget {
    /// `CARGO_MANIFEST_DIR` of the calling crate.
    pub manifest_dir: &'static str,
    /// `CARGO_PKG_NAME` of the calling crate.
    pub package: &'static str,
    /// `file!()` of the test file.
    pub file: &'static str,
    /// `module_path!()` of the test file.
    pub module: &'static str,
}

impl TestTarget {
    /// The test target's name, from the binary's file name (`conformance-0123abcd` →
    /// `conformance`), else the test file's stem.
    pub(crate) fn name(&self) -> String {
        let binary = std::env::args().next().unwrap_or_default();
        let stem = Path::new(&binary)
            .file_stem()
            .and_then(|s| s.to_str())
            .map(str::to_owned)
            .unwrap_or_else(|| self.module.to_owned());
        match stem.rsplit_once('-') {
            Some((name, hash)) if hash.chars().all(|c| c.is_ascii_hexdigit()) => name.to_owned(),
            _ => stem,
        }
    }

    /// The folder of the test file (`file!()` is relative to the workspace root, an
    /// ancestor of the manifest folder).
    fn dir(&self) -> PathBuf {
        let file = Path::new(self.file);
        let found = Path::new(self.manifest_dir)
            .ancestors()
            .map(|root| root.join(file))
            .find(|path| path.is_file())
            .unwrap_or_else(|| Path::new(self.manifest_dir).join(file));
        found
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from(self.manifest_dir))
    }

    /// Where insta keeps the snapshot `name` of this gate.
    fn snapshot_file(&self, gate: &Gate, name: &str) -> PathBuf {
        match gate.snapshot_dir() {
            Some(dir) => self.dir().join(dir).join(format!("{name}.snap")),
            None => self
                .dir()
                .join("snapshots")
                .join(format!("{}__{name}.snap", self.module.replace("::", "__"))),
        }
    }
}

/// The thread snapshots are pinned on: its panics are expected and not printed.
pub(crate) const PIN_THREAD: &str = "memory-conformance-recall-snapshot";

/// Observes the gate's recall and pins it with `pin` (insta's `assert_snapshot!`, expanded in
/// the calling crate); `Err` says which snapshots are missing or changed, and what to do.
pub(crate) fn pin_recall(
    gate: &Gate,
    target: &TestTarget,
    pin: &(dyn Fn(&str, &str) + Send + Sync),
) -> Result<(), String> {
    let pins = gate
        .observe_recall()
        .map_err(|problem| format!("observing the recall {problem}"))?;
    let stem = gate.subject().file_stem();
    let mut missing = Vec::new();
    let mut changed = Vec::new();
    // Every snapshot is checked even when the first differs, so one review sees them all.
    for (name, text) in pins
        .into_iter()
        .map(|(suffix, text)| (format!("{stem}_{suffix}"), text))
    {
        let file = target.snapshot_file(gate, &name);
        let existed = file.is_file();
        let pinned = std::thread::scope(|scope| {
            std::thread::Builder::new()
                .name(PIN_THREAD.into())
                .spawn_scoped(scope, || {
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| pin(&name, &text)))
                })
                .map(|handle| handle.join())
        });
        match pinned {
            Ok(Ok(Ok(()))) => {}
            Ok(Ok(Err(payload))) | Ok(Err(payload)) => {
                let detail = panic_message(payload);
                if existed {
                    changed.push((file, detail));
                } else {
                    missing.push(file);
                }
            }
            Err(err) => return Err(format!("cannot start a thread to pin {name}: {err}")),
        }
    }
    if missing.is_empty() && changed.is_empty() {
        return Ok(());
    }
    Err(advice(gate, target, &missing, &changed))
}

fn advice(
    gate: &Gate,
    target: &TestTarget,
    missing: &[PathBuf],
    changed: &[(PathBuf, String)],
) -> String {
    let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "0" && v != "false");
    let install = "cargo-insta is installed with `cargo install cargo-insta --locked`";
    let rerun = format!("cargo test -p {} --test {}", target.package, target.name());
    let mut lines = Vec::new();
    for file in missing {
        lines.push(format!(
            "no recall snapshot of backend {:?} is pinned yet at {}",
            gate.subject().backend(),
            file.display()
        ));
    }
    for (file, detail) in changed {
        lines.push(format!("the recall differs from the snapshot pinned at {} ({detail}; the difference is printed above)", file.display()));
    }
    if ci {
        lines.push(format!(
            "CI writes no snapshot: run `{rerun}` locally, review what it writes with `cargo insta review` ({install}), and commit the accepted `.snap` files"
        ));
    } else {
        lines.push(format!(
            "insta wrote the new recall beside each as `.snap.new`: review it with `cargo insta review` ({install}), or accept it with `cargo insta accept`, then commit the `.snap` files; `{rerun}` checks again"
        ));
    }
    lines.join("\n")
}
