//! Memory as an agent's tool sees it: ADK's `ToolContext.searchMemory` and `LoadMemoryTool`.

use std::fmt;
use std::sync::Arc;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use crate::inspect::elapsed_ms;
use crate::{
    MemoryEntry, MemoryError, MemoryKey, MemoryService, SearchMemoryResponse, Session, explain,
};

/// What a tool knows of the current session: its app name and user id, and the runner's
/// memory service if one is configured.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// use memory_conformance::{MemoryError, ToolContext};
/// let context = ToolContext::new("support", "u-42");
/// let err = context.search_memory("coffee").await.unwrap_err();
/// assert!(matches!(err, MemoryError::NotInitialized));
/// # }
/// ```
#[derive(Clone)]
pub struct ToolContext {
    key: MemoryKey,
    memory: Option<Arc<dyn MemoryService>>,
    log_query: bool,
}

impl ToolContext {
    /// The context of a session of `user_id` in `app_name`, with no memory service.
    pub fn new(app_name: impl Into<String>, user_id: impl Into<String>) -> Self {
        Self {
            key: MemoryKey::new(app_name, user_id),
            memory: None,
            log_query: false,
        }
    }

    /// The context of `session`, with no memory service.
    pub fn for_session(session: &Session) -> Self {
        Self::new(session.app_name.clone(), session.user_id.clone())
    }

    /// The same context with `memory` as the runner's memory service.
    #[must_use]
    pub fn with_memory(mut self, memory: Arc<dyn MemoryService>) -> Self {
        self.memory = Some(memory);
        self
    }

    /// Also logs the query text and its dead tokens in `memory.query` events. For development
    /// only: queries often hold personal data.
    #[must_use]
    pub fn log_query(mut self, enabled: bool) -> Self {
        self.log_query = enabled;
        self
    }

    /// The (app name, user id) searches are made under.
    pub fn key(&self) -> &MemoryKey {
        &self.key
    }

    /// Searches memory for `query` under the current session's app name and user id.
    ///
    /// Fails with [`MemoryError::NotInitialized`] when no memory service is configured.
    pub async fn search_memory(&self, query: &str) -> Result<SearchMemoryResponse, MemoryError> {
        let memory = self.memory.as_ref().ok_or(MemoryError::NotInitialized)?;
        memory
            .search_memory(&self.key.app_name, &self.key.user_id, query)
            .await
    }
}

impl fmt::Debug for ToolContext {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolContext")
            .field("key", &self.key)
            .field("memory", &self.memory.as_ref().map(|_| "configured"))
            .field("log_query", &self.log_query)
            .finish()
    }
}

/// What the `load_memory` tool hands the model: the entries found.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct LoadMemoryResponse {
    /// The entries, in the backend's order.
    pub memories: Vec<MemoryEntry>,
}

/// The `load_memory` tool: searches memory for `query` through `context` and wraps the
/// entries, emitting a `memory.query` tracing event (fields `key`, `dead` (count), `hits`,
/// `elapsed_ms`; the query text and the dead tokens themselves only when the context
/// [logs queries](ToolContext::log_query)).
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), memory_conformance::MemoryError> {
/// use std::sync::Arc;
/// use memory_conformance::{load_memory, Event, InMemoryMemoryService, MemoryService, Session, ToolContext};
/// let memory = Arc::new(InMemoryMemoryService::new());
/// let monday = Session::new("support", "u-42", "s-1")
///     .with_event(Event::text("user", "My favourite coffee is a flat white."));
/// memory.add_session_to_memory(&monday).await?;
///
/// let thursday = Session::new("support", "u-42", "s-2");
/// let context = ToolContext::for_session(&thursday).with_memory(memory);
/// let response = load_memory("What coffee do I usually get?", &context).await?;
/// assert_eq!(response.memories.len(), 1);
/// # Ok(())
/// # }
/// ```
pub async fn load_memory(
    query: &str,
    context: &ToolContext,
) -> Result<LoadMemoryResponse, MemoryError> {
    let started = Instant::now();
    let result = context.search_memory(query).await;
    let elapsed_ms = elapsed_ms(started);
    let key = context.key();
    // Field values are computed only when a subscriber takes the event.
    let dead = || explain(query).len();
    match (&result, context.log_query) {
        (Ok(found), false) => tracing::info!(name: "memory.query", key = %key, dead = dead(),
            hits = found.memories.len(), elapsed_ms, "memory.query"),
        (Ok(found), true) => tracing::info!(name: "memory.query", key = %key, dead = dead(),
            hits = found.memories.len(), elapsed_ms, query = ?query, dead_tokens = ?explain(query), "memory.query"),
        (Err(error), false) => {
            tracing::warn!(name: "memory.query.failed", key = %key, dead = dead(),
            elapsed_ms, error = %error, "memory.query.failed")
        }
        (Err(error), true) => {
            tracing::warn!(name: "memory.query.failed", key = %key, dead = dead(),
            elapsed_ms, error = %error, query = ?query, dead_tokens = ?explain(query), "memory.query.failed")
        }
    }
    result.map(|found| LoadMemoryResponse {
        memories: found.memories,
    })
}
