//! Failures are errors that say what was being done, naming the key and session, with the
//! SQLite error as their source; no input makes the service panic.

mod support;

use std::error::Error;
use std::time::Duration;

use memory_conformance::{Content, Event, MemoryEntry, MemoryError, MemoryService, Part, Session};
use memory_sqlite_fts5::SqliteFts5MemoryService;
use rstest::rstest;
use support::hits;

fn message(err: &MemoryError) -> &str {
    match err {
        MemoryError::Backend { message, .. } => message,
        other => panic!("expected a backend error, got {other:?}"),
    }
}

fn coffee(app: &str, user: &str, id: &str) -> Session {
    Session::new(app, user, id).with_event(Event::text("user", "coffee\0😀 / flat white"))
}

#[tokio::test]
async fn a_locked_database_fails_the_add_naming_session_and_key() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("memory.db");
    let memory = SqliteFts5MemoryService::builder()
        .busy_timeout(Duration::from_millis(50))
        .open(&path)
        .unwrap();
    let other = rusqlite::Connection::open(&path).unwrap();
    other.execute_batch("BEGIN IMMEDIATE").unwrap();

    let err = memory
        .add_session_to_memory(&coffee("support", "u-42", "s-1"))
        .await
        .unwrap_err();
    assert_eq!(
        message(&err),
        r#"cannot add session "s-1" under "support"/"u-42" to memory"#
    );
    let source = err.source().expect("the SQLite error is the source");
    assert!(source.to_string().contains("locked"), "{source}");

    // Readers are not blocked by a writer, and the add works once the lock is gone.
    assert_eq!(hits(&memory, "support", "u-42", "coffee").await, 0);
    other.execute_batch("COMMIT").unwrap();
    memory
        .add_session_to_memory(&coffee("support", "u-42", "s-1"))
        .await
        .unwrap();
    assert_eq!(hits(&memory, "support", "u-42", "coffee").await, 1);
}

#[tokio::test]
async fn a_locked_database_fails_each_optional_call_naming_what_it_did() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("memory.db");
    let memory = SqliteFts5MemoryService::builder()
        .busy_timeout(Duration::from_millis(50))
        .open(&path)
        .unwrap();
    let other = rusqlite::Connection::open(&path).unwrap();
    other.execute_batch("BEGIN IMMEDIATE").unwrap();

    let delete = memory.delete_memory("support", "u-42", "e-2").await;
    let delta = [Event::text("user", "coffee"), Event::text("user", "tea")];
    let in_session = memory
        .add_events_to_memory("support", "u-42", Some("s-1"), &delta)
        .await;
    let loose = memory
        .add_events_to_memory("support", "u-42", None, &delta)
        .await;
    let note = MemoryEntry::new(Content::text("coffee"));
    let memories = memory.add_memory("support", "u-42", &[note]).await;
    for (result, expected) in [
        (
            delete,
            r#"cannot delete memory "e-2" under "support"/"u-42""#,
        ),
        (
            in_session,
            r#"cannot add 2 events to session "s-1" under "support"/"u-42" in memory"#,
        ),
        (
            loose,
            r#"cannot add 2 events to no session ("__unknown_session_id__") under "support"/"u-42" in memory"#,
        ),
        (
            memories,
            r#"cannot add 1 memories under "support"/"u-42" to memory"#,
        ),
    ] {
        let err = result.unwrap_err();
        assert_eq!(message(&err), expected);
        let source = err.source().expect("the SQLite error is the source");
        assert!(source.to_string().contains("locked"), "{source}");
    }
}

#[tokio::test]
async fn a_memory_whose_content_cannot_be_read_back_is_refused_naming_it() {
    let memory = SqliteFts5MemoryService::open_in_memory().unwrap();
    let mut deep = serde_json::json!("bottom");
    for _ in 0..200 {
        deep = serde_json::json!([deep]);
    }
    let fine = MemoryEntry::new(Content::text("flat white"));
    let too_deep = MemoryEntry::new(Content::new(vec![
        Part::text("flat white"),
        Part::function_response("t", deep),
    ]))
    .with_id("m-deep");
    let err = memory
        .add_memory("support", "u-42", &[fine, too_deep])
        .await
        .unwrap_err();
    let cause = err.source().expect("the cause is the source").to_string();
    assert!(
        cause.contains(r#"memory "m-deep" does not read back"#),
        "{cause}"
    );
    // Nothing of the refused call was stored.
    assert_eq!(hits(&memory, "support", "u-42", "white").await, 0);
}

#[tokio::test]
async fn a_broken_database_fails_the_search_naming_the_key() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("memory.db");
    let memory = SqliteFts5MemoryService::open(&path).unwrap();
    memory
        .add_session_to_memory(&coffee("support", "u-42", "s-1"))
        .await
        .unwrap();
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute_batch("DROP TABLE memory_events")
        .unwrap();
    let err = memory
        .search_memory("support", "u-42", "coffee")
        .await
        .unwrap_err();
    assert_eq!(
        message(&err),
        r#"cannot search memory under "support"/"u-42""#
    );
    assert!(err.source().is_some());
}

#[tokio::test]
async fn unreadable_stored_content_is_an_error_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("memory.db");
    let memory = SqliteFts5MemoryService::open(&path).unwrap();
    memory
        .add_session_to_memory(&coffee("support", "u-42", "s-1"))
        .await
        .unwrap();
    rusqlite::Connection::open(&path)
        .unwrap()
        .execute_batch("UPDATE memory_events SET content = '{not json'")
        .unwrap();
    let err = memory
        .search_memory("support", "u-42", "coffee")
        .await
        .unwrap_err();
    assert!(message(&err).contains("\"support\"/\"u-42\""), "{err}");
    assert!(err.source().is_some());
}

#[tokio::test]
async fn a_megabyte_id_is_cut_short_in_error_messages() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("memory.db");
    let memory = SqliteFts5MemoryService::builder()
        .busy_timeout(Duration::from_millis(10))
        .open(&path)
        .unwrap();
    let other = rusqlite::Connection::open(&path).unwrap();
    other.execute_batch("BEGIN IMMEDIATE").unwrap();
    let id = "s".repeat(1 << 20);
    let err = memory
        .add_session_to_memory(&coffee("support", "u-42", &id))
        .await
        .unwrap_err();
    assert!(message(&err).len() < 200, "{}", message(&err).len());
    assert!(message(&err).contains("sss\"…"), "{}", message(&err));
}

fn megabyte() -> String {
    "😀/\0 ".repeat((1 << 20) / 7)
}

#[rstest]
#[case::empty_strings("", "", "")]
#[case::slashes("/", "/", "/")]
#[case::nul("\0", "a\0b", "\0\0")]
#[case::emoji("😀", "👩‍👩‍👧", "🧪")]
#[case::whitespace(" ", "\t", "\n")]
#[case::sql_quotes("'", "\"", "'; --")]
#[case::megabyte_ids("app", &megabyte(), &megabyte())]
#[tokio::test]
async fn any_key_and_session_id_round_trip(
    #[case] app: &str,
    #[case] user: &str,
    #[case] session_id: &str,
) {
    let memory = SqliteFts5MemoryService::open_in_memory().unwrap();
    memory
        .add_session_to_memory(&coffee(app, user, session_id))
        .await
        .unwrap();
    assert_eq!(hits(&memory, app, user, "coffee").await, 1);
    assert_eq!(hits(&memory, app, user, "\0 😀 / ").await, 0);
    if app != user {
        assert_eq!(hits(&memory, user, app, "coffee").await, 0);
    }
    // A re-add under the same odd ids replaces rather than duplicates.
    memory
        .add_session_to_memory(&coffee(app, user, session_id))
        .await
        .unwrap();
    assert_eq!(hits(&memory, app, user, "white").await, 1);
}
