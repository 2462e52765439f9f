//! A memory database written by a build of schema version 1 opens in this build: it is migrated
//! to the current version in place, every stored row kept and found as before, and each old
//! event gets a stable id under which it can be deleted.

mod support;

use std::path::Path;

use memory_conformance::{Content, Event, MemoryService, Session};
use memory_sqlite_fts5::{SCHEMA_VERSION, SqliteFts5MemoryService};
use support::texts;

/// The schema of version 1, as memory-sqlite-fts5 0.1.0 created it.
const SCHEMA_V1: &str = "
CREATE TABLE memory_keys (
    id INTEGER PRIMARY KEY,
    app_name TEXT NOT NULL,
    user_id TEXT NOT NULL,
    UNIQUE (app_name, user_id)
) STRICT;
CREATE TABLE memory_sessions (
    id INTEGER PRIMARY KEY,
    key_id INTEGER NOT NULL REFERENCES memory_keys (id),
    session_id TEXT NOT NULL,
    UNIQUE (key_id, session_id)
) STRICT;
CREATE TABLE memory_events (
    id INTEGER PRIMARY KEY,
    session_row INTEGER NOT NULL REFERENCES memory_sessions (id),
    position INTEGER NOT NULL,
    author TEXT NOT NULL,
    timestamp TEXT NOT NULL,
    content TEXT NOT NULL
) STRICT;
CREATE INDEX memory_events_by_session ON memory_events (session_row, position);
CREATE VIRTUAL TABLE memory_fts USING fts5 (
    body,
    content = '',
    contentless_delete = 1,
    tokenize = 'unicode61 remove_diacritics 2'
);
PRAGMA application_id = 1296454709;
PRAGMA user_version = 1;
";

const FLAT_WHITE: &str =
    r#"{"role":"user","parts":[{"text":"My favourite coffee is a flat white."}]}"#;
const OOLONG: &str = r#"{"role":"model","parts":[{"text":"Oolong tea, noted."}]}"#;
const ORDER: &str = r#"{"role":null,"parts":[{"text":"Order 4417 shipped."},{"function_call":{"name":"get_order","args":{"id":4417}}}]}"#;
const OTHER_USER: &str = r#"{"role":"user","parts":[{"text":"Coffee, black."}]}"#;

/// A version 1 file at `path`: two keys, three sessions, four events (event row ids in each
/// key's range, `key_id << 32` on), each indexed in FTS5 as version 1 indexed it.
fn write_v1_file(path: &Path) {
    let conn = rusqlite::Connection::open(path).unwrap();
    conn.execute_batch(SCHEMA_V1).unwrap();
    conn.execute_batch(
        "INSERT INTO memory_keys (id, app_name, user_id) VALUES
             (1, 'support', 'u-42'), (2, 'support', '42');
         INSERT INTO memory_sessions (id, key_id, session_id) VALUES
             (1, 1, 'monday'), (2, 1, 'tuesday'), (3, 2, 'monday');",
    )
    .unwrap();
    let k1 = 1_i64 << 32;
    let k2 = 2_i64 << 32;
    let events = [
        (
            k1,
            1,
            0,
            "user",
            "2026-01-01T00:00:01.000Z",
            FLAT_WHITE,
            "My favourite coffee is a flat white.",
        ),
        (
            k1 + 1,
            1,
            1,
            "model",
            "2026-01-01T00:00:02.000Z",
            OOLONG,
            "Oolong tea, noted.",
        ),
        (
            k1 + 2,
            2,
            0,
            "agent",
            "2026-01-02T00:00:00.500Z",
            ORDER,
            "Order 4417 shipped.",
        ),
        (
            k2,
            3,
            0,
            "user",
            "2026-01-03T00:00:00.000Z",
            OTHER_USER,
            "Coffee, black.",
        ),
    ];
    for (row, session, position, author, timestamp, content, body) in events {
        conn.execute(
            "INSERT INTO memory_events (id, session_row, position, author, timestamp, content)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            rusqlite::params![row, session, position, author, timestamp, content],
        )
        .unwrap();
        conn.execute(
            "INSERT INTO memory_fts (rowid, body) VALUES (?1, ?2)",
            rusqlite::params![row, body],
        )
        .unwrap();
    }
}

fn count(path: &Path, table: &str) -> i64 {
    rusqlite::Connection::open(path)
        .unwrap()
        .query_row(&format!("SELECT count(*) FROM {table}"), [], |row| {
            row.get(0)
        })
        .unwrap()
}

fn version(path: &Path) -> i32 {
    rusqlite::Connection::open(path)
        .unwrap()
        .query_row("PRAGMA user_version", [], |row| row.get(0))
        .unwrap()
}

#[tokio::test]
async fn a_version_1_file_opens_and_keeps_every_row() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("memory.db");
    write_v1_file(&path);
    let before: Vec<i64> = ["memory_keys", "memory_sessions", "memory_events"]
        .map(|table| count(&path, table))
        .to_vec();

    let memory = SqliteFts5MemoryService::open(&path).unwrap();
    assert_eq!(version(&path), SCHEMA_VERSION);
    let after: Vec<i64> = ["memory_keys", "memory_sessions", "memory_events"]
        .map(|table| count(&path, table))
        .to_vec();
    assert_eq!(before, after, "no key, session or event was lost");

    // Each old event is found as it was stored, under a stable id made from its row id.
    let k1 = 1_i64 << 32;
    let coffee = memory
        .search_memory("support", "u-42", "coffee")
        .await
        .unwrap();
    assert_eq!(coffee.memories.len(), 1);
    let entry = &coffee.memories[0];
    assert_eq!(entry.id, Some(format!("v1-row-{k1}")));
    assert_eq!(entry.author.as_deref(), Some("user"));
    assert_eq!(entry.timestamp.as_deref(), Some("2026-01-01T00:00:01.000Z"));
    assert_eq!(
        entry.content,
        serde_json::from_str::<Content>(FLAT_WHITE).unwrap()
    );
    let order = memory
        .search_memory("support", "u-42", "4417")
        .await
        .unwrap();
    assert_eq!(order.memories[0].content.parts.len(), 2, "every part kept");
    assert_eq!(
        texts(
            &memory
                .search_memory("support", "42", "coffee")
                .await
                .unwrap()
        ),
        ["Coffee, black."],
        "the other key's event stays its own"
    );

    // An old memory can be forgotten by the id it now carries, and stays forgotten.
    memory
        .delete_memory("support", "u-42", &format!("v1-row-{}", k1 + 1))
        .await
        .unwrap();
    assert!(
        memory
            .search_memory("support", "u-42", "oolong")
            .await
            .unwrap()
            .memories
            .is_empty()
    );
    drop(memory);

    let reopened = SqliteFts5MemoryService::open(&path).unwrap();
    assert_eq!(
        version(&path),
        SCHEMA_VERSION,
        "reopening does not migrate again"
    );
    assert!(
        reopened
            .search_memory("support", "u-42", "oolong")
            .await
            .unwrap()
            .memories
            .is_empty()
    );
    // New writes go after the old rows; a re-add replaces an old session with events that
    // carry their own ids; the old session's position is kept.
    let tuesday = Session::new("support", "u-42", "tuesday")
        .with_event(Event::text("user", "Order 4417 arrived, coffee too.").with_id("e-7"));
    reopened.add_session_to_memory(&tuesday).await.unwrap();
    let found = reopened
        .search_memory("support", "u-42", "4417 coffee")
        .await
        .unwrap();
    let ids: Vec<_> = found
        .memories
        .iter()
        .map(|m| m.id.clone().unwrap())
        .collect();
    assert!(ids.contains(&"e-7".to_owned()) && ids.len() == 2, "{ids:?}");
    let wednesday = Session::new("support", "u-42", "wednesday")
        .with_event(Event::text("user", "Flat white again.").with_id("e-8"));
    reopened.add_session_to_memory(&wednesday).await.unwrap();
    assert_eq!(
        reopened
            .search_memory("support", "u-42", "white")
            .await
            .unwrap()
            .memories
            .len(),
        2
    );
}

#[test]
fn a_version_1_file_that_cannot_be_migrated_is_left_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("memory.db");
    write_v1_file(&path);
    // An event whose session row does not exist: the migration's foreign key check fails.
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute_batch(
            "PRAGMA foreign_keys = OFF;
             INSERT INTO memory_events (id, session_row, position, author, timestamp, content)
             VALUES (4294967300, 99, 0, 'user', '', '{\"parts\":[]}');",
        )
        .unwrap();
    let events = count(&path, "memory_events");
    let err = SqliteFts5MemoryService::open(&path).unwrap_err();
    let message = err.to_string();
    assert!(
        message.contains("cannot migrate")
            && message.contains(&format!("from schema version 1 to {SCHEMA_VERSION}")),
        "{message}"
    );
    assert!(message.contains("memory.db"), "{message}");
    assert_eq!(version(&path), 1, "the failed migration changed nothing");
    assert_eq!(count(&path, "memory_events"), events);
}

/// A version 2 file: this build's layout without the word table (`memory_words`, version 3).
#[tokio::test]
async fn a_version_2_file_gets_its_word_table_from_the_index_and_ranks_as_before() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("memory.db");
    let memory = SqliteFts5MemoryService::open(&path).unwrap();
    let texts = [
        "flat white, oat milk",
        "Café crème and a flat white",
        "white white white tea",
        "espresso",
        "Crème brûlée",
    ];
    for (n, text) in texts.iter().enumerate() {
        let session = Session::new("support", "u-42", format!("s-{n}"))
            .with_event(Event::text("user", *text).with_id(format!("e-{n}")));
        memory.add_session_to_memory(&session).await.unwrap();
    }
    let queries = ["white", "creme cafe", "tea flat oat", "brulee"];
    let mut before = Vec::new();
    for query in queries {
        let found = memory
            .search_memory("support", "u-42", query)
            .await
            .unwrap();
        before.push(found.memories);
    }
    drop(memory);
    let words = count(&path, "memory_words");
    assert!(words > 10, "{words}");
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute_batch("DROP TABLE memory_words; PRAGMA user_version = 2;")
        .unwrap();

    let reopened = SqliteFts5MemoryService::open(&path).unwrap();
    assert_eq!(version(&path), SCHEMA_VERSION);
    assert_eq!(count(&path, "memory_words"), words);
    for (query, before) in queries.into_iter().zip(before) {
        let found = reopened
            .search_memory("support", "u-42", query)
            .await
            .unwrap();
        assert!(!before.is_empty(), "{query}");
        assert_eq!(found.memories, before, "{query}");
    }
}
