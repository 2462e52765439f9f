//! `VectorMemory`: an in-memory vector memory backend. Each event's text is embedded with an
//! [`Embedder`](memory_conformance::embed::Embedder); a search embeds the query and returns
//! the stored events nearest to it by cosine similarity, the nearest first, at most ten.
//!
//! It is the kit's subject for vector retrieval: [`gate`] runs every rule against it with the
//! kit's deterministic embedder, whose answers the kit computes exactly, and
//! [`VectorMemory::with_deviation`] makes the broken variants the rules must catch.
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), memory_conformance::MemoryError> {
//! use memory_conformance::embed::HashedEmbedder;
//! use memory_conformance::{Event, MemoryService, Session};
//! use memory_vector::VectorMemory;
//! let memory = VectorMemory::new(HashedEmbedder::default());
//! let monday = Session::new("support", "u-42", "s-1")
//!     .with_event(Event::text("user", "My favourite coffee is a flat white."))
//!     .with_event(Event::text("user", "The printer is broken again."));
//! memory.add_session_to_memory(&monday).await?;
//! let found = memory.search_memory("support", "u-42", "coffee?").await?;
//! assert_eq!(found.memories[0].content.texts().next(), Some("My favourite coffee is a flat white."));
//! # Ok(())
//! # }
//! ```

mod gate;
mod nearest;
mod service;
mod store;

pub use gate::{gate, minilm, minilm_gate, minilm_profile, profile};
pub use nearest::nearest_first;
pub use service::{Deviation, TOP_K, VectorMemory};
pub use store::EventStore;
