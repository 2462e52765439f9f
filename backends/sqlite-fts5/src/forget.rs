//! The SQL of deleting a memory by its id: the right to be forgotten.
//!
//! A deleted id is remembered per key in `memory_forgotten`, and every write (a session, a
//! delta, explicit memories) leaves out entries with a remembered id, so a deleted memory is
//! never stored again under its key: not by the application re-adding the whole session, not
//! by another service on the same file, not after a reopen.

use rusqlite::{Connection, Transaction, TransactionBehavior, params};

use crate::failure::Failure;
use crate::store::{event_rows, key_row};

/// Forgets every entry whose id is `memory_id` under (`app_name`, `user_id`), in every session
/// and among the explicit memories, and remembers the id so that no later write under the key
/// stores it; in one immediate transaction. Other keys are never touched; an id that nothing
/// holds deletes nothing (and is remembered all the same).
pub(crate) fn forget(
    conn: &mut Connection,
    app_name: &str,
    user_id: &str,
    memory_id: &str,
) -> Result<(), Failure> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let key_id = key_row(&tx, app_name, user_id)?;
    tx.prepare_cached(
        "INSERT INTO memory_forgotten (key_id, memory_id) VALUES (?1, ?2)
         ON CONFLICT (key_id, memory_id) DO NOTHING",
    )?
    .execute(params![key_id, memory_id])?;
    // The key's row id range: the entries of this key and no other.
    let (first, last) = event_rows(key_id)?;
    tx.prepare_cached(
        "DELETE FROM memory_fts WHERE rowid IN
            (SELECT id FROM memory_events WHERE memory_id = ?1 AND id BETWEEN ?2 AND ?3)",
    )?
    .execute(params![memory_id, first, last])?;
    tx.prepare_cached(
        "DELETE FROM memory_words WHERE entry IN
            (SELECT id FROM memory_events WHERE memory_id = ?1 AND id BETWEEN ?2 AND ?3)",
    )?
    .execute(params![memory_id, first, last])?;
    tx.prepare_cached("DELETE FROM memory_events WHERE memory_id = ?1 AND id BETWEEN ?2 AND ?3")?
        .execute(params![memory_id, first, last])?;
    tx.commit()?;
    Ok(())
}

/// Whether `memory_id` was deleted under the key `key_id`.
pub(crate) fn is_forgotten(
    tx: &Transaction<'_>,
    key_id: i64,
    memory_id: &str,
) -> Result<bool, Failure> {
    Ok(tx
        .prepare_cached(
            "SELECT EXISTS (SELECT 1 FROM memory_forgotten WHERE key_id = ?1 AND memory_id = ?2)",
        )?
        .query_row(params![key_id, memory_id], |row| row.get(0))?)
}
