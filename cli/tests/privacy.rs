//! Privacy through the command line: `diagnose` never prints stored content (text, tool data,
//! inline data, state) unless `--show-content` is given, whatever the session format, the
//! profile or the output format.

mod support;

use proptest::prelude::*;
use serde_json::json;

use support::{Scratch, run, text};

fn private_word() -> impl Strategy<Value = String> {
    "[a-zA-Z]{12,20}"
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    #[test]
    fn diagnose_prints_no_stored_content_by_default(
        stored in proptest::collection::vec(private_word(), 4),
        camel in any::<bool>(),
        json_output in any::<bool>(),
        profile in proptest::sample::select(vec!["reference", "adk-python", "sqlite-fts5"]),
    ) {
        let (app, user, answer) = if camel {
            ("appName", "userId", "functionResponse")
        } else {
            ("app_name", "user_id", "function_response")
        };
        let session = json!({
            "id": "s-1", app: "app", user: "user",
            "state": {"fact": format!("{} {}", stored[0], stored[3])},
            "events": [
                {"id": "e-1", "author": "user", "timestamp": 1_767_225_601_250_i64,
                 "content": {"parts": [{"text": format!("{} {}", stored[0], stored[1])}]}},
                {"id": "e-2", "author": "model", "timestamp": 1_767_225_602_250_i64,
                 "content": {"parts": [{answer: {"name": "lookup", "response": {"r": format!("{} {}", stored[0], stored[2])}}}]}},
            ],
        });
        let dir = Scratch::new("privacy");
        let file = dir.join(format!("{}.json", stored[3]));
        std::fs::write(&file, session.to_string()).unwrap();
        let file = file.display().to_string();
        // The query names stored[0], found in text, tool data and state; the rest is only stored.
        let query = format!("{}?", stored[0]);
        let mut args = vec![
            "diagnose", "--session", &file, "--app", "app", "--user", "user", "--query", &query,
            "--profile", profile,
        ];
        if json_output {
            args.extend(["--format", "json"]);
        }
        let out = run(&args);
        prop_assert!(out.status.code().is_some_and(|c| c < 2), "{}", text(&out.stderr));
        // The file's name is stored[3]: strip the lines naming the source.
        let stdout: String = text(&out.stdout)
            .lines()
            .filter(|line| !line.contains(&file) && !line.contains("\"file\""))
            .collect::<Vec<_>>()
            .join("\n");
        for word in &stored[1..] {
            prop_assert!(!stdout.contains(word.as_str()), "{:?} leaked:\n{}", word, stdout);
        }
        args.push("--show-content");
        let shown = text(&run(&args).stdout);
        prop_assert!(shown.contains(stored[1].as_str()), "--show-content shows the text:\n{}", shown);
        prop_assert!(shown.contains(stored[2].as_str()), "--show-content shows the tool data:\n{}", shown);
    }
}

/// `--redact` prints no query text and no stored text, only shapes, in text and in JSON, even
/// with `--show-content`.
#[test]
fn redact_prints_shapes_only() {
    let file = support::fixtures().join("kit.after.json");
    let file = file.to_str().unwrap();
    for format in ["text", "json"] {
        let out = support::run(&[
            "diagnose",
            "--session",
            file,
            "--app",
            "support",
            "--user",
            "u-42",
            "--query",
            "Where's my order 4417? café",
            "--show-content",
            "--redact",
            "--format",
            format,
        ]);
        let stdout = support::text(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{stdout}");
        // The query's and the stored text's own words (not words of the walk-through's
        // wording, such as "where the index does not read").
        for word in [
            "where's",
            "4417",
            "café",
            "shipped",
            "favourite",
            "flat white",
        ] {
            assert!(
                !stdout.to_lowercase().contains(word),
                "{format}: {word:?} printed:\n{stdout}"
            );
        }
        assert!(
            stdout.contains("<letters:5> <digits:4>?"),
            "{format}: {stdout}"
        );
    }
}
