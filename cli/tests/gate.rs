//! `memory-conformance gate`: a backend behind a bridge command gated from the command line,
//! with JUnit output, rule selection, partitions, recall snapshots in a folder, and exit codes
//! 0 (green), 1 (a test failed) and 2 (bad input, or the backend could not start).

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use support::text;

/// The kit's own bridge child: the reference over plain dicts, in Python's standard library.
fn bridge() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/bridge_children/reference_bridge.py")
}

fn gate(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_memory-conformance"))
        .arg("gate")
        .args(args)
        .arg("--")
        .arg("python3")
        .arg(bridge())
        .output()
        .expect("the binary runs")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mc-gate-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_bridged_backend_is_gated_and_its_recall_pinned_after_review() {
    let dir = scratch("snapshots");
    let snapshots = dir.join("snapshots");
    let junit = dir.join("gate.xml");
    let args = [
        "--profile",
        "reference",
        "--backend",
        "dicts",
        "--cases",
        "8",
        "--seed",
        "5",
        "--snapshots",
        snapshots.to_str().unwrap(),
        "--junit",
        junit.to_str().unwrap(),
    ];
    let first = gate(&args);
    let stdout = text(&first.stdout);
    assert_eq!(
        first.status.code(),
        Some(1),
        "{stdout}{}",
        text(&first.stderr)
    );
    assert!(
        stdout.contains("test dicts::key.isolation ... ok"),
        "{stdout}"
    );
    assert!(
        stdout.contains("test dicts::durability.reopen ... ignored, the profile does not declare durable storage"),
        "{stdout}"
    );
    assert!(stdout.contains("no recall is pinned at"), "{stdout}");
    assert!(
        stdout.contains(
            "test result: FAILED. 29 passed; 1 failed; 4 ignored; 0 measured; 0 filtered out"
        ),
        "{stdout}"
    );
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert_eq!(xml.matches("<testcase ").count(), 34, "{xml}");
    assert!(
        xml.contains("tests=\"34\" failures=\"1\" skipped=\"4\""),
        "{xml}"
    );
    assert!(
        xml.contains(
            "name=\"dicts::snapshot.recall\">\n      <failure message=\"no recall is pinned"
        ),
        "{xml}"
    );

    let review = Command::new(env!("CARGO_BIN_EXE_memory-conformance"))
        .args(["snapshot", "review"])
        .arg(&snapshots)
        .output()
        .unwrap();
    assert!(
        text(&review.stdout).contains("+| coffee |"),
        "{}",
        text(&review.stdout)
    );
    let accept = Command::new(env!("CARGO_BIN_EXE_memory-conformance"))
        .args(["snapshot", "accept"])
        .arg(&snapshots)
        .output()
        .unwrap();
    assert!(accept.status.success());
    assert!(snapshots.join("dicts.recall.md").is_file());

    let second = gate(&args);
    let stdout = text(&second.stdout);
    assert_eq!(second.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("test dicts::snapshot.recall ... ok"),
        "{stdout}"
    );
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(
        xml.contains("tests=\"34\" failures=\"0\" skipped=\"4\""),
        "{xml}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The summary says how many lexicon queries the cases drew from each generator, beside its
/// declared share, in text and in JSON.
#[test]
fn the_summary_reports_the_lexicon_draws_of_each_generator() {
    let args = ["--profile", "reference", "--cases", "8", "--seed", "7"];
    let args = [&args[..], &["--rules", "query.multi_word"]].concat();
    let out = gate(&[&args[..], &["--format", "json"]].concat());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let draws = json["lexicon_draws"].as_array().unwrap();
    let names: Vec<&str> = draws
        .iter()
        .map(|d| d["generator"].as_str().unwrap())
        .collect();
    let declared: Vec<&str> = memory_conformance::conformance::rules::lexicon_generators()
        .into_iter()
        .map(|(name, _)| name)
        .collect();
    assert_eq!(names, declared);
    let total: u64 = draws.iter().map(|d| d["draws"].as_u64().unwrap()).sum();
    assert_eq!(total, 8, "{draws:?}");
    assert!(draws.iter().all(|d| d["share"].as_u64().unwrap() > 0));
    let out = gate(&args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let summary = text(&out.stdout);
    assert!(
        summary.contains("\n  lexicon draws    8 queries: plain "),
        "{summary}"
    );
}

#[test]
fn rules_and_partitions_select_tests_and_json_says_what_ran() {
    let out = gate(&[
        "--profile",
        "reference",
        "--cases",
        "4",
        "--rules",
        "key.*",
        "--format",
        "json",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let names: Vec<&str> = json["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "reference::key.isolation",
            "reference::key.no_separator_collision"
        ]
    );
    assert_eq!(json["filtered_out"], 31);
    assert_eq!(json["passed"], 2);

    let halves: Vec<usize> = ["1/2", "2/2"]
        .iter()
        .map(|part| {
            let out = gate(&[
                "--profile",
                "reference",
                "--cases",
                "2",
                "--partition",
                part,
                "--format",
                "json",
            ]);
            assert!(out.status.success(), "{}", text(&out.stderr));
            let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            json["tests"].as_array().unwrap().len()
        })
        .collect();
    assert_eq!(halves, [17, 16]);
}

#[test]
fn a_profile_that_does_not_describe_the_backend_fails_with_the_reason() {
    // ADK JS's profile joins app and user with "/", so it implies that pairs which join to one
    // string share a store; the reference keeps them apart, so the implied violation is gone.
    let out = gate(&[
        "--profile",
        "adk-js",
        "--cases",
        "8",
        "--seed",
        "1",
        "--rules",
        "key.no_separator_collision",
    ]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("test [known-violation] adk-js::key.no_separator_collision ... FAILED"),
        "{stdout}"
    );
    assert!(
        stdout.contains("no longer describes the backend; correct the profile"),
        "{stdout}"
    );
}

#[test]
fn a_failing_rule_prints_the_command_that_reproduces_it() {
    let out = gate(&[
        "--profile",
        "adk-python",
        "--backend",
        "dicts",
        "--cases",
        "16",
        "--seed",
        "2",
        "--rules",
        "punctuation.query",
    ]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains(
            "rule punctuation.query failed for backend \"dicts\" (profile \"adk-python\")"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("reproduce: memory-conformance gate --profile adk-python --backend dicts --rules punctuation.query --seed 2 --cases 16 -- python3"),
        "{stdout}"
    );
}

#[test]
fn bad_input_and_a_backend_that_cannot_start_exit_2_with_the_reason() {
    let cases: [(&[&str], &str); 4] = [
        (&["--profile", "nope"], "no profile is called \"nope\""),
        (
            &[
                "--profile",
                "reference",
                "--known-violation",
                "key.isolation",
            ],
            "is not RULE=REASON",
        ),
        (
            &[
                "--profile",
                "reference",
                "--known-violation",
                "key.isolate=typo",
            ],
            "\"key.isolate\", which is not a rule id",
        ),
        (
            &["--profile", "reference", "--rules", "keys.*"],
            "--rules \"keys.*\" matches no test",
        ),
    ];
    for (args, expected) in cases {
        let out = gate(args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
    let missing = Command::new(env!("CARGO_BIN_EXE_memory-conformance"))
        .args([
            "gate",
            "--profile",
            "reference",
            "--",
            "/nonexistent/bridge",
        ])
        .output()
        .unwrap();
    let stderr = text(&missing.stderr);
    assert_eq!(missing.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("the bridge `/nonexistent/bridge` could not start"),
        "{stderr}"
    );
}

#[test]
fn a_profile_file_declares_the_profile_its_known_violations_and_the_gate_options() {
    let dir = scratch("profile-file");
    let file = dir.join("dicts.toml");
    // The file declares a known violation the dict reference does not have: the file's
    // violations and gate options apply, so the violation shows as gone after 4 cases.
    std::fs::write(
        &file,
        "format = 1\nextends = \"reference\"\nname = \"dicts\"\n\n[[known_violation]]\nrule = \"result.fidelity\"\nreason = \"claimed, not true\"\n\n[gate]\ncases = 4\nseed = 9\n",
    )
    .unwrap();
    let out = gate(&["--profile", file.to_str().unwrap(), "--rules", "result.*"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains("test [known-violation] dicts::result.fidelity ... FAILED"),
        "{stdout}"
    );
    assert!(stdout.contains("the rule now holds (4 cases)"), "{stdout}");
    assert!(
        stdout.contains("test dicts::result.limit ... ok"),
        "{stdout}"
    );

    // Declared a race instead, the same violation passes while it does not show, and says so.
    std::fs::write(
        &file,
        "format = 1\nextends = \"reference\"\nname = \"dicts\"\n\n[[known_violation]]\nrule = \"result.fidelity\"\nreason = \"a race\"\nintermittent = true\n\n[gate]\ncases = 4\nseed = 9\n",
    )
    .unwrap();
    let racy = gate(&["--profile", file.to_str().unwrap(), "--rules", "result.*"]);
    let stdout = text(&racy.stdout);
    assert_eq!(
        racy.status.code(),
        Some(0),
        "{stdout}{}",
        text(&racy.stderr)
    );
    assert!(
        stdout.contains("test [known-violation] dicts::result.fidelity ... ok"),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "dicts::result.fidelity intermittent violation, not shown in this run: a race"
        ),
        "{stdout}"
    );

    let show = Command::new(env!("CARGO_BIN_EXE_memory-conformance"))
        .args(["profile", "show"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        text(&show.stdout).starts_with("profile dicts (extends reference)"),
        "{}",
        text(&show.stdout)
    );

    std::fs::write(
        &file,
        "format = 1\nextends = \"reference\"\nreadd = \"upsert\"\n",
    )
    .unwrap();
    let bad = gate(&["--profile", file.to_str().unwrap()]);
    let stderr = text(&bad.stderr);
    assert_eq!(bad.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(
            "dicts.toml: line 3, column 9 (`readd = \"upsert\"`): unknown variant `upsert`"
        ),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The example a Python team copies declares exactly the bundled preset of ADK Python's SQLite
/// service, with no known violation declared by hand, so the example and the report's column
/// are the same claim.
#[test]
fn the_python_example_declares_the_bundled_sqlite_preset() {
    use memory_conformance::conformance::ProfileFile;
    use memory_conformance::profile::Profile;
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples/gate-adk-python-sqlite/profile.toml");
    let file = ProfileFile::read(&path).unwrap();
    let preset = Profile::adk_python_sqlite();
    assert_eq!(
        file.profile
            .clone()
            .with_provenance(preset.provenance.clone()),
        preset
    );
    assert_eq!(file.known_violations, []);
}

/// A backend whose store takes 0.5 s to open (the reference bridge told to sleep on every
/// open), gated under `--budget 45s`: about 6,000 cases would take an hour; under the budget
/// the command ends within 45 s on the test's own clock, every rule ran at least one case,
/// and the summary says what ran and that opening is slow. The budget is judged on the
/// machine's clock on purpose, since that is what it bounds; the rules adapt to the machine's
/// speed, and one case of every rule takes under 20 s even on a busy machine.
#[test]
fn a_budget_bounds_a_gate_whose_store_opens_slowly() {
    let budget = Duration::from_secs(45);
    let started = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_memory-conformance"))
        .args([
            "gate",
            "--profile",
            "reference",
            "--budget",
            "45s",
            "--format",
            "json",
        ])
        .arg("--")
        .arg("python3")
        .arg(bridge())
        .args(["--open-seconds", "0.5"])
        .output()
        .expect("the binary runs");
    let took = started.elapsed();
    assert!(
        out.status.success(),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    assert!(
        took <= budget,
        "the gate took {took:?}, over its budget of {budget:?}"
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let spent = &json["spent"];
    let number = |field: &str| {
        spent[field]
            .as_f64()
            .unwrap_or_else(|| panic!("{field} in {spent}"))
    };
    assert_eq!(number("budget_seconds"), 45.0);
    let passed = json["passed"].as_f64().unwrap();
    assert!(passed >= 25.0, "{json}");
    assert!(
        number("cases") >= passed && number("cases") < number("planned_cases") / 10.0,
        "every passing rule runs a case, and far fewer than planned: {spent}"
    );
    let average_open = number("opening_seconds") / number("stores_opened");
    assert!((0.5..1.0).contains(&average_open), "{spent}");
    let lines = Command::new(env!("CARGO_BIN_EXE_memory-conformance"))
        .args([
            "gate",
            "--profile",
            "reference",
            "--budget",
            "1s",
            "--rules",
            "key.isolation",
        ])
        .arg("--")
        .arg("python3")
        .arg(bridge())
        .args(["--open-seconds", "0.2"])
        .output()
        .expect("the binary runs");
    let summary = text(&lines.stdout);
    assert!(lines.status.success(), "{summary}");
    assert!(
        summary.contains("  budget 1.0 s: the passing rules ran 1 of their 256 planned cases, in "),
        "{summary}"
    );
    assert!(
        summary.contains("  slow opening: a store took 0.2"),
        "{summary}"
    );
}

#[test]
fn a_budget_that_is_not_a_duration_is_refused_with_examples() {
    for bad in ["5x", "m", "0s", "1.5m"] {
        let out = gate(&["--profile", "reference", "--budget", bad]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        let err = text(&out.stderr);
        assert!(
            err.contains(&format!(
                "{bad:?} is not a duration such as 90s, 5m, 1h or 1m30s"
            )),
            "{err}"
        );
    }
}

#[test]
fn the_outputs_name_the_rule_set_a_profile_file_pins_and_a_wrong_pin_is_refused() {
    let dir = scratch("rules-as-of");
    let file = dir.join("pinned.toml");
    std::fs::write(
        &file,
        "format = 1\nextends = \"reference\"\nname = \"pinned\"\n\n[gate]\ncases = 2\nrules_as_of = \"0.1\"\n",
    )
    .unwrap();
    let junit = dir.join("gate.xml");
    let profile = file.to_str().unwrap();
    let out = gate(&[
        "--profile",
        profile,
        "--rules",
        "key.*",
        "--junit",
        junit.to_str().unwrap(),
    ]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains("\n  rules 0.1 (pinned by rules_as_of; this kit's are 0.1)\n"),
        "{stdout}"
    );
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(
        xml.contains("<property name=\"rule_set\" value=\"0.1\"/>"),
        "{xml}"
    );

    let out = gate(&["--profile", profile, "--rules", "key.*", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (&json["rule_set"], &json["rules_pinned"]),
        (&"0.1".into(), &true.into())
    );
    let out = gate(&[
        "--profile",
        "reference",
        "--cases",
        "2",
        "--rules",
        "key.*",
        "--format",
        "json",
    ]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (&json["rule_set"], &json["rules_pinned"]),
        (&"0.1".into(), &false.into())
    );

    std::fs::write(
        &file,
        "format = 1\nextends = \"reference\"\n\n[gate]\nrules_as_of = \"0.1.0\"\n",
    )
    .unwrap();
    let out = gate(&["--profile", profile]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "{profile}: field `gate.rules_as_of`: expected a rule-set version MAJOR.MINOR from 0.1 to 0.1 (this kit's), like \"0.1\"; got \"0.1.0\""
        )),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_rules_as_of_flag_pins_the_rule_set_and_refuses_one_the_kit_does_not_have() {
    let out = gate(&[
        "--profile",
        "reference",
        "--cases",
        "2",
        "--rules",
        "key.*",
        "--rules-as-of",
        "0.1",
        "--format",
        "json",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (&json["rule_set"], &json["rules_pinned"]),
        (&"0.1".into(), &true.into())
    );
    assert!(
        json["tests"]
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t["new_rule"] == false)
    );

    let out = gate(&["--profile", "reference", "--rules-as-of", "latest"]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("'--rules-as-of <VERSION>': expected a rule-set version MAJOR.MINOR"),
        "{stderr}"
    );
}

#[test]
fn the_version_names_the_rule_set_and_its_count_of_rules() {
    let out = Command::new(env!("CARGO_BIN_EXE_memory-conformance"))
        .arg("--version")
        .output()
        .expect("the binary runs");
    assert!(out.status.success());
    let rules = memory_conformance::conformance::rules::catalogue().len();
    assert_eq!(
        text(&out.stdout),
        format!(
            "memory-conformance {} (rules {}, {rules} rules)\n",
            env!("CARGO_PKG_VERSION"),
            memory_conformance::conformance::RuleSetVersion::CURRENT
        )
    );
}
