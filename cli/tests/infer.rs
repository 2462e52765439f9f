//! `memory-conformance infer` writes the profile a backend declares: checked on the kit's own
//! bridge child (the reference over plain dicts) and on a bundled backend.

use std::path::Path;
use std::process::{Command, Output};

use memory_conformance::conformance::ProfileFile;
use memory_conformance::profile::Profile;

fn infer(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_memory-conformance"))
        .arg("infer")
        .args(args)
        .output()
        .expect("the binary runs")
}

/// The inferred profile, read back from the profile file `infer` printed.
fn inferred(output: &Output) -> Profile {
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    ProfileFile::parse(&stdout)
        .unwrap_or_else(|err| panic!("infer printed no profile file: {err}\n{stdout}"))
        .profile
}

/// Every dimension, leaving out the name and the provenance.
fn dimensions(profile: &Profile) -> Profile {
    let mut profile = profile.clone().named("compared");
    profile.provenance = String::new();
    profile
}

#[test]
fn a_bridged_reference_is_inferred_as_the_reference() {
    let bridge =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/bridge_children/reference_bridge.py");
    let output = infer(&[
        "--cases",
        "8",
        "--name",
        "dicts",
        "--",
        "python3",
        bridge.to_str().unwrap(),
    ]);
    let profile = inferred(&output);
    assert_eq!(profile.name, "dicts");
    assert_eq!(dimensions(&profile), dimensions(&Profile::reference()));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("# readd: replace (every case of replace.readd_replaces"),
        "each dimension names the rules that decided it:\n{stdout}"
    );
}

#[test]
fn a_bundled_backend_is_inferred_as_it_declares() {
    let profile = inferred(&infer(&["--backend", "sqlite-fts5", "--cases", "32"]));
    assert_eq!(
        dimensions(&profile),
        dimensions(memory_sqlite_fts5::gate().subject().profile())
    );
}

#[test]
fn a_bridge_that_cannot_start_exits_2_naming_the_command() {
    let output = infer(&["--", "/nonexistent/bridge"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("/nonexistent/bridge"), "{stderr}");
}

#[test]
fn a_value_that_implies_a_failing_rule_says_so() {
    let output = infer(&["--backend", "adk-rust-in-memory", "--cases", "8"]);
    let profile = inferred(&output);
    assert_eq!(
        profile.readd,
        memory_conformance::profile::Readd::ReplaceUnlessNoText
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains(
            "# readd: replace unless no text (every case of replace.readd_replaces, \
             replace.readd_as_declared held; replace.readd_with_nothing failed as this value \
             says it must)"
        ),
        "{stdout}"
    );
}
