//! The inspecting decorator, `explain` and `diagnose`, through the public API.

mod support;

use std::sync::Arc;

use memory_conformance::inspect::KeyDifference;
use memory_conformance::inspect::{InspectingMemoryService, Verdict};
use memory_conformance::{
    DeadReason, Event, InMemoryMemoryService, MemoryService, Session, explain, explain_tokens,
};
use proptest::prelude::*;
use rstest::rstest;
use serde_json::json;

use support::with_captured_logs;

#[rstest]
#[case("coffee preference?", &["preference?"])]
#[case("Where's order 4417?", &["where's", "4417?"])]
#[case("flat-white café", &["flat-white", "café"])]
#[case("Coffee", &[])]
#[case("", &[])]
#[case("flat\u{a0}white", &["flat\u{a0}white"])]
fn explain_lists_the_dead_tokens(#[case] query: &str, #[case] dead: &[&str]) {
    assert_eq!(explain(query), dead);
}

#[test]
fn explain_tokens_names_the_offending_character() {
    let reasons: Vec<_> = explain_tokens("ok coffee? 4417 café flat\u{a0}white 😀")
        .into_iter()
        .map(|t| t.dead)
        .collect();
    assert_eq!(
        reasons,
        [
            None,
            Some(DeadReason::Punctuation('?')),
            Some(DeadReason::Digit('4')),
            Some(DeadReason::NonAsciiLetter('é')),
            Some(DeadReason::UnicodeSpace('\u{a0}')),
            Some(DeadReason::Other('😀')),
        ]
    );
}

#[tokio::test]
async fn check_1_nothing_written() {
    let memory = InspectingMemoryService::new(InMemoryMemoryService::new());
    let diagnosis = memory.diagnose("support", "u-42", "coffee");
    assert_eq!(diagnosis.verdict(), Verdict::NothingWritten);
    assert_eq!(diagnosis.written.sessions, 0);
    assert!(
        diagnosis
            .to_string()
            .contains("NO: nothing was ever written"),
        "{diagnosis}"
    );
}

#[test]
fn check_1_a_failed_write_does_not_count() {
    struct Failing;
    #[memory_conformance::async_trait]
    impl MemoryService for Failing {
        async fn add_session_to_memory(
            &self,
            _: &Session,
        ) -> Result<(), memory_conformance::MemoryError> {
            Err(memory_conformance::MemoryError::backend("disk full"))
        }
        async fn search_memory(
            &self,
            _: &str,
            _: &str,
            _: &str,
        ) -> Result<memory_conformance::SearchMemoryResponse, memory_conformance::MemoryError>
        {
            Ok(Default::default())
        }
    }
    let memory = InspectingMemoryService::new(Failing);
    let session = Session::new("support", "u-42", "s-1").with_event(Event::text("user", "coffee"));
    let (result, logs) = with_captured_logs(memory.add_session_to_memory(&session));
    assert!(result.is_err());
    assert!(
        logs.contains("memory.write.failed") && logs.contains("disk full"),
        "{logs}"
    );
    assert_eq!(
        memory.diagnose("support", "u-42", "coffee").verdict(),
        Verdict::NothingWritten
    );
}

#[rstest]
#[case::numeric_id(("support", "42"), ("support", "u-42"), &[KeyDifference::NumericIdPrefix])]
#[case::case(("support", "U-42"), ("support", "u-42"), &[KeyDifference::Case])]
#[case::separators(("support_bot", "u-42"), ("support-bot", "u-42"), &[KeyDifference::Separators])]
#[case::whitespace(("support", " u-42"), ("support", "u-42"), &[KeyDifference::SurroundingWhitespace])]
#[case::two_at_once(("Support.Bot", "u-42"), ("support-bot", "u-42"), &[KeyDifference::Case, KeyDifference::Separators])]
#[tokio::test]
async fn check_2_wrong_key_lists_the_near_misses(
    #[case] written: (&str, &str),
    #[case] searched: (&str, &str),
    #[case] differences: &[KeyDifference],
) {
    let memory = InspectingMemoryService::new(InMemoryMemoryService::new());
    for (app, user) in [written, ("billing", "u-7")] {
        let session = Session::new(app, user, "s-1").with_event(Event::text("user", "coffee"));
        memory.add_session_to_memory(&session).await.unwrap();
    }
    let diagnosis = memory.diagnose(searched.0, searched.1, "coffee");
    assert_eq!(diagnosis.verdict(), Verdict::WrongKey);
    assert_eq!(
        diagnosis.right_key.near_misses.len(),
        1,
        "only the near miss, not billing: {diagnosis}"
    );
    let near = &diagnosis.right_key.near_misses[0];
    assert_eq!(
        (near.key.app_name.as_str(), near.key.user_id.as_str()),
        written
    );
    assert_eq!(near.differences, differences);
}

#[tokio::test]
async fn check_3_every_token_dead() {
    let memory = InspectingMemoryService::new(InMemoryMemoryService::new());
    let session = Session::new("support", "u-42", "s-1")
        .with_event(Event::text("user", "Order 4417 shipped"));
    memory.add_session_to_memory(&session).await.unwrap();
    let diagnosis = memory.diagnose("support", "u-42", "4417? #4417");
    assert_eq!(diagnosis.verdict(), Verdict::QueryCannotMatch);
    assert_eq!(diagnosis.match_rules.dead().count(), 2);
    assert_eq!(
        memory.diagnose("support", "u-42", "  ").verdict(),
        Verdict::QueryCannotMatch
    );
}

#[tokio::test]
async fn check_4_counts_events_without_text() {
    let memory = InspectingMemoryService::new(InMemoryMemoryService::new());
    let session = Session::new("support", "u-42", "s-1")
        .with_event(Event::function_response(
            "model",
            "get_order",
            json!({"status": "Order 4417 delivered"}),
        ))
        .with_event(Event::without_content("user"));
    memory.add_session_to_memory(&session).await.unwrap();
    let diagnosis = memory.diagnose("support", "u-42", "delivered");
    assert_eq!(diagnosis.verdict(), Verdict::NoIndexedText);
    assert_eq!(
        (
            diagnosis.indexed_text.events,
            diagnosis.indexed_text.events_without_text
        ),
        (2, 2)
    );

    let session = Session::new("support", "u-42", "s-2")
        .with_event(Event::text("user", "My coffee is a flat white."));
    memory.add_session_to_memory(&session).await.unwrap();
    let diagnosis = memory.diagnose("support", "u-42", "delivered");
    assert_eq!(diagnosis.verdict(), Verdict::ChecksPass);
    assert_eq!(
        (
            diagnosis.indexed_text.events,
            diagnosis.indexed_text.events_without_text
        ),
        (3, 2)
    );
}

/// The seed's worked example: the write went to `support/42`, the search to `support/u-42`.
#[tokio::test]
async fn the_forgotten_coffee_order_reads_like_the_walk_through() {
    let memory = InspectingMemoryService::new(InMemoryMemoryService::new());
    let monday = Session::new("support", "42", "s-1")
        .with_event(Event::text("user", "My favourite coffee is a flat white."))
        .with_event(Event::function_response(
            "model",
            "get_order",
            json!({"status": "Order 4417 shipped"}),
        ));
    memory.add_session_to_memory(&monday).await.unwrap();
    let diagnosis = memory.diagnose("support", "u-42", "coffee preference?");
    assert_eq!(
        diagnosis.to_string(),
        r#"diagnosis of a search under "support"/"u-42" for "coffee preference?"
1. written?          yes: 1 session (2 events) under 1 key
2. right key?        NO: nothing was written under "support"/"u-42"
                     near miss: "support"/"42" (prefix on a numeric id), 1 session
3. match rules?      yes: 1 of 2 tokens can match
                     dead: "preference?": "?" stays on the query token but separates stored words
4. indexed text?     not reached
verdict: check 2 fails: the writer and the reader use different keys. Build the app name and user id in one shared function used by every writer and reader."#
    );
}

#[test]
fn logs_keys_and_counts_per_write_and_search() {
    let memory = InspectingMemoryService::new(InMemoryMemoryService::new());
    let session = Session::new("support", "u-42", "s-1")
        .with_event(Event::text("user", "My favourite coffee is a flat white."))
        .with_event(Event::function_call(
            "model",
            "get_order",
            json!({"id": 4417}),
        ))
        .with_event(Event::without_content("user"));
    let ((), logs) = with_captured_logs(async {
        memory.add_session_to_memory(&session).await.unwrap();
        memory
            .search_memory("support", "u-42", "coffee preference?")
            .await
            .unwrap();
    });
    let lines: Vec<&str> = logs.lines().collect();
    assert_eq!(lines.len(), 2, "{logs}");
    assert!(
        lines[0]
            .contains(r#"memory.write key="support"/"u-42" session=s-1 events=3 text_events=1"#),
        "{logs}"
    );
    assert!(
        lines[1]
            .contains(r#"memory.search key="support"/"u-42" tokens=2 dead=1 hits=1 elapsed_ms="#),
        "{logs}"
    );
    assert!(
        !logs.contains("coffee") && !logs.contains("preference"),
        "content leaked: {logs}"
    );
}

#[test]
fn content_appears_only_when_opted_in() {
    let memory = InspectingMemoryService::new(InMemoryMemoryService::new()).log_content(true);
    let session =
        Session::new("support", "u-42", "s-1").with_event(Event::text("user", "flat white"));
    let ((), logs) = with_captured_logs(async {
        memory.add_session_to_memory(&session).await.unwrap();
        memory
            .search_memory("support", "u-42", "coffee preference?")
            .await
            .unwrap();
    });
    assert!(logs.contains(r#"texts=["flat white"]"#), "{logs}");
    assert!(logs.contains(r#"query="coffee preference?""#), "{logs}");
}

fn private_word() -> impl Strategy<Value = String> {
    // Random content, long enough that it cannot collide with log field names or numbers.
    "[a-zA-Z]{12,20}"
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Privacy: by default, no stored text and no query text ever reaches the logs, for writes,
    /// searches, diagnosis helpers and the tool-side `load_memory`.
    #[test]
    fn content_never_appears_in_logs_by_default(
        stored in proptest::collection::vec(private_word(), 1..6),
        query_words in proptest::collection::vec(private_word(), 1..4),
        punctuation in proptest::sample::select(vec!["?", ".", "!", "", "'s"]),
    ) {
        let memory = Arc::new(InspectingMemoryService::new(InMemoryMemoryService::new()));
        let session = Session::new("app", "user", "s-1")
            .with_event(Event::text("user", stored.join(" ")))
            .with_event(Event::function_response("model", "tool", json!({"fact": stored[0]})));
        let query = format!("{} {}{punctuation}", stored[0], query_words.join(" "));
        let context = memory_conformance::ToolContext::new("app", "user").with_memory(memory.clone());
        let ((), logs) = with_captured_logs(async {
            memory.add_session_to_memory(&session).await.unwrap();
            memory.search_memory("app", "user", &query).await.unwrap();
            memory_conformance::load_memory(&query, &context).await.unwrap();
        });
        prop_assert_eq!(logs.lines().count(), 4, "write, search, search again and query: {}", logs);
        for word in stored.iter().chain(&query_words) {
            prop_assert!(!logs.to_lowercase().contains(&word.to_lowercase()), "{:?} leaked into the logs:\n{}", word, logs);
        }
    }
}
