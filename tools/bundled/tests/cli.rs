//! The tool's command line: the report's errors, JSON and help, and the command's own
//! subcommands beside it.

mod support;

use std::process::Output;

use support::{run, text};

fn assert_clean_error(out: &Output, expected: &[&str]) {
    assert_eq!(out.status.code(), Some(2), "exit status");
    let stderr = text(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
    assert!(
        stderr.starts_with("memory-conformance-bundled: "),
        "{stderr}"
    );
    for part in expected {
        assert!(stderr.contains(part), "{part:?} missing from: {stderr}");
    }
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn an_unknown_backend_lists_the_bundled_ones() {
    let out = run(&["report", "--backend", "nope"]);
    assert_clean_error(
        &out,
        &["no bundled backend is called \"nope\"", "reference"],
    );
}

#[test]
fn report_as_json_for_ci() {
    let out = run(&[
        "report",
        "--format",
        "json",
        "--backend",
        "reference",
        "--cases",
        "4",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    let backend = &report["backends"][0];
    assert_eq!(backend["name"], "reference");
    assert_eq!(backend["rules"][0]["rule"], "key.isolation");
    assert_eq!(backend["rules"][0]["outcome"], "pass");
    assert_eq!(
        backend["recall"]["results"][0]["hits"]["labels"][0],
        "monday#1"
    );
}

#[test]
fn help_reads_well() {
    let out = run(&["--help"]);
    let stdout = text(&out.stdout);
    for command in ["report", "explain", "diagnose"] {
        assert!(stdout.contains(command), "{stdout}");
    }
}

#[test]
fn help_shows_an_example_for_report() {
    let out = run(&["report", "--help"]);
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("memory-conformance-bundled report"),
        "report --help lacks an example:\n{stdout}"
    );
}

/// The command's sqlite-fts5 preset is a profile file it holds (so it builds no backend): the
/// file is the bundled backend's profile, byte for byte.
#[test]
fn the_command_s_sqlite_fts5_preset_is_the_backend_s_profile() {
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../cli/src/presets/sqlite-fts5.toml");
    let held = std::fs::read_to_string(&file).unwrap();
    let profile = memory_conformance::conformance::ProfileFile::of(memory_sqlite_fts5::profile());
    assert!(
        held == profile.to_toml(),
        "{} is not memory_sqlite_fts5::profile(); write this to it:\n{}",
        file.display(),
        profile.to_toml()
    );
    let shown = run(&["profile", "show", "sqlite-fts5", "--format", "toml"]);
    assert_eq!(text(&shown.stdout), held, "{}", text(&shown.stderr));
}
