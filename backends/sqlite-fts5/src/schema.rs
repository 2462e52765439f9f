//! The database schema, created once and recognised on every later open.
//!
//! A memory database is marked with `PRAGMA application_id` and its layout with
//! `PRAGMA user_version` ([`SCHEMA_VERSION`]). An empty database is initialised; a database of
//! this layout is used as it is; a database of layout 1 is migrated to it, explicitly and in
//! one transaction (see [`migrate`]); anything else (another version, another
//! application's file, a non-empty database without the mark) is refused with an error that
//! says which.

use memory_conformance::MemoryError;
use rusqlite::{Connection, TransactionBehavior};

use crate::failure::{Failure, backend};
use crate::migrate;

/// The layout version this build reads and writes, kept in the database as
/// `PRAGMA user_version`. A database of version 1 or 2 is migrated to it when opened (every
/// stored row kept); any other version is refused, never migrated silently.
///
/// Version 2 added each entry's id (`memory_events.memory_id`), explicit memories (the key's
/// session row without a session id, whose entries may lack an author or timestamp) and the
/// ids deleted under each key (`memory_forgotten`).
///
/// Version 3 added `memory_words`: each word of each indexed entry with its count, the entry's
/// length in words and its place, from which a search ranks (see the `ranking` module).
pub const SCHEMA_VERSION: i32 = 3;

/// `PRAGMA application_id` of a memory database: the ASCII bytes `MFT5`.
const APPLICATION_ID: i32 = 0x4D46_5435;

/// The layout of [`SCHEMA_VERSION`]. Every statement is `IF NOT EXISTS`, so that the migration
/// from version 1 creates exactly what it lacks.
pub(crate) const CREATE_SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS memory_keys (
    id INTEGER PRIMARY KEY,
    app_name TEXT NOT NULL,
    user_id TEXT NOT NULL,
    UNIQUE (app_name, user_id)
) STRICT;
-- A session of events, or (session_id NULL, at most one per key) the key's explicit memories.
CREATE TABLE IF NOT EXISTS memory_sessions (
    id INTEGER PRIMARY KEY,
    key_id INTEGER NOT NULL REFERENCES memory_keys (id),
    session_id TEXT,
    UNIQUE (key_id, session_id)
) STRICT;
CREATE UNIQUE INDEX IF NOT EXISTS memory_sessions_explicit
    ON memory_sessions (key_id) WHERE session_id IS NULL;
-- memory_id is the entry's id: its event's id, or the explicit memory's.
CREATE TABLE IF NOT EXISTS memory_events (
    id INTEGER PRIMARY KEY,
    session_row INTEGER NOT NULL REFERENCES memory_sessions (id),
    position INTEGER NOT NULL,
    memory_id TEXT NOT NULL,
    author TEXT,
    timestamp TEXT,
    content TEXT NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS memory_events_by_session ON memory_events (session_row, position);
CREATE INDEX IF NOT EXISTS memory_events_by_memory_id ON memory_events (memory_id);
-- The memory ids deleted under each key: never stored under it again.
CREATE TABLE IF NOT EXISTS memory_forgotten (
    key_id INTEGER NOT NULL REFERENCES memory_keys (id),
    memory_id TEXT NOT NULL,
    PRIMARY KEY (key_id, memory_id)
) STRICT, WITHOUT ROWID;
CREATE VIRTUAL TABLE IF NOT EXISTS memory_fts USING fts5 (
    body,
    content = '',
    contentless_delete = 1,
    tokenize = 'unicode61 remove_diacritics 2'
);
-- Each word of each memory_fts row (entry: its row id), as the tokenizer folds it: how many
-- times the row holds it, the row's length in words, and the entry's session row and position.
CREATE TABLE IF NOT EXISTS memory_words (
    word TEXT NOT NULL,
    entry INTEGER NOT NULL,
    count INTEGER NOT NULL,
    length INTEGER NOT NULL,
    session_row INTEGER NOT NULL,
    position INTEGER NOT NULL,
    PRIMARY KEY (word, entry)
) STRICT, WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS memory_words_by_entry ON memory_words (entry);
";

/// Makes sure the database behind `conn` holds this build's schema, creating it in an empty
/// database. `database` names the database in error messages.
pub(crate) fn ensure(conn: &mut Connection, database: &str) -> Result<(), MemoryError> {
    let doing = || format!("cannot prepare the memory schema in {database}");
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(|err| backend(doing(), err.into()))?;
    let application_id = pragma_i32(&tx, "application_id").map_err(|err| backend(doing(), err))?;
    let version = pragma_i32(&tx, "user_version").map_err(|err| backend(doing(), err))?;
    match (application_id, version) {
        (APPLICATION_ID, SCHEMA_VERSION) => {}
        (APPLICATION_ID, from @ (1 | 2)) => {
            let steps = if from == 1 {
                migrate::v1_to_v2(&tx).and_then(|()| migrate::v2_to_v3(&tx))
            } else {
                migrate::v2_to_v3(&tx)
            };
            steps.map_err(|err| {
                backend(
                    format!(
                        "cannot migrate {database} from schema version {from} to \
                         {SCHEMA_VERSION}"
                    ),
                    err,
                )
            })?;
        }
        (APPLICATION_ID, other) => {
            return Err(MemoryError::backend(format!(
                "{database} is a memory database of schema version {other}; this build of \
                 memory-sqlite-fts5 reads only version {SCHEMA_VERSION} (and migrates versions \
                 1 and 2 to it)"
            )));
        }
        (0, 0) => {
            let tables: i64 = tx
                .query_row("SELECT count(*) FROM sqlite_schema", [], |row| row.get(0))
                .map_err(|err| backend(doing(), err.into()))?;
            if tables != 0 {
                return Err(MemoryError::backend(format!(
                    "{database} already holds {tables} schema objects and is not a memory \
                     database; use an empty or new file"
                )));
            }
            tx.execute_batch(CREATE_SCHEMA)
                .and_then(|()| {
                    tx.execute_batch(&format!(
                        "PRAGMA application_id = {APPLICATION_ID};
                         PRAGMA user_version = {SCHEMA_VERSION};"
                    ))
                })
                .map_err(|err| backend(doing(), err.into()))?;
        }
        (other, _) => {
            return Err(MemoryError::backend(format!(
                "{database} belongs to another application (application_id {other:#x}) and is \
                 not a memory database"
            )));
        }
    }
    tx.commit().map_err(|err| backend(doing(), err.into()))
}

fn pragma_i32(conn: &Connection, name: &str) -> Result<i32, Failure> {
    Ok(conn.query_row(&format!("PRAGMA {name}"), [], |row| row.get(0))?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_index_and_the_query_use_one_tokenizer() {
        let tokenize = format!("tokenize = '{}'", crate::query::TOKENIZE);
        assert!(CREATE_SCHEMA.contains(&tokenize), "{CREATE_SCHEMA}");
    }
}
