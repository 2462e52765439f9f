//! The seed's worked example, step by step, through the command line: from session files in
//! every format, and from log lines alone. (From the real packages' own dumps and ADK
//! Python's session database: `real_adk_sessions.rs`.)

mod support;

use support::{Scratch, assert_worked_example, diagnose_json, fixtures, run, text};

fn fixture(name: &str) -> String {
    fixtures().join(name).display().to_string()
}

/// The worked example from the session files `FORMAT.before.json` and `FORMAT.after.json`.
fn assert_from_session_files(format: &str) {
    let before = fixture(&format!("{format}.before.json"));
    let after = fixture(&format!("{format}.after.json"));
    assert_worked_example(&["--session", &before], &["--session", &after]);
}

#[test]
fn from_the_kits_own_json() {
    assert_from_session_files("kit");
}

#[test]
fn from_adk_java_jackson_json() {
    assert_from_session_files("adk-java");
}

#[test]
fn from_adk_rust_serde_json() {
    assert_from_session_files("adk-rust");
}

/// Dumps the real packages wrote (`tests/fixtures/real/README.md`), kept in the repository.
#[test]
fn from_dumps_of_the_real_packages() {
    for (before, after, flag) in [
        (
            "real/adk-python.before.alias.json",
            "real/adk-python.after.alias.json",
            "--session",
        ),
        (
            "real/adk-python.before.json",
            "real/adk-python.after.json",
            "--session",
        ),
        (
            "real/adk-python.before.db",
            "real/adk-python.after.db",
            "--database",
        ),
        (
            "real/adk-js.before.json",
            "real/adk-js.after.json",
            "--session",
        ),
    ] {
        let (before, after) = (fixture(before), fixture(after));
        assert_worked_example(&[flag, &before], &[flag, &after]);
    }
}

#[test]
fn formats_are_detected() {
    for (file, format) in [
        ("kit.after.json", "memory-conformance JSON"),
        ("adk-java.after.json", "ADK Java JSON (Jackson)"),
        ("adk-rust.after.json", "ADK-Rust JSON (serde)"),
        ("real/adk-js.after.json", "ADK JS JSON (JSON.stringify)"),
        (
            "real/adk-python.after.json",
            "ADK Python JSON (model_dump_json)",
        ),
        (
            "real/adk-python.after.alias.json",
            "ADK Python JSON (model_dump_json by_alias, as its API server returns it)",
        ),
    ] {
        let path = fixture(file);
        let (_, out) = diagnose_json(&[
            "--session",
            &path,
            "--app",
            "support",
            "--user",
            "u-42",
            "--query",
            "coffee",
        ]);
        assert_eq!(out["sources"][0]["format"], format, "{file}");
        assert_eq!(out["sources"][0]["skipped_parts"], 0, "{file}");
        assert_eq!(out["verdict"], "WriteNotKnown", "{file}: {out:#}");
    }
}

#[test]
fn sessions_from_standard_input() {
    use std::io::Write as _;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_memory-conformance"))
        .args([
            "diagnose",
            "--session",
            "-",
            "--app",
            "support",
            "--user",
            "u-42",
        ])
        .args(["--query", "coffee preference?"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let json = std::fs::read_to_string(fixture("adk-java.before.json")).unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(json.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).contains("verdict: checks 1 and 2 are not known from sessions"),
        "{}",
        text(&out.stdout)
    );
}

const GUIDE_BEFORE: &str = r#"diagnosis of a search under "support"/"u-42" for "coffee preference?": 0 hits
1. written?          yes: 1 session (4 events) under 1 key
2. right key?        NO: nothing was written under "support"/"u-42"
                     near miss: "support"/"42" (prefix on a numeric id), 1 session
3. match rules?      yes: 1 of 2 tokens can match
                     dead: "preference?": "?" stays on the query token but separates stored words
4. indexed text?     not reached
verdict: check 2 fails: the writer and the reader use different keys. Build the app name and user id in one shared function used by every writer and reader.
"#;

const GUIDE_AFTER: &str = r#"diagnosis of a search under "support"/"u-42" for "Where's order 4417?": 0 hits
1. written?          yes: 1 session (4 events) under 1 key
2. right key?        yes: 1 session under "support"/"u-42"
3. match rules?      yes: 1 of 3 tokens can match
                     dead: "where's": "'" stays on the query token but separates stored words
                     dead: "4417?": "4" is a digit; digits are never stored words
4. indexed text?     NO: 3 of 4 events under this key carry no text; facts only in them can never be found
                     from counts only: diagnose the sessions themselves to see where the query's words are
verdict: check 4 plus check 3: the fact is stored only where the index does not read (tool data, inline data, session state), and the query token that names it can never match. Have the agent restate the fact in text, and move to a retrieval backend that indexes digits and normalises punctuation.
"#;

/// `diagnose --log LOG`, which exits 1 (nothing was found): its whole output, and the
/// diagnosis after the first blank line.
fn diagnose_log(log: &str) -> (String, String) {
    let out = run(&["diagnose", "--log", log]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    let diagnosis = stdout
        .split_once("\n\n")
        .map(|(_, d)| d.to_owned())
        .unwrap_or_default();
    (stdout, diagnosis)
}

/// Steps 1 to 3 from the guide's own log lines: the plugin's `memory.query` shows one dead
/// token (coffee can match), the decorator's `memory.search` shows 0 hits under support/u-42,
/// and the `memory.write` line shows Monday's write under support/42: check 2.
#[test]
fn steps_1_to_3_from_the_guides_log_lines() {
    let log = fixture("guide.before.log");
    let (stdout, diagnosis) = diagnose_log(&log);
    assert_eq!(diagnosis, GUIDE_BEFORE, "{stdout}");
    assert!(stdout.starts_with(&format!(
        "read {log}: the debugging guide's decorator, 3 memory records"
    )));
}

/// Step 4 from log lines: after the fix the coffee is found; the order number still is not,
/// and from counts alone that is check 4 plus check 3.
#[test]
fn step_4_from_the_guides_log_lines() {
    let log = fixture("guide.after.log");
    let (stdout, diagnosis) = diagnose_log(&log);
    assert_eq!(diagnosis, GUIDE_AFTER, "{stdout}");

    let (code, out) = diagnose_json(&[
        "--log",
        &log,
        "--app",
        "support",
        "--user",
        "u-42",
        "--query",
        "coffee preference?",
    ]);
    assert_eq!(out["verdict"], "Found", "{out:#}");
    assert_eq!(code, Some(0));
}

#[test]
fn the_kits_own_tracing_output_plain_and_json() {
    for format in ["kit-plain", "kit-json"] {
        let before = fixture(&format!("{format}.before.log"));
        let (code, out) = diagnose_json(&["--log", &before]);
        assert_eq!(out["verdict"], "WrongKey", "{format}: {out:#}");
        assert_eq!(code, Some(1));
        let near = &out["diagnosis"]["right_key"]["near_misses"][0]["key"];
        assert_eq!(
            (near["app_name"].as_str(), near["user_id"].as_str()),
            (Some("support"), Some("42"))
        );
        assert_eq!(out["diagnosis"]["match_rules"]["logged"]["tokens"], 2);
        assert_eq!(out["diagnosis"]["match_rules"]["logged"]["dead"], 1);

        let after = fixture(&format!("{format}.after.log"));
        let (_, out) = diagnose_json(&["--log", &after]);
        assert_eq!(
            out["verdict"], "NotIndexedAndCannotMatch",
            "{format}: {out:#}"
        );
        assert_eq!(out["diagnosis"]["indexed_text"]["events_without_text"], 3);
    }
}

#[test]
fn no_write_lines_at_all_is_check_1() {
    let dir = Scratch::new("logs");
    let log = dir.join("reads-only.log");
    std::fs::write(
        &log,
        "memory.query q=coffee dead=[]\nmemory.search key=support/u-42 tokens=1 hits=0 ms=1\n",
    )
    .unwrap();
    let (code, out) = diagnose_json(&["--log", log.to_str().unwrap()]);
    assert_eq!(out["verdict"], "NothingWritten", "{out:#}");
    assert_eq!(code, Some(1));
}

#[test]
fn a_malformed_file_names_the_json_path() {
    let json = std::fs::read_to_string(fixture("adk-java.after.json")).unwrap();
    let mut value: serde_json::Value = serde_json::from_str(&json).unwrap();
    value["events"][2]["content"]["parts"][0]["functionResponse"]["name"] = serde_json::json!(7);
    let dir = Scratch::new("bad");
    let file = dir.join("bad.json");
    std::fs::write(&file, value.to_string()).unwrap();
    let out = run(&[
        "diagnose",
        "--session",
        file.to_str().unwrap(),
        "--app",
        "a",
        "--user",
        "u",
        "--query",
        "q",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert_eq!(
        stderr.trim_end(),
        format!(
            "memory-conformance: {}: $.events[2].content.parts[0].functionResponse.name: expected the function's name (a string), found the number 7",
            file.display()
        )
    );
}

#[test]
fn explain_under_a_profile() {
    let out = run(&["explain", "--profile", "adk-python", "coffee?"]);
    assert_eq!(out.status.code(), Some(0));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains(r#""coffee?"  can match, as ["coffee"]"#),
        "{stdout}"
    );
    assert!(!stdout.contains("dead"), "{stdout}");

    let out = run(&["explain", "coffee?"]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "no token can match: a check fails"
    );
    assert!(text(&out.stdout).contains(r#""coffee?"  dead: "?" stays on the query token"#));

    let out = run(&[
        "explain",
        "--format",
        "json",
        "--profile",
        "adk-python",
        "coffee?",
    ]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["dead"], serde_json::json!([]));
    assert_eq!(json["tokens"][0]["terms"], serde_json::json!(["coffee"]));
    let out = run(&["explain", "--format", "json", "coffee?"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["dead"], serde_json::json!(["coffee?"]));
    assert_eq!(json["tokens"][0]["dead"]["Punctuation"], "?");
}

#[test]
fn every_preset_profile_is_accepted_and_an_unknown_one_is_bad_input() {
    for name in [
        "reference",
        "adk-python",
        "adk-python-sqlite",
        "adk-js",
        "adk-java",
        "adk-go",
        "adk-rust-in-memory",
        "adk-rust-sqlite",
        "sqlite-fts5",
    ] {
        let out = run(&["explain", "--profile", name, "coffee"]);
        assert_eq!(out.status.code(), Some(0), "{name}: {}", text(&out.stderr));
    }
    let out = run(&["explain", "--profile", "nope", "coffee"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr)
            .contains("no profile is called \"nope\"; the presets are reference, adk-java, adk-python, adk-python-sqlite, adk-js, adk-go, adk-rust-in-memory, adk-rust-sqlite, sqlite-fts5, or name a profile file (.toml)"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn diagnose_without_a_source_is_bad_input() {
    let out = run(&["diagnose", "--app", "a", "--user", "u", "--query", "q"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("nothing to diagnose"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn help_shows_an_example_for_each_subcommand() {
    for (command, example) in [
        (
            "explain",
            "memory-conformance explain \"Where's order 4417?\"",
        ),
        (
            "diagnose",
            "memory-conformance diagnose --session monday.json",
        ),
        ("diagnose", "memory-conformance diagnose --log app.log"),
        (
            "diagnose",
            "memory-conformance diagnose --database sessions.db",
        ),
    ] {
        let out = run(&[command, "--help"]);
        let stdout = text(&out.stdout);
        assert!(
            stdout.contains(example),
            "{command} --help lacks {example:?}:\n{stdout}"
        );
    }
    let diagnose = text(&run(&["diagnose", "--help"]).stdout);
    assert!(
        diagnose.contains("0 when nothing wrong is found, 1 when a check fails or no search was")
    );
}

/// google-adk 1.18's session database (schema version 0: the event's fields in columns) is read
/// as version 1 is: the recorded search, and the content for check 4.
#[test]
fn an_older_schema_version_0_database_is_read() {
    let database = fixtures().join("real/adk-python-1.18.key-fixed.db");
    let (code, out) = diagnose_json(&["--database", database.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{out:#}");
    assert_eq!(out["verdict"], "NotIndexed", "{out:#}");
    assert_eq!(out["diagnosis"]["query"], "Where's order 4417?", "{out:#}");
    assert_eq!(out["diagnosis"]["hits"], 0, "{out:#}");
    let order = &out["diagnosis"]["indexed_text"]["content"]["tokens"][2];
    assert_eq!(order["places"][0]["kind"], "function_response", "{out:#}");
    let database = fixtures().join("real/adk-python-1.18.wrong-key.db");
    let (_, out) = diagnose_json(&["--database", database.to_str().unwrap()]);
    assert_eq!(out["verdict"], "WriteNotKnown", "{out:#}");
    assert_eq!(out["diagnosis"]["searching_session"], "thursday", "{out:#}");
}
