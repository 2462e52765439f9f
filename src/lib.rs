//! Prove how an AI agent's long-term memory backend behaves.
//!
//! Agent frameworks (Google's ADK in Java, Python, JS, Go, and ADK-Rust) give agents a memory
//! service with two calls: add a session's events to memory, and search memory by app, user
//! and query. Every implementation answers them differently. This crate holds:
//!
//! - the ADK memory model ([`Session`], [`Event`], [`Content`], [`Part`], [`MemoryEntry`],
//!   [`SearchMemoryResponse`]) and the [`MemoryService`] trait;
//! - [`InMemoryMemoryService`], the reference backend, with its [`tokenize`] rules;
//! - inspection: [`inspect::InspectingMemoryService`] (logging that never leaks content by
//!   default, and a diagnosis of a search that came back empty), [`explain`] and
//!   [`explain_for`] for dead query tokens under any [`profile::Profile`], the four checks from
//!   session files, a session database or log lines ([`inspect::Evidence`],
//!   [`inspect::read_log`]), and the tool-side [`ToolContext`] and [`load_memory`];
//! - [`sessions`]: the session JSON of every ADK language, detected automatically, and ADK
//!   Python's session database (feature `session-database`);
//! - the [`profile`] a backend declares, its [`conformance`] gate, and [`infer`], which finds
//!   the profile that fits a backend.
//!
//! # Features
//!
//! - `harness` (default): the conformance harness (rules, generators, the test runner,
//!   recall snapshots, [`infer`], the [`probe`] corpus, the [`process`] bridge and the recall
//!   [`benchmark`]'s data and runs), with proptest and insta (the test runner, libtest's
//!   command line and output for `cargo test` and `cargo nextest`, is the kit's own). A backend
//!   crate depends on the kit with `default-features = false`, which keeps the model, the
//!   trait, the reference, inspection, profiles and gate declarations, and adds the kit with
//!   the harness as a dev-dependency only.
//! - `locomo`: the harness, and LoCoMo read into the recall benchmark (`Benchmark::locomo`,
//!   its SHA-256 checked with sha2). The command turns it on; a backend crate does not need it.
//! - `session-database`: read ADK Python's session database (SQLite, through rusqlite).
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() -> Result<(), memory_conformance::MemoryError> {
//! use memory_conformance::{Event, InMemoryMemoryService, MemoryService, Session};
//! let memory = InMemoryMemoryService::new();
//! let monday = Session::new("support", "u-42", "s-1")
//!     .with_event(Event::text("user", "My favourite coffee is a flat white."));
//! memory.add_session_to_memory(&monday).await?;
//! assert_eq!(memory.search_memory("support", "u-42", "coffee").await?.memories.len(), 1);
//! assert_eq!(memory.search_memory("support", "42", "coffee").await?.memories.len(), 0);
//! assert_eq!(memory.search_memory("support", "u-42", "coffee?").await?.memories.len(), 0);
//! assert_eq!(memory_conformance::explain("coffee?"), ["coffee?"]);
//! # Ok(())
//! # }
//! ```

#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_auto_cfg))]

pub mod benchmark;
pub mod conformance;
pub mod embed;
mod error;
mod explain;
mod in_memory;
#[cfg(feature = "harness")]
pub mod infer;
pub mod inspect;
mod load_memory;
mod model;
#[cfg(feature = "harness")]
pub mod probe;
#[cfg(feature = "harness")]
pub mod process;
pub mod profile;
mod service;
pub mod sessions;
pub mod tokenize;

pub use async_trait::async_trait;
pub use jiff::Timestamp;

pub use error::MemoryError;
pub use explain::{
    DeadReason, TokenExplanation, explain, explain_for, explain_tokens, explain_tokens_for,
};
pub use in_memory::InMemoryMemoryService;
pub use load_memory::{LoadMemoryResponse, ToolContext, load_memory};
pub use model::{Content, Event, MemoryEntry, MemoryKey, Part, SearchMemoryResponse, Session};
pub use service::{MemoryService, SearchOptions};

/// Every Rust block of the README, compiled and run as a doctest.
#[cfg(all(doctest, feature = "harness"))]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

/// Every Rust block of `docs/gate-a-rust-backend.md`, compiled and run as a doctest.
#[cfg(all(doctest, feature = "harness"))]
#[doc = include_str!("../docs/gate-a-rust-backend.md")]
struct GateARustBackendDoctests;

/// Every Rust block of `docs/bridge-a-backend.md`, compiled and run as a doctest.
#[cfg(all(doctest, feature = "harness"))]
#[doc = include_str!("../docs/bridge-a-backend.md")]
struct BridgeABackendDoctests;

/// Every Rust block of `docs/diagnose.md`, compiled and run as a doctest.
#[cfg(all(doctest, feature = "harness"))]
#[doc = include_str!("../docs/diagnose.md")]
struct DiagnoseDoctests;

/// Every Rust block of `docs/recall.md`, compiled and run as a doctest.
#[cfg(all(doctest, feature = "harness"))]
#[doc = include_str!("../docs/recall.md")]
struct RecallDoctests;

/// Every Rust block of `docs/bundled-backends.md`, compiled and run as a doctest.
#[cfg(all(doctest, feature = "harness"))]
#[doc = include_str!("../docs/bundled-backends.md")]
struct BundledBackendsDoctests;

/// Every Rust block of `docs/performance.md`, compiled and run as a doctest.
#[cfg(all(doctest, feature = "harness"))]
#[doc = include_str!("../docs/performance.md")]
struct PerformanceDoctests;

#[doc(hidden)]
#[cfg(feature = "harness")]
pub mod __private {
    pub use crate::conformance::runner::recall_pin::TestTarget;
    pub use crate::conformance::runner::test_binary::main;
    pub use insta;
}
