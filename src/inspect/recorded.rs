//! The memory searches a stored conversation records: each `load_memory` function call (its
//! query) and the function response that answers it (the memories returned), as ADK Python,
//! ADK JS, ADK Java and ADK-Rust store them.

use serde_json::Value;

use super::{SearchRecord, SearchSource};
use crate::{Part, Session};

/// The names the memory-loading tool is registered under: ADK Python, JS and Go
/// (`load_memory`), ADK Java (`loadMemory`, from its method name).
const LOAD_MEMORY: [&str; 2] = ["load_memory", "loadMemory"];

/// Every search `session` records, in order: its key is the session's app name and user id
/// (the tool searches under them), its query the call's `query` argument, its hits the number
/// of memories in the response (`{"memories": [...]}`, or wrapped as `{"result": {...}}`);
/// calls are answered in order.
pub(crate) fn searches_in(session: &Session) -> Vec<SearchRecord> {
    let mut found: Vec<SearchRecord> = Vec::new();
    let mut unanswered = std::collections::VecDeque::new();
    let parts = session
        .events
        .iter()
        .filter_map(|event| event.content.as_ref())
        .flat_map(|content| &content.parts);
    for part in parts {
        match part {
            Part::FunctionCall { name, args } if LOAD_MEMORY.contains(&name.as_str()) => {
                let mut search = SearchRecord::new(session.key());
                search.query = args.get("query").and_then(Value::as_str).map(str::to_owned);
                search.session = Some(session.id.clone());
                search.source = SearchSource::Session;
                unanswered.push_back(found.len());
                found.push(search);
            }
            Part::FunctionResponse { name, response } if LOAD_MEMORY.contains(&name.as_str()) => {
                if let Some(index) = unanswered.pop_front() {
                    found[index].hits = memories(response);
                }
            }
            _ => {}
        }
    }
    found
}

/// The number of memories a `load_memory` response holds.
fn memories(response: &Value) -> Option<usize> {
    let inner = response.get("result").unwrap_or(response);
    inner
        .get("memories")
        .and_then(Value::as_array)
        .map(Vec::len)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Content, Event, MemoryKey};
    use serde_json::json;

    fn tool(part: Part) -> Event {
        Event::new("agent", Some(Content::new(vec![part])))
    }

    #[test]
    fn each_call_is_answered_by_the_next_response_in_order() {
        let session = Session::new("support", "u-42", "thursday").with_events([
            Event::text("user", "What coffee do I usually get?"),
            tool(Part::function_call(
                "load_memory",
                json!({"query": "coffee?"}),
            )),
            tool(Part::function_call("loadMemory", json!({"query": "tea"}))),
            tool(Part::function_response(
                "load_memory",
                json!({"result": {"memories": []}}),
            )),
            tool(Part::function_response(
                "loadMemory",
                json!({"memories": [{}, {}]}),
            )),
            tool(Part::function_call("get_order", json!({"query": "x"}))),
            tool(Part::function_call("load_memory", json!({}))),
        ]);
        let found = searches_in(&session);
        let seen: Vec<_> = found
            .iter()
            .map(|s| (s.query.as_deref(), s.hits, s.session.as_deref()))
            .collect();
        assert_eq!(
            seen,
            [
                (Some("coffee?"), Some(0), Some("thursday")),
                (Some("tea"), Some(2), Some("thursday")),
                (None, None, Some("thursday")),
            ]
        );
        assert!(
            found
                .iter()
                .all(|s| s.key == MemoryKey::new("support", "u-42"))
        );
        assert!(found.iter().all(|s| s.source == SearchSource::Session));
        assert_eq!(memories(&json!({"memories": "x"})), None);
    }
}
