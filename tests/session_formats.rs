//! Reading session JSON: every shape, the paths errors name, and no panic on any input.

use memory_conformance::inspect::read_log;
use memory_conformance::sessions::{SessionFormat, read_sessions};
use memory_conformance::{Part, Timestamp};
use proptest::prelude::*;
use serde_json::{Value, json};

fn read(value: Value) -> memory_conformance::sessions::LoadedSessions {
    read_sessions(&value.to_string()).unwrap_or_else(|err| panic!("{err}"))
}

#[test]
fn one_session_an_array_or_a_list_response() {
    let session = json!({"id": "s", "app_name": "a", "user_id": "u"});
    assert_eq!(read(session.clone()).sessions.len(), 1);
    assert_eq!(
        read(json!([session.clone(), session.clone()]))
            .sessions
            .len(),
        2
    );
    assert_eq!(read(json!({"sessions": [session]})).sessions.len(), 1);
    assert_eq!(read(json!([])).sessions.len(), 0);
}

#[test]
fn nulls_unknown_fields_and_parts_of_other_kinds() {
    let loaded = read(json!({
        "id": "s", "appName": "a", "userId": "u", "state": null, "lastUpdateTime": 1.5e9,
        "somethingNew": {"deep": [1, 2]},
        "events": [{
            "id": "e", "author": "user", "timestamp": 1_767_225_601.25, "actions": {},
            "content": {"role": null, "parts": [
                {"text": null, "thought": null, "fileData": {"fileUri": "gs://x"}},
                {"executableCode": {"code": "print()"}},
                {"text": "hi", "thought": null},
            ]},
        }, {
            "id": "e2", "author": "model", "timestamp": 1_767_225_602.0, "content": null,
        }],
    }));
    assert_eq!(loaded.format, SessionFormat::AdkPythonAliases);
    assert_eq!(loaded.skipped_parts, 2);
    let session = &loaded.sessions[0];
    assert_eq!(
        session.events[0].content.as_ref().unwrap().parts,
        [Part::text("hi")]
    );
    assert!(session.events[1].content.is_none());
    assert_eq!(
        session.events[0].timestamp,
        "2026-01-01T00:00:01.25Z".parse::<Timestamp>().unwrap()
    );
}

#[test]
fn every_kind_of_part_in_every_spelling() {
    let parts = |parts: Value| {
        let loaded = read(
            json!({"id": "s", "app_name": "a", "user_id": "u", "events": [
            {"id": "e", "author": "u", "timestamp": "2026-01-01T00:00:00Z",
             "content": {"parts": parts}}]}),
        );
        loaded.sessions[0].events[0].content.clone().unwrap().parts
    };
    let expected = [
        Part::function_call("f", json!({"x": 1})),
        Part::function_response("f", json!({"ok": true})),
        Part::inline_data("text/plain", b"hi?".to_vec()),
    ];
    assert_eq!(
        parts(json!([
            {"function_call": {"name": "f", "args": {"x": 1}}},
            {"function_response": {"name": "f", "response": {"ok": true}}},
            {"inline_data": {"mime_type": "text/plain", "data": "aGk/"}},
        ])),
        expected
    );
    assert_eq!(
        parts(json!([
            {"functionCall": {"name": "f", "args": {"x": 1}, "id": null}},
            {"functionResponse": {"name": "f", "response": {"ok": true}}},
            {"inlineData": {"mimeType": "text/plain", "data": "aGk_"}},
        ])),
        expected,
        "camel case, URL-safe base64 without padding"
    );
    assert_eq!(
        parts(json!([
            {"name": "f", "args": {"x": 1}},
            {"functionResponse": {"name": "f", "response": {"ok": true}}},
            {"mime_type": "text/plain", "data": [104, 105, 63]},
        ])),
        expected,
        "ADK-Rust's untagged parts"
    );
}

#[test]
fn formats_are_told_apart_by_keys_and_time_units() {
    let format = |value: Value| read(value).format;
    let event = |t: Value| json!([{"id": "e", "author": "u", "timestamp": t}]);
    assert_eq!(
        format(
            json!({"id": "s", "app_name": "a", "user_id": "u", "events": event(json!("2026-01-01T00:00:00Z"))})
        ),
        SessionFormat::Kit
    );
    assert_eq!(
        format(json!({"id": "s", "app_name": "a", "user_id": "u", "events": event(json!(1.7e9))})),
        SessionFormat::AdkPython
    );
    assert_eq!(
        format(
            json!({"id": "s", "appName": "a", "userId": "u", "lastUpdateTime": 1.7e12, "events": event(json!(1_700_000_000_000_i64))})
        ),
        SessionFormat::AdkJs
    );
    assert_eq!(
        format(
            json!({"id": "s", "appName": "a", "userId": "u", "lastUpdateTime": 1.7e9, "events": event(json!(1_700_000_000_000_i64))})
        ),
        SessionFormat::AdkJava
    );
    assert_eq!(
        format(
            json!({"id": "s", "app_name": "a", "user_id": "u", "last_update_time": "2026-01-01T00:00:00Z",
            "events": [{"id": "e", "author": "u", "timestamp": "2026-01-01T00:00:00Z", "invocation_id": "i"}]})
        ),
        SessionFormat::AdkRust
    );
}

#[test]
fn errors_name_the_path_and_what_was_expected() {
    let err = |value: Value| read_sessions(&value.to_string()).unwrap_err().to_string();
    assert_eq!(
        err(json!("a session?")),
        "$: expected a session (an object), an array of sessions or {\"sessions\": [...]}, found a string of 10 characters"
    );
    assert_eq!(
        err(json!([{"id": "s", "app_name": "a"}])),
        "$[0].user_id: missing: expected the user id (a string) (`user_id` or `userId`)"
    );
    assert_eq!(
        err(
            json!({"id": "s", "app_name": "a", "user_id": "u", "events": [
            {"id": "e", "author": "u", "timestamp": 1.0, "content": {"parts": [{"text": 3}]}}]})
        ),
        "$.events[0].content.parts[0].text: expected the part's text (a string), found the number 3"
    );
    assert_eq!(
        err(
            json!({"id": "s", "app_name": "a", "user_id": "u", "state": {"weird key": 1}, "events": {"e": 1}})
        ),
        "$.events: expected an array of events, found an object"
    );
    assert_eq!(
        err(
            json!({"id": "s", "app_name": "a", "user_id": "u", "events": [
            {"id": "e", "author": "u", "timestamp": 1e300}]})
        ),
        "$.events[0].timestamp: expected a timestamp (an RFC 3339 string, epoch seconds or epoch milliseconds), found 1e+300, which is out of range"
    );
    assert!(
        read_sessions("{")
            .unwrap_err()
            .to_string()
            .starts_with("not valid JSON: EOF")
    );
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<f64>().prop_map(|f| json!(f)),
        "[a-z_A-Z]{0,12}".prop_map(Value::String),
        Just(json!("2026-01-01T00:00:00Z")),
    ];
    leaf.prop_recursive(5, 64, 8, |inner| {
        let keys = proptest::sample::select(vec![
            "id",
            "app_name",
            "appName",
            "user_id",
            "userId",
            "events",
            "timestamp",
            "author",
            "content",
            "parts",
            "text",
            "function_call",
            "functionResponse",
            "inline_data",
            "data",
            "mime_type",
            "name",
            "args",
            "response",
            "state",
            "sessions",
            "x",
        ]);
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            proptest::collection::btree_map(keys, inner, 0..6).prop_map(|map| Value::Object(
                map.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()
            )),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// Any JSON at all: sessions or an error, never a panic.
    #[test]
    fn any_json_reads_or_errs_without_panicking(value in json_value()) {
        let _ = read_sessions(&value.to_string());
    }

    /// Any text at all, memory lines included: a log read, its unreadable lines skipped and
    /// named by a line number in the text.
    #[test]
    fn any_log_text_reads_without_panicking(
        lines in proptest::collection::vec(
            prop_oneof![
                ".{0,40}",
                r#"memory\.(write|search|query) [a-zA-Z_]{1,8}=["\[\]/a-z0-9 ,?\\]{0,20}"#,
                r#"\{"fields":\{"message":"memory\.(write|search)","key":"["/a-z\\]{0,8}"\}\}"#,
            ],
            0..8,
        ),
    ) {
        let read = read_log(&lines.join("\n"));
        if let Some(err) = &read.first_skipped {
            prop_assert!(err.line() >= 1 && err.line() <= lines.len());
        }
        prop_assert_eq!(read.skipped > 0, read.first_skipped.is_some());
    }
}

/// Streaming a document reads the same sessions, and the same errors, as reading it whole.
#[test]
fn streamed_and_whole_reading_agree() {
    use memory_conformance::sessions::read_sessions_value;
    let event = |n: u64| {
        json!({"id": format!("e-{n}"), "author": "user", "timestamp": 1_767_225_601_250_u64 + n,
               "content": {"role": "user", "parts": [{"text": format!("word {n}")}]}})
    };
    let session = |id: &str, events: Vec<Value>| {
        json!({"events": events, "id": id, "appName": "support", "userId": "u-42",
               "state": {"events": [1, 2]}, "lastUpdateTime": 1_767_225_601_250_u64})
    };
    let documents = [
        session("a", (0..5).map(event).collect()),
        json!([session("a", vec![event(0)]), session("b", Vec::new())]),
        json!({"sessions": [session("a", (0..3).map(event).collect())]}),
        json!({"id": "a", "appName": "support", "userId": "u-42", "events": null}),
    ];
    for document in documents {
        let whole = read_sessions_value(&document).unwrap();
        let streamed = read_sessions(&document.to_string()).unwrap();
        assert_eq!(streamed, whole, "{document}");
    }
    let mut broken = json!([
        session("a", vec![event(0)]),
        session("b", (0..3).map(event).collect())
    ]);
    broken[1]["events"][2]["timestamp"] = json!("soon");
    let whole = read_sessions_value(&broken).unwrap_err();
    let streamed = read_sessions(&broken.to_string()).unwrap_err();
    assert_eq!(streamed, whole);
    assert_eq!(streamed.path(), "$[1].events[2].timestamp");
    let not_events = json!({"id": "a", "appName": "s", "userId": "u", "events": 5});
    assert_eq!(
        read_sessions(&not_events.to_string())
            .unwrap_err()
            .to_string(),
        "$.events: expected an array of events, found the number 5"
    );
}
