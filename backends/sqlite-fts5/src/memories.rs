//! The SQL of explicit memories (`add_memory`): entries stored as given, searched like events.
//!
//! A key's explicit memories are its session row without a session id, created by the key's
//! first `add_memory`, so they come after every session first added before it, as one more
//! session (R9 of the reference).

use rusqlite::{Connection, TransactionBehavior, params};

use crate::failure::Failure;
use crate::forget::is_forgotten;
use crate::store::{NewRows, held_row, index, insert, key_row, next_position, session_row};
use crate::stored::StoredEntry;

/// Stores `memories` under (`app_name`, `user_id`), in one immediate transaction: a memory
/// whose id the key's explicit memories hold replaces that memory in its place; any other
/// comes after them, a memory without an id under a fresh one (`memory-` and 32 random hex
/// digits); a memory whose id was deleted under the key is left out.
pub(crate) fn add_memories(
    conn: &mut Connection,
    app_name: &str,
    user_id: &str,
    memories: &[StoredEntry],
) -> Result<(), Failure> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let key_id = key_row(&tx, app_name, user_id)?;
    let session_row = session_row(&tx, key_id, None)?;
    let mut rows = NewRows::of_key(&tx, key_id)?;
    let mut position = next_position(&tx, session_row)?;
    for memory in memories {
        let id = match &memory.memory_id {
            Some(id) => id.clone(),
            None => tx
                .prepare_cached("SELECT 'memory-' || lower(hex(randomblob(16)))")?
                .query_row([], |row| row.get(0))?,
        };
        if is_forgotten(&tx, key_id, &id)? {
            continue;
        }
        match held_row(&tx, session_row, &id)? {
            Some(row) => {
                tx.prepare_cached("DELETE FROM memory_fts WHERE rowid = ?1")?
                    .execute([row])?;
                tx.prepare_cached("DELETE FROM memory_words WHERE entry = ?1")?
                    .execute([row])?;
                tx.prepare_cached(
                    "UPDATE memory_events SET author = ?2, timestamp = ?3, content = ?4
                     WHERE id = ?1",
                )?
                .execute(params![
                    row,
                    memory.author,
                    memory.timestamp,
                    memory.content_json
                ])?;
                let held_position: i64 = tx
                    .prepare_cached("SELECT position FROM memory_events WHERE id = ?1")?
                    .query_row([row], |row| row.get(0))?;
                index(&tx, row, session_row, held_position, memory)?;
            }
            None => {
                insert(&tx, rows.next()?, session_row, position, &id, memory)?;
                position += 1;
            }
        }
    }
    tx.commit()?;
    Ok(())
}
