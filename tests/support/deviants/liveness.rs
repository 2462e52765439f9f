//! Deviants that never answer, panic, or block their thread: they break no clause of the
//! specification, and the harness must still fail them instead of hanging or crashing.

use memory_conformance::async_trait;

use super::{Answer, Deviation, Search, Store};

/// A search never answers.
#[derive(Debug)]
pub struct Hang;

#[async_trait]
impl Deviation for Hang {
    async fn search(&self, _: &Store, _: Search<'_>) -> Answer {
        std::future::pending().await
    }
}

/// A search panics.
#[derive(Debug)]
pub struct PanicOnSearch;

#[async_trait]
impl Deviation for PanicOnSearch {
    async fn search(&self, _: &Store, _: Search<'_>) -> Answer {
        panic!("index out of bounds: the len is 0 but the index is 0")
    }
}

/// A search blocks its thread for three seconds before answering as the reference does.
#[derive(Debug)]
pub struct BlockThread;

#[async_trait]
impl Deviation for BlockThread {
    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        std::thread::sleep(std::time::Duration::from_secs(3));
        store.search(search).await
    }
}
