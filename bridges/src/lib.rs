//! The in-memory memory services of ADK Python (`google-adk` 2.13.0), ADK JS (`@google/adk`
//! 2.0.0), ADK Java (`com.google.adk:google-adk` 1.8.0) and ADK Go (`google.golang.org/adk/v2`
//! v2.2.0), and ADK Python's `SqliteMemoryService`, run as child processes through the kit's
//! process bridge and gated with every rule of memory-conformance.
//!
//! `bash bridges/install.sh` installs them, pinned, into folders git ignores
//! (`bridges/adk-python/.venv`, `bridges/adk-js/node_modules`, `bridges/adk-java/.m2` and
//! `target/`, `bridges/adk-go/.go` and `target/`). Where they are not installed, the gates show
//! every test as ignored, with that command as the reason.
//!
//! ```no_run
//! let report = memory_conformance_bridges::adk_js_gate().run();
//! println!("{report}");
//! ```

mod adk_go;
mod adk_java;
mod adk_js;
mod adk_python;
mod adk_python_sqlite;
mod launch;

pub use adk_go::adk_go_gate;
pub use adk_java::adk_java_gate;
pub use adk_js::adk_js_gate;
pub use adk_python::adk_python_gate;
pub use adk_python_sqlite::{adk_python_sqlite_command, adk_python_sqlite_gate};
pub use launch::BRIDGES_DIR_VAR;
