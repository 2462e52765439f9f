//! The database schema, created once and recognised on every later open.
//!
//! A memory database is marked with `PRAGMA application_id` and its layout with
//! `PRAGMA user_version` ([`SCHEMA_VERSION`]). An empty database is initialised; a database of
//! this layout is used as it is; anything else (another version, another application's file, a
//! non-empty database without the mark) is refused with an error that says which.

use memory_conformance::MemoryError;
use rusqlite::{Connection, TransactionBehavior};

use crate::failure::{Failure, backend};

/// The layout version this build reads and writes, kept in the database as
/// `PRAGMA user_version`. A database with another version is refused, never migrated silently.
pub const SCHEMA_VERSION: i32 = 1;

/// `PRAGMA application_id` of a memory database: the ASCII bytes `MFT5`.
const APPLICATION_ID: i32 = 0x4D46_5435;

const CREATE_SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS memory_keys (
    id INTEGER PRIMARY KEY,
    app_name TEXT NOT NULL,
    user_id TEXT NOT NULL,
    UNIQUE (app_name, user_id)
) STRICT;
CREATE TABLE IF NOT EXISTS memory_sessions (
    id INTEGER PRIMARY KEY,
    key_id INTEGER NOT NULL REFERENCES memory_keys (id),
    session_id TEXT NOT NULL,
    UNIQUE (key_id, session_id)
) STRICT;
CREATE TABLE IF NOT EXISTS memory_events (
    id INTEGER PRIMARY KEY,
    session_row INTEGER NOT NULL REFERENCES memory_sessions (id),
    position INTEGER NOT NULL,
    author TEXT NOT NULL,
    timestamp TEXT NOT NULL,
    content TEXT NOT NULL
) STRICT;
CREATE INDEX IF NOT EXISTS memory_events_by_session ON memory_events (session_row, position);
CREATE VIRTUAL TABLE IF NOT EXISTS memory_fts USING fts5 (
    body,
    content = '',
    contentless_delete = 1,
    tokenize = 'unicode61 remove_diacritics 2'
);
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
        (APPLICATION_ID, other) => {
            return Err(MemoryError::backend(format!(
                "{database} is a memory database of schema version {other}; this build of \
                 memory-sqlite-fts5 reads only version {SCHEMA_VERSION}"
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
