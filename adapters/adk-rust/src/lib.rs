//! ADK-Rust's memory services as memory-conformance backends.
//!
//! [`AdkRustMemory`] puts any `adk_memory::MemoryService` behind memory-conformance's
//! `MemoryService`, mapping sessions to adk-memory entries and back as its documentation
//! states. Five gates prove how adk-memory 2.3.0's services behave, each against its profile:
//! [`in_memory_gate`] (`InMemoryMemoryService`, `Profile::adk_rust_in_memory()`),
//! [`sqlite_gate`] (`SqliteMemoryService` on a file, `Profile::adk_rust_sqlite()`), and, on
//! real servers ([`servers`]: started by the repository's `servers/start.sh`),
//! [`postgres_gate`] (`PostgresMemoryService`'s `tsvector` keyword search),
//! [`postgres_vector_gate`] (`PostgresMemoryService` with the kit's embedder as a
//! [`KitEmbeddingProvider`], pgvector HNSW) and [`redis_gate`] (`RedisMemoryService`). Each is
//! declared once, and run by its `tests/conformance_*.rs`, the command line and reports; the
//! rules they break follow from their profiles or are declared with their cause in adk-memory's
//! source. `tests/faults_postgres.rs` and `tests/faults_redis.rs` restart, cut and slow down
//! the servers under the services.
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
