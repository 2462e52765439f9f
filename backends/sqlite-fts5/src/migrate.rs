//! Migrating a memory database of schema version 1 to version 2, when it is opened.
//!
//! Version 1 stored neither an entry's id nor explicit memories, and kept every event's author
//! and timestamp `NOT NULL`. Version 2 rebuilds `memory_sessions` (a session id may be `NULL`:
//! the key's explicit memories) and `memory_events` (a `memory_id` on every row; author and
//! timestamp optional), and adds `memory_forgotten`. Every row keeps its row id, so the FTS5
//! index (keyed by event row id) and every session's position and order stay as they were.
//!
//! A version 1 file never knew its events' ids, so each migrated event gets the id
//! `v1-row-<row id>`: stable, returned by every search and accepted by `delete_memory`, so a
//! memory stored before the migration can still be forgotten. A re-add of its session writes
//! the events again under their own ids.
//!
//! The migration runs in the opener's immediate transaction: it happens whole or not at all,
//! and another process opening the file at the same moment waits and then finds version 2.

use rusqlite::Transaction;

use crate::SCHEMA_VERSION;
use crate::failure::Failure;
use crate::schema::CREATE_SCHEMA;

// A new layout needs a step from version 3 to it, after these.
const _: () = assert!(SCHEMA_VERSION == 3);

/// The prefix of the id a migrated event is given: `v1-row-` and its row id.
const V1_ID_PREFIX: &str = "v1-row-";

/// Adds `memory_words` to a version 2 database (in `tx`), filled from the FTS5 index itself
/// (every word instance of every row), and marks it version 3.
pub(crate) fn v2_to_v3(tx: &Transaction<'_>) -> Result<(), Failure> {
    tx.execute_batch(CREATE_SCHEMA)?;
    tx.execute_batch(
        "CREATE VIRTUAL TABLE temp.memory_fts_instances
             USING fts5vocab (main, memory_fts, instance);
         INSERT INTO memory_words (word, entry, count, length, session_row, position)
             SELECT i.term, i.doc, count(*), 0, e.session_row, e.position
             FROM temp.memory_fts_instances AS i JOIN memory_events AS e ON e.id = i.doc
             GROUP BY i.term, i.doc;
         UPDATE memory_words SET length =
             (SELECT sum(w.count) FROM memory_words AS w WHERE w.entry = memory_words.entry);
         DROP TABLE temp.memory_fts_instances;
         PRAGMA user_version = 3;",
    )?;
    Ok(())
}

/// Rebuilds the tables of a version 1 database (in `tx`) in the layout of version 2, keeping
/// every row, and marks it version 2.
pub(crate) fn v1_to_v2(tx: &Transaction<'_>) -> Result<(), Failure> {
    // The old index would keep its name on the renamed table, and stop the new one. (Foreign
    // keys are on in the bundled SQLite: renaming a table rewrites the references to it, and
    // the old events go before the old sessions they reference.)
    tx.execute_batch(
        "DROP INDEX memory_events_by_session;
         ALTER TABLE memory_sessions RENAME TO memory_sessions_v1;
         ALTER TABLE memory_events RENAME TO memory_events_v1;",
    )?;
    tx.execute_batch(CREATE_SCHEMA)?;
    tx.execute_batch(&format!(
        "INSERT INTO memory_sessions (id, key_id, session_id)
             SELECT id, key_id, session_id FROM memory_sessions_v1;
         INSERT INTO memory_events (id, session_row, position, memory_id, author, timestamp, content)
             SELECT id, session_row, position, '{V1_ID_PREFIX}' || id, author, timestamp, content
             FROM memory_events_v1;
         DROP TABLE memory_events_v1;
         DROP TABLE memory_sessions_v1;
         PRAGMA user_version = 2;"
    ))?;
    Ok(())
}
