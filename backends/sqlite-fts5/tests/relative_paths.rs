//! A path is always a file name: a relative `:memory:` or `file:` URI names a file in the
//! current directory. (One test in its own binary, since it changes the current directory.)

mod support;

use memory_conformance::{Event, MemoryService, Session};
use memory_sqlite_fts5::SqliteFts5MemoryService;
use support::hits;

#[tokio::test]
async fn special_names_and_uris_are_plain_files() {
    let dir = tempfile::tempdir().unwrap();
    std::env::set_current_dir(dir.path()).unwrap();
    for name in [":memory:", "file:x.db?mode=memory"] {
        let session = Session::new("app", "u", "s-1").with_event(Event::text("user", "flat white"));
        {
            let memory = SqliteFts5MemoryService::open(name).unwrap();
            memory.add_session_to_memory(&session).await.unwrap();
        }
        assert!(dir.path().join(name).is_file(), "{name} is a file");
        let reopened = SqliteFts5MemoryService::open(name).unwrap();
        assert_eq!(hits(&reopened, "app", "u", "white").await, 1, "{name}");
    }
}
