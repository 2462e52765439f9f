//! ADK JS's `InMemoryMemoryService` (`@google/adk` 2.0.0), through `adk-js/bridge.mjs`.

use std::process::Command;

use memory_conformance::conformance::Gate;
use memory_conformance::profile::Profile;
use tokio::sync::OnceCell;

use crate::launch::{Bridged, bridges_dir, install, on_path};

static ADK_JS: Bridged = Bridged {
    name: "adk-js",
    version: "@google/adk 2.0.0",
    registry: "npm",
    service: "InMemoryMemoryService",
    installed,
    command,
    child: &CHILD,
};

static CHILD: OnceCell<Result<memory_conformance::process::ProcessBridge, String>> =
    OnceCell::const_new();

/// The gate of ADK JS's in-memory memory service: every rule against [`Profile::adk_js`], whose
/// slash-joined key implies its one known violation (`@google/adk` 2.0.0 keys memory by the
/// string `${appName}/${userId}`); every test is ignored, with the install command as the
/// reason, where `bash bridges/install.sh` has not been run or `node` is missing.
pub fn adk_js_gate() -> Gate {
    ADK_JS.gate(Profile::adk_js())
}

fn installed() -> Result<(), String> {
    if !on_path("node") {
        return Err(format!(
            "node is not on the PATH: install Node.js 20 or later, then run `{}`",
            install()
        ));
    }
    if bridges_dir()
        .join("adk-js/node_modules/.installed-pins")
        .is_file()
    {
        Ok(())
    } else {
        Err(format!(
            "ADK JS (@google/adk 2.0.0) is not installed in bridges/adk-js/node_modules: run `{}` \
             (needs npm, and the npm registry)",
            install()
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
