//! The SQLite connections behind one service, lent to one call at a time.
//!
//! A file database is shared through a small pool: each call takes an idle connection or
//! opens a new one, so searches run side by side (WAL readers never wait for a writer) and
//! writers queue on SQLite's own lock under the busy timeout. An in-memory database lives in
//! its one connection, so calls take turns on it.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};

use crate::failure::Failure;

/// How many idle connections a file pool keeps for later calls.
const MAX_IDLE: usize = 4;

/// Prepared statements kept per connection: the two calls use about 15.
const STATEMENT_CACHE_CAPACITY: usize = 32;

/// The page cache of each connection, in KiB (SQLite's default is 2,000): at most this much
/// memory per connection, taken only as pages are read.
const CACHE_KIB: u32 = 32 * 1024;

#[derive(Debug)]
pub(crate) enum Connections {
    /// An in-memory database: its only connection.
    Single(Mutex<Connection>),
    /// A file database: idle connections, and how to open more.
    Pool {
        path: PathBuf,
        busy_timeout: Duration,
        idle: Mutex<Vec<Connection>>,
    },
}

impl Connections {
    /// The connections of an in-memory database held by `conn`.
    pub(crate) fn single(conn: Connection) -> Self {
        Self::Single(Mutex::new(conn))
    }

    /// A pool for the file at `path`, starting with `first` (already opened by
    /// [`open_file`]).
    pub(crate) fn pool(path: PathBuf, busy_timeout: Duration, first: Connection) -> Self {
        Self::Pool {
            path,
            busy_timeout,
            idle: Mutex::new(vec![first]),
        }
    }

    /// Runs `work` on a connection of this database. Blocking: call it off the async runtime.
    pub(crate) fn with<T>(
        &self,
        work: impl FnOnce(&mut Connection) -> Result<T, Failure>,
    ) -> Result<T, Failure> {
        match self {
            Self::Single(conn) => {
                let mut conn = conn.lock().unwrap_or_else(PoisonError::into_inner);
                if !conn.is_autocommit() {
                    // A call that panicked mid-transaction left it open; nothing of it stays.
                    conn.execute_batch("ROLLBACK")?;
                }
                work(&mut conn)
            }
            Self::Pool {
                path,
                busy_timeout,
                idle,
            } => {
                let reused = idle.lock().unwrap_or_else(PoisonError::into_inner).pop();
                let mut conn = match reused {
                    Some(conn) => conn,
                    None => open_file(path, *busy_timeout)?,
                };
                let outcome = work(&mut conn);
                if conn.is_autocommit() {
                    let mut idle = idle.lock().unwrap_or_else(PoisonError::into_inner);
                    if idle.len() < MAX_IDLE {
                        idle.push(conn);
                    }
                }
                outcome
            }
        }
    }
}

/// Opens (creating if needed) the database file at `path` in WAL mode with `busy_timeout`.
///
/// `path` is always a file name: a relative `file:...` or `:memory:` is a file in the current
/// directory, never a URI or a special name.
pub(crate) fn open_file(path: &Path, busy_timeout: Duration) -> Result<Connection, Failure> {
    if path.as_os_str().is_empty() {
        return Err("the path is empty".into());
    }
    // SQLite reads a name starting with `file:` as a URI (bundled builds enable URIs globally)
    // and `:memory:` as a private database; neither can start a path beginning with `./`.
    let path = if path.is_relative() {
        Path::new(".").join(path)
    } else {
        path.to_path_buf()
    };
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
        | OpenFlags::SQLITE_OPEN_CREATE
        | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(&path, flags)?;
    conn.busy_timeout(busy_timeout)?;
    configure(&conn)?;
    let mode: String = conn.query_row("PRAGMA journal_mode = WAL", [], |row| row.get(0))?;
    if !mode.eq_ignore_ascii_case("wal") {
        return Err(format!("the database stays in journal mode {mode:?}, not WAL").into());
    }
    Ok(conn)
}

/// Opens a private in-memory database.
pub(crate) fn open_memory() -> Result<Connection, Failure> {
    let conn = Connection::open_in_memory()?;
    configure(&conn)?;
    Ok(conn)
}

/// Settings of every connection: the per-connection table that splits queries into words
/// never touches the disk, every statement of both calls stays prepared, and a page cache of
/// up to [`CACHE_KIB`] keeps a searched index and its events in memory.
fn configure(conn: &Connection) -> Result<(), Failure> {
    conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE_CAPACITY);
    Ok(conn.execute_batch(&format!(
        "PRAGMA temp_store = MEMORY; PRAGMA cache_size = -{CACHE_KIB};"
    ))?)
}
