//! The debugging guide's worked example, through the public API: the three-assertion test,
//! every row of the worked-example table of `reference-behaviour.md`, and the guide's verdict
//! on every step of the forgotten coffee, from the sessions and from the log lines.

mod support;

use memory_conformance::inspect::Conclusion;
use memory_conformance::inspect::{Evidence, read_log};
use memory_conformance::profile::Profile;
use memory_conformance::{Event, InMemoryMemoryService, MemoryService, Part, Session, explain};
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

fn monday(user: &str) -> Session {
    Session::new("support", user, "monday")
        .with_event(Event::text("user", "My favourite coffee is a flat white.").at(at(0)))
        .with_event(
            Event::function_response(
                "model",
                "get_order",
                json!({"status": "Order 4417 shipped"}),
            )
            .at(at(1)),
        )
}

/// Steps 1 to 4 of the guide, from the sessions themselves.
#[test]
fn the_guides_verdict_on_every_step_from_the_sessions() {
    let reference = Profile::reference();
    // Step 1: one dead token, but coffee can match: the query is not the cause.
    assert_eq!(explain("coffee preference?"), ["preference?"]);
    // Steps 2 and 3: the search under support/u-42 finds nothing; the write is under support/42.
    let before = Evidence::from_sessions([monday("42")]);
    let step_3 = before.diagnose("support", "u-42", "coffee preference?", &reference);
    assert_eq!(step_3.hits, Some(0));
    assert!(step_3.match_rules.any_live());
    assert_eq!(step_3.conclusion(), Conclusion::WrongKey);
    assert_eq!(step_3.right_key.near_misses[0].key.user_id, "42");
    // Step 4: after the fix the coffee is found; the order number is check 4 plus check 3.
    let after = Evidence::from_sessions([monday("u-42")]);
    let found = after.diagnose("support", "u-42", "coffee preference?", &reference);
    assert_eq!(
        (found.hits, found.conclusion()),
        (Some(1), Conclusion::Found)
    );
    let order = after.diagnose("support", "u-42", "Where's order 4417?", &reference);
    assert_eq!(
        order.conclusion(),
        Conclusion::NotIndexedAndCannotMatch,
        "{order}"
    );
    assert!(
        order
            .conclusion()
            .to_string()
            .starts_with("check 4 plus check 3")
    );
}

/// Steps 1 to 4 of the guide, from its decorator's and plugin's log lines alone.
#[test]
fn the_guides_verdict_on_every_step_from_its_log_lines() {
    let reference = Profile::reference();
    let steps_1_to_3 = read_log(
        "memory.write key=support/42 session=monday events=2 textEvents=1\n\
         memory.query q=coffee preference? dead=[preference?]\n\
         memory.search key=support/u-42 tokens=2 hits=0 ms=3\n",
    );
    let search = steps_1_to_3.evidence.searches().last().unwrap();
    assert_eq!(
        search.dead_tokens.as_deref(),
        Some(&["preference?".to_owned()][..])
    );
    let diagnosis = steps_1_to_3.evidence.diagnose_search(search, &reference);
    assert!(diagnosis.match_rules.any_live(), "step 1: coffee can match");
    assert_eq!(
        diagnosis.conclusion(),
        Conclusion::WrongKey,
        "step 3: {diagnosis}"
    );

    let step_4 = read_log(
        "memory.write key=support/u-42 session=monday events=2 textEvents=1\n\
         memory.query q=coffee preference? dead=[preference?]\n\
         memory.search key=support/u-42 tokens=2 hits=1 ms=2\n\
         memory.query q=Where's order 4417? dead=[where's, 4417?]\n\
         memory.search key=support/u-42 tokens=3 hits=0 ms=1\n",
    );
    let [coffee, order] = step_4.evidence.searches() else {
        panic!("two searches")
    };
    assert_eq!(
        step_4
            .evidence
            .diagnose_search(coffee, &reference)
            .conclusion(),
        Conclusion::Found
    );
    let diagnosis = step_4.evidence.diagnose_search(order, &reference);
    assert_eq!(
        diagnosis.conclusion(),
        Conclusion::NotIndexedAndCannotMatch,
        "{diagnosis}"
    );
}
