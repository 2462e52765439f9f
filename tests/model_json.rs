//! The data model as JSON: the shape other tools and languages read, and clear errors.

use memory_conformance::{
    Content, Event, MemoryEntry, Part, SearchMemoryResponse, Session, Timestamp,
};
use serde_json::json;

#[test]
fn a_session_serialises_to_the_documented_shape_and_back() {
    let at: Timestamp = "2026-01-01T00:00:01.25Z".parse().unwrap();
    let session = Session::new("support", "u-42", "s-1")
        .with_event(Event::text("user", "flat white").at(at).with_id("e-1"))
        .with_event(
            Event::with_parts(
                "model",
                vec![
                    Part::function_call("get_order", json!({"id": 4417})),
                    Part::function_response("get_order", json!({"status": "shipped"})),
                    Part::inline_data("text/plain", b"hi".to_vec()),
                ],
            )
            .at(at)
            .with_id("e-2"),
        )
        .with_event(Event::without_content("user").at(at).with_id("e-3"))
        .with_state("favourite", json!("oolong"));
    let value = serde_json::to_value(&session).unwrap();
    assert_eq!(
        value,
        json!({
            "id": "s-1", "app_name": "support", "user_id": "u-42",
            "state": {"favourite": "oolong"},
            "events": [
                {"id": "e-1", "author": "user", "timestamp": "2026-01-01T00:00:01.25Z",
                 "content": {"role": null, "parts": [{"text": "flat white"}]}},
                {"id": "e-2", "author": "model", "timestamp": "2026-01-01T00:00:01.25Z",
                 "content": {"role": null, "parts": [
                    {"function_call": {"name": "get_order", "args": {"id": 4417}}},
                    {"function_response": {"name": "get_order", "response": {"status": "shipped"}}},
                    {"inline_data": {"mime_type": "text/plain", "data": "aGk="}}]}},
                {"id": "e-3", "author": "user", "timestamp": "2026-01-01T00:00:01.25Z", "content": null}
            ]
        })
    );
    let back: Session = serde_json::from_value(value).unwrap();
    assert_eq!(back, session);
}

#[test]
fn minimal_json_fills_in_defaults() {
    let session: Session = serde_json::from_value(json!({
        "id": "s-1", "app_name": "a", "user_id": "u",
        "events": [{"id": "e", "author": "user", "timestamp": "2026-01-01T00:00:00Z",
                    "content": {"parts": [{"text": "hi"}]}}]
    }))
    .unwrap();
    assert!(session.state.is_empty());
    assert_eq!(session.events[0].content, Some(Content::text("hi")));
}

#[test]
fn bad_json_names_what_is_wrong() {
    let missing =
        serde_json::from_value::<Session>(json!({"id": "s", "app_name": "a"})).unwrap_err();
    assert!(
        missing.to_string().contains("missing field `user_id`"),
        "{missing}"
    );
    let bad_time = serde_json::from_value::<Event>(
        json!({"id": "e", "author": "u", "timestamp": 1767225601250i64}),
    )
    .unwrap_err();
    assert!(
        bad_time.to_string().contains("timestamp") || bad_time.to_string().contains("invalid type"),
        "{bad_time}"
    );
    let bad_part = serde_json::from_value::<Part>(json!({"video": "x"})).unwrap_err();
    assert!(
        bad_part.to_string().contains("unknown variant `video`"),
        "{bad_part}"
    );
    let bad_data =
        serde_json::from_value::<Part>(json!({"inline_data": {"mime_type": "x", "data": "!!"}}))
            .unwrap_err();
    assert!(
        bad_data
            .to_string()
            .contains("inline_data.data is not base64"),
        "{bad_data}"
    );
}

#[test]
fn entries_and_responses_round_trip() {
    let response = SearchMemoryResponse::new(vec![
        MemoryEntry::new(Content::text("hi").with_role("user"))
            .with_author("user")
            .with_timestamp("2026-01-01T00:00:01.250Z"),
    ]);
    let text = serde_json::to_string(&response).unwrap();
    assert_eq!(
        text,
        r#"{"memories":[{"content":{"role":"user","parts":[{"text":"hi"}]},"author":"user","timestamp":"2026-01-01T00:00:01.250Z"}]}"#
    );
    assert_eq!(
        serde_json::from_str::<SearchMemoryResponse>(&text).unwrap(),
        response
    );
}

#[test]
fn constructed_events_get_unique_ids_and_the_current_time() {
    let before = Timestamp::now();
    let a = Event::text("user", "a");
    let b = Event::text("user", "a");
    assert_ne!(a.id, b.id);
    assert!(a.timestamp >= before && a.timestamp <= Timestamp::now());
}
