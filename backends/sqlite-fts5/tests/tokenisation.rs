//! Words as a user means them: FTS5 `unicode61` with `remove_diacritics 2` on both sides.

mod support;

use memory_conformance::{Event, MemoryService, Part, Session};
use memory_sqlite_fts5::SqliteFts5MemoryService;
use rstest::rstest;
use support::hits;

const FACT: &str = "My favourite coffee is a flat white. Order 4417 shipped, café.";

async fn with_fact(text: &str) -> SqliteFts5MemoryService {
    let memory = SqliteFts5MemoryService::open_in_memory().unwrap();
    let session = Session::new("support", "u-42", "s-1")
        .with_event(Event::text("user", text))
        .with_event(Event::text("model", "Noted."));
    memory.add_session_to_memory(&session).await.unwrap();
    memory
}

#[rstest]
#[case::punctuation_on_the_word("coffee?")]
#[case::capitalised("Coffee")]
#[case::shouted("COFFEE")]
#[case::digits("4417")]
#[case::accented_as_written("café")]
#[case::accent_dropped("cafe")]
#[case::accent_capitalised("CAFÉ")]
#[case::hyphenated("flat-white")]
#[case::trailing_dot("white.")]
#[case::one_live_word_among_dead("coffee preference?")]
#[case::question("Where's order 4417?")]
#[case::hash_number("#4417")]
#[tokio::test]
async fn the_worked_example_is_found_as_a_user_means(#[case] query: &str) {
    let memory = with_fact(FACT).await;
    let found = memory
        .search_memory("support", "u-42", query)
        .await
        .unwrap();
    assert_eq!(found.memories.len(), 1, "{query}");
    assert_eq!(found.memories[0].content.texts().next(), Some(FACT));
}

#[rstest]
#[case::prefix_only("coff")]
#[case::other_number("4418")]
#[case::absent_word("tea")]
#[case::word_fused_across_punctuation("flatwhite")]
#[tokio::test]
async fn words_must_match_whole(#[case] query: &str) {
    let memory = with_fact(FACT).await;
    assert_eq!(hits(&memory, "support", "u-42", query).await, 0, "{query}");
}

#[rstest]
#[case::greek("Γάλα", "ΓΆΛΑ")]
#[case::greek_final_sigma("καφές", "ΚΑΦΈΣ")]
#[case::german("Straße", "straße")]
#[case::decomposed_accent_in_text("cafe\u{301}", "café")]
#[case::decomposed_accent_in_query("café", "cafe\u{301}")]
#[case::cyrillic("Молоко", "молоко")]
#[case::japanese_run("コーヒー", "コーヒー")]
#[case::underscore_separates("order_status", "status")]
#[case::apostrophe_separates("we're", "we")]
#[case::email_parts("bob@example.com", "example")]
#[tokio::test]
async fn unicode_words_fold_case_and_diacritics(#[case] text: &str, #[case] query: &str) {
    let memory = with_fact(text).await;
    assert_eq!(
        hits(&memory, "support", "u-42", query).await,
        1,
        "{text} / {query}"
    );
}

/// `remove_diacritics` folds Latin-script diacritics only: a Greek tonos stays on its letter,
/// so a query must carry the accent the text has (case still folds).
#[tokio::test]
async fn greek_accents_are_not_folded() {
    let memory = with_fact("Γάλα").await;
    assert_eq!(hits(&memory, "support", "u-42", "γάλα").await, 1);
    assert_eq!(hits(&memory, "support", "u-42", "γαλα").await, 0);
}

#[tokio::test]
async fn events_without_text_are_never_returned() {
    let memory = SqliteFts5MemoryService::open_in_memory().unwrap();
    let session = Session::new("app", "u", "s-1")
        .with_event(Event::with_parts("user", vec![Part::text("")]))
        .with_event(Event::text("user", "?! ... --"))
        .with_event(Event::inline_data("user", "text/plain", b"coffee".to_vec()))
        .with_event(Event::function_response(
            "agent",
            "coffee",
            serde_json::json!({"coffee": "coffee"}),
        ));
    memory.add_session_to_memory(&session).await.unwrap();
    assert_eq!(hits(&memory, "app", "u", "coffee").await, 0);
}
