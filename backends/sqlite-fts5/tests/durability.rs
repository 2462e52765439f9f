//! A file database is durable across close and reopen, shared by several services, and
//! refuses files it cannot read with an error that names the file and the reason.

mod support;

use std::error::Error;

use memory_conformance::{Event, MemoryError, MemoryService, Session};
use memory_sqlite_fts5::{SCHEMA_VERSION, SqliteFts5MemoryService};
use support::hits;

fn coffee_session(id: &str) -> Session {
    Session::new("support", "u-42", id)
        .with_event(Event::text("user", "My favourite coffee is a flat white."))
}

fn backend_message(err: &MemoryError) -> &str {
    match err {
        MemoryError::Backend { message, .. } => message,
        other => panic!("expected a backend error, got {other:?}"),
    }
}

#[tokio::test]
async fn writes_survive_close_and_reopen() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("memory.db");
    {
        let memory = SqliteFts5MemoryService::open(&path).unwrap();
        memory
            .add_session_to_memory(&coffee_session("s-1"))
            .await
            .unwrap();
    }
    let reopened = SqliteFts5MemoryService::open(&path).unwrap();
    assert_eq!(hits(&reopened, "support", "u-42", "coffee").await, 1);
    // Reopening again is idempotent: the schema is recognised, not recreated.
    let again = SqliteFts5MemoryService::open(&path).unwrap();
    assert_eq!(hits(&again, "support", "u-42", "white").await, 1);
}

#[tokio::test]
async fn two_services_on_one_file_see_each_others_writes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("shared.db");
    let first = SqliteFts5MemoryService::open(&path).unwrap();
    let second = SqliteFts5MemoryService::open(&path).unwrap();

    first
        .add_session_to_memory(&coffee_session("s-1"))
        .await
        .unwrap();
    assert_eq!(hits(&second, "support", "u-42", "coffee").await, 1);

    let tea = Session::new("support", "u-42", "s-2").with_event(Event::text("user", "oolong tea"));
    second.add_session_to_memory(&tea).await.unwrap();
    assert_eq!(hits(&first, "support", "u-42", "oolong").await, 1);

    // A re-add through one service replaces what the other wrote.
    first
        .add_session_to_memory(&Session::new("support", "u-42", "s-2"))
        .await
        .unwrap();
    assert_eq!(hits(&second, "support", "u-42", "oolong").await, 0);
}

#[test]
fn the_file_is_in_wal_mode_and_marked_with_the_schema_version() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("memory.db");
    let _memory = SqliteFts5MemoryService::open(&path).unwrap();
    let conn = rusqlite::Connection::open(&path).unwrap();
    let mode: String = conn
        .query_row("PRAGMA journal_mode", [], |row| row.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
    let version: i32 = conn
        .query_row("PRAGMA user_version", [], |row| row.get(0))
        .unwrap();
    assert_eq!(version, SCHEMA_VERSION);
}

#[test]
fn a_file_of_another_schema_version_is_refused_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("memory.db");
    drop(SqliteFts5MemoryService::open(&path).unwrap());
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute_batch("PRAGMA user_version = 99")
        .unwrap();
    let err = SqliteFts5MemoryService::open(&path).unwrap_err();
    let message = backend_message(&err);
    assert!(message.contains("schema version 99"), "{message}");
    assert!(
        message.contains(&format!("only version {SCHEMA_VERSION}")),
        "{message}"
    );
    assert!(message.contains("memory.db"), "{message}");
}

#[test]
fn another_applications_database_is_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("app.db");
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute_batch("CREATE TABLE orders (id INTEGER PRIMARY KEY)")
        .unwrap();
    let err = SqliteFts5MemoryService::open(&path).unwrap_err();
    assert!(
        backend_message(&err).contains("is not a memory database"),
        "{err}"
    );
    let conn = rusqlite::Connection::open(&path).unwrap();
    let tables: i64 = conn
        .query_row("SELECT count(*) FROM sqlite_schema", [], |row| row.get(0))
        .unwrap();
    assert_eq!(
        tables, 1,
        "nothing was added to the other application's file"
    );

    let marked = dir.path().join("marked.db");
    rusqlite::Connection::open(&marked)
        .unwrap()
        .execute_batch("PRAGMA application_id = 7")
        .unwrap();
    let err = SqliteFts5MemoryService::open(&marked).unwrap_err();
    assert!(
        backend_message(&err).contains("another application (application_id 0x7)"),
        "{err}"
    );
}

#[test]
fn a_file_that_is_not_a_database_gives_an_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("notes.txt");
    std::fs::write(&path, "this is not a database, just some text ".repeat(100)).unwrap();
    let err = SqliteFts5MemoryService::open(&path).unwrap_err();
    assert!(err.to_string().contains("notes.txt"), "{err}");
    assert!(
        err.source().is_some(),
        "the SQLite error is kept as the source"
    );
}

#[test]
fn unusable_paths_give_errors_not_panics() {
    let dir = tempfile::tempdir().unwrap();
    let missing_dir = dir.path().join("no/such/dir/memory.db");
    let err = SqliteFts5MemoryService::open(&missing_dir).unwrap_err();
    assert!(err.to_string().contains("memory.db"), "{err}");

    let err = SqliteFts5MemoryService::open("").unwrap_err();
    assert_eq!(
        err.source().map(ToString::to_string).as_deref(),
        Some("the path is empty")
    );

    assert!(SqliteFts5MemoryService::open(dir.path().join("a\0b.db")).is_err());
}
