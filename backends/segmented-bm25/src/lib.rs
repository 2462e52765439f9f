//! `SegmentedBm25`: an in-memory memory backend whose words follow Unicode word segmentation
//! (UAX #29) after NFC, ranked by bm25, at most ten entries a search.
//!
//! It is the kit's subject for the `unicode-segmentation` word rule: its [gate] declares that
//! rule (and nothing is a known violation), and a backend built
//! [without NFC](Normalisation::None) is what the gate must catch.
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), memory_conformance::MemoryError> {
//! use memory_conformance::{Event, MemoryService, Session};
//! use memory_segmented_bm25::SegmentedBm25;
//! let memory = SegmentedBm25::new();
//! let monday = Session::new("support", "u-42", "s-1")
//!     .with_event(Event::text("user", "I can't drink coffee after 3.30, a flat white at most."));
//! memory.add_session_to_memory(&monday).await?;
//! assert_eq!(memory.search_memory("support", "u-42", "coffee?").await?.memories.len(), 1);
//! assert_eq!(memory.search_memory("support", "u-42", "can't").await?.memories.len(), 1);
//! assert!(memory.search_memory("support", "u-42", "can").await?.memories.is_empty());
//! # Ok(())
//! # }
//! ```

mod bm25;
mod gate;
mod index;
mod service;
mod words;

pub use bm25::bm25;
pub use gate::{gate, profile};
pub use service::{Normalisation, SegmentedBm25};
pub use words::words;
