//! R7: any string is accepted as app name, user id, session id or query, without a panic, and
//! the rules still hold.

use memory_conformance::inspect::InspectingMemoryService;
use memory_conformance::{Event, InMemoryMemoryService, MemoryService, Session, explain};
use proptest::prelude::*;
use rstest::rstest;

fn megabyte_of_text() -> String {
    let unit = "coffee flat white 4417 café 咖啡 😀 ";
    unit.repeat((1 << 20) / unit.len())
}

#[rstest]
#[case::empty_strings("", "", "")]
#[case::slashes("/", "/", "/")]
#[case::nul("\0", "a\0b", "\0\0")]
#[case::emoji("😀", "👩‍👩‍👧", "🧪")]
#[case::whitespace(" ", "\t", "\n")]
#[tokio::test]
async fn odd_keys_and_session_ids_round_trip(
    #[case] app: &str,
    #[case] user: &str,
    #[case] session_id: &str,
) {
    let memory = InspectingMemoryService::new(InMemoryMemoryService::new());
    let session =
        Session::new(app, user, session_id).with_event(Event::text("user", "coffee\0😀 /"));
    memory.add_session_to_memory(&session).await.unwrap();
    assert_eq!(
        memory
            .search_memory(app, user, "coffee")
            .await
            .unwrap()
            .memories
            .len(),
        1
    );
    assert_eq!(
        memory
            .search_memory(app, user, "\0 😀 / ")
            .await
            .unwrap()
            .memories
            .len(),
        0
    );
    assert!(
        memory
            .search_memory(user, app, "coffee")
            .await
            .unwrap()
            .memories
            .is_empty()
            || app == user
    );
    let diagnosis = memory.diagnose(app, user, "\0😀");
    assert_eq!(diagnosis.right_key.sessions, 1, "{diagnosis}");
}

#[tokio::test]
async fn a_megabyte_of_text_and_of_query_is_accepted() {
    let text = megabyte_of_text();
    let memory = InMemoryMemoryService::new();
    let session = Session::new("app", "u", "s-1").with_event(Event::text("user", text.clone()));
    memory.add_session_to_memory(&session).await.unwrap();
    let found = memory
        .search_memory("app", "u", &text)
        .await
        .unwrap()
        .memories;
    assert_eq!(found.len(), 1, "a 1 MB query finds the event once");
    assert_eq!(
        found[0].content.texts().next().map(str::len),
        Some(text.len())
    );
    assert!(
        memory
            .search_memory("app", "u", "4417")
            .await
            .unwrap()
            .memories
            .is_empty()
    );
    assert!(!explain(&text).is_empty());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Arbitrary strings anywhere never panic, and what is written under a key is found under
    /// exactly that key by one of its own words.
    #[test]
    fn arbitrary_strings_never_panic(
        app in any::<String>(),
        user in any::<String>(),
        session_id in any::<String>(),
        text in any::<String>(),
        query in any::<String>(),
    ) {
        let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
        runtime.block_on(async {
            let memory = InMemoryMemoryService::new();
            let session = Session::new(app.as_str(), user.as_str(), session_id.as_str())
                .with_event(Event::text("user", format!("{text} marker")));
            memory.add_session_to_memory(&session).await.unwrap();
            memory.search_memory(&app, &user, &query).await.unwrap();
            let found = memory.search_memory(&app, &user, "MARKER").await.unwrap().memories;
            prop_assert_eq!(found.len(), 1);
            let elsewhere = memory.search_memory(&format!("{app}/"), &user, "marker").await.unwrap().memories;
            prop_assert!(elsewhere.is_empty());
            Ok(())
        })?;
        let _ = explain(&query);
    }
}
