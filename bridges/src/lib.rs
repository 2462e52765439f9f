//! The in-memory memory services of ADK Python (`google-adk` 2.13.0) and ADK JS
//! (`@google/adk` 2.0.0), run as child processes through the kit's process bridge and gated
//! with every rule of memory-conformance.
//!
//! `bash bridges/install.sh` installs both, pinned, into folders git ignores
//! (`bridges/adk-python/.venv`, `bridges/adk-js/node_modules`). Where they are not installed,
//! the gates show every test as ignored, with that command as the reason.
//!
//! ```no_run
//! # #[tokio::main(flavor = "current_thread")]
//! # async fn main() {
//! let report = memory_conformance_bridges::adk_js_gate().run().await;
//! println!("{report}");
//! # }
//! ```

mod adk_js;
mod adk_python;
mod launch;

pub use adk_js::{ADK_JS_KNOWN_VIOLATIONS, adk_js_available, adk_js_gate, adk_js_store};
pub use adk_python::{
    ADK_PYTHON_KNOWN_VIOLATIONS, adk_python_available, adk_python_gate, adk_python_store,
};
