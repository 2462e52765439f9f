//! `add_session_to_memory`: what is stored, what a re-add replaces, and what comes back.

mod support;

use memory_conformance::{Content, Event, MemoryService, Part, Session};
use memory_sqlite_fts5::SqliteFts5MemoryService;
use serde_json::json;
use support::{at, entry_of, hits, texts};

fn unlimited() -> SqliteFts5MemoryService {
    SqliteFts5MemoryService::builder()
        .result_limit(None)
        .open_in_memory()
        .unwrap()
}

#[tokio::test]
async fn an_entry_is_exactly_what_the_kit_expects_for_its_event() {
    let memory = unlimited();
    let event = Event::new(
        "support-agent",
        Some(
            Content::new(vec![
                Part::text("Your flat white is on its way."),
                Part::function_call("get_order", json!({"id": 4417, "rush": true})),
                Part::function_response("get_order", json!({"status": "shipped"})),
                Part::inline_data("image/png", vec![0, 159, 255, 1]),
                Part::text("Anything else?"),
            ])
            .with_role("model"),
        ),
    )
    .at(at(1_250));
    let session = Session::new("support", "u-42", "s-1").with_event(event.clone());
    memory.add_session_to_memory(&session).await.unwrap();

    let found = memory
        .search_memory("support", "u-42", "white")
        .await
        .unwrap();
    assert_eq!(found.memories, [entry_of(&event)]);
    assert_eq!(
        found.memories[0].timestamp.as_deref(),
        Some("2026-01-01T00:00:01.250Z")
    );
}

#[tokio::test]
async fn sub_millisecond_time_is_cut_like_the_kit_cuts_it() {
    let memory = unlimited();
    let instant = "2026-01-01T00:00:01.999999999Z".parse().unwrap();
    let event = Event::text("user", "espresso").at(instant);
    let session = Session::new("app", "u", "s-1").with_event(event.clone());
    memory.add_session_to_memory(&session).await.unwrap();
    let found = memory.search_memory("app", "u", "espresso").await.unwrap();
    assert_eq!(
        found.memories[0].timestamp.as_deref(),
        Some("2026-01-01T00:00:01.999Z")
    );
    assert_eq!(found.memories, [entry_of(&event)]);
}

#[tokio::test]
async fn every_text_part_of_an_event_is_indexed() {
    let memory = unlimited();
    let event = Event::with_parts(
        "user",
        vec![Part::text("oat milk"), Part::text("flat white")],
    );
    let session = Session::new("app", "u", "s-1").with_event(event);
    memory.add_session_to_memory(&session).await.unwrap();
    assert_eq!(hits(&memory, "app", "u", "oat").await, 1);
    assert_eq!(hits(&memory, "app", "u", "white").await, 1);
    // The parts are separate words: the end of one part and the start of the next never fuse.
    assert_eq!(hits(&memory, "app", "u", "milkflat").await, 0);
}

#[tokio::test]
async fn a_re_add_replaces_what_the_session_held() {
    let memory = unlimited();
    let first = Session::new("app", "u", "s-1")
        .with_event(Event::text("user", "espresso please"))
        .with_event(Event::text("model", "one espresso"));
    memory.add_session_to_memory(&first).await.unwrap();
    assert_eq!(hits(&memory, "app", "u", "espresso").await, 2);

    let second = Session::new("app", "u", "s-1").with_event(Event::text("user", "a cortado"));
    memory.add_session_to_memory(&second).await.unwrap();
    assert_eq!(hits(&memory, "app", "u", "espresso").await, 0);
    assert_eq!(hits(&memory, "app", "u", "cortado").await, 1);

    // Adding the same session twice stores it once.
    memory.add_session_to_memory(&second).await.unwrap();
    assert_eq!(hits(&memory, "app", "u", "cortado").await, 1);
}

#[tokio::test]
async fn a_re_add_with_no_events_empties_the_session_and_nothing_else() {
    let memory = unlimited();
    for id in ["s-1", "s-2"] {
        let session = Session::new("app", "u", id).with_event(Event::text("user", "latte"));
        memory.add_session_to_memory(&session).await.unwrap();
    }
    let emptied = Session::new("app", "u", "s-1")
        .with_event(Event::without_content("user"))
        .with_event(Event::new("user", Some(Content::new(Vec::new()))));
    memory.add_session_to_memory(&emptied).await.unwrap();
    assert_eq!(
        hits(&memory, "app", "u", "latte").await,
        1,
        "only s-2 is left"
    );
}

#[tokio::test]
async fn a_session_keeps_its_first_add_position_on_equal_scores() {
    let memory = unlimited();
    for id in ["s-a", "s-b", "s-c"] {
        let session =
            Session::new("app", "u", id).with_event(Event::text("user", format!("tea {id}")));
        memory.add_session_to_memory(&session).await.unwrap();
    }
    let again = Session::new("app", "u", "s-a").with_event(Event::text("user", "tea s-a"));
    memory.add_session_to_memory(&again).await.unwrap();
    let found = memory.search_memory("app", "u", "tea").await.unwrap();
    assert_eq!(texts(&found), ["tea s-a", "tea s-b", "tea s-c"]);
}

#[tokio::test]
async fn session_state_is_never_indexed() {
    let memory = unlimited();
    let session = Session::new("app", "u", "s-1")
        .with_state("favourite", json!("oolong"))
        .with_event(Event::text("user", "hello"));
    memory.add_session_to_memory(&session).await.unwrap();
    assert_eq!(hits(&memory, "app", "u", "oolong").await, 0);
    assert_eq!(hits(&memory, "app", "u", "favourite").await, 0);
    assert_eq!(hits(&memory, "app", "u", "hello").await, 1);
}

fn tool_session() -> Session {
    Session::new("app", "u", "s-1")
        .with_event(Event::function_call(
            "agent",
            "lookup_order",
            json!({"order": "A-17", "count": 4417}),
        ))
        .with_event(Event::function_response(
            "agent",
            "lookup_order",
            json!({"status": {"label": "shipped"}, "carrier": ["parcelforce"]}),
        ))
        .with_event(Event::inline_data(
            "user",
            "text/plain",
            b"receipt".to_vec(),
        ))
}

#[tokio::test]
async fn tool_data_and_inline_data_are_stored_but_not_found_by_default() {
    let memory = unlimited();
    memory.add_session_to_memory(&tool_session()).await.unwrap();
    for query in [
        "lookup_order",
        "lookup",
        "shipped",
        "parcelforce",
        "A-17",
        "receipt",
    ] {
        assert_eq!(hits(&memory, "app", "u", query).await, 0, "{query}");
    }
}

#[tokio::test]
async fn tool_names_and_string_values_are_found_when_configured() {
    let memory = SqliteFts5MemoryService::builder()
        .index_tool_data(true)
        .open_in_memory()
        .unwrap();
    let session = tool_session();
    memory.add_session_to_memory(&session).await.unwrap();
    let found = memory.search_memory("app", "u", "shipped").await.unwrap();
    assert_eq!(found.memories, [entry_of(&session.events[1])]);
    assert_eq!(hits(&memory, "app", "u", "parcelforce").await, 1);
    assert_eq!(hits(&memory, "app", "u", "A-17").await, 1);
    assert_eq!(hits(&memory, "app", "u", "lookup_order").await, 2);
    // Keys, numbers and inline data stay out of the index.
    for query in ["status", "carrier", "4417", "receipt"] {
        assert_eq!(hits(&memory, "app", "u", query).await, 0, "{query}");
    }
}

#[tokio::test]
async fn content_nested_too_deep_to_read_back_is_refused_at_write_time() {
    let memory = unlimited();
    let mut deep = json!("bottom");
    for _ in 0..200 {
        deep = json!([deep]);
    }
    let session = Session::new("app", "u", "s-1")
        .with_event(Event::text("user", "flat white"))
        .with_event(Event::with_parts(
            "agent",
            vec![Part::text("flat white"), Part::function_response("t", deep)],
        ));
    let err = memory.add_session_to_memory(&session).await.unwrap_err();
    assert!(err.to_string().contains("\"s-1\""), "{err}");
    // Nothing of the refused session was stored, and searches keep working.
    assert_eq!(hits(&memory, "app", "u", "white").await, 0);
}
