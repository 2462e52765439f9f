//! `infer --backend NAME` writes the profile a bundled backend declares.

use std::process::{Command, Output};

use memory_conformance::conformance::ProfileFile;
use memory_conformance::profile::Profile;

fn infer(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_memory-conformance-bundled"))
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
fn a_bundled_backend_is_inferred_as_it_declares() {
    let profile = inferred(&infer(&["--backend", "sqlite-fts5", "--cases", "32"]));
    assert_eq!(
        dimensions(&profile),
        dimensions(memory_sqlite_fts5::gate().subject().profile())
    );
}

/// The bundled vector store (memory-vector over hashed-256) is inferred as the vector profile
/// its gate declares, every dimension.
#[test]
fn the_bundled_vector_store_is_inferred_as_it_declares() {
    let profile = inferred(&infer(&["--backend", "vector-hashed", "--cases", "16"]));
    assert_eq!(
        dimensions(&profile),
        dimensions(memory_vector::gate().subject().profile())
    );
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
