//! Every kind of part, a role or none, and sub-millisecond instants go through each adk-memory
//! backend and come back as the reference's entries: the mapping loses nothing, including
//! through `SqliteMemoryService`'s JSON column.

use memory_conformance::{Content, Event, MemoryEntry, MemoryService, Part, Session, Timestamp};
use memory_conformance_adk_rust::AdkRustMemory;
use serde_json::json;

fn session() -> Session {
    let at = |text: &str| text.parse::<Timestamp>().unwrap();
    let every_part = vec![
        Part::text("espresso with every kind of part"),
        Part::text(""),
        Part::function_call(
            "get_order",
            json!({"id": 4417, "items": ["flat white"], "note": null}),
        ),
        Part::function_response(
            "get_order",
            json!({"status": "delivered", "price": 3.5, "tags": []}),
        ),
        Part::inline_data("image/png", vec![0x89, b'P', b'N', b'G', 0, 255]),
    ];
    Session::new("support", "u-42", "s-1").with_events([
        Event::new("model", Some(Content::new(every_part)))
            .at(at("2026-01-01T00:00:01.000999999Z")),
        Event::new(
            "user",
            Some(Content::text("espresso with a role").with_role("user")),
        )
        .at(at("2026-01-01T00:00:02.123456789Z")),
        Event::without_content("user").at(at("2026-01-01T00:00:03Z")),
        Event::text("user", "espresso before 1970").at(at("1969-07-20T20:17:40.5Z")),
    ])
}

async fn check_round_trip(memory: &dyn MemoryService) {
    let session = session();
    memory.add_session_to_memory(&session).await.unwrap();
    let mut found = memory
        .search_memory("support", "u-42", "espresso")
        .await
        .unwrap()
        .memories;
    let mut expected: Vec<MemoryEntry> = session
        .events
        .iter()
        .filter_map(MemoryEntry::from_event)
        .collect();
    let order = |e: &MemoryEntry| e.timestamp.clone();
    found.sort_by_key(order);
    expected.sort_by_key(order);
    assert_eq!(found, expected);
}

#[tokio::test]
async fn entries_round_trip_through_the_in_memory_service() {
    check_round_trip(&AdkRustMemory::new(adk_memory::InMemoryMemoryService::new())).await;
}

#[tokio::test]
async fn entries_round_trip_through_the_sqlite_service() {
    let path = std::env::temp_dir().join(format!(
        "memory-conformance-adk-rust-round-trip-{}.db",
        std::process::id()
    ));
    let _ = std::fs::remove_file(&path);
    let memory = AdkRustMemory::open_sqlite(&path).await.unwrap();
    check_round_trip(&memory).await;
    drop(memory);
    std::fs::remove_file(&path).unwrap();
}

#[tokio::test]
async fn a_database_that_cannot_be_opened_is_an_error_naming_the_path() {
    let path = std::env::temp_dir()
        .join("memory-conformance-adk-rust-missing-dir")
        .join("x")
        .join("memory.db");
    let err = AdkRustMemory::open_sqlite(&path).await.unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("cannot open SQLite memory") && text.contains("memory.db"),
        "{text}"
    );
    assert!(std::error::Error::source(&err).is_some());
}
