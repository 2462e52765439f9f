//! The service: the `MemoryService` calls, run on a blocking thread against SQLite.

use std::fmt;
use std::path::Path;
use std::sync::Arc;

use memory_conformance::{
    Event, MemoryEntry, MemoryError, MemoryService, SearchMemoryResponse, SearchOptions, Session,
    async_trait,
};

use crate::SqliteFts5Builder;
use crate::blocking::run_blocking;
use crate::connections::Connections;
use crate::failure::{Failure, backend, key_label, quoted};
use crate::query::is_blank;
use crate::stored::StoredEntry;
use crate::{forget, memories, store};

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
/// - **Delta**: [`add_events_to_memory`](MemoryService::add_events_to_memory) appends to the
///   session each event whose id it does not hold yet (the stored version of a held id stays);
///   a delta without a session id goes to the session `__unknown_session_id__`.
/// - **Explicit memories**: [`add_memory`](MemoryService::add_memory) stores each memory with
///   a part as given, searchable like an event, after every session first added before the
///   key's first memory; a memory's id replaces the memory with that id, and a memory without
///   one gets a fresh id (`memory-` and 32 random hex digits).
/// - **Entry ids**: every entry carries its event's id (or the memory's), the same in every
///   search. A file written by schema version 1 gives its events the ids `v1-row-<row id>`.
/// - **Delete**: [`delete_memory`](MemoryService::delete_memory) forgets every event and
///   memory with that id under the key, in the file, and remembers the id under the key, so no
///   later write stores it again: a deleted memory is never returned by any search, from any
///   service on the file, after a reopen. Other keys are never touched.
/// - **Index**: text parts only (tool data when [configured](SqliteFts5Builder::index_tool_data)),
///   tokenised by FTS5 `unicode61` with `remove_diacritics 2`: case and diacritics fold,
///   digits and any script's letters form words, punctuation and symbols separate them.
/// - **Search**: an event matches when it holds at least one word of the query; matches are
///   ranked by bm25, best first, then cut to the [result limit](SqliteFts5Builder::result_limit)
///   (10 by default), or to the limit a [`search_memory_with`](MemoryService::search_memory_with)
///   asks for. Every query string is safe: FTS5 operators and quotes are only ever
///   words; the first [`MAX_QUERY_WORDS`](crate::MAX_QUERY_WORDS) distinct words are used. A
///   query with no word, or an unknown key, finds nothing. Each entry of an event is exactly
///   [`MemoryEntry::from_event`] of its event, with the event's id.
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
///
/// // The right to be forgotten: delete by the entry's id (its event's id).
/// let found = memory.search_memory("support", "u-42", "4417").await?;
/// let id = found.memories[0].id.clone().expect("every entry carries its event's id");
/// assert_eq!(id, monday.events[0].id);
/// memory.delete_memory("support", "u-42", &id).await?;
/// memory.add_session_to_memory(&monday).await?; // the whole session again: still forgotten
/// assert!(memory.search_memory("support", "u-42", "coffee").await?.memories.is_empty());
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

impl SqliteFts5MemoryService {
    /// Runs `work` off the async runtime (see [`run_blocking`]); its failure becomes a
    /// [`MemoryError::Backend`] saying `doing` failed, with the cause as its source.
    async fn run<T, F>(&self, doing: String, work: F) -> Result<T, MemoryError>
    where
        T: Send + 'static,
        F: FnOnce(&Inner) -> Result<T, Failure> + Send + 'static,
    {
        let inner = Arc::clone(&self.inner);
        let describe = doing.clone();
        run_blocking(
            move || describe,
            move || work(&inner).map_err(|err| backend(doing, err)),
        )
        .await
    }
}

#[async_trait]
impl MemoryService for SqliteFts5MemoryService {
    async fn add_session_to_memory(&self, session: &Session) -> Result<(), MemoryError> {
        let (app_name, user_id) = (session.app_name.clone(), session.user_id.clone());
        let session_id = session.id.clone();
        let events = stored_events(&session.events);
        let doing = format!(
            "cannot add session {} under {} to memory",
            quoted(&session.id),
            key_label(&session.app_name, &session.user_id)
        );
        self.run(doing, move |inner| {
            let stored = StoredEntry::from_events(&events, inner.index_tool_data)?;
            inner.connections.with(|conn| {
                store::replace_session(conn, &app_name, &user_id, &session_id, &stored)
            })
        })
        .await
    }

    async fn search_memory(
        &self,
        app_name: &str,
        user_id: &str,
        query: &str,
    ) -> Result<SearchMemoryResponse, MemoryError> {
        self.search(app_name, user_id, query, None).await
    }

    /// Searches with a result limit: at most `options.limit` entries, the best ranked ones,
    /// instead of the [configured limit](SqliteFts5Builder::result_limit) (a limit of 0 finds
    /// nothing).
    async fn search_memory_with(
        &self,
        app_name: &str,
        user_id: &str,
        query: &str,
        options: &SearchOptions,
    ) -> Result<SearchMemoryResponse, MemoryError> {
        self.search(app_name, user_id, query, options.limit).await
    }

    /// Appends to the session (or to `__unknown_session_id__`) each event whose id the session
    /// does not hold yet, after its events; an event whose id it holds keeps its stored
    /// version. Events without content parts, and events whose id was deleted under the key,
    /// are left out.
    async fn add_events_to_memory(
        &self,
        app_name: &str,
        user_id: &str,
        session_id: Option<&str>,
        events: &[Event],
    ) -> Result<(), MemoryError> {
        let (app, user) = (app_name.to_owned(), user_id.to_owned());
        let session_id = session_id.map(str::to_owned);
        let count = events.len();
        let events = stored_events(events);
        let session = match &session_id {
            Some(id) => format!("session {}", quoted(id)),
            None => format!("no session ({})", quoted(store::UNKNOWN_SESSION_ID)),
        };
        let doing = format!(
            "cannot add {count} events to {session} under {} in memory",
            key_label(app_name, user_id)
        );
        self.run(doing, move |inner| {
            let stored = StoredEntry::from_events(&events, inner.index_tool_data)?;
            inner.connections.with(|conn| {
                store::append_new_events(conn, &app, &user, session_id.as_deref(), &stored)
            })
        })
        .await
    }

    /// Stores each memory with at least one part as given (content, author, timestamp),
    /// searchable like an event's text: under its id, replacing the explicit memory with that
    /// id, or under a fresh id (`memory-` and 32 random hex digits) when it has none. A memory
    /// whose id was deleted under the key is left out.
    async fn add_memory(
        &self,
        app_name: &str,
        user_id: &str,
        memories: &[MemoryEntry],
    ) -> Result<(), MemoryError> {
        let (app, user) = (app_name.to_owned(), user_id.to_owned());
        let doing = format!(
            "cannot add {} memories under {} to memory",
            memories.len(),
            key_label(app_name, user_id)
        );
        let memories = memories.to_vec();
        self.run(doing, move |inner| {
            let stored = StoredEntry::from_memories(&memories, inner.index_tool_data)?;
            inner
                .connections
                .with(|conn| memories::add_memories(conn, &app, &user, &stored))
        })
        .await
    }

    /// Forgets every event and explicit memory whose entry id is `memory_id` under the key, in
    /// the file (so for every service on it, and after a reopen), and remembers the id so that
    /// no later add, delta or memory under the key stores it again. Other keys are never
    /// touched; an unknown id deletes nothing.
    async fn delete_memory(
        &self,
        app_name: &str,
        user_id: &str,
        memory_id: &str,
    ) -> Result<(), MemoryError> {
        let (app, user, id) = (
            app_name.to_owned(),
            user_id.to_owned(),
            memory_id.to_owned(),
        );
        let doing = format!(
            "cannot delete memory {} under {}",
            quoted(memory_id),
            key_label(app_name, user_id)
        );
        self.run(doing, move |inner| {
            inner
                .connections
                .with(|conn| forget::forget(conn, &app, &user, &id))
        })
        .await
    }
}

impl SqliteFts5MemoryService {
    /// The search of both search calls: at most `limit` entries, or the configured limit.
    async fn search(
        &self,
        app_name: &str,
        user_id: &str,
        query: &str,
        limit: Option<usize>,
    ) -> Result<SearchMemoryResponse, MemoryError> {
        if is_blank(query) || limit == Some(0) {
            return Ok(SearchMemoryResponse::default());
        }
        let (app, user, query) = (app_name.to_owned(), user_id.to_owned(), query.to_owned());
        let doing = format!(
            "cannot search memory under {}",
            key_label(app_name, user_id)
        );
        self.run(doing, move |inner| {
            let limit = limit.or(inner.result_limit);
            inner
                .connections
                .with(|conn| store::search(conn, &app, &user, &query, limit))
                .map(SearchMemoryResponse::new)
        })
        .await
    }
}

/// The events of `events` that are stored: those whose content has at least one part.
fn stored_events(events: &[Event]) -> Vec<Event> {
    events
        .iter()
        .filter(|event| event.content.as_ref().is_some_and(|c| !c.parts.is_empty()))
        .cloned()
        .collect()
}
