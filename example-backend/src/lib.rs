//! `KeywordMemory`: the reference keyword matcher with one fix, the one users ask for first:
//! the query is cut into words exactly like stored text, so `coffee?`, `white.` and
//! `flat-white` find what the user means. Everything else is the reference's behaviour.
//!
//! It is the worked example of gating a backend with `memory-conformance`: the crate depends on
//! the kit without its harness (`default-features = false`), declares its profile and its
//! [gate](KeywordMemory::gate), and `tests/conformance.rs`, with the kit as a dev-dependency,
//! runs every rule.
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), memory_conformance::MemoryError> {
//! use example_keyword_memory::KeywordMemory;
//! use memory_conformance::{Event, MemoryService, Session};
//! let memory = KeywordMemory::default();
//! let monday = Session::new("support", "u-42", "s-1").with_event(Event::text("user", "My coffee is a flat white."));
//! memory.add_session_to_memory(&monday).await?;
//! assert_eq!(memory.search_memory("support", "u-42", "coffee?").await?.memories.len(), 1);
//! # Ok(())
//! # }
//! ```

use memory_conformance::conformance::{Gate, Subject};
use memory_conformance::profile::QueryTerms;
use memory_conformance::profile::{Capabilities, Profile};
use memory_conformance::tokenize::event_words;
use memory_conformance::{
    InMemoryMemoryService, MemoryError, MemoryService, SearchMemoryResponse, Session, async_trait,
};

/// The reference's store, searched with the query cut into `[A-Za-z]+` words.
#[derive(Debug, Default)]
pub struct KeywordMemory {
    store: InMemoryMemoryService,
}

impl KeywordMemory {
    /// What `KeywordMemory` declares about itself: the reference, except that query terms
    /// are cut like stored words.
    pub fn profile() -> Profile {
        let mut profile = Profile::reference()
            .named("keyword-memory")
            .with_provenance("example-keyword-memory 0.1.0");
        profile.query_terms = QueryTerms::Words {
            non_ascii_substring: false,
        };
        // The two calls only: no delta, memories, deletion or search options.
        profile.capabilities = Capabilities::default();
        profile
    }

    /// The gate of `KeywordMemory`: every rule of memory-conformance against
    /// [`KeywordMemory::profile`], a fresh instance per case. `tests/conformance.rs` runs it.
    ///
    /// ```
    /// let gate = example_keyword_memory::KeywordMemory::gate();
    /// assert_eq!(gate.subject().backend(), "keyword-memory");
    /// ```
    pub fn gate() -> Gate {
        Gate::new(Subject::new("keyword-memory", Self::profile(), || async {
            Self::default()
        }))
    }
}

#[async_trait]
impl MemoryService for KeywordMemory {
    async fn add_session_to_memory(&self, session: &Session) -> Result<(), MemoryError> {
        self.store.add_session_to_memory(session).await
    }

    async fn search_memory(
        &self,
        app_name: &str,
        user_id: &str,
        query: &str,
    ) -> Result<SearchMemoryResponse, MemoryError> {
        let words: Vec<String> = event_words(query).collect();
        self.store
            .search_memory(app_name, user_id, &words.join(" "))
            .await
    }
}
