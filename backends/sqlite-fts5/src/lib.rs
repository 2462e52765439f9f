//! A durable memory backend for AI agents: SQLite with FTS5 full-text search.
//!
//! [`SqliteFts5MemoryService`] implements [`memory_conformance::MemoryService`], the two calls
//! of ADK's memory service (add a session's events, search by app, user and query), on a
//! SQLite file that several services and processes can share. Search is any-word, Unicode
//! aware (case and diacritics fold, digits are words, punctuation separates), ranked by bm25
//! and cut to a configurable limit; no query string can cause an error. It also implements
//! the optional calls ADK Python's `BaseMemoryService` has grown, as the kit's reference does
//! (R9): a delta of events, explicit memories, deleting a memory by its entry id (the right to
//! be forgotten, durable like everything else in the file) and a search with a limit.
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), Box<dyn std::error::Error>> {
//! use memory_conformance::{Event, MemoryService, Session};
//! use memory_sqlite_fts5::SqliteFts5MemoryService;
//!
//! let dir = tempfile::tempdir()?;
//! let path = dir.path().join("memory.db");
//! {
//!     let memory = SqliteFts5MemoryService::open(&path)?;
//!     let session = Session::new("support", "u-42", "s-1")
//!         .with_event(Event::text("user", "My favourite coffee is a flat white."));
//!     memory.add_session_to_memory(&session).await?;
//! }
//! let reopened = SqliteFts5MemoryService::builder().result_limit(Some(5)).open(&path)?;
//! let found = reopened.search_memory("support", "u-42", "coffee?").await?;
//! assert_eq!(found.memories.len(), 1);
//! # Ok(())
//! # }
//! ```

#![warn(missing_docs)]

mod blocking;
mod builder;
mod connections;
mod failure;
mod forget;
mod gate;
mod indexed_text;
mod memories;
mod migrate;
mod profile;
mod query;
mod ranking;
mod schema;
mod service;
mod store;
mod stored;

pub use builder::{DEFAULT_BUSY_TIMEOUT, SqliteFts5Builder};
pub use gate::gate;
pub use profile::{WORD_RULE, profile};
pub use schema::SCHEMA_VERSION;
pub use service::SqliteFts5MemoryService;

/// How many entries a search returns at most, unless configured with
/// [`SqliteFts5Builder::result_limit`].
pub const DEFAULT_RESULT_LIMIT: usize = 10;

/// How many distinct words of a query a search uses at most: the first ones, in the order they
/// appear. Each word costs a look-up and a scan of the entries holding it, so a query of a
/// megabyte of distinct words would otherwise take minutes; real queries are far shorter.
pub const MAX_QUERY_WORDS: usize = 256;
