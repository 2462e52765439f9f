//! Running the command and reading its answers, shared by the command-line tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub mod installed;

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
/// `["--session", FILE]` or `["--database", FILE]`) under the guide's (the reference's) rules:
/// `before` holds Monday's session under support/42 only, `after` also (or instead) under
/// support/u-42. A session store does not say what was written to memory: checks 1 and 2 are
/// not known, and checks 3 and 4 read the stored content.
pub fn assert_worked_example(before: &[&str], after: &[&str]) {
    // Steps 1 to 3: nothing is stored under support/u-42; Monday's session is under support/42.
    let (code, out) = ask(before, "reference", "coffee preference?", &[]);
    assert_eq!(out["verdict"], "WriteNotKnown", "{out:#}");
    assert_eq!(out["diagnosis"]["written"]["known"], false, "{out:#}");
    assert_eq!(code, Some(1), "an unexplained miss exits 1");
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

    // Step 4: after the fix, the coffee is stored in text under the key, so checks 3 and 4
    // pass; whether it was written to memory, the sessions cannot say.
    let (code, out) = ask(after, "reference", "coffee preference?", &[]);
    assert_eq!(out["verdict"], "WriteNotKnown", "{out:#}");
    assert_eq!(out["diagnosis"]["hits"], serde_json::Value::Null, "{out:#}");
    let coffee = &out["diagnosis"]["indexed_text"]["content"]["tokens"][0];
    assert_eq!(coffee["places"][0]["kind"], "text", "{out:#}");
    assert_eq!(code, Some(1));

    // Step 4, second test: the order number exists only in a function response, and the query
    // token is digits: check 4 plus check 3.
    let (code, out) = ask(after, "reference", "Where's order 4417?", &[]);
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
    let (_, out) = ask(after, "reference", "gold", &[]);
    assert_eq!(out["verdict"], "NotIndexed", "{out:#}");
    let gold = &out["diagnosis"]["indexed_text"]["content"]["tokens"][0];
    assert_eq!(gold["places"][0]["kind"], "state", "{out:#}");
    assert_eq!(gold["places"][0]["name"], "loyalty_tier");

    // Under ADK Python's rules the digits can match: only check 4 remains.
    let (_, out) = ask(after, "adk-python", "Where's order 4417?", &[]);
    assert_eq!(out["verdict"], "NotIndexed", "{out:#}");

    // With --show-content, the stored value is shown.
    let (_, out) = ask(after, "reference", "4417", &["--show-content"]);
    let place = &out["diagnosis"]["indexed_text"]["content"]["tokens"][0]["places"][0];
    assert_eq!(place["excerpt"], "Order 4417 shipped", "{out:#}");
}

/// `diagnose ... --format json` of `query` under the worked example's key (support/u-42), on
/// `source` under `profile`, with `extra` arguments last.
fn ask(
    source: &[&str],
    profile: &str,
    query: &str,
    extra: &[&str],
) -> (Option<i32>, serde_json::Value) {
    let mut args = source.to_vec();
    args.extend([
        "--profile",
        profile,
        "--app",
        "support",
        "--user",
        "u-42",
        "--query",
        query,
    ]);
    args.extend_from_slice(extra);
    diagnose_json(&args)
}

/// A fresh folder of the temporary directory for one test, named for the test and this
/// process; removed, with what it holds, when the test is done with it (passing or not).
pub struct Scratch(PathBuf);

impl Scratch {
    /// Makes the folder `mc-<name>-<pid>`, emptied if an earlier run left it.
    pub fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("mc-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a scratch folder in the temporary directory");
        Self(dir)
    }

    /// Writes `contents` to the file `name` in the folder; its path.
    pub fn file(&self, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, contents).expect("a file in the scratch folder");
        path
    }
}

impl std::ops::Deref for Scratch {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
