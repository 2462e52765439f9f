//! adk-rs 0.6.0 (crates.io, a Rust port of ADK) behind memory-conformance's
//! [`MemoryService`]: [`AdkRsMemory`] wraps any `adk_rs::core::MemoryService`, converting the
//! kit's sessions to adk-rs's and its entries back, so the kit's gates can run against the real
//! package. [`gate`] is the gate of its `InMemoryMemoryService`, under the profile
//! `profile.toml` declares ([`PROFILE`]), run by `tests/conformance.rs`; `tests/findings.rs`
//! reproduces, in adk-rs's own API, what the kit found in it (`docs/findings/adk-rs-*.md`).
//!
//! ```
//! use memory_conformance::{Content, Event, MemoryService, Session};
//! use memory_conformance_adk_rs::AdkRsMemory;
//!
//! # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
//! let memory = AdkRsMemory::new(adk_rs::services::mem::InMemoryMemoryService::new());
//! let mut session = Session::new("support", "u-42", "s-1");
//! session.events.push(Event::new("user", Some(Content::text("a flat white, please").with_role("user"))));
//! memory.add_session_to_memory(&session).await.unwrap();
//! let found = memory.search_memory("support", "u-42", "flat white").await.unwrap();
//! assert_eq!(found.memories.len(), 1);
//! # });
//! ```

use adk_rs::core::MemoryService as AdkMemoryService;
use adk_rs::genai_types::{Content as AdkContent, Part as AdkPart, Role};
use memory_conformance::conformance::{Gate, ProfileFile, Subject};
use memory_conformance::{
    Content, MemoryEntry, MemoryError, MemoryService, Part, SearchMemoryResponse, Session,
    Timestamp, async_trait,
};

/// One of adk-rs's memory services as a memory-conformance backend.
#[derive(Debug)]
pub struct AdkRsMemory<S> {
    service: S,
}

impl<S: AdkMemoryService> AdkRsMemory<S> {
    /// Wraps `service`.
    pub fn new(service: S) -> Self {
        Self { service }
    }
}

/// The kit's role as adk-rs's. adk-rs's `Content` always has a role: a content without one
/// (ADK's `None`) becomes `user`, the role ADK gives a message without one.
fn role(role: Option<&str>) -> Result<Role, MemoryError> {
    match role {
        None | Some("user") => Ok(Role::User),
        Some("model") => Ok(Role::Model),
        Some("system") => Ok(Role::System),
        Some("tool") => Ok(Role::Tool),
        Some(other) => Err(MemoryError::backend(format!(
            "adk-rs has no role {other:?} (it has user, model, system and tool)"
        ))),
    }
}

/// A JSON value as one of adk-rs's types, through its own serde form.
fn adk_value<T: serde::de::DeserializeOwned>(
    value: serde_json::Value,
    what: &str,
) -> Result<T, MemoryError> {
    serde_json::from_value(value.clone())
        .map_err(|err| MemoryError::backend(format!("adk-rs refuses the {what} {value}: {err}")))
}

fn part_to_adk(part: &Part) -> Result<AdkPart, MemoryError> {
    Ok(match part {
        Part::Text(text) => AdkPart::Text(text.clone()),
        Part::FunctionCall { name, args } => AdkPart::FunctionCall(adk_value(
            serde_json::json!({ "name": name, "args": args }),
            "function call",
        )?),
        Part::FunctionResponse { name, response } => AdkPart::FunctionResponse(adk_value(
            serde_json::json!({ "name": name, "response": response }),
            "function response",
        )?),
        Part::InlineData { .. } => {
            // The kit's JSON of the part carries the bytes in base64, as adk-rs's does.
            let kit = serde_json::to_value(part)
                .map_err(|err| MemoryError::backend(format!("cannot write {part:?}: {err}")))?;
            let blob = kit.get("inline_data").cloned().unwrap_or_default();
            AdkPart::InlineData(adk_value(
                serde_json::json!({ "mimeType": blob["mime_type"], "data": blob["data"] }),
                "inline data",
            )?)
        }
        other => {
            return Err(MemoryError::backend(format!(
                "a part adk-rs has no kind for: {other:?}"
            )));
        }
    })
}

fn content_to_adk(content: &Content) -> Result<AdkContent, MemoryError> {
    Ok(AdkContent {
        role: role(content.role.as_deref())?,
        parts: content
            .parts
            .iter()
            .map(part_to_adk)
            .collect::<Result<_, _>>()?,
    })
}

fn seconds(timestamp: Timestamp) -> f64 {
    // adk-rs keeps ADK Python's float seconds.
    timestamp.as_nanosecond() as f64 / 1e9
}

fn session_to_adk(session: &Session) -> Result<adk_rs::core::Session, MemoryError> {
    let mut converted = adk_rs::core::Session::new(
        session.app_name.clone(),
        session.user_id.clone(),
        session.id.clone(),
    );
    for event in &session.events {
        let mut adk_event = adk_rs::core::Event::new(
            event.author.clone(),
            adk_rs::core::llm_response::LlmResponse::default(),
        );
        adk_event.id = event.id.clone();
        adk_event.timestamp = seconds(event.timestamp);
        adk_event.response.content = event.content.as_ref().map(content_to_adk).transpose()?;
        converted.events.push(adk_event);
    }
    Ok(converted)
}

fn part_from_adk(part: &AdkPart) -> Result<Part, MemoryError> {
    let value = serde_json::to_value(part)
        .map_err(|err| MemoryError::backend(format!("cannot read adk-rs's {part:?}: {err}")))?;
    Ok(match part {
        AdkPart::Text(text) => Part::Text(text.clone()),
        AdkPart::FunctionCall(call) => Part::FunctionCall {
            name: call.name.clone(),
            args: call.args.clone(),
        },
        AdkPart::FunctionResponse(answer) => Part::FunctionResponse {
            name: answer.name.clone(),
            response: answer.response.clone(),
        },
        _ => {
            return Err(MemoryError::backend(format!(
                "adk-rs returned a part the kit's model has no kind for: {value}"
            )));
        }
    })
}

fn entry_from_adk(entry: &adk_rs::core::MemoryEntry) -> Result<MemoryEntry, MemoryError> {
    let parts = entry
        .content
        .parts
        .iter()
        .map(part_from_adk)
        .collect::<Result<Vec<_>, _>>()?;
    let mut converted =
        MemoryEntry::new(Content::new(parts).with_role(entry.content.role.to_string()));
    if let Some(author) = &entry.author {
        converted = converted.with_author(author.clone());
    }
    if let Some(time) = entry.timestamp {
        converted = converted.with_timestamp(MemoryEntry::format_timestamp(instant(time)?));
    }
    Ok(converted)
}

/// adk-rs's float seconds as an instant, to the nearest microsecond: a float near today's
/// seconds holds about a quarter of a microsecond, so the nearest nanosecond can fall below the
/// millisecond that was stored (`.001` comes back as `.000999936`), while the nearest
/// microsecond is the one stored (ADK Python's datetimes have microseconds too).
fn instant(time: f64) -> Result<Timestamp, MemoryError> {
    let micros = (time * 1e6).round() as i128;
    Timestamp::from_nanosecond(micros * 1000).map_err(|err| {
        MemoryError::backend(format!(
            "adk-rs returned timestamp {time}, no instant: {err}"
        ))
    })
}

#[async_trait]
impl<S: AdkMemoryService> MemoryService for AdkRsMemory<S> {
    async fn add_session_to_memory(&self, session: &Session) -> Result<(), MemoryError> {
        let converted = session_to_adk(session)?;
        self.service
            .add_session_to_memory(&converted)
            .await
            .map_err(|err| MemoryError::backend(format!("adk-rs add_session_to_memory: {err}")))
    }

    async fn search_memory(
        &self,
        app_name: &str,
        user_id: &str,
        query: &str,
    ) -> Result<SearchMemoryResponse, MemoryError> {
        let found = self
            .service
            .search_memory(app_name, user_id, query)
            .await
            .map_err(|err| MemoryError::backend(format!("adk-rs search_memory: {err}")))?;
        Ok(SearchMemoryResponse::new(
            found
                .memories
                .iter()
                .map(entry_from_adk)
                .collect::<Result<_, _>>()?,
        ))
    }
}

/// The profile file adk-rs's `InMemoryMemoryService` is gated under (`profile.toml`): its
/// design as profile dimensions, its defects and what the vocabulary cannot say as known
/// violations.
pub const PROFILE: &str = include_str!("../profile.toml");

/// The gate of adk-rs 0.6.0's `InMemoryMemoryService` through [`AdkRsMemory`]: every rule of
/// the kit against [`PROFILE`], a fresh service per case. `tests/conformance.rs` runs it.
///
/// ```
/// let gate = memory_conformance_adk_rs::gate();
/// assert_eq!(gate.subject().backend(), "adk-rs");
/// ```
pub fn gate() -> Gate {
    let file = ProfileFile::parse(PROFILE)
        .unwrap_or_else(|err| panic!("community/adk-rs/profile.toml: {err}"));
    let subject = Subject::new("adk-rs", file.profile.clone(), || async {
        AdkRsMemory::new(adk_rs::services::mem::InMemoryMemoryService::new())
    });
    Gate::new(subject)
        .declared_by(&file)
        .describe("adk-rs 0.6.0 InMemoryMemoryService (crates.io), through AdkRsMemory")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_millisecond_comes_back_as_it_went_in() {
        // From 2026-01-01, the kit's generated timestamps.
        for millis in 1_767_225_600_000..1_767_225_620_000 {
            let sent = Timestamp::from_millisecond(millis).unwrap();
            let back = instant(seconds(sent)).unwrap();
            assert_eq!(
                MemoryEntry::format_timestamp(back),
                MemoryEntry::format_timestamp(sent),
                "{millis} ms since 1970 went to adk-rs as {} s",
                seconds(sent)
            );
        }
    }

    /// The gate's `concurrency.adds_land` is a known violation because a search finds too
    /// much (a substring), so whether concurrent adds all land is checked here, with words
    /// none of which holds another: sessions added from 8 threads at once are all found.
    #[test]
    fn concurrent_adds_all_land() {
        let memory = std::sync::Arc::new(AdkRsMemory::new(
            adk_rs::services::mem::InMemoryMemoryService::new(),
        ));
        let word = |i: usize| format!("<{i}>");
        let threads: Vec<_> = (0..8)
            .map(|thread| {
                let memory = memory.clone();
                std::thread::spawn(move || {
                    let runtime = tokio::runtime::Builder::new_current_thread()
                        .build()
                        .unwrap();
                    for i in (thread..64).step_by(8) {
                        let mut session = Session::new("support", "u-42", format!("s-{i}"));
                        session.events.push(memory_conformance::Event::new(
                            "user",
                            Some(Content::text(format!("tea {}", word(i))).with_role("user")),
                        ));
                        runtime
                            .block_on(memory.add_session_to_memory(&session))
                            .unwrap();
                    }
                })
            })
            .collect();
        for thread in threads {
            thread.join().unwrap();
        }
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        for i in 0..64 {
            let found = runtime
                .block_on(memory.search_memory("support", "u-42", &word(i)))
                .unwrap();
            let texts: Vec<Vec<&str>> = found
                .memories
                .iter()
                .map(|m| m.content.texts().collect())
                .collect();
            assert_eq!(
                texts,
                vec![vec![format!("tea {}", word(i)).as_str()]],
                "session s-{i}"
            );
        }
        let all = runtime
            .block_on(memory.search_memory("support", "u-42", "tea"))
            .unwrap();
        assert_eq!(all.memories.len(), 64);
    }
}
