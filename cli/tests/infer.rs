//! `memory-conformance infer` writes the profile a backend declares: checked on the kit's own
//! bridge child (the reference over plain dicts). (On the bundled backends, it is the project's
//! own tool's test.)

use std::path::Path;
use std::process::{Command, Output};

use memory_conformance::conformance::ProfileFile;
use memory_conformance::profile::{Limit, Order, Profile, Retrieval, VectorSearch};

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
fn a_bridge_that_cannot_start_exits_2_naming_the_command() {
    let output = infer(&["--", "/nonexistent/bridge"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("/nonexistent/bridge"), "{stderr}");
}

/// The kit's bridge child as a store of its own kind: `args` after the script.
fn reference_bridge(args: &[&str]) -> Vec<String> {
    let bridge =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/bridge_children/reference_bridge.py");
    ["python3", bridge.to_str().unwrap()]
        .into_iter()
        .chain(args.iter().copied())
        .map(str::to_owned)
        .collect()
}

/// Gates `bridge` under the profile file `profile` (written to a scratch folder named after
/// `test`) at 64 cases: whether it passed, and its output.
fn gate_with(test: &str, profile: &str, bridge: &[String]) -> (bool, String) {
    let dir = std::env::temp_dir().join(format!("mc-infer-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("profile.toml");
    std::fs::write(&file, profile).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_memory-conformance"))
        .args(["gate", "--cases", "64", "--seed", "7", "--profile"])
        .arg(&file)
        .arg("--")
        .args(bridge)
        .output()
        .expect("the binary runs");
    let _ = std::fs::remove_dir_all(&dir);
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// A vector store through a bridge (the kit's bridge child ranking by cosine similarity over
/// hashed-256, top 10): inferred as a vector profile, named by the bridge's hello, with a line
/// of progress per dimension, and the gate is green on the profile inferred.
#[test]
fn a_bridged_vector_store_is_inferred_as_one_and_gates_green_on_its_profile() {
    let bridge = reference_bridge(&["--vector", "256"]);
    let mut args = vec!["--cases", "16", "--"];
    args.extend(bridge.iter().map(String::as_str));
    let output = infer(&args);
    let profile = inferred(&output);
    assert_eq!(
        profile.name, "reference-over-dicts",
        "named by the bridge's hello"
    );
    assert_eq!(
        profile.retrieval,
        Retrieval::Vector(VectorSearch::exact("hashed-256"))
    );
    assert_eq!(profile.limit, Limit::AtMost(10));
    assert_eq!(profile.order, Order::Relevance);
    assert!(profile.capabilities.search_limit && profile.capabilities.delete);
    let progress = String::from_utf8_lossy(&output.stderr);
    assert!(
        progress.starts_with("memory-conformance infer: deciding retrieval\n")
            && progress.contains("memory-conformance infer: deciding limit\n"),
        "{progress}"
    );
    let (green, gated) = gate_with("vector", &String::from_utf8_lossy(&output.stdout), &bridge);
    assert!(green, "{gated}");
    assert!(gated.contains("::vector.nearest_first ... ok"), "{gated}");
}

/// The same store with a similarity floor ranks in a way the kit cannot compute: no embedder
/// holds `vector.nearest_first` and no word rules fit, so it is inferred as semantic, held to
/// the contract rules, and the gate is green on that profile.
#[test]
fn a_store_with_a_similarity_floor_is_inferred_as_semantic_and_gates_green() {
    let bridge = reference_bridge(&["--vector", "256", "--floor", "0.3"]);
    let mut args = vec!["--cases", "16", "--name", "floored", "--"];
    args.extend(bridge.iter().map(String::as_str));
    let output = infer(&args);
    let profile = inferred(&output);
    assert_eq!(profile.retrieval, Retrieval::Semantic);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains(
            "# retrieval: semantic (no embedder held vector.nearest_first and no word rules fit)"
        ) && stdout.contains(
            "# tool_data: not indexed (not checked: none of index.text_only applies to the profile)"
        ),
        "{stdout}"
    );
    // Under semantic retrieval no rule of the delta, the memories or the delete can run: they
    // are printed unclaimed, saying so, though the bridge has the calls.
    assert!(
        stdout.contains("\ndelete = false  # not claimed, not checked: ")
            && stdout.contains("\nexplicit_memories = false  # not claimed, not checked: ")
            && stdout.contains("\n# events_delta is not written: not claimed, not checked: "),
        "{stdout}"
    );
    assert!(
        !profile.capabilities.delete
            && !profile.capabilities.explicit_memories
            && profile.capabilities.events_delta.is_none(),
        "{stdout}"
    );
    let (green, gated) = gate_with("floor", &stdout, &bridge);
    assert!(green, "{gated}");
}
