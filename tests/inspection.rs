//! The inspecting decorator, `explain` and `diagnose`, through the public API.

mod support;

use std::sync::Arc;

use memory_conformance::inspect::{Conclusion, InspectingMemoryService};
use memory_conformance::inspect::{Evidence, KeyDifference, PlaceKind, read_log};
use memory_conformance::profile::Profile;
use memory_conformance::sessions::read_sessions;
use memory_conformance::{
    DeadReason, Event, InMemoryMemoryService, MemoryService, Session, explain, explain_for,
    explain_tokens,
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
    assert_eq!(diagnosis.conclusion(), Conclusion::NothingWritten);
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
        memory.diagnose("support", "u-42", "coffee").conclusion(),
        Conclusion::NothingWritten
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
    assert_eq!(diagnosis.conclusion(), Conclusion::WrongKey);
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
    assert_eq!(diagnosis.conclusion(), Conclusion::QueryCannotMatch);
    assert_eq!(diagnosis.match_rules.dead().count(), 2);
    assert_eq!(
        memory.diagnose("support", "u-42", "  ").conclusion(),
        Conclusion::QueryCannotMatch
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
    assert_eq!(diagnosis.conclusion(), Conclusion::NoIndexedText);
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
    assert_eq!(diagnosis.conclusion(), Conclusion::ChecksPass);
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

/// The calls beyond the two reach the wrapped service, each logged with its key and counts.
#[test]
fn the_calls_beyond_the_two_are_forwarded_and_logged() {
    use memory_conformance::{Content, MemoryEntry, SearchOptions};
    let memory = InspectingMemoryService::new(InMemoryMemoryService::new());
    let event = |id: &str, text: &str| Event::text("user", text).with_id(id);
    let session = Session::new("support", "u-42", "s-1").with_event(event("e-1", "coffee one"));
    let (texts, logs) = with_captured_logs(async {
        memory.add_session_to_memory(&session).await.unwrap();
        memory
            .add_events_to_memory(
                "support",
                "u-42",
                Some("s-1"),
                &[event("e-2", "coffee two")],
            )
            .await
            .unwrap();
        memory
            .add_memory(
                "support",
                "u-42",
                &[MemoryEntry::new(Content::text("coffee three")).with_id("m-1")],
            )
            .await
            .unwrap();
        let limited = memory
            .search_memory_with("support", "u-42", "coffee", &SearchOptions::with_limit(2))
            .await
            .unwrap();
        memory
            .delete_memory("support", "u-42", "e-1")
            .await
            .unwrap();
        let after = memory
            .search_memory("support", "u-42", "coffee")
            .await
            .unwrap();
        let texts = |found: &memory_conformance::SearchMemoryResponse| -> Vec<String> {
            found
                .memories
                .iter()
                .flat_map(|m| m.content.texts().map(str::to_owned))
                .collect()
        };
        (texts(&limited), texts(&after))
    });
    assert_eq!(texts.0, ["coffee one", "coffee two"]);
    assert_eq!(texts.1, ["coffee two", "coffee three"]);
    for line in [
        r#"memory.delta key="support"/"u-42" session="s-1" events=1"#,
        r#"memory.add_memory key="support"/"u-42" memories=1"#,
        r#"memory.search key="support"/"u-42" limit=2 hits=2"#,
        r#"memory.delete key="support"/"u-42" id="e-1""#,
    ] {
        assert!(logs.contains(line), "{line} not in {logs}");
    }
}

/// A call the wrapped service does not support fails through the decorator, and is logged.
#[test]
fn the_calls_beyond_the_two_fail_as_the_wrapped_service_does() {
    use memory_conformance::{
        Content, MemoryEntry, MemoryError, SearchMemoryResponse, SearchOptions,
    };
    struct TwoCalls;
    #[memory_conformance::async_trait]
    impl MemoryService for TwoCalls {
        async fn add_session_to_memory(&self, _: &Session) -> Result<(), MemoryError> {
            Ok(())
        }
        async fn search_memory(
            &self,
            _: &str,
            _: &str,
            _: &str,
        ) -> Result<SearchMemoryResponse, MemoryError> {
            Err(MemoryError::backend("index offline"))
        }
    }
    let memory = InspectingMemoryService::new(TwoCalls);
    let memories = [MemoryEntry::new(Content::text("coffee"))];
    let (results, logs) = with_captured_logs(async {
        [
            memory
                .add_events_to_memory("a", "u", None, &[Event::text("user", "coffee")])
                .await
                .is_err(),
            memory.add_memory("a", "u", &memories).await.is_err(),
            memory.delete_memory("a", "u", "m-1").await.is_err(),
            memory
                .search_memory_with("a", "u", "coffee", &SearchOptions::with_limit(1))
                .await
                .is_err(),
            memory
                .search_memory_with("a", "u", "coffee", &SearchOptions::default())
                .await
                .is_err(),
        ]
    });
    assert_eq!(results, [true; 5], "{logs}");
    for name in [
        "memory.delta.failed",
        "memory.add_memory.failed",
        "memory.delete.failed",
        "memory.search.failed",
    ] {
        assert!(logs.contains(name), "{name} not in {logs}");
    }
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

#[test]
fn explain_under_each_profile() {
    assert_eq!(explain_for(&Profile::reference(), "coffee?"), ["coffee?"]);
    assert!(explain_for(&Profile::adk_python(), "coffee?").is_empty());
    assert!(explain_for(&Profile::adk_go(), "coffee?").is_empty());
    assert_eq!(
        explain_for(&Profile::adk_js(), "coffee? 4417"),
        ["coffee?", "4417"]
    );
    assert_eq!(explain_for(&Profile::adk_python(), "coffee ?"), ["?"]);
    assert_eq!(
        explain_for(&Profile::adk_rust_sqlite(), "flat-white NOT"),
        ["not"].map(str::to_uppercase)
    );
}

#[tokio::test]
async fn the_decorator_explains_under_the_profile_of_what_it_wraps() {
    let session = Session::new("support", "u-42", "s-1")
        .with_event(Event::text("user", "My favourite coffee is a flat white."));
    let reference = InspectingMemoryService::new(InMemoryMemoryService::new());
    let python = InspectingMemoryService::new(InMemoryMemoryService::new())
        .with_profile(Profile::adk_python());
    assert_eq!(python.profile().name, "adk-python");
    for memory in [&reference, &python] {
        memory.add_session_to_memory(&session).await.unwrap();
    }
    let under_reference = reference.diagnose("support", "u-42", "coffee?");
    assert_eq!(under_reference.conclusion(), Conclusion::QueryCannotMatch);
    let under_python = python.diagnose("support", "u-42", "coffee?");
    assert_eq!(under_python.match_rules.dead().count(), 0, "{under_python}");
    assert_eq!(under_python.profile, "adk-python");
    assert!(
        under_python
            .to_string()
            .contains("1 of 1 token can match under adk-python's rules"),
        "{under_python}"
    );
}

#[test]
fn the_decorator_logs_dead_tokens_under_its_profile() {
    let memory = InspectingMemoryService::new(InMemoryMemoryService::new())
        .with_profile(Profile::adk_python());
    let ((), logs) = with_captured_logs(async {
        memory
            .search_memory("support", "u-42", "coffee?")
            .await
            .unwrap();
    });
    assert!(logs.contains("tokens=1 dead=0 hits=0"), "{logs}");
}

/// The seed's step 4: the search ran and missed. From counts alone the decorator can no longer
/// say "all four checks pass".
#[tokio::test]
async fn check_4_plus_check_3_from_counts_once_the_search_missed() {
    let memory = InspectingMemoryService::new(InMemoryMemoryService::new());
    memory.add_session_to_memory(&monday("u-42")).await.unwrap();
    let query = "Where's order 4417?";
    assert_eq!(
        memory.diagnose("support", "u-42", query).conclusion(),
        Conclusion::ChecksPass,
        "before any search, counts cannot tell"
    );
    let found = memory
        .search_memory("support", "u-42", query)
        .await
        .unwrap();
    assert!(found.memories.is_empty());
    let diagnosis = memory.diagnose("support", "u-42", query);
    assert_eq!(diagnosis.hits, Some(0));
    assert_eq!(
        diagnosis.conclusion(),
        Conclusion::NotIndexedAndCannotMatch,
        "{diagnosis}"
    );
    assert!(
        diagnosis.indexed_text.content.is_none(),
        "counts only by default"
    );

    let found = memory
        .search_memory("support", "u-42", "coffee")
        .await
        .unwrap();
    assert_eq!(found.memories.len(), 1);
    assert_eq!(
        memory.diagnose("support", "u-42", "coffee").conclusion(),
        Conclusion::Found
    );
}

fn monday(user: &str) -> Session {
    Session::new("support", user, "monday")
        .with_event(Event::text("user", "My favourite coffee is a flat white.").with_id("e-1"))
        .with_event(
            Event::function_response(
                "model",
                "get_order",
                json!({"status": "Order 4417 shipped"}),
            )
            .with_id("e-2"),
        )
        .with_state("loyalty_tier", json!("gold"))
}

#[tokio::test]
async fn with_content_logging_check_4_says_where_each_word_is() {
    let memory = InspectingMemoryService::new(InMemoryMemoryService::new()).log_content(true);
    memory.add_session_to_memory(&monday("u-42")).await.unwrap();
    let diagnosis = memory.diagnose("support", "u-42", "Where's order 4417?");
    assert_eq!(diagnosis.conclusion(), Conclusion::NotIndexedAndCannotMatch);
    assert_eq!(diagnosis.hits, Some(0));
    let content = diagnosis
        .indexed_text
        .content
        .as_ref()
        .expect("content kept");
    let tokens: Vec<(&str, bool, Vec<PlaceKind>)> = content
        .tokens
        .iter()
        .map(|t| {
            (
                t.token.as_str(),
                t.dead,
                t.places.iter().map(|p| p.kind).collect(),
            )
        })
        .collect();
    assert_eq!(
        tokens,
        [
            ("where's", true, vec![]),
            ("order", false, vec![PlaceKind::FunctionResponse]),
            ("4417?", true, vec![PlaceKind::FunctionResponse]),
        ]
    );
    assert_eq!(content.tokens[2].places[0].event.as_deref(), Some("e-2"));
    assert_eq!(
        content.tokens[2].places[0].name.as_deref(),
        Some("get_order")
    );

    let state = memory.diagnose("support", "u-42", "gold");
    assert_eq!(state.conclusion(), Conclusion::NotIndexed, "{state}");
    assert!(
        state.to_string().contains(
            r#""gold": in session state (session "monday", key "loyalty_tier"): not indexed"#
        ),
        "{state}"
    );
}

/// The kit's own log lines, as `tracing-subscriber` writes them, read back: the four checks
/// from the log alone.
#[test]
fn the_decorators_log_lines_read_back_into_a_diagnosis() {
    let memory = Arc::new(InspectingMemoryService::new(InMemoryMemoryService::new()));
    let context =
        memory_conformance::ToolContext::new("support", "u-42").with_memory(memory.clone());
    let ((), logs) = with_captured_logs(async {
        memory.add_session_to_memory(&monday("42")).await.unwrap();
        memory_conformance::load_memory("coffee preference?", &context)
            .await
            .unwrap();
    });
    let read = read_log(&logs);
    assert_eq!(read.records, 3, "write, search, query: {logs}");
    let search = read.evidence.searches().last().unwrap();
    assert_eq!(
        (search.tokens, search.dead, search.hits),
        (Some(2), Some(1), Some(0))
    );
    let diagnosis = read.evidence.diagnose_search(search, &Profile::reference());
    assert_eq!(diagnosis.conclusion(), Conclusion::WrongKey, "{diagnosis}");
    assert_eq!(diagnosis.right_key.near_misses[0].key.user_id, "42");
}

#[test]
fn logged_content_is_never_read_back() {
    let memory = InspectingMemoryService::new(InMemoryMemoryService::new()).log_content(true);
    let ((), logs) = with_captured_logs(async {
        memory.add_session_to_memory(&monday("u-42")).await.unwrap();
        memory
            .search_memory("support", "u-42", "Where's order 4417?")
            .await
            .unwrap();
    });
    assert!(logs.contains("texts=["), "{logs}");
    let read = read_log(&logs);
    let search = read.evidence.searches().last().unwrap();
    assert_eq!(search.query.as_deref(), Some("Where's order 4417?"));
    let diagnosis = read.evidence.diagnose_search(search, &Profile::reference());
    assert_eq!(
        diagnosis.conclusion(),
        Conclusion::NotIndexedAndCannotMatch,
        "{diagnosis}"
    );
    assert!(!diagnosis.to_string().contains("favourite"), "{diagnosis}");
}

#[test]
fn a_broken_memory_line_is_skipped_and_named_by_its_line() {
    let read = read_log("boot\nmemory.write key=support/42 session=s events=many\n");
    assert_eq!((read.records, read.skipped), (0, 1));
    let err = read.first_skipped.expect("the skipped line says why");
    assert_eq!(
        err.to_string(),
        "line 2: memory.write: `events` is not a count"
    );
    let err = read_log("memory.search key=nokey tokens=1 hits=0\n")
        .first_skipped
        .expect("the skipped line says why");
    assert_eq!(err.line(), 1);
    assert!(err.to_string().contains("has no `/`"), "{err}");
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
        // Reading those lines back and diagnosing from them shows no content either.
        let read = read_log(&logs);
        let diagnosis = read.evidence.diagnose_search(read.evidence.searches().last().unwrap(), &Profile::reference());
        let shown = format!("{diagnosis}{}", serde_json::to_string(&diagnosis).unwrap()).to_lowercase();
        for word in stored.iter().chain(&query_words) {
            prop_assert!(!shown.contains(&word.to_lowercase()), "{:?} leaked into the diagnosis:\n{}", word, shown);
        }
        for word in stored.iter().chain(&query_words) {
            prop_assert!(!logs.to_lowercase().contains(&word.to_lowercase()), "{:?} leaked into the logs:\n{}", word, logs);
        }
    }

    /// Privacy on the new paths: sessions read from JSON and diagnosed, under any profile,
    /// never put stored content (text, tool data, inline data, state) into the diagnosis,
    /// its JSON or a read error, unless content is asked for.
    #[test]
    fn diagnosing_sessions_never_shows_stored_content_by_default(
        stored in proptest::collection::vec(private_word(), 3..6),
        extra in private_word(),
        camel in any::<bool>(),
        profile in proptest::sample::select(vec![
            Profile::reference(), Profile::adk_python(), Profile::adk_go(), Profile::adk_rust_sqlite(),
        ]),
    ) {
        let text = stored[..2].join(" ");
        let (app, user, call, answer, blob, mime) = if camel {
            ("appName", "userId", "functionCall", "functionResponse", "inlineData", "mimeType")
        } else {
            ("app_name", "user_id", "function_call", "function_response", "inline_data", "mime_type")
        };
        let base64 = {
            use base64::Engine as _;
            base64::engine::general_purpose::STANDARD.encode(stored[2].as_bytes())
        };
        let session = json!({
            "id": "s-1", app: "app", user: "user",
            "state": {"fact": stored[2]},
            "events": [
                {"id": "e-1", "author": "user", "timestamp": 1_767_225_601.25,
                 "content": {"parts": [{"text": text, "thought": null}]}},
                {"id": "e-2", "author": "model", "timestamp": 1_767_225_602.0,
                 "content": {"parts": [{call: {"name": "lookup", "args": {"q": stored[1]}}}]}},
                {"id": "e-3", "author": "model", "timestamp": 1_767_225_603.0,
                 "content": {"parts": [{answer: {"name": "lookup", "response": {"r": stored[2]}}}]}},
                {"id": "e-4", "author": "user", "timestamp": 1_767_225_604.0,
                 "content": {"parts": [{blob: {mime: "text/plain", "data": base64}}]}},
            ],
        });
        let loaded = read_sessions(&session.to_string()).unwrap();
        let query = format!("{} {} {extra}?", stored[0], stored[2]);
        let evidence = Evidence::from_sessions(loaded.sessions.clone());
        let diagnosis = evidence.diagnose("app", "user", &query, &profile);
        let shown = format!("{diagnosis}\n{}", serde_json::to_string(&diagnosis).unwrap());
        // The query's own words appear (they are the query); stored[1] is only stored: in the
        // text that holds stored[0], and in a tool call.
        prop_assert!(!shown.to_lowercase().contains(&stored[1].to_lowercase()), "{:?} leaked:\n{}", stored[1], shown);

        let with_content = Evidence::from_sessions(loaded.sessions).show_content(true)
            .diagnose("app", "user", &query, &profile);
        let tokens = &with_content.indexed_text.content.as_ref().unwrap().tokens;
        prop_assert_eq!(tokens[0].places[0].excerpt.as_deref(), Some(text.as_str()));
        let places = &tokens[1].places;
        prop_assert_eq!(places.len(), 3, "tool response, inline data, state: {}", with_content);
        prop_assert!(places.iter().all(|p| p.excerpt.as_deref() == Some(stored[2].as_str())));

        // A read error describes the value, never quotes it.
        let mut broken = session.clone();
        broken["events"][0]["author"] = json!([stored[0]]);
        broken["events"][1]["timestamp"] = json!(stored[1]);
        let err = read_sessions(&broken.to_string()).unwrap_err().to_string();
        prop_assert!(!err.contains(&stored[0]), "{}", err);
        broken["events"][0]["author"] = json!("user");
        let err = read_sessions(&broken.to_string()).unwrap_err().to_string();
        prop_assert!(!err.contains(&stored[1]), "{}", err);
        prop_assert!(err.starts_with("$.events[1].timestamp: "), "{}", err);
    }
}
