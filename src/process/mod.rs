//! Gating backends written in other languages: a child process that speaks the bridge
//! protocol (one JSON object per line, versioned; see `docs/bridge-protocol.md`) becomes a
//! [`MemoryService`](crate::MemoryService), so every rule of the harness runs against it
//! unchanged.
//!
//! [`ProcessBridge`] starts the child and shakes hands; [`ProcessBridge::store`] gives a
//! [`ProcessMemoryService`] on a fresh store of it. [`bridged_subject`] makes a gate's subject of
//! a bridge command, each case on a store of its own on one of a [`BridgePool`]'s children (one
//! per thread of the runner); by hand, with one child, the same reads:
//!
//! ```no_run
//! use memory_conformance::conformance::{Gate, Subject};
//! use memory_conformance::process::ProcessBridge;
//! use memory_conformance::profile::Profile;
//! use tokio::sync::OnceCell;
//!
//! static BRIDGE: OnceCell<ProcessBridge> = OnceCell::const_new();
//!
//! fn gate() -> Gate {
//!     let subject = Subject::namespaced("my-python-backend", Profile::adk_python(), |namespace| async move {
//!         let bridge = BRIDGE
//!             .get_or_init(|| async {
//!                 let mut command = std::process::Command::new("python3");
//!                 command.arg("bridge.py");
//!                 ProcessBridge::spawn(command).await.expect("start the bridge")
//!             })
//!             .await;
//!         bridge.open(namespace.as_str()).await.expect("the bridge child serves stores")
//!     });
//!     Gate::new(subject)
//! }
//!
//! memory_conformance::conformance_main!(gate());
//! ```

mod bridge;
mod child;
mod group;
mod pool;
mod protocol;
mod service;
mod stderr_shape;
mod stderr_tail;
mod subject;

/// Every Rust block of `docs/bridge-protocol.md`, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../../docs/bridge-protocol.md")]
struct BridgeProtocolPage;

pub use bridge::ProcessBridge;
pub use pool::BridgePool;
pub use protocol::PROTOCOL_VERSION;
pub use service::ProcessMemoryService;
pub use stderr_tail::{SHOW_STDERR, show_stderr_verbatim};
pub use subject::{bridged_subject, command_line};
