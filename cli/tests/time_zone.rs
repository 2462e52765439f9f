//! The zone naive timestamps are checked in: a profile with `timestamps = "naive-isoformat"`
//! is checked as wall-clock time in UTC, and the kit starts every bridge child with `TZ=UTC`, so
//! a bridge writing local time (as ADK Python's services do) passes on a machine set to any zone.
//!
//! The machine's zone here is `EST5`, five hours west of UTC (a POSIX zone: no tzdata needed).
//! The bridge is `tests/bridge_children/naive_local_time_bridge.py`: the reference child writing
//! each entry's timestamp as `datetime.fromtimestamp(t).isoformat()`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const MACHINE_ZONE: &str = "EST5";

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the CLI is a workspace member")
        .to_path_buf()
}

/// `memory-conformance gate` run in [`MACHINE_ZONE`], rule `result.fidelity` only, against the
/// naive-local-time bridge started by `launcher` (program and arguments put before `python3`).
fn gate(test: &str, launcher: &[&str]) -> Output {
    let dir = std::env::temp_dir().join(format!("mc-time-zone-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let profile = dir.join("naive-local-time.toml");
    std::fs::write(
        &profile,
        "format = 1\nextends = \"reference\"\nname = \"naive-local-time\"\ntimestamps = \"naive-isoformat\"\n",
    )
    .expect("the profile file");
    let bridge = repository().join("tests/bridge_children/naive_local_time_bridge.py");
    let output = Command::new(env!("CARGO_BIN_EXE_memory-conformance"))
        .env("TZ", MACHINE_ZONE)
        .args(["gate", "--profile"])
        .arg(&profile)
        .args([
            "--rules",
            "result.fidelity",
            "--cases",
            "32",
            "--seed",
            "1",
            "--",
        ])
        .args(launcher)
        .arg("python3")
        .arg(&bridge)
        .output()
        .expect("the memory-conformance command runs");
    let _ = std::fs::remove_dir_all(&dir);
    output
}

fn shown(output: &Output) -> String {
    format!(
        "exit {}\nstdout:\n{}\nstderr:\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

#[test]
fn a_bridge_writing_local_time_passes_on_a_machine_west_of_utc() {
    let output = gate("kit-zone", &[]);
    assert!(
        output.status.success()
            && String::from_utf8_lossy(&output.stdout)
                .contains("test naive-local-time::result.fidelity ... ok"),
        "the kit must start the bridge in UTC whatever the machine's zone ({MACHINE_ZONE}):\n{}",
        shown(&output)
    );
}

#[test]
fn the_same_bridge_run_in_the_machines_zone_by_its_own_command_fails_result_fidelity() {
    // The command sets TZ itself, after the kit: the child writes EST5 wall-clock time, which is
    // not UTC, and result.fidelity says so. This is why the kit sets the zone.
    let output = gate("own-zone", &["env", &format!("TZ={MACHINE_ZONE}")]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.code() == Some(1)
            && stdout.contains("test naive-local-time::result.fidelity ... FAILED")
            && stdout.contains("2025-12-31T19:00:00"),
        "a child in {MACHINE_ZONE} writes local time five hours behind UTC, which result.fidelity must reject:\n{}",
        shown(&output)
    );
}
