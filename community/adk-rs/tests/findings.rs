//! Standalone reproductions, in adk-rs's own API, of what the kit found in adk-rs 0.6.0's
//! `InMemoryMemoryService`; each checks that its page under `docs/findings/` says what the
//! installed version does (`status: still present`, or `fixed in adk-rs <version>`).

use adk_rs::core::llm_response::LlmResponse;
use adk_rs::core::{Event, MemoryService, Session};
use adk_rs::genai_types::{Content, FunctionCall, Part, Role};
use adk_rs::services::mem::InMemoryMemoryService;

/// Fails unless the page `docs/findings/<page>.md` says the defect is `present` (or fixed).
fn page_says(page: &str, present: bool, shown: &str) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../docs/findings")
        .join(format!("{page}.md"));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|err| panic!("cannot read {}: {err}", path.display()));
    let status = text
        .lines()
        .find_map(|line| line.strip_prefix("- status: "))
        .unwrap_or_else(|| panic!("{} has no line `- status: ...`", path.display()));
    let says_present = status.starts_with("still present");
    assert_eq!(
        says_present,
        present,
        "{} says `status: {status}`, but the reproduction shows {}: {shown}",
        path.display(),
        if present {
            "the defect"
        } else {
            "no defect: write `status: fixed in adk-rs <version>`"
        }
    );
}

fn event(author: &str, content: Content) -> Event {
    let mut event = Event::new(author, LlmResponse::default());
    event.response.content = Some(content);
    event
}

#[tokio::test]
async fn blank_query_returns_every_memory() {
    let memory = InMemoryMemoryService::new();
    let mut session = Session::new("support", "u-42", "s-1");
    session
        .events
        .push(event("user", Content::user_text("a flat white, please")));
    memory.add_session_to_memory(&session).await.unwrap();
    let found = memory.search_memory("support", "u-42", "").await.unwrap();
    page_says(
        "adk-rs-blank-query",
        !found.memories.is_empty(),
        &format!("an empty query found {} memories", found.memories.len()),
    );
}

#[tokio::test]
async fn memories_come_back_as_model_text() {
    let memory = InMemoryMemoryService::new();
    let mut session = Session::new("support", "u-42", "s-1");
    let said = Content {
        role: Role::User,
        parts: vec![
            Part::text("look up order 42"),
            Part::FunctionCall(
                serde_json::from_value::<FunctionCall>(
                    serde_json::json!({ "name": "lookup", "args": { "order": 42 } }),
                )
                .unwrap(),
            ),
        ],
    };
    session.events.push(event("user", said.clone()));
    memory.add_session_to_memory(&session).await.unwrap();
    let found = memory
        .search_memory("support", "u-42", "order")
        .await
        .unwrap();
    let contents: Vec<&Content> = found.memories.iter().map(|m| &m.content).collect();
    page_says(
        "adk-rs-role-and-parts-lost",
        contents != vec![&said],
        &format!("the user's event came back as {contents:?}"),
    );
}
