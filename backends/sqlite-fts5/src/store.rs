//! The SQL of sessions and search: replacing a session's events, appending a delta of events,
//! and ranked any-word search; and the rows every write shares (keys, sessions, new events).
//!
//! Keys and sessions are rows (`memory_keys (app_name, user_id)`, `memory_sessions (key_id,
//! session_id)`), compared byte for byte, never joined into one string; a key's explicit
//! memories are its session row without a session id. Every indexed entry has one row in the
//! FTS5 table `memory_fts`, with the same rowid as its `memory_events` row, and one row in
//! `memory_words` per distinct word it holds (see [`crate::ranking`]).
//!
//! Event row ids are partitioned by key: the events of the key whose row id is `k` have row ids
//! in `[k << 32, (k << 32) + 2^32)`. A search reads each query word's `memory_words` rows in its
//! key's range only (the table's key is (word, entry)), so it walks only its own key's entries
//! however many other keys share the file.

use memory_conformance::{Content, MemoryEntry};
use rusqlite::{Connection, OptionalExtension, Transaction, TransactionBehavior, params};

use crate::failure::Failure;
use crate::forget::is_forgotten;
use crate::query::{query_words, word_counts};
use crate::ranking::best_rows;
use crate::stored::StoredEntry;

/// The session a delta without a session id goes to, as ADK Python names it.
pub(crate) const UNKNOWN_SESSION_ID: &str = "__unknown_session_id__";

/// Replaces everything stored for (`app_name`, `user_id`, `session_id`) with `events`, in one
/// immediate transaction, leaving out events whose id was deleted under the key. A session
/// keeps the position of its first add.
pub(crate) fn replace_session(
    conn: &mut Connection,
    app_name: &str,
    user_id: &str,
    session_id: &str,
    events: &[StoredEntry],
) -> Result<(), Failure> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let key_id = key_row(&tx, app_name, user_id)?;
    let session_row = session_row(&tx, key_id, Some(session_id))?;
    tx.prepare_cached(
        "DELETE FROM memory_fts WHERE rowid IN
            (SELECT id FROM memory_events WHERE session_row = ?1)",
    )?
    .execute([session_row])?;
    tx.prepare_cached(
        "DELETE FROM memory_words WHERE entry IN
            (SELECT id FROM memory_events WHERE session_row = ?1)",
    )?
    .execute([session_row])?;
    tx.prepare_cached("DELETE FROM memory_events WHERE session_row = ?1")?
        .execute([session_row])?;

    let mut rows = NewRows::of_key(&tx, key_id)?;
    let mut position = 0;
    for event in events {
        let id = event.memory_id.as_deref().ok_or("an event without an id")?;
        if is_forgotten(&tx, key_id, id)? {
            continue;
        }
        insert(&tx, rows.next()?, session_row, position, id, event)?;
        position += 1;
    }
    tx.commit()?;
    Ok(())
}

/// Appends to the session `session_id` (or [`UNKNOWN_SESSION_ID`]) of (`app_name`, `user_id`)
/// each of `events` whose id the session does not hold yet, after its events, in one immediate
/// transaction; an event whose id it holds (the stored one, or an earlier one of `events`) or
/// whose id was deleted under the key is left out.
pub(crate) fn append_new_events(
    conn: &mut Connection,
    app_name: &str,
    user_id: &str,
    session_id: Option<&str>,
    events: &[StoredEntry],
) -> Result<(), Failure> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let key_id = key_row(&tx, app_name, user_id)?;
    let session_row = session_row(&tx, key_id, Some(session_id.unwrap_or(UNKNOWN_SESSION_ID)))?;
    let mut rows = NewRows::of_key(&tx, key_id)?;
    let mut position = next_position(&tx, session_row)?;
    for event in events {
        let id = event.memory_id.as_deref().ok_or("an event without an id")?;
        if is_forgotten(&tx, key_id, id)? || held_row(&tx, session_row, id)?.is_some() {
            continue;
        }
        insert(&tx, rows.next()?, session_row, position, id, event)?;
        position += 1;
    }
    tx.commit()?;
    Ok(())
}

/// The row id of the key (`app_name`, `user_id`), created if new.
pub(crate) fn key_row(tx: &Transaction<'_>, app_name: &str, user_id: &str) -> Result<i64, Failure> {
    tx.prepare_cached(
        "INSERT INTO memory_keys (app_name, user_id) VALUES (?1, ?2)
         ON CONFLICT (app_name, user_id) DO NOTHING",
    )?
    .execute(params![app_name, user_id])?;
    Ok(find_key_row(tx, app_name, user_id)?.ok_or("the key's row is missing")?)
}

/// The row id of the key (`app_name`, `user_id`), if anything was ever written under it.
fn find_key_row(conn: &Connection, app_name: &str, user_id: &str) -> Result<Option<i64>, Failure> {
    Ok(conn
        .prepare_cached("SELECT id FROM memory_keys WHERE app_name = ?1 AND user_id = ?2")?
        .query_row(params![app_name, user_id], |row| row.get(0))
        .optional()?)
}

/// The row id of the session `session_id` of the key `key_id` (`None`: the key's explicit
/// memories), created after every other if new.
pub(crate) fn session_row(
    tx: &Transaction<'_>,
    key_id: i64,
    session_id: Option<&str>,
) -> Result<i64, Failure> {
    // Without a conflict target, the clause covers both the (key, session id) constraint and
    // the one explicit memories' row per key.
    tx.prepare_cached(
        "INSERT INTO memory_sessions (key_id, session_id) VALUES (?1, ?2) ON CONFLICT DO NOTHING",
    )?
    .execute(params![key_id, session_id])?;
    Ok(tx
        .prepare_cached("SELECT id FROM memory_sessions WHERE key_id = ?1 AND session_id IS ?2")?
        .query_row(params![key_id, session_id], |row| row.get(0))?)
}

/// The position after the last entry of the session row `session_row`.
pub(crate) fn next_position(tx: &Transaction<'_>, session_row: i64) -> Result<i64, Failure> {
    Ok(tx
        .prepare_cached(
            "SELECT coalesce(max(position) + 1, 0) FROM memory_events WHERE session_row = ?1",
        )?
        .query_row([session_row], |row| row.get(0))?)
}

/// The row id of an entry of the session row `session_row` whose id is `memory_id`, if any.
pub(crate) fn held_row(
    tx: &Transaction<'_>,
    session_row: i64,
    memory_id: &str,
) -> Result<Option<i64>, Failure> {
    Ok(tx
        .prepare_cached(
            "SELECT id FROM memory_events WHERE memory_id = ?1 AND session_row = ?2 LIMIT 1",
        )?
        .query_row(params![memory_id, session_row], |row| row.get(0))
        .optional()?)
}

/// Writes `entry` as the row `row` of the session row `session_row`, at `position`, under the
/// id `memory_id`, with its FTS5 row when it has indexed text.
pub(crate) fn insert(
    tx: &Transaction<'_>,
    row: i64,
    session_row: i64,
    position: i64,
    memory_id: &str,
    entry: &StoredEntry,
) -> Result<(), Failure> {
    tx.prepare_cached(
        "INSERT INTO memory_events
            (id, session_row, position, memory_id, author, timestamp, content)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?
    .execute(params![
        row,
        session_row,
        position,
        memory_id,
        entry.author,
        entry.timestamp,
        entry.content_json
    ])?;
    index(tx, row, session_row, position, entry)
}

/// Adds the FTS5 row of `entry`, stored as the row `row` of the session row `session_row` at
/// `position`, and its words, when it has indexed text.
pub(crate) fn index(
    tx: &Transaction<'_>,
    row: i64,
    session_row: i64,
    position: i64,
    entry: &StoredEntry,
) -> Result<(), Failure> {
    if entry.indexed_text.is_empty() {
        return Ok(());
    }
    tx.prepare_cached("INSERT INTO memory_fts (rowid, body) VALUES (?1, ?2)")?
        .execute(params![row, entry.indexed_text])?;
    let counts = word_counts(tx, &entry.indexed_text)?;
    let length: i64 = counts.iter().map(|(_, count)| count).sum();
    let mut insert = tx.prepare_cached(
        "INSERT INTO memory_words (word, entry, count, length, session_row, position)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?;
    for (word, count) in &counts {
        insert.execute(params![word, row, count, length, session_row, position])?;
    }
    Ok(())
}

/// Hands out the row ids of a key's new entries, after the highest one in use.
pub(crate) struct NewRows {
    next: Option<i64>,
    last: i64,
}

impl NewRows {
    /// The row ids after the highest one the key `key_id` uses.
    pub(crate) fn of_key(tx: &Transaction<'_>, key_id: i64) -> Result<Self, Failure> {
        let (first, last) = event_rows(key_id)?;
        let highest: Option<i64> = tx
            .prepare_cached("SELECT max(id) FROM memory_events WHERE id BETWEEN ?1 AND ?2")?
            .query_row([first, last], |row| row.get(0))?;
        let next = highest.map_or(Some(first), |row| row.checked_add(1));
        Ok(Self { next, last })
    }

    /// The next free row id.
    pub(crate) fn next(&mut self) -> Result<i64, Failure> {
        let row = self
            .next
            .filter(|&row| row <= self.last)
            .ok_or("the key has used up its 2^32 event row ids")?;
        self.next = row.checked_add(1);
        Ok(row)
    }
}

/// The entries (events and explicit memories) stored under (`app_name`, `user_id`) that hold
/// at least one word of `query`, best bm25 score first (ties in session then event order), at
/// most `limit` of them, each with its id and the author and timestamp it was stored with.
pub(crate) fn search(
    conn: &Connection,
    app_name: &str,
    user_id: &str,
    query: &str,
    limit: Option<usize>,
) -> Result<Vec<MemoryEntry>, Failure> {
    let Some(key_id) = find_key_row(conn, app_name, user_id)? else {
        return Ok(Vec::new());
    };
    let words = query_words(conn, query)?;
    if words.is_empty() {
        return Ok(Vec::new());
    }
    let (first, last) = event_rows(key_id)?;
    // One read transaction, so one snapshot: a concurrent re-add is seen whole or not at all.
    let snapshot = conn.unchecked_transaction()?;
    let rows = best_rows(&snapshot, &words, first, last, limit)?;
    let mut read = snapshot.prepare_cached(
        "SELECT memory_id, author, timestamp, content FROM memory_events WHERE id = ?1",
    )?;
    let mut entries = Vec::with_capacity(rows.len());
    for row in rows {
        let (memory_id, author, timestamp, content_json): (String, _, _, String) = read
            .query_row([row], |row| {
                Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?))
            })?;
        let mut entry = MemoryEntry::new(serde_json::from_str::<Content>(&content_json)?);
        entry.id = Some(memory_id);
        entry.author = author;
        entry.timestamp = timestamp;
        entries.push(entry);
    }
    drop(read);
    snapshot.commit()?;
    Ok(entries)
}

/// The first and last event row id of the key whose row id is `key_id`.
pub(crate) fn event_rows(key_id: i64) -> Result<(i64, i64), Failure> {
    if !(0..=i64::from(i32::MAX)).contains(&key_id) {
        return Err(format!("key row id {key_id} is past the last usable one").into());
    }
    let first = key_id << 32;
    Ok((first, first | i64::from(u32::MAX)))
}
