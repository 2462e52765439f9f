//! Configuration of a [`SqliteFts5MemoryService`] before it opens its database.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use memory_conformance::MemoryError;

use crate::connections::{Connections, open_file, open_memory};
use crate::failure::{backend, quoted};
use crate::service::{Inner, SqliteFts5MemoryService};
use crate::{DEFAULT_RESULT_LIMIT, schema};

/// How long a call waits for another connection's write lock before failing, by default.
pub const DEFAULT_BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// Options for a [`SqliteFts5MemoryService`], ending in [`open`](Self::open) or
/// [`open_in_memory`](Self::open_in_memory).
///
/// Defaults: at most [`DEFAULT_RESULT_LIMIT`] (10) results, only text parts indexed, a
/// [`DEFAULT_BUSY_TIMEOUT`] (5 s) wait for another writer.
///
/// ```
/// use memory_sqlite_fts5::SqliteFts5MemoryService;
/// let memory = SqliteFts5MemoryService::builder()
///     .result_limit(None) // every match
///     .index_tool_data(true)
///     .open_in_memory()?;
/// # Ok::<(), memory_conformance::MemoryError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[must_use]
pub struct SqliteFts5Builder {
    pub(crate) result_limit: Option<usize>,
    pub(crate) index_tool_data: bool,
    pub(crate) busy_timeout: Duration,
}

impl Default for SqliteFts5Builder {
    fn default() -> Self {
        Self {
            result_limit: Some(DEFAULT_RESULT_LIMIT),
            index_tool_data: false,
            busy_timeout: DEFAULT_BUSY_TIMEOUT,
        }
    }
}

impl SqliteFts5Builder {
    /// The default options.
    pub fn new() -> Self {
        Self::default()
    }

    /// At most `limit` entries per search, the best ranked ones; `None` returns every match.
    /// The cut comes after ranking, so the best matches are never cut.
    pub fn result_limit(mut self, limit: Option<usize>) -> Self {
        self.result_limit = limit;
        self
    }

    /// Whether a search also reads tool data: each function call's and function response's
    /// name and every JSON string value in its arguments or response. Off by default: only text
    /// parts are indexed. Inline data, JSON keys, numbers and booleans are never indexed.
    ///
    /// The choice applies to the events written while it is set; re-add a session after
    /// changing it.
    pub fn index_tool_data(mut self, index: bool) -> Self {
        self.index_tool_data = index;
        self
    }

    /// How long a write waits for another connection's write lock before it fails.
    pub fn busy_timeout(mut self, timeout: Duration) -> Self {
        self.busy_timeout = timeout;
        self
    }

    /// Opens the memory database file at `path`, creating it (and its schema) when it does not
    /// exist, in WAL mode, so several services (in this process or others) can share the file.
    ///
    /// `path` is always a file name: `file:` URIs are not interpreted and a relative
    /// `:memory:` is a file in the current directory. Blocking: open once, at start-up.
    ///
    /// # Errors
    ///
    /// [`MemoryError::Backend`] naming `path` when the file cannot be opened or created, is not
    /// a database, is another application's database, or holds another
    /// [`SCHEMA_VERSION`](crate::SCHEMA_VERSION).
    pub fn open(self, path: impl AsRef<Path>) -> Result<SqliteFts5MemoryService, MemoryError> {
        let path = path.as_ref();
        let database = format!("memory database {}", quoted(&path.to_string_lossy()));
        let mut first = open_file(path, self.busy_timeout)
            .map_err(|err| backend(format!("cannot open {database}"), err))?;
        schema::ensure(&mut first, &database)?;
        let connections = Connections::pool(path.to_path_buf(), self.busy_timeout, first);
        Ok(self.into_service(connections))
    }

    /// Opens a new, private, in-memory memory database: for tests and short-lived processes.
    /// Nothing is kept once the service is dropped.
    ///
    /// # Errors
    ///
    /// [`MemoryError::Backend`] when SQLite cannot create the database.
    pub fn open_in_memory(self) -> Result<SqliteFts5MemoryService, MemoryError> {
        let database = "in-memory memory database";
        let mut conn =
            open_memory().map_err(|err| backend(format!("cannot open {database}"), err))?;
        schema::ensure(&mut conn, database)?;
        Ok(self.into_service(Connections::single(conn)))
    }

    fn into_service(self, connections: Connections) -> SqliteFts5MemoryService {
        SqliteFts5MemoryService {
            inner: Arc::new(Inner {
                connections,
                result_limit: self.result_limit,
                index_tool_data: self.index_tool_data,
            }),
        }
    }
}
