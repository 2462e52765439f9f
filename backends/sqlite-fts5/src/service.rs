//! The service: the `MemoryService` calls, run on a blocking thread against SQLite.

use std::fmt;
use std::path::Path;
use std::sync::Arc;

use memory_conformance::{MemoryError, MemoryService, SearchMemoryResponse, Session, async_trait};

use crate::SqliteFts5Builder;
use crate::blocking::run_blocking;
use crate::connections::Connections;
use crate::failure::{backend, key_label, quoted};
use crate::query::is_blank;
use crate::store::{self, StoredEvent};

/// A durable memory service on SQLite with FTS5 full-text search.
///
/// - **Storage**: a SQLite file in WAL mode ([`open`](Self::open)), shared safely by several
///   services and processes, each seeing the others' writes; or a private in-memory database
///   ([`open_in_memory`](Self::open_in_memory)). Configure with [`builder`](Self::builder).
/// - **Key**: (app name, user id) and the session id are separate columns compared byte for
///   byte, so (`a/b`, `c`) and (`a`, `b/c`) never share anything.
/// - **Write**: [`add_session_to_memory`](MemoryService::add_session_to_memory) stores a copy
///   of every event whose content has at least one part (content, author and timestamp), and
///   replaces what the session held before, in one transaction, also when nothing is left.
///   Session state is never stored.
/// - **Index**: text parts only (tool data when [configured](SqliteFts5Builder::index_tool_data)),
///   tokenised by FTS5 `unicode61` with `remove_diacritics 2`: case and diacritics fold,
///   digits and any script's letters form words, punctuation and symbols separate them.
/// - **Search**: an event matches when it holds at least one word of the query; matches are
///   ranked by bm25, best first, then cut to the [result limit](SqliteFts5Builder::result_limit)
///   (10 by default). Every query string is safe: FTS5 operators and quotes are only ever
///   words; the first [`MAX_QUERY_WORDS`](crate::MAX_QUERY_WORDS) distinct words are used. A
///   query with no word, or an unknown key, finds nothing. Each entry is exactly
///   [`MemoryEntry::from_event`](memory_conformance::MemoryEntry::from_event) of its event.
/// - **Async**: SQLite work runs on Tokio's blocking pool (inline when there is no Tokio
///   runtime); the service is `Send + Sync`, cheap to clone, and safe under concurrent calls.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), memory_conformance::MemoryError> {
/// use memory_conformance::{Event, MemoryService, Session};
/// use memory_sqlite_fts5::SqliteFts5MemoryService;
///
/// let memory = SqliteFts5MemoryService::open_in_memory()?;
/// let monday = Session::new("support", "u-42", "s-1").with_event(Event::text(
///     "user",
///     "My favourite coffee is a flat white. Order 4417 shipped, café.",
/// ));
/// memory.add_session_to_memory(&monday).await?;
///
/// for query in ["coffee?", "Coffee", "4417", "cafe", "flat-white", "NOT \"(tea"] {
///     let found = memory.search_memory("support", "u-42", query).await?;
///     assert_eq!(found.memories.len(), usize::from(query != "NOT \"(tea"), "{query}");
/// }
/// assert!(memory.search_memory("support", "42", "coffee").await?.memories.is_empty());
/// # Ok(())
/// # }
/// ```
#[derive(Clone)]
pub struct SqliteFts5MemoryService {
    pub(crate) inner: Arc<Inner>,
}

#[derive(Debug)]
pub(crate) struct Inner {
    pub(crate) connections: Connections,
    pub(crate) result_limit: Option<usize>,
    pub(crate) index_tool_data: bool,
}

impl SqliteFts5MemoryService {
    /// Options to configure before opening: result limit, tool-data indexing, busy timeout.
    pub fn builder() -> SqliteFts5Builder {
        SqliteFts5Builder::new()
    }

    /// Opens (or creates) the memory database file at `path` with the default options; see
    /// [`SqliteFts5Builder::open`].
    ///
    /// # Errors
    ///
    /// [`MemoryError::Backend`] naming `path` when the file cannot be used as a memory
    /// database.
    pub fn open(path: impl AsRef<Path>) -> Result<Self, MemoryError> {
        Self::builder().open(path)
    }

    /// A new private in-memory database with the default options; see
    /// [`SqliteFts5Builder::open_in_memory`].
    ///
    /// # Errors
    ///
    /// [`MemoryError::Backend`] when SQLite cannot create the database.
    pub fn open_in_memory() -> Result<Self, MemoryError> {
        Self::builder().open_in_memory()
    }
}

impl fmt::Debug for SqliteFts5MemoryService {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let database = match &self.inner.connections {
            Connections::Single(_) => "in memory".to_owned(),
            Connections::Pool { path, .. } => path.display().to_string(),
        };
        f.debug_struct("SqliteFts5MemoryService")
            .field("database", &database)
            .field("result_limit", &self.inner.result_limit)
            .field("index_tool_data", &self.inner.index_tool_data)
            .finish()
    }
}

#[async_trait]
impl MemoryService for SqliteFts5MemoryService {
    async fn add_session_to_memory(&self, session: &Session) -> Result<(), MemoryError> {
        let inner = Arc::clone(&self.inner);
        let app_name = session.app_name.clone();
        let user_id = session.user_id.clone();
        let session_id = session.id.clone();
        let events: Vec<_> = session
            .events
            .iter()
            .filter(|event| event.content.as_ref().is_some_and(|c| !c.parts.is_empty()))
            .cloned()
            .collect();
        let label = format!(
            "session {} under {}",
            quoted(&session.id),
            key_label(&session.app_name, &session.user_id)
        );
        let doing = move || format!("cannot add {label} to memory");
        let describe = doing.clone();
        run_blocking(describe, move || {
            let stored = StoredEvent::from_events(&events, inner.index_tool_data)
                .map_err(|err| backend(doing(), err))?;
            inner
                .connections
                .with(|conn| {
                    store::replace_session(conn, &app_name, &user_id, &session_id, &stored)
                })
                .map_err(|err| backend(doing(), err))
        })
        .await
    }

    async fn search_memory(
        &self,
        app_name: &str,
        user_id: &str,
        query: &str,
    ) -> Result<SearchMemoryResponse, MemoryError> {
        if is_blank(query) {
            return Ok(SearchMemoryResponse::default());
        }
        let inner = Arc::clone(&self.inner);
        let (app_name, user_id, query) =
            (app_name.to_owned(), user_id.to_owned(), query.to_owned());
        let label = key_label(&app_name, &user_id);
        let doing = move || format!("cannot search memory under {label}");
        let describe = doing.clone();
        run_blocking(describe, move || {
            inner
                .connections
                .with(|conn| store::search(conn, &app_name, &user_id, &query, inner.result_limit))
                .map(SearchMemoryResponse::new)
                .map_err(|err| backend(doing(), err))
        })
        .await
    }
}
