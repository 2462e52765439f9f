//! The debugging guide's worked example, through the public API: the three-assertion test and
//! every row of the worked-example table of `reference-behaviour.md`.

mod support;

use memory_conformance::{Event, InMemoryMemoryService, MemoryService, Part, Session};
use rstest::rstest;
use serde_json::json;

use support::at;

async fn coffee_memory() -> InMemoryMemoryService {
    let memory = InMemoryMemoryService::new();
    let session = Session::new("support", "u-42", "s-1").with_event(
        Event::text(
            "user",
            "My favourite coffee is a flat white. Order 4417 shipped.",
        )
        .at(at(0)),
    );
    memory.add_session_to_memory(&session).await.expect("add");
    memory
}

#[tokio::test]
async fn recalls_across_sessions_under_same_key() {
    let memory = InMemoryMemoryService::new();
    let monday = Session::new("support", "u-42", "s-1")
        .with_event(Event::text("user", "My favourite coffee is a flat white."));
    memory.add_session_to_memory(&monday).await.unwrap();

    assert_eq!(
        memory
            .search_memory("support", "u-42", "coffee")
            .await
            .unwrap()
            .memories
            .len(),
        1
    );
    assert_eq!(
        memory
            .search_memory("support", "42", "coffee")
            .await
            .unwrap()
            .memories
            .len(),
        0
    );
    assert_eq!(
        memory
            .search_memory("support", "u-42", "coffee?")
            .await
            .unwrap()
            .memories
            .len(),
        0
    );
}

#[rstest]
#[case::exact_word("support", "u-42", "coffee", 1)]
#[case::query_is_lowercased("support", "u-42", "Coffee", 1)]
#[case::question_mark_stays_on_the_token("support", "u-42", "coffee?", 0)]
#[case::one_live_token_is_enough("support", "u-42", "coffee preference?", 1)]
#[case::hyphenated_token_is_dead("support", "u-42", "flat-white", 0)]
#[case::digits_are_never_words("support", "u-42", "4417", 0)]
#[case::order_matches("support", "u-42", "Where's order 4417?", 1)]
#[case::common_words_match("support", "u-42", "is", 1)]
#[case::different_key("support", "42", "coffee", 0)]
#[tokio::test]
async fn worked_example_table(
    #[case] app: &str,
    #[case] user: &str,
    #[case] query: &str,
    #[case] hits: usize,
) {
    let memory = coffee_memory().await;
    let found = memory
        .search_memory(app, user, query)
        .await
        .unwrap()
        .memories;
    assert_eq!(found.len(), hits, "query {query:?} under {app:?}/{user:?}");
}

#[tokio::test]
async fn the_issue_example_compiles_and_finds_only_the_text()
-> Result<(), memory_conformance::MemoryError> {
    let s = Session::new("support", "u-42", "s-1")
        .with_event(Event::text("user", "My favourite coffee is a flat white."))
        .with_event(Event::function_response(
            "model",
            "get_order",
            json!({"status": "Order 4417 delivered"}),
        ))
        .with_event(Event::function_call(
            "model",
            "get_order",
            json!({"id": 4417}),
        ))
        .with_event(Event::without_content("user"))
        .with_event(Event::with_parts(
            "user",
            vec![Part::text("hi"), Part::text("there")],
        ))
        .with_state("favourite", json!("oolong"));
    let memory = InMemoryMemoryService::new();
    memory.add_session_to_memory(&s).await?;
    let hits = memory
        .search_memory("support", "u-42", "coffee")
        .await?
        .memories;
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].content, s.events[0].content.clone().unwrap());
    for query in [
        "delivered",
        "status",
        "get_order",
        "order",
        "oolong",
        "favourite coffee",
    ] {
        let found = memory
            .search_memory("support", "u-42", query)
            .await?
            .memories;
        let tool_or_state: Vec<_> = found
            .iter()
            .filter(|e| e.content != hits[0].content)
            .collect();
        assert!(
            tool_or_state.is_empty(),
            "{query:?} found tool data or state: {tool_or_state:?}"
        );
    }
    let both_parts = memory
        .search_memory("support", "u-42", "there")
        .await?
        .memories;
    assert_eq!(both_parts.len(), 1);
    assert_eq!(
        both_parts[0].content.parts,
        [Part::text("hi"), Part::text("there")]
    );
    Ok(())
}
