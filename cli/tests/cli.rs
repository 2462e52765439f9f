//! The command line as a person uses it: output, exit codes, and clear one-line errors.

mod support;

use std::path::Path;
use std::process::Output;

use support::{Scratch, run, text};

/// `diagnose` of `query` under support/u-42 in the session file `file`.
fn diagnose_support(file: &Path, query: &str) -> Output {
    run(&[
        "diagnose",
        "--session",
        file.to_str().unwrap(),
        "--app",
        "support",
        "--user",
        "u-42",
        "--query",
        query,
    ])
}

const MONDAY: &str = r#"{
  "id": "monday", "app_name": "support", "user_id": "42",
  "events": [
    {"id": "e-1", "author": "user", "timestamp": "2026-01-01T00:00:00Z",
     "content": {"role": "user", "parts": [{"text": "My favourite coffee is a flat white."}]}},
    {"id": "e-2", "author": "model", "timestamp": "2026-01-01T00:00:01Z",
     "content": {"parts": [{"function_response": {"name": "get_order", "response": {"status": "shipped"}}}]}}
  ]
}"#;

#[test]
fn explain_names_every_dead_token_and_why() {
    let out = run(&["explain", "coffee preference? 4417"]);
    assert!(out.status.success());
    let stdout = text(&out.stdout);
    assert!(stdout.contains(r#""coffee"       can match"#), "{stdout}");
    assert!(
        stdout.contains(r#""preference?"  dead: "?" stays on the query token"#),
        "{stdout}"
    );
    assert!(
        stdout.contains(r#""4417"         dead: "4" is a digit"#),
        "{stdout}"
    );
    assert!(stdout.contains("1 of 3 tokens can match"), "{stdout}");
}

#[test]
fn diagnose_walks_the_four_checks_from_session_files() {
    let dir = Scratch::new("cli-four-checks");
    let file = dir.file("monday.json", MONDAY);
    let out = diagnose_support(&file, "coffee?");
    assert_eq!(
        out.status.code(),
        Some(1),
        "a check fails: {}",
        text(&out.stderr)
    );
    let stdout = text(&out.stdout);
    assert!(stdout.contains("loaded 1 session from 1 file"), "{stdout}");
    assert!(
        stdout.contains("memory-conformance JSON, 1 session"),
        "{stdout}"
    );
    assert!(
        stdout.contains(r#"diagnosis of a search under "support"/"u-42" for "coffee?""#),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            r#"sessions are stored under a near key: "support"/"42" (prefix on a numeric id), 1 session"#
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("1. written?          not known from sessions"),
        "{stdout}"
    );
    // The query alone settles check 3.
    assert!(stdout.contains("verdict: check 3 fails"), "{stdout}");
}

#[test]
fn diagnose_reads_an_array_of_sessions() {
    let dir = Scratch::new("cli-array");
    let file = dir.file(
        "week.json",
        format!("[{MONDAY}, {}]", MONDAY.replace("\"42\"", "\"u-42\"")),
    );
    let out = diagnose_support(&file, "coffee");
    // The coffee is stored in text under the key; whether it was written to memory, sessions
    // cannot say.
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("loaded 2 sessions from 1 file"), "{stdout}");
    assert!(
        stdout.contains(r#""coffee": in text (session "monday", event "e-1"): indexed"#),
        "{stdout}"
    );
    assert!(
        stdout.contains("verdict: checks 1 and 2 are not known from sessions"),
        "{stdout}"
    );
}

fn assert_clean_error(out: &Output, expected: &[&str]) {
    assert_eq!(out.status.code(), Some(2), "exit status");
    let stderr = text(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
    assert!(stderr.starts_with("memory-conformance: "), "{stderr}");
    for part in expected {
        assert!(stderr.contains(part), "{part:?} missing from: {stderr}");
    }
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn bad_session_files_get_a_one_line_error_naming_file_and_field() {
    let dir = Scratch::new("cli-bad-files");
    let args = |file: &str| {
        run(&[
            "diagnose",
            "--session",
            file,
            "--app",
            "a",
            "--user",
            "u",
            "--query",
            "q",
        ])
    };

    let missing = std::env::temp_dir().join("memory-conformance-no-such-file.json");
    assert_clean_error(
        &args(missing.to_str().unwrap()),
        &["cannot read", "no-such-file.json", "No such file"],
    );

    let invalid = dir.file("invalid.json", "{\"id\": ");
    assert_clean_error(
        &args(invalid.to_str().unwrap()),
        &["invalid.json: not valid JSON", "line 1, column 7"],
    );

    let no_user = dir.file(
        "no-user.json",
        r#"{"id": "s", "app_name": "a", "events": []}"#,
    );
    assert_clean_error(
        &args(no_user.to_str().unwrap()),
        &[
            "no-user.json: $.user_id: missing: expected the user id (a string) (`user_id` or `userId`)",
        ],
    );

    let bad_time = dir.file(
        "bad-time.json",
        r#"{"id": "s", "app_name": "a", "user_id": "u", "events": [{"id": "e", "author": "u", "timestamp": "yesterday"}]}"#,
    );
    assert_clean_error(
        &args(bad_time.to_str().unwrap()),
        &[
            "bad-time.json: $.events[0].timestamp: expected a timestamp",
            "found a string of 9 characters that is not RFC 3339",
        ],
    );
}

#[test]
fn help_reads_well() {
    let out = run(&["--help"]);
    let stdout = text(&out.stdout);
    for command in ["gate", "explain", "diagnose"] {
        assert!(stdout.contains(command), "{stdout}");
    }
}

/// The command a user installs names the kit's reference and no other backend, and writes no
/// behaviour report: the bundled backends and the report are the project's own tool's.
#[test]
fn the_command_names_only_the_reference_and_has_no_report() {
    let out = run(&["benchmark", "--backend", "sqlite-fts5"]);
    assert_clean_error(
        &out,
        &["no bundled backend is called \"sqlite-fts5\"; the bundled backends are: reference"],
    );
    let out = run(&["report", "--backend", "reference"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stdout));
    assert!(
        text(&out.stderr).contains("unrecognized subcommand 'report'"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn diagnose_with_nothing_to_judge_says_so() {
    let dir = Scratch::new("cli-nothing");
    let empty = dir.file("none.json", "[]");
    let out = run(&["diagnose", "--session", empty.to_str().unwrap()]);
    assert_clean_error(&out, &["nothing to judge: the sources hold no session"]);
    // What list_sessions returns: sessions without their events.
    let listed = dir.file(
        "listed.json",
        r#"{"sessions": [{"id": "monday", "appName": "support", "userId": "u-42", "state": {}, "events": [], "lastUpdateTime": 1767225601.2}]}"#,
    );
    let out = diagnose_support(&listed, "coffee");
    assert_clean_error(
        &out,
        &["nothing to judge: 1 session but none holds an event"],
    );
}

#[test]
fn diagnose_without_any_search_says_none_was_made() {
    let dir = Scratch::new("cli-no-search");
    let file = dir.file("monday-only.json", MONDAY);
    let out = run(&["diagnose", "--session", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("verdict: no memory search: the agent has no load_memory tool, or the model never called it"),
        "{stdout}"
    );
}

/// A decorator's log records every search the application made: one that holds writes and
/// no search says no search was made, whether or not a query is named, never that the checks
/// pass.
#[test]
fn diagnose_on_a_log_without_any_search_says_none_was_made_whatever_the_query() {
    let dir = Scratch::new("cli-log-no-search");
    let log = dir.file(
        "writes-only.log",
        "memory.write key=support/u-42 session=monday events=4 textEvents=2\n",
    );
    let log = log.to_str().unwrap();
    for named in [
        &["--query", "coffee preference?"][..],
        &[
            "--app",
            "support",
            "--user",
            "u-42",
            "--query",
            "coffee preference?",
        ][..],
    ] {
        let out = run(&[&["diagnose", "--log", log][..], named].concat());
        let stdout = text(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(1),
            "{named:?}: {stdout}{}",
            text(&out.stderr)
        );
        assert!(
            stdout.contains(
                "verdict: no memory search: the agent has no load_memory tool, or the model never called it"
            ) && !stdout.contains("all four checks pass"),
            "{named:?}: {stdout}"
        );
        if named.len() > 2 {
            let page = std::fs::read_to_string(
                Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/diagnose.md"),
            )
            .expect("docs/diagnose.md");
            let diagnosis = stdout
                .split_once("\n\n")
                .map(|(_, d)| d)
                .unwrap_or_default();
            assert!(
                page.contains(&format!("```text\n{diagnosis}```")),
                "docs/diagnose.md lacks, as a text block, what diagnose prints:\n{diagnosis}"
            );
        }
    }
    let out = run(&[
        "diagnose", "--log", log, "--app", "support", "--user", "u-42", "--query", "coffee",
        "--format", "json",
    ]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(json["verdict"], "NoSearch", "{json}");
    assert_eq!(json["diagnosis"]["no_search_made"], true, "{json}");
    assert_eq!(json["nothing_wrong"], false, "{json}");
}

#[test]
fn diagnose_reads_a_log_with_a_bom_utf16_or_a_bad_byte_and_says_so() {
    let dir = Scratch::new("cli-encodings");
    let lines = "memory.write key=support/42 session=monday events=2 textEvents=1\n\
                 memory.query q=coffee preference? dead=[preference?]\n\
                 memory.search key=support/u-42 tokens=2 hits=0 ms=3\n";
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend(lines.as_bytes());
    let mut utf16 = vec![0xFF, 0xFE];
    utf16.extend(lines.encode_utf16().flat_map(u16::to_le_bytes));
    let mut bad = lines.as_bytes().to_vec();
    bad.splice(0..0, b"boot \xFF\n".iter().copied());
    for (name, bytes, note) in [
        ("bom.log", bom, None),
        ("utf16.log", utf16, Some("read as UTF-16 little-endian")),
        ("bad.log", bad, Some("read as UTF-8 with invalid bytes")),
    ] {
        let path = dir.file(name, bytes);
        let out = run(&["diagnose", "--log", path.to_str().unwrap()]);
        let stdout = text(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(1),
            "{name}: {stdout}{}",
            text(&out.stderr)
        );
        assert!(
            stdout.contains("verdict: check 2 fails"),
            "{name}: {stdout}"
        );
        if let Some(note) = note {
            assert!(stdout.contains(note), "{name}: {stdout}");
        }
    }
}
