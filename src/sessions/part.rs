use base64::Engine as _;
use base64::engine::general_purpose::{STANDARD, URL_SAFE};
use serde_json::Value;

use super::SessionsError;
use super::node::Node;
use crate::Part;

/// One part in any of the shapes the ADK languages write; `None` for a kind the kit's model
/// has no place for (file data, executable code, a thought without text).
pub(crate) fn read(node: &Node<'_>) -> Result<Option<Part>, SessionsError> {
    node.object("a part (an object)")?;
    if let Some(text) = node.optional(&["text"]) {
        return Ok(Some(Part::text(text.str("the part's text (a string)")?)));
    }
    if let Some(call) = node.optional(&["function_call", "functionCall"]) {
        call.object("a function call (an object)")?;
        let name = call.string(&["name"], "the function's name")?;
        let args = call
            .optional(&["args"])
            .map_or(Value::Null, |a| a.value.clone());
        return Ok(Some(Part::function_call(name, args)));
    }
    if let Some(answer) = node.optional(&["function_response", "functionResponse"]) {
        answer.object("a function response (an object)")?;
        let name = answer.string(&["name"], "the function's name")?;
        let response = answer
            .optional(&["response"])
            .map_or(Value::Null, |r| r.value.clone());
        return Ok(Some(Part::function_response(name, response)));
    }
    // ADK-Rust's untagged inline data: `{"mime_type": ..., "data": ...}` at the top level.
    let untagged_blob = (node.optional(&["mime_type"]).is_some()
        && node.optional(&["data"]).is_some())
    .then(|| node.clone());
    if let Some(blob) = node
        .optional(&["inline_data", "inlineData"])
        .or(untagged_blob)
    {
        blob.object("inline data (an object)")?;
        let mime_type = blob
            .optional(&["mime_type", "mimeType"])
            .map(|m| m.str("a MIME type (a string)").map(str::to_owned))
            .transpose()?
            .unwrap_or_default();
        let data = match blob.optional(&["data"]) {
            None => Vec::new(),
            Some(data) => bytes(&data)?,
        };
        return Ok(Some(Part::inline_data(mime_type, data)));
    }
    // ADK-Rust's untagged function call: `{"name": ..., "args": ...}` at the part's top level.
    if node.optional(&["name"]).is_some() && node.optional(&["args"]).is_some() {
        let name = node.string(&["name"], "the function's name")?;
        let args = node
            .optional(&["args"])
            .map_or(Value::Null, |a| a.value.clone());
        return Ok(Some(Part::function_call(name, args)));
    }
    Ok(None)
}

/// Bytes as base64 (standard or URL-safe, padded or not: pydantic, Jackson, the kit) or as an
/// array of numbers (serde's `Vec<u8>`, ADK-Rust).
fn bytes(node: &Node<'_>) -> Result<Vec<u8>, SessionsError> {
    const EXPECTED: &str = "the data (base64 text or an array of bytes)";
    match node.value {
        Value::String(text) => {
            let trimmed = text.trim_end_matches('=');
            let padded = format!("{trimmed}{}", "=".repeat((4 - trimmed.len() % 4) % 4));
            STANDARD
                .decode(&padded)
                .or_else(|_| URL_SAFE.decode(&padded))
                .map_err(|_| {
                    SessionsError::at(
                        node.path.clone(),
                        format!(
                            "expected {EXPECTED}, found a string of {} characters that is not base64",
                            text.chars().count()
                        ),
                    )
                })
        }
        Value::Array(_) => node
            .items(EXPECTED)?
            .iter()
            .map(|item| {
                item.value
                    .as_u64()
                    .and_then(|b| u8::try_from(b).ok())
                    .ok_or_else(|| item.mismatch("a byte (0 to 255)"))
            })
            .collect(),
        _ => Err(node.mismatch(EXPECTED)),
    }
}
