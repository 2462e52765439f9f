//! The reference backend's rules R1–R9 (`reference-behaviour.md`), through the public API.

mod support;

use std::sync::Arc;

use memory_conformance::{
    Content, Event, InMemoryMemoryService, MemoryEntry, MemoryService, Part, SearchOptions, Session,
};
use rstest::rstest;
use serde_json::json;

use support::at;

async fn texts(memory: &impl MemoryService, app: &str, user: &str, query: &str) -> Vec<String> {
    memory
        .search_memory(app, user, query)
        .await
        .expect("search")
        .memories
        .iter()
        .map(|entry| entry.content.texts().collect::<Vec<_>>().join("|"))
        .collect()
}

#[rstest]
#[case::slash_in_app_versus_user(("a/b", "c"), ("a", "b/c"))]
#[case::slash_at_the_end(("a/", "b"), ("a", "/b"))]
#[case::empty_parts(("", "a/b"), ("a", "b"))]
#[case::case_of_user(("support", "u-42"), ("support", "U-42"))]
#[case::separator_in_app(("support-bot", "u-42"), ("support_bot", "u-42"))]
#[case::trailing_space(("support", "u-42"), ("support", "u-42 "))]
#[case::numeric_id(("support", "u-42"), ("support", "42"))]
#[tokio::test]
async fn r1_keys_are_compared_as_structured_pairs_byte_for_byte(
    #[case] written: (&str, &str),
    #[case] searched: (&str, &str),
) {
    let memory = InMemoryMemoryService::new();
    let session =
        Session::new(written.0, written.1, "s-1").with_event(Event::text("user", "coffee"));
    memory.add_session_to_memory(&session).await.unwrap();
    assert_eq!(
        texts(&memory, written.0, written.1, "coffee").await,
        ["coffee"]
    );
    assert!(
        texts(&memory, searched.0, searched.1, "coffee")
            .await
            .is_empty()
    );
}

#[tokio::test]
async fn r2_readd_replaces_the_session_and_keeps_its_position() {
    let memory = InMemoryMemoryService::new();
    let first = Session::new("app", "u", "s-1").with_event(Event::text("user", "alpha shared"));
    let second = Session::new("app", "u", "s-2").with_event(Event::text("user", "beta shared"));
    memory.add_session_to_memory(&first).await.unwrap();
    memory.add_session_to_memory(&second).await.unwrap();
    let readd = Session::new("app", "u", "s-1").with_event(Event::text("user", "gamma shared"));
    memory.add_session_to_memory(&readd).await.unwrap();

    assert!(texts(&memory, "app", "u", "alpha").await.is_empty());
    assert_eq!(texts(&memory, "app", "u", "gamma").await, ["gamma shared"]);
    assert_eq!(
        texts(&memory, "app", "u", "shared").await,
        ["gamma shared", "beta shared"]
    );
}

#[rstest]
#[case::no_events(vec![])]
#[case::only_events_without_content(vec![Event::without_content("user")])]
#[case::only_tool_data(vec![Event::function_call("model", "f", json!({"q": "alpha"}))])]
#[case::content_without_parts(vec![Event::with_parts("user", vec![])])]
#[tokio::test]
async fn r2_readd_with_no_text_removes_the_old_text(#[case] events: Vec<Event>) {
    let memory = InMemoryMemoryService::new();
    let old = Session::new("app", "u", "s-1").with_event(Event::text("user", "alpha"));
    let other = Session::new("app", "u", "s-2").with_event(Event::text("user", "alpha again"));
    memory.add_session_to_memory(&old).await.unwrap();
    memory.add_session_to_memory(&other).await.unwrap();
    memory
        .add_session_to_memory(&Session::new("app", "u", "s-1").with_events(events))
        .await
        .unwrap();
    assert_eq!(texts(&memory, "app", "u", "alpha").await, ["alpha again"]);
}

#[tokio::test]
async fn r2_stores_a_copy_as_it_is_at_the_moment_of_the_call() {
    let memory = InMemoryMemoryService::new();
    let mut session = Session::new("app", "u", "s-1").with_event(Event::text("user", "alpha"));
    memory.add_session_to_memory(&session).await.unwrap();
    session.events.push(Event::text("user", "beta"));
    assert!(
        texts(&memory, "app", "u", "beta").await.is_empty(),
        "a stale copy is what was stored"
    );
}

#[rstest]
#[case::function_response(Event::function_response("model", "get_order", json!({"status": "delivered"})), "delivered")]
#[case::function_response_name(Event::function_response("model", "delivered", json!({})), "delivered")]
#[case::function_call(Event::function_call("model", "lookup", json!({"word": "delivered"})), "delivered")]
#[case::inline_data(Event::inline_data("user", "text/plain", b"delivered".to_vec()), "delivered")]
#[tokio::test]
async fn r4_tool_data_and_inline_data_are_stored_but_never_found(
    #[case] event: Event,
    #[case] word: &str,
) {
    let memory = InMemoryMemoryService::new();
    let session = Session::new("app", "u", "s-1")
        .with_event(event)
        .with_event(Event::text("user", "visible"));
    memory.add_session_to_memory(&session).await.unwrap();
    assert!(texts(&memory, "app", "u", word).await.is_empty());
    assert_eq!(texts(&memory, "app", "u", "visible").await, ["visible"]);
}

#[tokio::test]
async fn r2_session_state_is_never_found() {
    let memory = InMemoryMemoryService::new();
    let session = Session::new("app", "u", "s-1")
        .with_state("favourite", json!("oolong"))
        .with_event(Event::text("user", "tea"));
    memory.add_session_to_memory(&session).await.unwrap();
    assert!(texts(&memory, "app", "u", "oolong").await.is_empty());
    assert!(texts(&memory, "app", "u", "favourite").await.is_empty());
}

#[tokio::test]
async fn r4_a_stored_tool_call_never_breaks_later_searches() {
    let memory = InMemoryMemoryService::new();
    let session = Session::new("app", "u", "s-1")
        .with_event(Event::with_parts(
            "model",
            vec![Part::text("coffee"), Part::function_call("f", json!({}))],
        ))
        .with_event(Event::inline_data("user", "image/png", vec![0, 1, 2]));
    memory.add_session_to_memory(&session).await.unwrap();
    let found = memory
        .search_memory("app", "u", "coffee")
        .await
        .unwrap()
        .memories;
    assert_eq!(found.len(), 1);
    assert_eq!(
        found[0].content.parts.len(),
        2,
        "all parts come back, not only the text"
    );
}

#[rstest]
#[case::accent("café", &["caf"], &["café", "cafe"])]
#[case::hyphen("flat-white", &["flat", "white"], &["flat-white"])]
#[case::digits_separate("abc123def", &["abc", "def"], &["abc123def", "123"])]
#[case::underscore("flat_white", &["flat", "white"], &["flat_white"])]
#[case::upper_case("COFFEE", &["coffee", "Coffee"], &[])]
#[case::trailing_dot("flat white.", &["white"], &["white."])]
#[case::cjk("我喜欢咖啡 coffee", &["coffee"], &["咖啡", "我喜欢咖啡"])]
#[case::nbsp_in_text("flat\u{a0}white", &["flat", "white"], &[])]
#[case::nbsp_in_query("flat white", &[], &["flat\u{a0}white"])]
#[case::tab_and_vertical_tab_in_query("flat white", &["x\tflat", "x\u{0B}white", "x\u{0C}flat\r"], &[])]
#[tokio::test]
async fn r3_r4_r5_tokenisation(
    #[case] text: &str,
    #[case] found_by: &[&str],
    #[case] not_found_by: &[&str],
) {
    let memory = InMemoryMemoryService::new();
    let session = Session::new("app", "u", "s-1").with_event(Event::text("user", text));
    memory.add_session_to_memory(&session).await.unwrap();
    for query in found_by {
        assert_eq!(
            texts(&memory, "app", "u", query).await,
            [text],
            "{query:?} should find {text:?}"
        );
    }
    for query in not_found_by {
        assert!(
            texts(&memory, "app", "u", query).await.is_empty(),
            "{query:?} should not find {text:?}"
        );
    }
}

#[tokio::test]
async fn r6_entries_carry_content_author_and_a_millisecond_utc_timestamp() {
    let memory = InMemoryMemoryService::new();
    let content = Content::new(vec![
        Part::text("coffee"),
        Part::function_call("f", json!({"a": 1})),
    ])
    .with_role("model");
    let mut event = Event::new("barista", Some(content.clone())).at(at(1_250));
    let session = Session::new("app", "u", "s-1").with_event(event.clone());
    memory.add_session_to_memory(&session).await.unwrap();
    let found = memory
        .search_memory("app", "u", "coffee")
        .await
        .unwrap()
        .memories;
    let expected = MemoryEntry::new(content)
        .with_id(event.id.clone())
        .with_author("barista")
        .with_timestamp("2026-01-01T00:00:01.250Z");
    assert_eq!(found, [expected]);

    // Sub-millisecond precision is cut, never rounded up; whole seconds keep ".000".
    event = event
        .at(memory_conformance::Timestamp::from_nanosecond(1_767_225_601_999_999_999).unwrap());
    let session = Session::new("app", "u", "s-1").with_event(event.clone().at(at(1_000)));
    memory.add_session_to_memory(&session).await.unwrap();
    let found = memory
        .search_memory("app", "u", "coffee")
        .await
        .unwrap()
        .memories;
    assert_eq!(
        found[0].timestamp.as_deref(),
        Some("2026-01-01T00:00:01.000Z")
    );
    let session = Session::new("app", "u", "s-1").with_event(event);
    memory.add_session_to_memory(&session).await.unwrap();
    let found = memory
        .search_memory("app", "u", "coffee")
        .await
        .unwrap()
        .memories;
    assert_eq!(
        found[0].timestamp.as_deref(),
        Some("2026-01-01T00:00:01.999Z")
    );
}

#[tokio::test]
async fn r6_every_match_in_first_added_session_order_without_limit_or_dedup() {
    let memory = InMemoryMemoryService::new();
    let same = Event::text("user", "coffee twin").at(at(0));
    for id in ["s-b", "s-a", "s-c"] {
        let session = Session::new("app", "u", id)
            .with_event(Event::text("user", format!("coffee {id} one")))
            .with_event(Event::text("user", "tea"))
            .with_event(Event::text("user", format!("coffee {id} two")));
        memory.add_session_to_memory(&session).await.unwrap();
    }
    let twins = Session::new("app", "u", "s-twins").with_event(same.clone());
    let twins_again = Session::new("app", "u", "s-twins-2").with_event(same);
    memory.add_session_to_memory(&twins).await.unwrap();
    memory.add_session_to_memory(&twins_again).await.unwrap();
    // Re-adding the first session keeps its position.
    let readd = Session::new("app", "u", "s-b").with_event(Event::text("user", "coffee s-b again"));
    memory.add_session_to_memory(&readd).await.unwrap();

    assert_eq!(
        texts(&memory, "app", "u", "coffee").await,
        [
            "coffee s-b again",
            "coffee s-a one",
            "coffee s-a two",
            "coffee s-c one",
            "coffee s-c two",
            "coffee twin",
            "coffee twin",
        ]
    );
    let many = Session::new("app", "u", "s-many")
        .with_events((0..25).map(|i| Event::text("user", format!("latte {i}"))));
    memory.add_session_to_memory(&many).await.unwrap();
    assert_eq!(
        texts(&memory, "app", "u", "latte").await.len(),
        25,
        "no limit"
    );
    assert_eq!(
        texts(&memory, "app", "u", "latte LATTE latte").await.len(),
        25,
        "an event comes back once per query"
    );
}

#[rstest]
#[case::empty("")]
#[case::spaces("   ")]
#[case::ascii_whitespace(" \t\n\u{0B}\u{0C}\r ")]
#[tokio::test]
async fn r7_blank_query_gives_an_empty_response(#[case] query: &str) {
    let memory = InMemoryMemoryService::new();
    let session = Session::new("app", "u", "s-1").with_event(Event::text("user", "coffee"));
    memory.add_session_to_memory(&session).await.unwrap();
    assert!(
        memory
            .search_memory("app", "u", query)
            .await
            .unwrap()
            .memories
            .is_empty()
    );
}

#[tokio::test]
async fn r7_unknown_key_gives_an_empty_response() {
    let memory = InMemoryMemoryService::new();
    assert!(
        memory
            .search_memory("app", "nobody", "coffee")
            .await
            .unwrap()
            .memories
            .is_empty()
    );
    let session = Session::new("app", "u", "s-1").with_event(Event::text("user", "coffee"));
    memory.add_session_to_memory(&session).await.unwrap();
    assert!(
        memory
            .search_memory("other", "u", "coffee")
            .await
            .unwrap()
            .memories
            .is_empty()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn r8_concurrent_adds_of_distinct_sessions_all_land() {
    let memory = Arc::new(InMemoryMemoryService::new());
    let mut tasks = tokio::task::JoinSet::new();
    for i in 0..64 {
        let memory = Arc::clone(&memory);
        tasks.spawn(async move {
            let user = format!("u{}", i % 4);
            let session = Session::new("app", user, format!("s-{i}"))
                .with_event(Event::text("user", "coffee"));
            memory.add_session_to_memory(&session).await.unwrap();
        });
    }
    while let Some(joined) = tasks.join_next().await {
        joined.unwrap();
    }
    for user in ["u0", "u1", "u2", "u3"] {
        assert_eq!(
            texts(&*memory, "app", user, "coffee").await.len(),
            16,
            "user {user}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn r8_a_concurrent_search_sees_the_old_list_or_the_new_one_never_a_mix() {
    let memory = Arc::new(InMemoryMemoryService::new());
    let version = |name: &'static str| {
        Session::new("app", "u", "s-1")
            .with_events((0..20).map(move |i| Event::text("user", format!("shared {name}{i}"))))
    };
    memory
        .add_session_to_memory(&version("alpha"))
        .await
        .unwrap();
    let writer = {
        let memory = Arc::clone(&memory);
        tokio::spawn(async move {
            for round in 0..200 {
                let name = if round % 2 == 0 { "beta" } else { "alpha" };
                memory.add_session_to_memory(&version(name)).await.unwrap();
                tokio::task::yield_now().await;
            }
        })
    };
    for _ in 0..200 {
        let found = texts(&*memory, "app", "u", "shared").await;
        assert_eq!(found.len(), 20, "a whole version: {found:?}");
        let alpha = found.iter().filter(|t| t.contains("alpha")).count();
        assert!(alpha == 0 || alpha == 20, "torn replace: {found:?}");
        tokio::task::yield_now().await;
    }
    writer.await.unwrap();
}

#[test]
fn the_service_is_send_sync_and_object_safe() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<InMemoryMemoryService>();
    let _shared: Arc<dyn MemoryService> = Arc::new(InMemoryMemoryService::new());
}

fn text_with_id(text: &str, id: &str) -> Event {
    Event::text("user", text).with_id(id)
}

#[tokio::test]
async fn r9_a_delta_appends_new_event_ids_and_keeps_stored_versions() {
    let memory = InMemoryMemoryService::new();
    let monday = Session::new("a", "u", "s-1").with_event(text_with_id("coffee", "e-1"));
    memory.add_session_to_memory(&monday).await.unwrap();
    let delta = [text_with_id("tea", "e-1"), text_with_id("latte", "e-2")];
    memory
        .add_events_to_memory("a", "u", Some("s-1"), &delta)
        .await
        .unwrap();
    // e-1 keeps its stored version; e-2 comes after it; nothing else is replaced.
    assert_eq!(
        texts(&memory, "a", "u", "coffee tea latte").await,
        ["coffee", "latte"]
    );
    // A delta without a session id is a session of its own, after s-1.
    memory
        .add_events_to_memory("a", "u", None, &[text_with_id("mocha", "e-1")])
        .await
        .unwrap();
    assert_eq!(
        texts(&memory, "a", "u", "coffee latte mocha").await,
        ["coffee", "latte", "mocha"]
    );
    // A whole re-add of s-1 still replaces what the deltas added to it.
    memory.add_session_to_memory(&monday).await.unwrap();
    assert_eq!(
        texts(&memory, "a", "u", "coffee latte mocha").await,
        ["coffee", "mocha"]
    );
}

#[tokio::test]
async fn r9_explicit_memories_are_searched_like_events_after_earlier_sessions() {
    let memory = InMemoryMemoryService::new();
    memory
        .add_session_to_memory(
            &Session::new("a", "u", "s-1").with_event(Event::text("user", "coffee")),
        )
        .await
        .unwrap();
    let remembered = MemoryEntry::new(Content::text("coffee, black"))
        .with_author("agent")
        .with_timestamp("2026-01-01T00:00:00.000Z");
    let given = remembered.clone().with_id("m-1");
    memory
        .add_memory(
            "a",
            "u",
            &[remembered, given, MemoryEntry::new(Content::new(vec![]))],
        )
        .await
        .unwrap();
    let found = memory
        .search_memory("a", "u", "coffee")
        .await
        .unwrap()
        .memories;
    assert_eq!(found.len(), 3, "{found:?}");
    assert_eq!(found[1].author.as_deref(), Some("agent"));
    assert!(
        found[1]
            .id
            .as_deref()
            .is_some_and(|id| id.starts_with("memory-"))
    );
    assert_eq!(found[2].id.as_deref(), Some("m-1"));
    // Another memory with the same id replaces it; other keys see nothing.
    memory
        .add_memory(
            "a",
            "u",
            &[MemoryEntry::new(Content::text("tea")).with_id("m-1")],
        )
        .await
        .unwrap();
    assert_eq!(
        texts(&memory, "a", "u", "coffee tea").await,
        ["coffee", "coffee, black", "tea"]
    );
    assert!(texts(&memory, "a", "v", "coffee").await.is_empty());
}

#[tokio::test]
async fn r9_a_deleted_memory_never_comes_back_and_other_keys_keep_theirs() {
    let memory = InMemoryMemoryService::new();
    let session = |user: &str| {
        Session::new("a", user, "s-1").with_events([
            text_with_id("coffee milk", "e-1"),
            text_with_id("coffee sugar", "e-2"),
        ])
    };
    for user in ["u", "v"] {
        memory.add_session_to_memory(&session(user)).await.unwrap();
    }
    memory.delete_memory("a", "u", "no-such-id").await.unwrap();
    let found = memory
        .search_memory("a", "u", "milk")
        .await
        .unwrap()
        .memories;
    assert_eq!(found[0].id.as_deref(), Some("e-1"));
    memory.delete_memory("a", "u", "e-1").await.unwrap();
    assert_eq!(texts(&memory, "a", "u", "coffee").await, ["coffee sugar"]);
    assert_eq!(
        texts(&memory, "a", "v", "coffee").await,
        ["coffee milk", "coffee sugar"]
    );
    // The session added again, a delta and a memory with the id: none of them brings it back.
    memory.add_session_to_memory(&session("u")).await.unwrap();
    memory
        .add_events_to_memory("a", "u", Some("s-2"), &[text_with_id("coffee milk", "e-1")])
        .await
        .unwrap();
    memory
        .add_memory(
            "a",
            "u",
            &[MemoryEntry::new(Content::text("milk")).with_id("e-1")],
        )
        .await
        .unwrap();
    assert_eq!(
        texts(&memory, "a", "u", "coffee milk").await,
        ["coffee sugar"]
    );
}

#[tokio::test]
async fn r9_a_search_with_a_limit_returns_the_first_entries() {
    let memory = InMemoryMemoryService::new();
    let session = Session::new("a", "u", "s-1")
        .with_events(["coffee 1", "coffee 2", "coffee 3"].map(|t| Event::text("user", t)));
    memory.add_session_to_memory(&session).await.unwrap();
    let limited = memory
        .search_memory_with("a", "u", "coffee", &SearchOptions::with_limit(2))
        .await
        .unwrap();
    let texts: Vec<&str> = limited
        .memories
        .iter()
        .flat_map(|m| m.content.texts())
        .collect();
    assert_eq!(texts, ["coffee 1", "coffee 2"]);
    let all = memory
        .search_memory_with("a", "u", "coffee", &SearchOptions::default())
        .await
        .unwrap();
    assert_eq!(all.memories.len(), 3);
}
