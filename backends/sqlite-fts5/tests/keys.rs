//! Key isolation: app name, user id and session id are separate columns compared byte for byte.

mod support;

use memory_conformance::{Event, MemoryService, Session};
use memory_sqlite_fts5::SqliteFts5MemoryService;
use rstest::rstest;
use support::{hits, texts};

async fn store_with(sessions: &[(&str, &str, &str, &str)]) -> SqliteFts5MemoryService {
    let memory = SqliteFts5MemoryService::open_in_memory().unwrap();
    for (app, user, id, text) in sessions {
        let session = Session::new(*app, *user, *id).with_event(Event::text("user", *text));
        memory.add_session_to_memory(&session).await.unwrap();
    }
    memory
}

#[tokio::test]
async fn a_separator_inside_a_part_never_joins_two_keys() {
    let memory = store_with(&[
        ("a/b", "c", "s-1", "coffee from the first user"),
        ("a", "b/c", "s-1", "coffee from the second user"),
    ])
    .await;
    let first = memory.search_memory("a/b", "c", "coffee").await.unwrap();
    assert_eq!(texts(&first), ["coffee from the first user"]);
    let second = memory.search_memory("a", "b/c", "coffee").await.unwrap();
    assert_eq!(texts(&second), ["coffee from the second user"]);
}

#[rstest]
#[case::case("support", "U-42")]
#[case::separator("support_bot", "u-42")]
#[case::trailing_space("support", "u-42 ")]
#[case::numeric_id("support", "42")]
#[case::swapped("u-42", "support")]
#[case::nul_suffix("support", "u-42\0")]
#[tokio::test]
async fn a_near_miss_key_sees_nothing(#[case] app: &str, #[case] user: &str) {
    let memory = store_with(&[("support", "u-42", "s-1", "coffee")]).await;
    assert_eq!(hits(&memory, "support", "u-42", "coffee").await, 1);
    assert_eq!(hits(&memory, app, user, "coffee").await, 0);
}

#[tokio::test]
async fn keys_differing_after_a_nul_byte_stay_apart() {
    let memory = store_with(&[
        ("app", "a\0b", "s-1", "first coffee"),
        ("app", "a\0c", "s-1", "second coffee"),
    ])
    .await;
    let found = memory.search_memory("app", "a\0b", "coffee").await.unwrap();
    assert_eq!(texts(&found), ["first coffee"]);
}

#[tokio::test]
async fn the_same_session_id_under_two_keys_is_two_sessions() {
    let memory = store_with(&[
        ("app", "alice", "s-1", "alice likes oolong"),
        ("app", "bob", "s-1", "bob likes oolong"),
    ])
    .await;
    // Re-adding bob's s-1 empty leaves alice's s-1 alone.
    memory
        .add_session_to_memory(&Session::new("app", "bob", "s-1"))
        .await
        .unwrap();
    assert_eq!(hits(&memory, "app", "bob", "oolong").await, 0);
    assert_eq!(hits(&memory, "app", "alice", "oolong").await, 1);
}

#[tokio::test]
async fn an_unknown_key_is_an_empty_response() {
    let memory = store_with(&[("support", "u-42", "s-1", "coffee")]).await;
    let found = memory
        .search_memory("nobody", "nowhere", "coffee")
        .await
        .unwrap();
    assert!(found.memories.is_empty());
}
