//! The mapping between memory-conformance's model and adk-memory's: a session's events to
//! adk `MemoryEntry`s, and adk `MemoryEntry`s back to memory-conformance entries.

use adk_core::FunctionResponseData;
use memory_conformance::{Content, Event, MemoryEntry, MemoryError, Part, Session};

use crate::time::{to_chrono, to_jiff};

/// The adk entries `session` is written as: one per event with content, in event order;
/// events without content are dropped.
pub(crate) fn session_entries(
    session: &Session,
) -> Result<Vec<adk_memory::MemoryEntry>, MemoryError> {
    session
        .events
        .iter()
        .filter(|event| event.content.is_some())
        .map(|event| {
            adk_entry(event).map_err(|problem| {
                MemoryError::backend(format!(
                    "cannot map event {:?} of {} session {:?} to an adk-memory entry: {problem}",
                    event.id,
                    session.key(),
                    session.id
                ))
            })
        })
        .collect()
}

fn adk_entry(event: &Event) -> Result<adk_memory::MemoryEntry, String> {
    let content = event.content.as_ref().ok_or("the event has no content")?;
    Ok(adk_memory::MemoryEntry {
        content: adk_content(content)?,
        author: event.author.clone(),
        timestamp: to_chrono(event.timestamp)?,
    })
}

fn adk_content(content: &Content) -> Result<adk_core::Content, String> {
    let parts = content
        .parts
        .iter()
        .enumerate()
        .map(|(index, part)| adk_part(part).map_err(|problem| format!("part {index}: {problem}")))
        .collect::<Result<_, _>>()?;
    Ok(adk_core::Content {
        role: content.role.clone().unwrap_or_default(),
        parts,
    })
}

fn adk_part(part: &Part) -> Result<adk_core::Part, String> {
    Ok(match part {
        Part::Text(text) => adk_core::Part::Text { text: text.clone() },
        Part::FunctionCall { name, args } => adk_core::Part::FunctionCall {
            name: name.clone(),
            args: args.clone(),
            id: None,
            thought_signature: None,
        },
        Part::FunctionResponse { name, response } => adk_core::Part::FunctionResponse {
            function_response: FunctionResponseData::new(name.clone(), response.clone()),
            id: None,
            annotations: None,
        },
        Part::InlineData { mime_type, data } => adk_core::Part::InlineData {
            mime_type: mime_type.clone(),
            data: data.clone(),
            uri: None,
            annotations: None,
        },
        other => {
            return Err(format!(
                "{other:?} is a kind of part this adapter does not know"
            ));
        }
    })
}

/// The memory-conformance entry for the `index`-th entry of an adk-memory search result.
pub(crate) fn kit_entry(
    index: usize,
    entry: adk_memory::MemoryEntry,
) -> Result<MemoryEntry, String> {
    let problem = |what: String| format!("entry {index} of the result: {what}");
    let content = kit_content(entry.content).map_err(problem)?;
    let timestamp = to_jiff(entry.timestamp).map_err(problem)?;
    Ok(MemoryEntry::new(content)
        .with_author(entry.author)
        .with_timestamp(MemoryEntry::format_timestamp(timestamp)))
}

fn kit_content(content: adk_core::Content) -> Result<Content, String> {
    let parts = content
        .parts
        .into_iter()
        .enumerate()
        .map(|(index, part)| kit_part(part).map_err(|problem| format!("part {index} {problem}")))
        .collect::<Result<_, _>>()?;
    let kit = Content::new(parts);
    Ok(if content.role.is_empty() {
        kit
    } else {
        kit.with_role(content.role)
    })
}

/// Why a part cannot be held by memory-conformance's `Part`, which has no field for it.
fn unheld(what: &str) -> String {
    format!("{what}, which memory-conformance's Part cannot hold")
}

fn kit_part(part: adk_core::Part) -> Result<Part, String> {
    match part {
        adk_core::Part::Text { text } => Ok(Part::Text(text)),
        adk_core::Part::FunctionCall {
            name,
            args,
            id,
            thought_signature,
        } => {
            if id.is_some() {
                return Err(unheld("is a function call with a tool call id"));
            }
            if thought_signature.is_some() {
                return Err(unheld("is a function call with a thought signature"));
            }
            Ok(Part::function_call(name, args))
        }
        adk_core::Part::FunctionResponse {
            function_response,
            id,
            annotations,
        } => {
            let FunctionResponseData {
                name,
                response,
                inline_data,
                file_data,
            } = function_response;
            if id.is_some() {
                return Err(unheld("is a function response with a tool call id"));
            }
            if annotations.is_some() {
                return Err(unheld("is a function response with annotations"));
            }
            if !inline_data.is_empty() || !file_data.is_empty() {
                return Err(unheld("is a function response with inline or file data"));
            }
            Ok(Part::function_response(name, response))
        }
        adk_core::Part::InlineData {
            mime_type,
            data,
            uri,
            annotations,
        } => {
            if uri.is_some() {
                return Err(unheld("is inline data with a source URI"));
            }
            if annotations.is_some() {
                return Err(unheld("is inline data with annotations"));
            }
            Ok(Part::inline_data(mime_type, data))
        }
        adk_core::Part::Thinking { .. } => Err(unheld("is a thinking part")),
        adk_core::Part::FileData { .. } => Err(unheld("is a file data part")),
        adk_core::Part::ServerToolCall { .. } => Err(unheld("is a server tool call")),
        adk_core::Part::ServerToolResponse { .. } => Err(unheld("is a server tool response")),
        adk_core::Part::EmbeddedResource { .. } => Err(unheld("is an embedded resource")),
    }
}

#[cfg(test)]
mod tests {
    use memory_conformance::Timestamp;
    use serde_json::json;

    use super::*;

    fn every_kind_of_part() -> Vec<Part> {
        vec![
            Part::text("My favourite coffee is a flat white."),
            Part::text(""),
            Part::function_call(
                "get_order",
                json!({"id": 4417, "items": ["flat white"], "rush": true}),
            ),
            Part::function_response(
                "get_order",
                json!({"status": "delivered", "eta": null, "price": 3.5}),
            ),
            Part::inline_data("image/png", vec![0x89, b'P', b'N', b'G', 0, 255]),
        ]
    }

    fn at(text: &str) -> Timestamp {
        text.parse().unwrap()
    }

    /// The entry the reference backend returns for `event`: the round trip must give exactly it.
    fn reference_entry(event: &Event) -> MemoryEntry {
        MemoryEntry::from_event(event).unwrap()
    }

    fn round_trip(event: &Event) -> MemoryEntry {
        let session = Session::new("support", "u-42", "s-1").with_event(event.clone());
        let mut entries = session_entries(&session).unwrap();
        assert_eq!(entries.len(), 1);
        kit_entry(0, entries.remove(0)).unwrap()
    }

    #[test]
    fn every_part_kind_round_trips_in_order() {
        let event =
            Event::with_parts("model", every_kind_of_part()).at(at("2026-01-01T00:00:01.250Z"));
        assert_eq!(round_trip(&event), reference_entry(&event));
    }

    #[test]
    fn parts_map_to_their_adk_counterparts() {
        let content = adk_content(&Content::new(every_kind_of_part())).unwrap();
        assert_eq!(content.role, "");
        assert!(
            matches!(&content.parts[0], adk_core::Part::Text { text } if text.starts_with("My favourite"))
        );
        assert!(matches!(&content.parts[1], adk_core::Part::Text { text } if text.is_empty()));
        assert!(
            matches!(&content.parts[2], adk_core::Part::FunctionCall { name, id: None, .. } if name == "get_order")
        );
        assert!(matches!(
            &content.parts[3],
            adk_core::Part::FunctionResponse { function_response, id: None, annotations: None }
                if function_response.name == "get_order" && function_response.response["status"] == "delivered"
        ));
        assert!(matches!(
            &content.parts[4],
            adk_core::Part::InlineData { mime_type, data, uri: None, annotations: None }
                if mime_type == "image/png" && data.len() == 6
        ));
    }

    #[test]
    fn a_role_round_trips_and_no_role_is_the_empty_string() {
        for role in [None, Some("user"), Some("model")] {
            let mut content = Content::text("coffee");
            if let Some(role) = role {
                content = content.with_role(role);
            }
            assert_eq!(adk_content(&content).unwrap().role, role.unwrap_or(""));
            let event = Event::new("user", Some(content)).at(at("2026-01-01T00:00:00Z"));
            assert_eq!(round_trip(&event).content.role.as_deref(), role);
        }
    }

    #[test]
    fn timestamps_keep_sub_millisecond_precision_until_formatted() {
        let event = Event::text("user", "coffee").at(at("2026-01-01T00:00:01.999999999Z"));
        let session = Session::new("support", "u-42", "s-1").with_event(event.clone());
        let entries = session_entries(&session).unwrap();
        assert_eq!(entries[0].timestamp.timestamp_subsec_nanos(), 999_999_999);
        assert_eq!(entries[0].author, "user");
        let entry = kit_entry(0, entries[0].clone()).unwrap();
        assert_eq!(entry.timestamp.as_deref(), Some("2026-01-01T00:00:01.999Z"));
        assert_eq!(entry, reference_entry(&event));
    }

    #[test]
    fn events_without_content_are_dropped_and_the_rest_keep_their_order() {
        let session = Session::new("support", "u-42", "s-1").with_events([
            Event::text("user", "first"),
            Event::without_content("model"),
            Event::with_parts("model", vec![]),
            Event::text("user", "last"),
        ]);
        let entries = session_entries(&session).unwrap();
        let parts: Vec<usize> = entries.iter().map(|e| e.content.parts.len()).collect();
        assert_eq!(parts, [1, 0, 1]);
        assert_eq!(adk_memory::text::extract_text(&entries[2].content), "last");
    }

    #[test]
    fn parts_the_kit_cannot_hold_are_errors_naming_the_entry_and_part() {
        let entry = |parts: Vec<adk_core::Part>| adk_memory::MemoryEntry {
            content: adk_core::Content {
                role: "model".into(),
                parts,
            },
            author: "model".into(),
            timestamp: chrono::DateTime::UNIX_EPOCH,
        };
        let text = adk_core::Part::Text {
            text: "coffee".into(),
        };
        let cases = [
            (
                adk_core::Part::Thinking {
                    thinking: "hm".into(),
                    signature: None,
                },
                "is a thinking part",
            ),
            (
                adk_core::Part::FunctionCall {
                    name: "get_order".into(),
                    args: json!({}),
                    id: Some("call-1".into()),
                    thought_signature: None,
                },
                "tool call id",
            ),
            (
                adk_core::Part::InlineData {
                    mime_type: "image/png".into(),
                    data: vec![1],
                    uri: Some("https://example.com/a.png".into()),
                    annotations: None,
                },
                "source URI",
            ),
            (
                adk_core::Part::FileData {
                    mime_type: "image/png".into(),
                    file_uri: "gs://bucket/a.png".into(),
                    annotations: None,
                },
                "file data part",
            ),
        ];
        for (part, what) in cases {
            let err = kit_entry(3, entry(vec![text.clone(), part])).unwrap_err();
            assert!(err.starts_with("entry 3 of the result: part 1 "), "{err}");
            assert!(
                err.contains(what) && err.ends_with("memory-conformance's Part cannot hold"),
                "{err}"
            );
        }
    }

    #[test]
    fn an_instant_jiff_cannot_hold_is_an_error_naming_the_entry() {
        let entry = adk_memory::MemoryEntry {
            content: adk_core::Content {
                role: String::new(),
                parts: vec![],
            },
            author: "user".into(),
            timestamp: chrono::DateTime::from_timestamp(400_000_000_000, 0).unwrap(),
        };
        let err = kit_entry(0, entry).unwrap_err();
        assert!(err.starts_with("entry 0 of the result: timestamp"), "{err}");
    }
}
