//! Recall quality from the command line: a gate's declared recall floor fails when recall
//! drops below it. (`compare` and `benchmark` over the bundled backends are the project's own
//! tool's tests.)

mod support;

use std::path::{Path, PathBuf};
use std::process::{ExitCode, Output};

use libtest_mimic::{Arguments, Failed, Trial};

use support::{run, text};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mc-recall-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A bridged backend's profile file declares a recall floor: the gate's `recall.floor` test
/// passes at the reference's recall and fails above it, naming the questions not answered.
fn a_declared_floor_fails_below_it() -> Result<(), Failed> {
    let dir = scratch("floor");
    let bridge =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/bridge_children/reference_bridge.py");
    let gate = |floor: &str| -> Output {
        let profile = dir.join("profile.toml");
        std::fs::write(
            &profile,
            format!("format = 1\nextends = \"reference\"\nname = \"dicts\"\n[gate]\n{floor}"),
        )
        .unwrap();
        run(&[
            "gate",
            "--profile",
            profile.to_str().unwrap(),
            "--rules",
            "recall.floor",
            "--",
            "python3",
            bridge.to_str().unwrap(),
        ])
    };
    // The reference finds 30% of the answers within the first five (BEHAVIOUR.md).
    let out = gate("recall_at_5 = 0.25\n");
    let stdout = text(&out.stdout);
    if out.status.code() != Some(0) || !stdout.contains("test dicts::recall.floor ... ok") {
        return Err(format!(
            "the reference meets a floor below its recall:\n{stdout}{}",
            text(&out.stderr)
        )
        .into());
    }
    let out = gate("recall_at_5 = 0.25\n[gate.recall_at_5_by_kind]\nnumber-id = 0.5\n");
    let stdout = text(&out.stdout);
    let wanted = [
        "test dicts::recall.floor ... FAILED",
        "dicts falls below its declared recall floor on the recall benchmark version 1: recall@5 on number-id is",
        "q-014 (number-id) \"BS2 9QX\": no answer returned; answered by ana-02-07, ana-02-08",
        "declared: recall@5 at least 0.25 overall, 0.50 on number-id",
    ];
    if out.status.code() != Some(1) || wanted.iter().any(|w| !stdout.contains(w)) {
        return Err(format!(
            "a floor above the recall fails, naming the questions lost:\n{stdout}{}",
            text(&out.stderr)
        )
        .into());
    }
    if stdout.contains("(paraphrase)") {
        return Err(
            format!("a floor on one kind names only that kind's questions:\n{stdout}").into(),
        );
    }
    std::fs::remove_dir_all(&dir)
        .map_err(|err| format!("cannot remove {}: {err}", dir.display()))?;
    Ok(())
}

fn main() -> ExitCode {
    let trials = vec![Trial::test(
        "floor::a_declared_floor_fails_below_it",
        a_declared_floor_fails_below_it,
    )];
    libtest_mimic::run(&Arguments::from_args(), trials).exit_code()
}
