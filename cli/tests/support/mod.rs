//! Running the command and reading its answers, shared by the command-line tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs the command with `args`.
pub fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_memory-conformance"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Standard output or error as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The folder of this crate's test fixtures.
pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// `diagnose ... --format json` parsed, with its exit code.
pub fn diagnose_json(args: &[&str]) -> (Option<i32>, serde_json::Value) {
    let mut all = vec!["diagnose", "--format", "json"];
    all.extend_from_slice(args);
    let out = run(&all);
    let value = serde_json::from_slice(&out.stdout).unwrap_or_else(|err| {
        panic!(
            "diagnose {args:?} did not print JSON ({err}): stdout {} stderr {}",
            text(&out.stdout),
            text(&out.stderr)
        )
    });
    (out.status.code(), value)
}

/// The seed's worked example, step by step, on one source of sessions (`source` is
/// `["--session", FILE]` or `["--database", FILE]`): `before` holds Monday's session under
/// support/42 only, `after` also (or instead) under support/u-42.
pub fn assert_worked_example(before: &[&str], after: &[&str]) {
    // Steps 1 to 3: the search under support/u-42 misses; Monday's write is under support/42.
    let mut args = before.to_vec();
    args.extend([
        "--app",
        "support",
        "--user",
        "u-42",
        "--query",
        "coffee preference?",
    ]);
    let (code, out) = diagnose_json(&args);
    assert_eq!(out["verdict"], "WrongKey", "{out:#}");
    assert_eq!(code, Some(1), "a failing check exits 1");
    let near = &out["diagnosis"]["right_key"]["near_misses"][0];
    assert_eq!(near["key"]["user_id"], "42", "{out:#}");
    assert_eq!(near["differences"][0], "NumericIdPrefix", "{out:#}");
    let dead: Vec<&str> = out["diagnosis"]["match_rules"]["tokens"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| !t["dead"].is_null())
        .map(|t| t["token"].as_str().unwrap())
        .collect();
    assert_eq!(
        dead,
        ["preference?"],
        "step 1: one dead token, coffee can match"
    );

    // Step 4: after the fix, the search finds the coffee.
    let mut args = after.to_vec();
    args.extend([
        "--app",
        "support",
        "--user",
        "u-42",
        "--query",
        "coffee preference?",
    ]);
    let (code, out) = diagnose_json(&args);
    assert_eq!(out["verdict"], "Found", "{out:#}");
    assert_eq!(out["diagnosis"]["hits"], 1, "{out:#}");
    assert_eq!(code, Some(0), "nothing wrong exits 0");

    // Step 4, second test: the order number exists only in a function response, and the query
    // token is digits: check 4 plus check 3.
    let mut args = after.to_vec();
    args.extend([
        "--app",
        "support",
        "--user",
        "u-42",
        "--query",
        "Where's order 4417?",
    ]);
    let (code, out) = diagnose_json(&args);
    assert_eq!(out["verdict"], "NotIndexedAndCannotMatch", "{out:#}");
    assert_eq!(code, Some(1));
    let findings = out["diagnosis"]["indexed_text"]["content"]["tokens"]
        .as_array()
        .unwrap();
    let order = findings.iter().find(|t| t["token"] == "4417?").unwrap();
    assert_eq!(order["dead"], true);
    assert_eq!(order["places"][0]["kind"], "function_response", "{out:#}");
    assert_eq!(order["places"][0]["name"], "get_order");
    assert_eq!(order["places"][0]["indexed"], false);
    assert!(
        order["places"][0].get("excerpt").is_none(),
        "no content without --show-content"
    );

    // A fact only in session state: check 4.
    let mut args = after.to_vec();
    args.extend(["--app", "support", "--user", "u-42", "--query", "gold"]);
    let (_, out) = diagnose_json(&args);
    assert_eq!(out["verdict"], "NotIndexed", "{out:#}");
    let gold = &out["diagnosis"]["indexed_text"]["content"]["tokens"][0];
    assert_eq!(gold["places"][0]["kind"], "state", "{out:#}");
    assert_eq!(gold["places"][0]["name"], "loyalty_tier");

    // Under ADK Python's rules the digits can match: only check 4 remains.
    let mut args = after.to_vec();
    args.extend([
        "--app",
        "support",
        "--user",
        "u-42",
        "--query",
        "Where's order 4417?",
        "--profile",
        "adk-python",
    ]);
    let (_, out) = diagnose_json(&args);
    assert_eq!(out["verdict"], "NotIndexed", "{out:#}");

    // With --show-content, the stored value is shown.
    let mut args = after.to_vec();
    args.extend([
        "--app",
        "support",
        "--user",
        "u-42",
        "--query",
        "4417",
        "--show-content",
    ]);
    let (_, out) = diagnose_json(&args);
    let place = &out["diagnosis"]["indexed_text"]["content"]["tokens"][0]["places"][0];
    assert_eq!(place["excerpt"], "Order 4417 shipped", "{out:#}");
}
