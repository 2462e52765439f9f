//! ADK-Rust's memory services as memory-conformance backends.
//!
//! [`AdkRustMemory`] puts any `adk_memory::MemoryService` behind memory-conformance's
//! `MemoryService`, mapping sessions to adk-memory entries and back as its documentation
//! states. Two gates prove how adk-memory 2.3.0's services behave, each against its profile:
//! [`in_memory_gate`] (`InMemoryMemoryService`, `Profile::adk_rust_in_memory()`) and
//! [`sqlite_gate`] (`SqliteMemoryService` on a file, `Profile::adk_rust_sqlite()`). Each is
//! declared once, and run by `tests/conformance_in_memory.rs`, `tests/conformance_sqlite.rs`,
//! the command line and reports; the rules they break follow from their profiles.
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), memory_conformance::MemoryError> {
//! use memory_conformance::{Event, MemoryService, Session};
//! use memory_conformance_adk_rust::AdkRustMemory;
//!
//! let path = std::env::temp_dir().join(format!("adk-rust-doc-{}.db", std::process::id()));
//! let memory = AdkRustMemory::open_sqlite(&path).await?;
//! let monday = Session::new("support", "u-42", "s-1").with_event(Event::text("user", "a flat white, please"));
//! memory.add_session_to_memory(&monday).await?;
//! memory.add_session_to_memory(&monday).await?; // SqliteMemoryService appends on re-add
//! assert_eq!(memory.search_memory("support", "u-42", "white").await?.memories.len(), 2);
//! # drop(memory);
//! # let _ = std::fs::remove_file(&path);
//! # Ok(())
//! # }
//! ```

#![warn(missing_docs)]

mod embedding;
mod gates;
mod mapping;
mod memory;
pub mod servers;
mod time;

pub use embedding::KitEmbeddingProvider;
pub use gates::{in_memory_gate, postgres_gate, postgres_vector_gate, redis_gate, sqlite_gate};
pub use memory::AdkRustMemory;
