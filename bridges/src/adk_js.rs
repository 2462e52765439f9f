//! ADK JS's `InMemoryMemoryService` (`@google/adk` 2.0.0), through `adk-js/bridge.mjs`.

use std::process::Command;
use std::sync::Arc;

use memory_conformance::conformance::Namespace;
use memory_conformance::{Gate, MemoryService, Profile};
use tokio::sync::OnceCell;

use crate::launch::{Bridged, INSTALL, bridges_dir, on_path};

/// The rules `@google/adk` 2.0.0 is known to break, each with the reason.
pub const ADK_JS_KNOWN_VIOLATIONS: &[(&str, &str)] = &[(
    "key.no_separator_collision",
    "@google/adk 2.0.0 keys memory by the string `${appName}/${userId}`, so (\"a/b\", \"c\") and \
     (\"a\", \"b/c\") share one store",
)];

static ADK_JS: Bridged = Bridged {
    name: "adk-js",
    version: "@google/adk 2.0.0",
    installed,
    command,
    child: &CHILD,
};

static CHILD: OnceCell<Result<memory_conformance::process::ProcessBridge, String>> =
    OnceCell::const_new();

/// The gate of ADK JS's in-memory memory service: every rule against [`Profile::adk_js`], with
/// [`ADK_JS_KNOWN_VIOLATIONS`]; every test is ignored, with the install command as the reason,
/// where `bash bridges/install.sh` has not been run or `node` is missing.
pub fn adk_js_gate() -> Gate {
    ADK_JS.gate(Profile::adk_js(), ADK_JS_KNOWN_VIOLATIONS)
}

/// A fresh store of ADK JS's in-memory memory service, for `namespaced_factory`. All stores
/// share one child process, started on first use.
pub async fn adk_js_store(namespace: Namespace) -> Arc<dyn MemoryService> {
    ADK_JS.open(namespace).await
}

/// `Ok` when `node` is on the `PATH` and ADK JS is installed in `bridges/adk-js/node_modules`;
/// else how to install it.
pub fn adk_js_available() -> Result<(), String> {
    installed()
}

fn installed() -> Result<(), String> {
    if !on_path("node") {
        return Err(format!(
            "node is not on the PATH: install Node.js 20 or later, then run `{INSTALL}`"
        ));
    }
    if bridges_dir()
        .join("adk-js/node_modules/.installed-pins")
        .is_file()
    {
        Ok(())
    } else {
        Err(format!(
            "ADK JS (@google/adk 2.0.0) is not installed in bridges/adk-js/node_modules: run `{INSTALL}` \
             (needs npm, and the npm registry)"
        ))
    }
}

fn command() -> Command {
    let mut command = Command::new("node");
    command
        .arg("bridge.mjs")
        .current_dir(bridges_dir().join("adk-js"));
    command
}
