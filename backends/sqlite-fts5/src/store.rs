//! The SQL of the two calls: replacing a session's events, and ranked any-word search.
//!
//! Keys and sessions are rows (`memory_keys (app_name, user_id)`, `memory_sessions (key_id,
//! session_id)`), compared byte for byte, never joined into one string. Every indexed event has
//! one row in the FTS5 table `memory_fts`, with the same rowid as its `memory_events` row.
//!
//! Event row ids are partitioned by key: the events of the key whose row id is `k` have row ids
//! in `[k << 32, (k << 32) + 2^32)`. A search constrains `memory_fts.rowid` to its key's range,
//! which FTS5 answers by seeking inside each posting list, so a search walks only its own
//! key's postings however many other keys share the file.

use memory_conformance::{Content, Event, MemoryEntry};
use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};

use crate::failure::Failure;
use crate::indexed_text::indexed_text;
use crate::query::{any_word_expression, query_words};

/// One event ready to be written: the entry a search returns for it, as stored columns.
#[derive(Debug)]
pub(crate) struct StoredEvent {
    author: String,
    timestamp: String,
    content_json: String,
    indexed_text: String,
}

impl StoredEvent {
    /// The stored form of every event of `events` whose content has at least one part, in
    /// order. Fails when an event's content cannot be stored so that it reads back.
    pub(crate) fn from_events(
        events: &[Event],
        index_tool_data: bool,
    ) -> Result<Vec<Self>, Failure> {
        events
            .iter()
            .filter(|event| event.content.as_ref().is_some_and(|c| !c.parts.is_empty()))
            .filter_map(|event| MemoryEntry::from_event(event).map(|entry| (event, entry)))
            .map(|(event, entry)| {
                let content_json = serde_json::to_string(&entry.content)?;
                // Read it back now so that a stored event can never break a later search
                // (JSON nested deeper than serde_json reads, for example).
                serde_json::from_str::<Content>(&content_json).map_err(|err| {
                    format!(
                        "the content of event {:?} does not read back: {err}",
                        event.id
                    )
                })?;
                Ok(Self {
                    author: entry.author.unwrap_or_default(),
                    timestamp: entry.timestamp.unwrap_or_default(),
                    indexed_text: indexed_text(&entry.content, index_tool_data),
                    content_json,
                })
            })
            .collect()
    }
}

/// Replaces everything stored for (`app_name`, `user_id`, `session_id`) with `events`, in one
/// immediate transaction. A session keeps the position of its first add.
pub(crate) fn replace_session(
    conn: &mut Connection,
    app_name: &str,
    user_id: &str,
    session_id: &str,
    events: &[StoredEvent],
) -> Result<(), Failure> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    tx.prepare_cached(
        "INSERT INTO memory_keys (app_name, user_id) VALUES (?1, ?2)
         ON CONFLICT (app_name, user_id) DO NOTHING",
    )?
    .execute(params![app_name, user_id])?;
    let key_id: i64 = tx
        .prepare_cached("SELECT id FROM memory_keys WHERE app_name = ?1 AND user_id = ?2")?
        .query_row(params![app_name, user_id], |row| row.get(0))?;
    tx.prepare_cached(
        "INSERT INTO memory_sessions (key_id, session_id) VALUES (?1, ?2)
         ON CONFLICT (key_id, session_id) DO NOTHING",
    )?
    .execute(params![key_id, session_id])?;
    let session_row: i64 = tx
        .prepare_cached("SELECT id FROM memory_sessions WHERE key_id = ?1 AND session_id = ?2")?
        .query_row(params![key_id, session_id], |row| row.get(0))?;

    tx.prepare_cached(
        "DELETE FROM memory_fts WHERE rowid IN
            (SELECT id FROM memory_events WHERE session_row = ?1)",
    )?
    .execute([session_row])?;
    tx.prepare_cached("DELETE FROM memory_events WHERE session_row = ?1")?
        .execute([session_row])?;

    let (first, last) = event_rows(key_id)?;
    let highest: Option<i64> = tx
        .prepare_cached("SELECT max(id) FROM memory_events WHERE id BETWEEN ?1 AND ?2")?
        .query_row([first, last], |row| row.get(0))?;
    let next = highest.map_or(Some(first), |row| row.checked_add(1));
    {
        let mut insert_event = tx.prepare_cached(
            "INSERT INTO memory_events (id, session_row, position, author, timestamp, content)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )?;
        let mut insert_text =
            tx.prepare_cached("INSERT INTO memory_fts (rowid, body) VALUES (?1, ?2)")?;
        for (position, event) in events.iter().enumerate() {
            let offset = i64::try_from(position)?;
            let event_row = next
                .and_then(|next| next.checked_add(offset))
                .filter(|&row| row <= last)
                .ok_or("the key has used up its 2^32 event row ids")?;
            insert_event.execute(params![
                event_row,
                session_row,
                offset,
                event.author,
                event.timestamp,
                event.content_json
            ])?;
            if !event.indexed_text.is_empty() {
                insert_text.execute(params![event_row, event.indexed_text])?;
            }
        }
    }
    tx.commit()?;
    Ok(())
}

/// The events stored under (`app_name`, `user_id`) that hold at least one word of `query`,
/// best bm25 score first (ties in session then event order), at most `limit` of them.
pub(crate) fn search(
    conn: &Connection,
    app_name: &str,
    user_id: &str,
    query: &str,
    limit: Option<usize>,
) -> Result<Vec<MemoryEntry>, Failure> {
    let key_id: Option<i64> = conn
        .prepare_cached("SELECT id FROM memory_keys WHERE app_name = ?1 AND user_id = ?2")?
        .query_row(params![app_name, user_id], |row| row.get(0))
        .optional()?;
    let Some(key_id) = key_id else {
        return Ok(Vec::new());
    };
    let words = query_words(conn, query)?;
    let Some(expression) = any_word_expression(&words) else {
        return Ok(Vec::new());
    };
    let (first, last) = event_rows(key_id)?;
    let limit = limit.map_or(-1, |n| i64::try_from(n).unwrap_or(i64::MAX));

    // One statement, so one read snapshot: a concurrent re-add is seen whole or not at all.
    let mut statement = conn.prepare_cached(
        "SELECT e.author, e.timestamp, e.content
         FROM memory_fts
         JOIN memory_events AS e ON e.id = memory_fts.rowid
         JOIN memory_sessions AS s ON s.id = e.session_row
         WHERE memory_fts MATCH ?1 AND memory_fts.rowid BETWEEN ?2 AND ?3 AND s.key_id = ?4
         ORDER BY bm25(memory_fts), s.id, e.position
         LIMIT ?5",
    )?;
    let mut rows = statement.query(params![expression, first, last, key_id, limit])?;
    let mut entries = Vec::new();
    while let Some(row) = rows.next()? {
        let author: String = row.get(0)?;
        let timestamp: String = row.get(1)?;
        let content_json: String = row.get(2)?;
        let content: Content = serde_json::from_str(&content_json)?;
        entries.push(
            MemoryEntry::new(content)
                .with_author(author)
                .with_timestamp(timestamp),
        );
    }
    Ok(entries)
}

/// The first and last event row id of the key whose row id is `key_id`.
fn event_rows(key_id: i64) -> Result<(i64, i64), Failure> {
    if !(0..=i64::from(i32::MAX)).contains(&key_id) {
        return Err(format!("key row id {key_id} is past the last usable one").into());
    }
    let first = key_id << 32;
    Ok((first, first | i64::from(u32::MAX)))
}
