//! No query string can cause an error: FTS5 syntax is only ever words or separators.

mod support;

use memory_conformance::{Event, MemoryService, Session};
use memory_sqlite_fts5::{MAX_QUERY_WORDS, SqliteFts5MemoryService};
use proptest::prelude::*;
use rstest::rstest;
use support::hits;

async fn with_text(text: &str) -> SqliteFts5MemoryService {
    let memory = SqliteFts5MemoryService::builder()
        .result_limit(None)
        .open_in_memory()
        .unwrap();
    let session = Session::new("app", "u", "s-1").with_event(Event::text("user", text));
    memory.add_session_to_memory(&session).await.unwrap();
    memory
}

const TEXT: &str = "Bob (bob@example.com) said: NOT now, near the AND gate; or later? 2 * 3 ^ 4";

#[rstest]
#[case::lone_quote("\"", 0)]
#[case::unbalanced_quote("\"coffee", 0)]
#[case::doubled_quotes("\"\"\"\"", 0)]
#[case::not_operator("NOT", 1)]
#[case::not_prefix("NOT coffee", 1)]
#[case::and_alone("AND", 1)]
#[case::or_alone("OR", 1)]
#[case::near_call("NEAR(a b, 3)", 1)]
#[case::near_alone("NEAR", 1)]
#[case::star("*", 0)]
#[case::prefix_star("ga*", 0)]
#[case::column_filter("scope:k1", 0)]
#[case::column_filter_body("body:gate", 1)]
#[case::caret("^gate", 1)]
#[case::parentheses("((()", 0)]
#[case::braces("{scope body}: x", 0)]
#[case::email("bob@example.com", 1)]
#[case::minus("-", 0)]
#[case::minus_word("-gate", 1)]
#[case::plus("+", 0)]
#[case::colon(":", 0)]
#[case::empty("", 0)]
#[case::spaces("   \t\n ", 0)]
#[case::nul("\0", 0)]
#[case::nul_inside("ga\0te", 0)]
#[case::emoji("😀👩‍👩‍👧", 0)]
#[case::emoji_glued("😀gate😀", 1)]
#[case::combining_mark_alone("\u{301}", 0)]
#[case::private_use("\u{E000}", 0)]
#[case::sql("'; DROP TABLE memory_events; --", 0)]
#[tokio::test]
async fn fts_syntax_is_read_as_words(#[case] query: &str, #[case] expected: usize) {
    let memory = with_text(TEXT).await;
    assert_eq!(
        hits(&memory, "app", "u", query).await,
        expected,
        "{query:?}"
    );
    // The store still works afterwards.
    assert_eq!(hits(&memory, "app", "u", "gate").await, 1);
}

/// A megabyte of distinct words is answered quickly from its first `MAX_QUERY_WORDS` words.
#[tokio::test]
async fn a_megabyte_query_of_distinct_words_uses_its_first_words() {
    let memory = with_text(TEXT).await;
    let mut filler = String::new();
    let mut n = 0u32;
    while filler.len() < 1 << 20 {
        filler.push_str(&format!("w{n} \"( * ^ :) "));
        n += 1;
    }
    let started = std::time::Instant::now();
    assert_eq!(
        hits(&memory, "app", "u", &format!("gate {filler}")).await,
        1
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(30));
    let late: String = (0..MAX_QUERY_WORDS).map(|n| format!("x{n} ")).collect();
    assert_eq!(hits(&memory, "app", "u", &format!("{late} gate")).await, 0);
    assert_eq!(
        hits(&memory, "app", "u", &format!("{late} x0 gate")).await,
        0
    );
    let just_in: String = (1..MAX_QUERY_WORDS).map(|n| format!("x{n} ")).collect();
    assert_eq!(
        hits(&memory, "app", "u", &format!("{just_in} gate")).await,
        1
    );
}

#[tokio::test]
async fn a_megabyte_of_text_is_stored_and_found() {
    let unit = "coffee flat white 4417 café 咖啡 😀 \" NOT ( ";
    let text = unit.repeat((1 << 20) / unit.len());
    let memory = with_text(&text).await;
    let found = memory.search_memory("app", "u", &text).await.unwrap();
    assert_eq!(found.memories.len(), 1);
    assert_eq!(
        found.memories[0].content.texts().next(),
        Some(text.as_str())
    );
    assert_eq!(hits(&memory, "app", "u", "咖啡").await, 1);
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_query_string_is_answered_without_error(query in any::<String>()) {
        let runtime = runtime();
        let memory = runtime.block_on(with_text(TEXT));
        let found = runtime.block_on(memory.search_memory("app", "u", &query));
        prop_assert!(found.is_ok(), "{query:?}: {:?}", found.err());
    }

    #[test]
    fn queries_built_from_fts_syntax_are_answered_without_error(
        query in r#"([ "*:^(){}+\-.,0-9a-zA-Z]|NOT|AND|OR|NEAR|scope|body)*"#
    ) {
        let runtime = runtime();
        let memory = runtime.block_on(with_text(TEXT));
        let found = runtime.block_on(memory.search_memory("app", "u", &query));
        prop_assert!(found.is_ok(), "{query:?}: {:?}", found.err());
    }

    /// Any text, stored, is found by itself as the query exactly when the index tokenizer finds
    /// a word in it: query words and stored words agree.
    #[test]
    fn stored_text_is_found_by_itself(text in "\\PC{1,40}") {
        let runtime = runtime();
        let memory = runtime.block_on(with_text(&text));
        let found = runtime.block_on(memory.search_memory("app", "u", &text));
        prop_assert!(found.is_ok(), "{text:?}: {:?}", found.err());
        let n = found.map(|f| f.memories.len()).unwrap_or_default();
        prop_assert_eq!(n, usize::from(unicode61_words(&text) > 0), "{:?}", text);
    }
}

/// How many words SQLite's `unicode61` tokenizer (as the index is configured) finds in `text`.
fn unicode61_words(text: &str) -> i64 {
    let conn = rusqlite::Connection::open_in_memory().unwrap();
    conn.execute_batch(
        "CREATE VIRTUAL TABLE t USING fts5 (x, tokenize = 'unicode61 remove_diacritics 2');
         CREATE VIRTUAL TABLE v USING fts5vocab (t, instance);",
    )
    .unwrap();
    conn.execute("INSERT INTO t (x) VALUES (?1)", [text])
        .unwrap();
    conn.query_row("SELECT count(*) FROM v", [], |row| row.get(0))
        .unwrap()
}
