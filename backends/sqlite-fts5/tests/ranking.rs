//! Any-word matching, bm25 ranking (best first), and the result limit applied after ranking.

mod support;

use memory_conformance::{Event, MemoryService, Session};
use memory_sqlite_fts5::{DEFAULT_RESULT_LIMIT, SqliteFts5MemoryService};
use support::{hits, texts};

async fn store(memory: &SqliteFts5MemoryService, lines: &[&str]) {
    let session = Session::new("app", "u", "s-1")
        .with_events(lines.iter().map(|line| Event::text("user", *line)));
    memory.add_session_to_memory(&session).await.unwrap();
}

fn with_limit(limit: Option<usize>) -> SqliteFts5MemoryService {
    SqliteFts5MemoryService::builder()
        .result_limit(limit)
        .open_in_memory()
        .unwrap()
}

#[tokio::test]
async fn an_event_matches_when_it_holds_any_word_of_the_query() {
    let memory = with_limit(None);
    store(&memory, &["oolong tea", "an espresso", "nothing here"]).await;
    let found = memory
        .search_memory("app", "u", "espresso or oolong please")
        .await
        .unwrap();
    let mut got = texts(&found);
    got.sort();
    assert_eq!(got, ["an espresso", "oolong tea"]);
}

#[tokio::test]
async fn a_rare_word_outranks_a_common_one() {
    let memory = with_limit(None);
    let mut lines = vec!["tea again"; 8];
    lines.push("tea with cardamom");
    store(&memory, &lines).await;
    let found = memory
        .search_memory("app", "u", "tea cardamom")
        .await
        .unwrap();
    assert_eq!(found.memories.len(), 9);
    assert_eq!(texts(&found)[0], "tea with cardamom");
}

#[tokio::test]
async fn more_occurrences_and_shorter_text_rank_higher() {
    let memory = with_limit(None);
    store(
        &memory,
        &[
            "latte and a long list of other words that dilute it",
            "latte",
            "latte latte latte and more",
            "espresso only",
        ],
    )
    .await;
    let found = memory.search_memory("app", "u", "latte").await.unwrap();
    assert_eq!(
        texts(&found),
        [
            "latte latte latte and more",
            "latte",
            "latte and a long list of other words that dilute it",
        ]
    );
}

#[tokio::test]
async fn the_limit_cuts_after_ranking_so_the_best_match_is_kept() {
    let memory = with_limit(Some(3));
    let mut lines = vec!["plain tea"; 12];
    lines.push("tea from darjeeling"); // stored last, ranked first
    store(&memory, &lines).await;
    let found = memory
        .search_memory("app", "u", "darjeeling tea")
        .await
        .unwrap();
    assert_eq!(found.memories.len(), 3);
    assert_eq!(texts(&found)[0], "tea from darjeeling");
}

#[tokio::test]
async fn the_default_limit_is_ten_and_none_returns_every_match() {
    let lines: Vec<String> = (0..25).map(|n| format!("mocha number {n}")).collect();
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();

    let default = SqliteFts5MemoryService::open_in_memory().unwrap();
    store(&default, &lines).await;
    assert_eq!(DEFAULT_RESULT_LIMIT, 10);
    assert_eq!(hits(&default, "app", "u", "mocha").await, 10);

    let unlimited = with_limit(None);
    store(&unlimited, &lines).await;
    assert_eq!(hits(&unlimited, "app", "u", "mocha").await, 25);

    let one = with_limit(Some(1));
    store(&one, &lines).await;
    assert_eq!(hits(&one, "app", "u", "mocha").await, 1);

    let zero = with_limit(Some(0));
    store(&zero, &lines).await;
    assert_eq!(hits(&zero, "app", "u", "mocha").await, 0);
}

#[tokio::test]
async fn a_repeated_query_word_counts_once() {
    let memory = with_limit(None);
    store(&memory, &["a latte", "a mocha"]).await;
    assert_eq!(
        hits(&memory, "app", "u", "latte LATTE latte Latte").await,
        1
    );
}
