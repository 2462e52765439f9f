//! What of an event's content goes into the full-text index.

use memory_conformance::{Content, Part};
use serde_json::Value;

/// The text of `content` that a search can find, one piece a line: every text part, and, when
/// `index_tool_data` is set, the name and every JSON string value of each function call's
/// arguments and function response. Inline data is never indexed, nor are JSON keys, numbers
/// or booleans.
pub(crate) fn indexed_text(content: &Content, index_tool_data: bool) -> String {
    let mut pieces: Vec<&str> = Vec::new();
    for part in &content.parts {
        match part {
            Part::Text(text) => pieces.push(text),
            Part::FunctionCall { name, args } if index_tool_data => {
                pieces.push(name);
                push_strings(args, &mut pieces);
            }
            Part::FunctionResponse { name, response } if index_tool_data => {
                pieces.push(name);
                push_strings(response, &mut pieces);
            }
            _ => {}
        }
    }
    pieces.retain(|piece| !piece.is_empty());
    pieces.join("\n")
}

fn push_strings<'a>(value: &'a Value, out: &mut Vec<&'a str>) {
    let mut pending = vec![value];
    while let Some(value) = pending.pop() {
        match value {
            Value::String(text) => out.push(text),
            Value::Array(items) => pending.extend(items.iter().rev()),
            Value::Object(fields) => pending.extend(fields.values().rev()),
            Value::Null | Value::Bool(_) | Value::Number(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn mixed() -> Content {
        Content::new(vec![
            Part::text("flat white"),
            Part::function_call("get_order", json!({"id": "A-17", "n": 3, "tags": ["rush"]})),
            Part::function_response("get_order", json!({"status": "shipped", "ok": true})),
            Part::inline_data("text/plain", b"secret".to_vec()),
            Part::text(""),
            Part::text("oat milk"),
        ])
    }

    #[test]
    fn text_parts_only_by_default() {
        assert_eq!(indexed_text(&mixed(), false), "flat white\noat milk");
    }

    #[test]
    fn tool_names_and_string_values_when_asked() {
        assert_eq!(
            indexed_text(&mixed(), true),
            "flat white\nget_order\nA-17\nrush\nget_order\nshipped\noat milk"
        );
    }

    #[test]
    fn deeply_nested_json_does_not_recurse() {
        let mut value = json!("deep");
        for _ in 0..1_000 {
            value = json!([value]);
        }
        let content = Content::new(vec![Part::function_response("t", value)]);
        assert_eq!(indexed_text(&content, true), "t\ndeep");
    }
}
