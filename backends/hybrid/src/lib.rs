//! `HybridMemory`: an in-memory memory backend that ranks each event twice, by bm25 over its
//! words and by the cosine of its all-MiniLM-L6-v2 embedding to the query's, and fuses the two
//! rankings by reciprocal rank (each list gives an event `1 / (20 + rank)`). What it indexes of
//! an event is its author and its text parts, as `author: text`: a question that names the
//! speaker ("What did Caroline research?") finds the turns Caroline said.
//!
//! It is the kit's answer to LoCoMo, where a lexical ranker misses paraphrases and a dense one
//! is drowned by the names in short questions: neither alone reaches what the two reach
//! together (the report's LoCoMo section).
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), memory_conformance::MemoryError> {
//! use memory_conformance::embed::HashedEmbedder;
//! use memory_conformance::{Event, MemoryService, Session};
//! use memory_hybrid::HybridMemory;
//! let memory = HybridMemory::new(HashedEmbedder::default());
//! let monday = Session::new("support", "u-42", "s-1")
//!     .with_event(Event::text("ana", "My favourite coffee is a flat white."))
//!     .with_event(Event::text("ben", "The printer is broken again."));
//! memory.add_session_to_memory(&monday).await?;
//! let found = memory.search_memory("support", "u-42", "What does Ana drink?").await?;
//! assert_eq!(found.memories[0].content.texts().next(), Some("My favourite coffee is a flat white."));
//! # Ok(())
//! # }
//! ```

mod fusion;
mod gate;
mod service;

pub use gate::{gate, profile};
pub use memory_vector::TOP_K;
pub use service::HybridMemory;
