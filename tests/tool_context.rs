//! Tool-side access: `ToolContext::search_memory` and the `load_memory` tool.

mod support;

use std::sync::Arc;

use memory_conformance::{
    Event, InMemoryMemoryService, MemoryError, MemoryService, Session, ToolContext, load_memory,
};

use support::with_captured_logs;

#[tokio::test]
async fn search_without_a_memory_service_is_not_initialized() {
    let context = ToolContext::new("support", "u-42");
    let err = context.search_memory("coffee").await.unwrap_err();
    assert!(matches!(err, MemoryError::NotInitialized));
    assert_eq!(err.to_string(), "Memory service is not initialized.");
    let err = load_memory("coffee", &context).await.unwrap_err();
    assert!(matches!(err, MemoryError::NotInitialized));
}

#[tokio::test]
async fn a_fact_from_monday_is_in_thursdays_load_memory_result() {
    let memory = Arc::new(InMemoryMemoryService::new());
    let monday = Session::new("support", "u-42", "monday")
        .with_event(Event::text("user", "My favourite coffee is a flat white."));
    memory.add_session_to_memory(&monday).await.unwrap();
    let other_user = Session::new("support", "u-7", "monday")
        .with_event(Event::text("user", "coffee: espresso"));
    memory.add_session_to_memory(&other_user).await.unwrap();

    let thursday = Session::new("support", "u-42", "thursday");
    let context = ToolContext::for_session(&thursday).with_memory(memory);
    let response = load_memory("What coffee do I usually get?", &context)
        .await
        .unwrap();
    let texts: Vec<_> = response
        .memories
        .iter()
        .flat_map(|m| m.content.texts())
        .collect();
    assert_eq!(texts, ["My favourite coffee is a flat white."]);
}

#[test]
fn load_memory_logs_dead_token_count_and_opt_in_query() {
    let memory: Arc<dyn MemoryService> = Arc::new(InMemoryMemoryService::new());
    let quiet = ToolContext::new("support", "u-42").with_memory(Arc::clone(&memory));
    let (result, logs) = with_captured_logs(load_memory("coffee preference?", &quiet));
    result.unwrap();
    assert!(
        logs.contains(r#"memory.query key="support"/"u-42" dead=1 hits=0 elapsed_ms="#),
        "{logs}"
    );
    assert!(
        !logs.contains("coffee") && !logs.contains("preference"),
        "{logs}"
    );

    let loud = ToolContext::new("support", "u-42")
        .with_memory(memory)
        .log_query(true);
    let (result, logs) = with_captured_logs(load_memory("coffee preference?", &loud));
    result.unwrap();
    assert!(
        logs.contains(r#"query="coffee preference?" dead_tokens=["preference?"]"#),
        "{logs}"
    );
}

/// The capture's guarantee under the test runner's threads: a callsite that a thread with no
/// subscriber reaches first, while a capture runs on another thread, is still captured there
/// (tracing caches a callsite's interest from the thread that registers it).
#[test]
fn a_capture_sees_a_callsite_that_a_thread_without_subscriber_reached_first() {
    fn remembered() {
        tracing::info!(target: "memory", "remembered");
    }
    let ((), logs) = with_captured_logs(async {
        std::thread::spawn(remembered)
            .join()
            .expect("the thread ends");
        remembered();
    });
    assert_eq!(logs.matches("remembered").count(), 1, "{logs}");
}
