//! ADK Go's in-memory memory service (`memory.InMemoryService` of `google.golang.org/adk/v2`
//! v2.2.0), through the Go program of `adk-go/`, built as `adk-go/target/adk-go-bridge`.

use std::process::Command;

use memory_conformance::conformance::Gate;
use memory_conformance::profile::Profile;
use tokio::sync::OnceCell;

use crate::launch::{Bridged, bridges_dir, install, is_executable};

static ADK_GO: Bridged = Bridged {
    name: "adk-go",
    version: "google.golang.org/adk/v2 v2.2.0",
    registry: "the Go module proxy",
    service: "memory.InMemoryService",
    installed,
    command,
    child: &CHILD,
};

static CHILD: OnceCell<Result<memory_conformance::process::ProcessBridge, String>> =
    OnceCell::const_new();

/// The gate of ADK Go's in-memory memory service: every rule against [`Profile::adk_go`]. Every
/// test is ignored, with the install command as the reason, where `bash bridges/install.sh` has
/// not built the bridge.
pub fn adk_go_gate() -> Gate {
    ADK_GO.gate(Profile::adk_go())
}

fn binary() -> std::path::PathBuf {
    bridges_dir().join("adk-go/target/adk-go-bridge")
}

fn installed() -> Result<(), String> {
    if is_executable(&binary()) && bridges_dir().join("adk-go/target/installed-pins").is_file() {
        Ok(())
    } else {
        Err(format!(
            "ADK Go (google.golang.org/adk/v2 v2.2.0) is not built in bridges/adk-go/target: run \
             `{}` (needs Go 1.26.5 or later, and the Go module proxy)",
            install()
        ))
    }
}

fn command() -> Command {
    let mut command = Command::new(binary());
    command.current_dir(bridges_dir().join("adk-go"));
    command
}
