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

/// Why an integer beyond 2^53 in tool data comes back changed from ADK JS: its runtime's
/// numbers, not its memory service.
const JS_NUMBERS: &str = "JavaScript numbers are IEEE 754 doubles: an integer in tool data \
    beyond 2^53 (9007199254740993) is read as the nearest double (9007199254740992) by \
    JSON.parse, in the bridge helper as in any ADK JS program that reads tool data; a limit of \
    the runtime, not of InMemoryMemoryService, which returns the object it was given";

/// The gate of ADK JS's in-memory memory service: every rule against [`Profile::adk_js`], whose
/// slash-joined key implies one known violation (`@google/adk` 2.0.0 keys memory by the
/// string `${appName}/${userId}`), and `result.fidelity` declared for its runtime's numbers
/// ([`JS_NUMBERS`]); every test is ignored, with the install command as the reason, where
/// `bash bridges/install.sh` has not been run or `node` is missing.
pub fn adk_js_gate() -> Gate {
    ADK_JS
        .gate(Profile::adk_js())
        .known_violation("result.fidelity", JS_NUMBERS)
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
