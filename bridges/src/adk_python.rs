//! ADK Python's `InMemoryMemoryService` (`google-adk` 2.13.0), through `adk-python/bridge.py`.

use std::process::Command;

use memory_conformance::conformance::Gate;
use memory_conformance::profile::Profile;
use tokio::sync::OnceCell;

use crate::launch::{Bridged, bridges_dir, install, is_executable};

static ADK_PYTHON: Bridged = Bridged {
    name: "adk-python",
    version: "google-adk 2.13.0",
    registry: "PyPI",
    service: "InMemoryMemoryService",
    installed,
    command,
    child: &CHILD,
};

static CHILD: OnceCell<Result<memory_conformance::process::ProcessBridge, String>> =
    OnceCell::const_new();

/// The gate of ADK Python's in-memory memory service: every rule against
/// [`Profile::adk_python`], with no known violation: its naive timestamps are a profile
/// dimension (`timestamps = naive isoformat`), a departure from `R6.entries` that
/// `result.fidelity` checks as declared. Every test is ignored, with the install command as
/// the reason, where `bash bridges/install.sh` has not been run.
pub fn adk_python_gate() -> Gate {
    ADK_PYTHON.gate(Profile::adk_python())
}

pub(crate) fn venv_python() -> std::path::PathBuf {
    bridges_dir().join("adk-python/.venv/bin/python")
}

pub(crate) fn installed() -> Result<(), String> {
    let stamp = bridges_dir().join("adk-python/.venv/installed-pins");
    if is_executable(&venv_python()) && stamp.is_file() {
        Ok(())
    } else {
        Err(format!(
            "ADK Python (google-adk 2.13.0) is not installed in bridges/adk-python/.venv: run `{}` \
             (needs python3 with venv, and PyPI)",
            install()
        ))
    }
}

fn command() -> Command {
    script_command("bridge.py")
}

/// The venv's Python running `script` of `bridges/adk-python/`, with the bridge helper on its
/// path and the time zone pinned.
pub(crate) fn script_command(script: &str) -> Command {
    let mut command = Command::new(venv_python());
    // Python formats entry timestamps in local time: pin the zone, so results do not depend
    // on the machine the gate runs on.
    command
        .env("TZ", "UTC")
        // The bridge helper, `memory_conformance_bridge`, that bridge.py serves the package with.
        .env("PYTHONPATH", bridges_dir().join("python"))
        .arg(script)
        .current_dir(bridges_dir().join("adk-python"));
    command
}
