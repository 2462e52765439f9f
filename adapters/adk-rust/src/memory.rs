//! [`AdkRustMemory`]: any adk-memory service behind memory-conformance's `MemoryService`.

use std::error::Error;
use std::fmt;
use std::future::Future;
use std::path::Path;

use adk_memory::{SearchRequest, SqliteMemoryService};
use memory_conformance::{
    MemoryError, MemoryKey, MemoryService, SearchMemoryResponse, SearchOptions, Session,
    async_trait,
};
use tokio::runtime::Handle;

use crate::mapping::{kit_entry, session_entries};

/// An `adk_memory::MemoryService` (ADK-Rust's memory: `InMemoryMemoryService`,
/// `SqliteMemoryService`, …) as memory-conformance's [`MemoryService`], called exactly as an
/// ADK-Rust application calls it.
///
/// # The mapping
///
/// `add_session_to_memory(session)` calls `add_session(app_name, user_id, session_id,
/// entries)` once, with one `adk_memory::MemoryEntry` per event **with content**, in event
/// order. Events without content (`content: None`) are dropped; events whose content has no
/// parts, or no text, are passed on, and the backend decides what to keep. Each entry holds:
///
/// - `content`: the event's content, part by part: [`Part::Text`](memory_conformance::Part)
///   to `Part::Text`, a function call to `Part::FunctionCall` (no call id, no thought
///   signature), a function response to `Part::FunctionResponse` (no inline or file data, no
///   call id, no annotations), inline data to `Part::InlineData` (no URI, no annotations).
///   ADK-Rust's role is a plain string: no role is written as `""`, and `""` is read back as
///   no role, so every content round-trips unchanged except an explicit empty role
///   (`Some("")`), which comes back as `None`.
/// - `author`: the event's author.
/// - `timestamp`: the event's instant as `chrono::DateTime<Utc>`, exact to the nanosecond.
///
/// `search_memory(app_name, user_id, query)` calls `search` with the query verbatim,
/// `limit: None` (so the backend's default of 10 applies, as it does for an ADK-Rust agent),
/// no `min_score` and no `project_id`. Each result maps back part by part as above; its
/// author is always present, and its timestamp is formatted with
/// [`MemoryEntry::format_timestamp`](memory_conformance::MemoryEntry::format_timestamp)
/// (milliseconds, cut). Results keep the backend's order.
///
/// # Errors
///
/// Backend failures are [`MemoryError::Backend`] naming the call, the key and the session,
/// with the `adk_core::AdkError` as source. A result this mapping cannot represent is an
/// error naming the entry and part instead of a silently changed entry: a part kind
/// memory-conformance has no counterpart for (thinking, file data, server tool calls and
/// responses, embedded resources), a part carrying data it has no field for (a call id, a
/// thought signature, a URI, annotations, a function response's inline or file data), or a
/// timestamp `jiff` cannot hold (a leap second, a year beyond ±9999).
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), memory_conformance::MemoryError> {
/// use memory_conformance::{Event, MemoryService, Session};
/// use memory_conformance_adk_rust::AdkRustMemory;
///
/// let memory = AdkRustMemory::new(adk_memory::InMemoryMemoryService::new());
/// let monday = Session::new("support", "u-42", "s-1")
///     .with_event(Event::text("user", "My favourite coffee is a flat white."));
/// memory.add_session_to_memory(&monday).await?;
///
/// let found = memory.search_memory("support", "u-42", "coffee").await?;
/// assert_eq!(found.memories[0].content, monday.events[0].content.clone().unwrap());
/// // ADK-Rust keeps punctuation on words: "white." is a word, "white" is not.
/// assert!(memory.search_memory("support", "u-42", "white").await?.memories.is_empty());
/// # Ok(())
/// # }
/// ```
pub struct AdkRustMemory<S> {
    inner: S,
}

impl<S> AdkRustMemory<S> {
    /// `inner` behind memory-conformance's [`MemoryService`].
    pub fn new(inner: S) -> Self {
        Self { inner }
    }

    /// The wrapped adk-memory service.
    pub fn inner(&self) -> &S {
        &self.inner
    }

    /// The wrapped adk-memory service, unwrapped.
    pub fn into_inner(self) -> S {
        self.inner
    }
}

impl AdkRustMemory<SqliteMemoryService> {
    /// Opens the SQLite memory file at `path` (created if missing) the way an ADK-Rust
    /// application does, `SqliteMemoryService::new("sqlite:<path>")` then `migrate()`, and
    /// wraps it.
    ///
    /// # Errors
    ///
    /// A [`MemoryError`] naming the path when the path is not UTF-8, when opening or
    /// migrating the database fails, or when it is awaited outside a tokio runtime (sqlx
    /// runs on tokio).
    pub fn open_sqlite(
        path: impl AsRef<Path>,
    ) -> impl Future<Output = Result<Self, MemoryError>> + Send + 'static {
        let path = path.as_ref().to_path_buf();
        async move {
            let failed = |step: &str, err: Box<dyn Error + Send + Sync>| {
                MemoryError::backend_with_source(
                    format!("cannot {step} SQLite memory {}", path.display()),
                    err,
                )
            };
            let url = sqlite_url(&path)?;
            let service = SqliteMemoryService::new(&url)
                .await
                .map_err(|err| failed("open", err.into()))?;
            // rustc cannot prove `migrate()`'s future `Send` (sqlx's executor bounds inside it
            // are not general enough over lifetimes), so it runs to completion on a blocking
            // thread of the same runtime, which keeps this future `Send` for harnesses and
            // servers.
            let runtime = Handle::try_current()
                .map_err(|err| failed("migrate (no tokio runtime)", err.into()))?;
            let migrated = tokio::task::spawn_blocking(move || {
                runtime.block_on(service.migrate()).map(|()| service)
            });
            match migrated.await {
                Ok(Ok(service)) => Ok(Self::new(service)),
                Ok(Err(err)) => Err(failed("migrate", err.into())),
                Err(err) => Err(failed("migrate", err.into())),
            }
        }
    }
}

/// The `sqlite:` URL of the file at `path`. sqlx percent-decodes the path and reads what
/// follows a `?` as parameters, so everything but unreserved characters and `/` is encoded.
fn sqlite_url(path: &Path) -> Result<String, MemoryError> {
    let text = path.to_str().ok_or_else(|| {
        MemoryError::backend(format!(
            "the SQLite memory path {} is not UTF-8",
            path.display()
        ))
    })?;
    let mut url = String::from("sqlite:");
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'/' | b'-' | b'_' | b'.' | b'~') {
            url.push(char::from(byte));
        } else {
            url.push_str(&format!("%{byte:02X}"));
        }
    }
    Ok(url)
}

impl<S> fmt::Debug for AdkRustMemory<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AdkRustMemory")
            .field("inner", &std::any::type_name::<S>())
            .finish()
    }
}

#[async_trait]
impl<S: adk_memory::MemoryService> MemoryService for AdkRustMemory<S> {
    async fn add_session_to_memory(&self, session: &Session) -> Result<(), MemoryError> {
        let entries = session_entries(session)?;
        self.inner
            .add_session(&session.app_name, &session.user_id, &session.id, entries)
            .await
            .map_err(|err| {
                MemoryError::backend_with_source(
                    format!(
                        "adk-memory add_session of {} session {:?} failed",
                        session.key(),
                        session.id
                    ),
                    err,
                )
            })
    }

    async fn search_memory(
        &self,
        app_name: &str,
        user_id: &str,
        query: &str,
    ) -> Result<SearchMemoryResponse, MemoryError> {
        self.search_memory_with(app_name, user_id, query, &SearchOptions::default())
            .await
    }

    /// `search` with the options' `limit` as `SearchRequest.limit` (`None`: the backend's
    /// default of 10).
    async fn search_memory_with(
        &self,
        app_name: &str,
        user_id: &str,
        query: &str,
        options: &SearchOptions,
    ) -> Result<SearchMemoryResponse, MemoryError> {
        let key = || MemoryKey::new(app_name, user_id);
        let request = SearchRequest {
            query: query.to_owned(),
            user_id: user_id.to_owned(),
            app_name: app_name.to_owned(),
            limit: options.limit,
            min_score: None,
            project_id: None,
        };
        let response = self.inner.search(request).await.map_err(|err| {
            MemoryError::backend_with_source(
                format!("adk-memory search of {} for {query:?} failed", key()),
                err,
            )
        })?;
        let memories = response
            .memories
            .into_iter()
            .enumerate()
            .map(|(index, entry)| kit_entry(index, entry))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|problem| {
                MemoryError::backend(format!(
                    "cannot map the adk-memory search of {} for {query:?}: {problem}",
                    key()
                ))
            })?;
        Ok(SearchMemoryResponse::new(memories))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sqlite_urls_encode_what_sqlx_would_read_as_syntax() {
        assert_eq!(
            sqlite_url(Path::new("/tmp/mc_1_2.db")).unwrap(),
            "sqlite:/tmp/mc_1_2.db"
        );
        assert_eq!(
            sqlite_url(Path::new("/tmp/a?mode=memory#x%.db")).unwrap(),
            "sqlite:/tmp/a%3Fmode%3Dmemory%23x%25.db"
        );
        assert_eq!(
            sqlite_url(Path::new(":memory:")).unwrap(),
            "sqlite:%3Amemory%3A"
        );
        assert_eq!(
            sqlite_url(Path::new("/tmp/café.db")).unwrap(),
            "sqlite:/tmp/caf%C3%A9.db"
        );
    }
}
