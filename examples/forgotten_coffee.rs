//! The debugging guide's worked example, end to end: a fact written under one key, searched
//! under another, diagnosed with the four checks, then fixed.
//!
//! Run with `cargo run --example forgotten_coffee`.

use std::sync::Arc;

use memory_conformance::inspect::Evidence;
use memory_conformance::inspect::InspectingMemoryService;
use memory_conformance::profile::Profile;
use memory_conformance::{
    Event, InMemoryMemoryService, MemoryError, MemoryService, Session, ToolContext, explain,
    load_memory,
};
use serde_json::json;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), MemoryError> {
    tracing_subscriber::fmt()
        .with_target(false)
        .without_time()
        .init();
    let memory = Arc::new(InspectingMemoryService::new(InMemoryMemoryService::new()));

    // Monday: a back-office job writes the session under a numeric user id.
    let monday = Session::new("support", "42", "monday")
        .with_event(Event::text("user", "My favourite coffee is a flat white."))
        .with_event(Event::function_response(
            "model",
            "get_order",
            json!({"status": "Order 4417 shipped"}),
        ));
    memory.add_session_to_memory(&monday).await?;

    // Thursday: the chat endpoint searches under "u-42".
    let thursday = ToolContext::new("support", "u-42").with_memory(memory.clone());
    let query = "coffee preference?";
    println!("dead tokens of {query:?}: {:?}", explain(query));
    let found = load_memory(query, &thursday).await?;
    println!("hits: {}\n", found.memories.len());
    println!("{}\n", memory.diagnose("support", "u-42", query));

    // The fix: one shared function builds the user id for every writer and reader.
    let monday = Session::new("support", "u-42", "monday").with_events(monday.events);
    memory.add_session_to_memory(&monday).await?;
    let found = load_memory(query, &thursday).await?;
    println!("after the fix, hits: {}", found.memories.len());

    // A second test still fails: the order number is only in a function response.
    let order = "Where's order 4417?";
    let found = load_memory(order, &thursday).await?;
    println!("{order:?}, hits: {}\n", found.memories.len());
    // From keys and counts alone (what the decorator logs): check 4 plus check 3, likely.
    println!("{}\n", memory.diagnose("support", "u-42", order));
    // From the session itself: where each word of the query is stored.
    let evidence = Evidence::from_sessions([monday]);
    println!(
        "{}",
        evidence.diagnose("support", "u-42", order, &Profile::reference())
    );
    Ok(())
}
