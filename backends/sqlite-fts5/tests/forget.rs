//! `delete_memory`: the right to be forgotten. A deleted memory is never returned again, by
//! any search, under any query, from any service on the file, after a reopen, and whatever is
//! written again; deleting under one key never touches another.

mod support;

use memory_conformance::{Content, Event, MemoryEntry, MemoryService, Session};
use memory_sqlite_fts5::SqliteFts5MemoryService;
use support::{at, texts};

const SECRET: &str = "My card number is 4417 and my PIN is opal.";

/// A session of three events under `app`/`user`, the second of them the secret (id `e-2`).
fn monday(app: &str, user: &str) -> Session {
    Session::new(app, user, "s-1").with_events([
        Event::text("user", "My favourite coffee is a flat white.")
            .with_id("e-1")
            .at(at(1)),
        Event::text("user", SECRET).with_id("e-2").at(at(2)),
        Event::text("model", "Noted: coffee, flat white.")
            .with_id("e-3")
            .at(at(3)),
    ])
}

/// Every query that could find the secret: each of its words, all of them, and the text.
const SECRET_QUERIES: [&str; 6] = ["card", "4417", "opal", "PIN number", "coffee my", SECRET];

/// Panics if any search under `app`/`user` returns the secret, or an entry with id `e-2`.
async fn assert_never_returned(memory: &SqliteFts5MemoryService, app: &str, user: &str) {
    for query in SECRET_QUERIES {
        let found = memory.search_memory(app, user, query).await.unwrap();
        for entry in &found.memories {
            assert_ne!(
                entry.id.as_deref(),
                Some("e-2"),
                "{query:?} found {entry:?}"
            );
            assert!(
                !entry.content.texts().any(|t| t == SECRET),
                "{query:?} found {entry:?}"
            );
        }
    }
}

/// The texts `query` finds under `app`/`user`, best first.
async fn found(
    memory: &SqliteFts5MemoryService,
    app: &str,
    user: &str,
    query: &str,
) -> Vec<String> {
    texts(&memory.search_memory(app, user, query).await.unwrap())
}

/// How many stored rows of the file at `path` hold `text` in their content.
fn rows_holding(path: &std::path::Path, text: &str) -> i64 {
    rusqlite::Connection::open(path)
        .unwrap()
        .query_row(
            "SELECT count(*) FROM memory_events WHERE instr(content, ?1) > 0",
            [text],
            |row| row.get(0),
        )
        .unwrap()
}

#[tokio::test]
async fn a_deleted_memory_stays_gone_after_the_file_is_reopened() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("memory.db");
    {
        let memory = SqliteFts5MemoryService::open(&path).unwrap();
        memory
            .add_session_to_memory(&monday("support", "u-42"))
            .await
            .unwrap();
        let before = memory
            .search_memory("support", "u-42", "4417")
            .await
            .unwrap();
        assert_eq!(before.memories.len(), 1);
        let id = before.memories[0].id.clone().expect("entries carry ids");
        assert_eq!(id, "e-2", "an entry's id is its event's id");
        memory.delete_memory("support", "u-42", &id).await.unwrap();
        assert_never_returned(&memory, "support", "u-42").await;
    }
    // The row itself is gone from the file, not hidden.
    assert_eq!(rows_holding(&path, "4417"), 0);

    let reopened = SqliteFts5MemoryService::open(&path).unwrap();
    assert_never_returned(&reopened, "support", "u-42").await;
    // Nothing else was deleted.
    assert_eq!(
        found(&reopened, "support", "u-42", "coffee").await.len(),
        2,
        "the session's other events stay"
    );

    // The application writes the secret again, every way it can: it is not stored.
    let session = monday("support", "u-42");
    reopened.add_session_to_memory(&session).await.unwrap();
    let secret = session.events[1].clone();
    let delta = [secret.clone()];
    reopened
        .add_events_to_memory("support", "u-42", Some("s-1"), &delta)
        .await
        .unwrap();
    reopened
        .add_events_to_memory("support", "u-42", None, &delta)
        .await
        .unwrap();
    let memory = MemoryEntry::from_event(&secret).unwrap().with_id("e-2");
    reopened
        .add_memory("support", "u-42", &[memory])
        .await
        .unwrap();
    assert_never_returned(&reopened, "support", "u-42").await;
    assert_eq!(found(&reopened, "support", "u-42", "coffee").await.len(), 2);
    drop(reopened);

    let again = SqliteFts5MemoryService::open(&path).unwrap();
    assert_never_returned(&again, "support", "u-42").await;
    assert_eq!(rows_holding(&path, "4417"), 0);
    // The same event stored as a new event, under a new id, is a new memory.
    let retold = Event::text("user", SECRET).with_id("e-9");
    again
        .add_events_to_memory("support", "u-42", Some("s-1"), &[retold])
        .await
        .unwrap();
    assert_eq!(found(&again, "support", "u-42", "4417").await, [SECRET]);
}

#[tokio::test]
async fn another_service_on_the_file_never_returns_it_either() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("memory.db");
    let first = SqliteFts5MemoryService::open(&path).unwrap();
    let second = SqliteFts5MemoryService::open(&path).unwrap();
    first
        .add_session_to_memory(&monday("support", "u-42"))
        .await
        .unwrap();
    assert_eq!(found(&second, "support", "u-42", "opal").await, [SECRET]);
    second
        .delete_memory("support", "u-42", "e-2")
        .await
        .unwrap();
    assert_never_returned(&first, "support", "u-42").await;
    // A re-add through the first service does not bring it back for either.
    first
        .add_session_to_memory(&monday("support", "u-42"))
        .await
        .unwrap();
    assert_never_returned(&first, "support", "u-42").await;
    assert_never_returned(&second, "support", "u-42").await;
}

#[tokio::test]
async fn deleting_under_one_key_never_touches_another() {
    let memory = SqliteFts5MemoryService::open_in_memory().unwrap();
    // Near misses, and keys that would join into one "app/user" string.
    let pairs = [
        (("support", "u-42"), ("support", "42")),
        (("a/b", "c"), ("a", "b/c")),
    ];
    for ((app, user), (other_app, other_user)) in pairs {
        memory
            .add_session_to_memory(&monday(app, user))
            .await
            .unwrap();
        memory
            .add_session_to_memory(&monday(other_app, other_user))
            .await
            .unwrap();
        memory.delete_memory(app, user, "e-2").await.unwrap();
        assert_never_returned(&memory, app, user).await;
        assert_eq!(
            found(&memory, other_app, other_user, "opal").await,
            [SECRET]
        );
        // The deleted id is remembered under the one key only: the other key stores it anew.
        memory
            .add_session_to_memory(&monday(other_app, other_user))
            .await
            .unwrap();
        assert_eq!(
            found(&memory, other_app, other_user, "opal").await,
            [SECRET]
        );
    }
}

#[tokio::test]
async fn an_id_in_two_sessions_is_forgotten_in_both_and_an_unknown_id_changes_nothing() {
    let memory = SqliteFts5MemoryService::open_in_memory().unwrap();
    memory
        .add_session_to_memory(&monday("support", "u-42"))
        .await
        .unwrap();
    // The same event stored again in another session: two entries, one id.
    let copy = Session::new("support", "u-42", "s-2").with_events([
        Event::text("user", SECRET).with_id("e-2"),
        Event::text("user", "Also oolong tea.").with_id("e-4"),
    ]);
    memory.add_session_to_memory(&copy).await.unwrap();
    assert_eq!(found(&memory, "support", "u-42", "opal").await.len(), 2);

    memory
        .delete_memory("support", "u-42", "no-such-memory")
        .await
        .unwrap();
    memory
        .delete_memory("nobody", "never-wrote", "e-2")
        .await
        .unwrap();
    assert_eq!(found(&memory, "support", "u-42", "opal").await.len(), 2);
    assert_eq!(found(&memory, "support", "u-42", "coffee").await.len(), 2);

    memory
        .delete_memory("support", "u-42", "e-2")
        .await
        .unwrap();
    assert_never_returned(&memory, "support", "u-42").await;
    assert_eq!(
        found(&memory, "support", "u-42", "coffee oolong")
            .await
            .len(),
        3
    );
}

#[tokio::test]
async fn an_explicit_memory_is_deleted_by_the_id_it_was_given() {
    let memory = SqliteFts5MemoryService::open_in_memory().unwrap();
    let note = MemoryEntry::new(Content::text("Prefers oat milk.")).with_author("agent");
    memory
        .add_memory("support", "u-42", std::slice::from_ref(&note))
        .await
        .unwrap();
    let stored = memory
        .search_memory("support", "u-42", "oat")
        .await
        .unwrap();
    let id = stored.memories[0].id.clone().expect("a fresh id");
    memory.delete_memory("support", "u-42", &id).await.unwrap();
    assert!(
        found(&memory, "support", "u-42", "oat milk")
            .await
            .is_empty()
    );
    // Added again without an id, it is a new memory under a new id.
    memory.add_memory("support", "u-42", &[note]).await.unwrap();
    let again = memory
        .search_memory("support", "u-42", "oat")
        .await
        .unwrap();
    assert_eq!(again.memories.len(), 1);
    assert_ne!(again.memories[0].id.as_deref(), Some(id.as_str()));
}
