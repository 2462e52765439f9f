//! The optional calls beyond ADK's two: a delta of events, explicit memories, a search with a
//! limit, and the ids entries carry.

mod support;

use memory_conformance::{
    Content, Event, MemoryEntry, MemoryService, Part, SearchOptions, Session,
};
use memory_sqlite_fts5::SqliteFts5MemoryService;
use support::{at, entry_of, hits, texts};

fn unlimited() -> SqliteFts5MemoryService {
    SqliteFts5MemoryService::builder()
        .result_limit(None)
        .open_in_memory()
        .unwrap()
}

/// The ids of what `query` finds under `app`/`u`, best first.
async fn ids(memory: &SqliteFts5MemoryService, query: &str) -> Vec<String> {
    let found = memory.search_memory("app", "u", query).await.unwrap();
    found
        .memories
        .into_iter()
        .map(|entry| entry.id.expect("every entry carries an id"))
        .collect()
}

#[tokio::test]
async fn a_delta_appends_the_ids_its_session_does_not_hold_and_keeps_the_stored_version() {
    let memory = unlimited();
    let session =
        Session::new("app", "u", "s-1").with_event(Event::text("user", "latte one").with_id("e-1"));
    memory.add_session_to_memory(&session).await.unwrap();
    let delta = [
        Event::text("user", "latte changed").with_id("e-1"),
        Event::text("user", "latte two").with_id("e-2"),
        Event::text("user", "latte twice").with_id("e-2"),
        Event::without_content("user").with_id("e-3"),
        Event::new("user", Some(Content::new(Vec::<Part>::new()))).with_id("e-4"),
    ];
    memory
        .add_events_to_memory("app", "u", Some("s-1"), &delta)
        .await
        .unwrap();
    assert_eq!(
        texts(&memory.search_memory("app", "u", "latte").await.unwrap()),
        ["latte one", "latte two"]
    );
    assert_eq!(hits(&memory, "app", "u", "changed twice").await, 0);
    // A delta is never the whole session: a later re-add replaces what the deltas built.
    let again =
        Session::new("app", "u", "s-1").with_event(Event::text("user", "mocha").with_id("e-5"));
    memory.add_session_to_memory(&again).await.unwrap();
    assert_eq!(hits(&memory, "app", "u", "latte").await, 0);
    assert_eq!(ids(&memory, "mocha").await, ["e-5"]);
}

#[tokio::test]
async fn a_delta_without_a_session_is_kept_apart_from_every_session() {
    let memory = unlimited();
    let session =
        Session::new("app", "u", "s-1").with_event(Event::text("user", "espresso").with_id("e-1"));
    memory.add_session_to_memory(&session).await.unwrap();
    let loose = [Event::text("user", "espresso doppio").with_id("e-1")];
    memory
        .add_events_to_memory("app", "u", None, &loose)
        .await
        .unwrap();
    // Its own session holds no e-1 yet, so the delta lands there, beside s-1's e-1.
    assert_eq!(ids(&memory, "espresso").await.len(), 2);
    // Re-adding s-1 empty leaves the loose delta alone.
    memory
        .add_session_to_memory(&Session::new("app", "u", "s-1"))
        .await
        .unwrap();
    assert_eq!(
        texts(&memory.search_memory("app", "u", "espresso").await.unwrap()),
        ["espresso doppio"]
    );
}

#[tokio::test]
async fn explicit_memories_come_back_as_given_and_an_id_replaces_in_place() {
    let memory = unlimited();
    let given = MemoryEntry::new(Content::text("Allergic to peanuts.").with_role("user"))
        .with_id("m-1")
        .with_author("agent")
        .with_timestamp("2026-01-01T00:00:01.250Z");
    // Neither author nor timestamp: none comes back.
    let bare = MemoryEntry::new(Content::text("Lives in Lyon, peanuts aside."));
    let empty = MemoryEntry::new(Content::new(Vec::<Part>::new())).with_id("m-empty");
    memory
        .add_memory("app", "u", &[given.clone(), bare, empty])
        .await
        .unwrap();
    let found = memory.search_memory("app", "u", "peanuts").await.unwrap();
    assert_eq!(
        found.memories.len(),
        2,
        "a memory without parts is not stored"
    );
    assert!(found.memories.contains(&given), "{found:?}");
    let bare = found
        .memories
        .iter()
        .find(|m| m.id.as_deref() != Some("m-1"))
        .unwrap();
    assert_eq!(
        (bare.author.as_deref(), bare.timestamp.as_deref()),
        (None, None)
    );
    let fresh = bare.id.as_deref().unwrap();
    assert!(
        fresh.len() == "memory-".len() + 32
            && fresh.starts_with("memory-")
            && fresh["memory-".len()..]
                .bytes()
                .all(|b| b.is_ascii_hexdigit()),
        "{fresh}"
    );
    assert_eq!(ids(&memory, "peanuts").await, ids(&memory, "peanuts").await);
    assert!(ids(&memory, "m-empty").await.is_empty());

    let changed = MemoryEntry::new(Content::text("Allergic to cashews."))
        .with_id("m-1")
        .with_author("user");
    memory
        .add_memory("app", "u", std::slice::from_ref(&changed))
        .await
        .unwrap();
    assert_eq!(ids(&memory, "allergic").await, ["m-1"]);
    assert_eq!(
        memory
            .search_memory("app", "u", "cashews")
            .await
            .unwrap()
            .memories,
        [changed]
    );
    assert_eq!(hits(&memory, "app", "u", "peanuts").await, 1);
    assert_eq!(hits(&memory, "other", "u", "cashews").await, 0);
}

#[tokio::test]
async fn a_search_limit_replaces_the_configured_one_and_keeps_the_best() {
    let memory = SqliteFts5MemoryService::open_in_memory().unwrap(); // 10 by default
    let mut session = Session::new("app", "u", "s-1");
    for n in 0..14 {
        session = session.with_event(Event::text("user", format!("tea {n}")).at(at(n)));
    }
    let best = Event::text("user", "green tea").with_id("best");
    session = session.with_event(best.clone());
    memory.add_session_to_memory(&session).await.unwrap();

    let search = |limit| {
        let memory = memory.clone();
        async move {
            memory
                .search_memory_with("app", "u", "green tea", &SearchOptions::with_limit(limit))
                .await
                .unwrap()
                .memories
        }
    };
    assert_eq!(hits(&memory, "app", "u", "tea").await, 10);
    assert_eq!(search(3).await.len(), 3);
    assert_eq!(
        search(3).await[0],
        entry_of(&best),
        "the cut comes after ranking"
    );
    assert_eq!(search(12).await.len(), 12, "above the configured limit");
    assert_eq!(search(100).await.len(), 15);
    assert_eq!(search(usize::MAX).await.len(), 15);
    assert!(search(0).await.is_empty());
    let plain = memory
        .search_memory_with("app", "u", "tea", &SearchOptions::default())
        .await
        .unwrap();
    assert_eq!(plain.memories.len(), 10, "no option: the configured limit");
}

#[tokio::test]
async fn an_entry_carries_its_events_id_in_every_search() {
    let memory = unlimited();
    let session = Session::new("app", "u", "s-1").with_events([
        Event::text("user", "flat white").with_id("e-1"),
        Event::text("user", "white tea").with_id("e-2"),
    ]);
    memory.add_session_to_memory(&session).await.unwrap();
    assert_eq!(ids(&memory, "flat").await, ["e-1"]);
    assert_eq!(ids(&memory, "tea").await, ["e-2"]);
    let mut both = ids(&memory, "white").await;
    both.sort();
    assert_eq!(both, ["e-1", "e-2"]);
}
