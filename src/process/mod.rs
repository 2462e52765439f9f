//! Gating backends written in other languages: a child process that speaks the bridge
//! protocol (one JSON object per line, versioned; see `docs/bridge-protocol.md`) becomes a
//! [`MemoryService`](crate::MemoryService), so every rule of the harness runs against it
//! unchanged.
//!
//! [`ProcessBridge`] starts the child and shakes hands; [`ProcessBridge::store`] gives a
//! [`ProcessMemoryService`] on a fresh store of it. In a gate, each case gets its own store:
//!
//! ```ignore
//! memory_conformance::conformance_main! {
//!     backend: "my-python-backend",
//!     profile: my_profile(),
//!     namespaced_factory: |namespace| async move {
//!         shared_bridge().await.store(namespace.as_str()).await.expect("the bridge child serves stores")
//!     },
//! }
//! ```

mod bridge;
mod child;
mod protocol;
mod service;
mod tail;

pub use bridge::ProcessBridge;
pub use protocol::PROTOCOL_VERSION;
pub use service::ProcessMemoryService;
