//! The backend a command runs against: a named one (`--backend`), or one behind a bridge
//! command (after `--`).

use std::ffi::OsString;
use std::sync::Arc;
use std::time::Duration;

use memory_conformance::conformance::Subject;
use memory_conformance::process::{BridgePool, bridged_subject};
use memory_conformance::profile::Profile;

use crate::backends::Backends;

/// The subject of the backend `backend` names in `backends`, or of the bridge `command` under
/// the name and profile `declared` gives (read only for a bridge; a blank name is the one the
/// bridge's hello gives) on up to `children` children of it, each call bounded by `op_timeout`
/// seconds (at least 1), with the bridge when there is one (to ask whether it still works);
/// `Err` when both or neither are given, or the backend cannot start.
pub fn chosen(
    backends: Backends,
    backend: Option<&str>,
    command: &[OsString],
    op_timeout: u64,
    children: usize,
    declared: impl FnOnce() -> Result<(String, Profile), String>,
) -> Result<(Subject, Option<Arc<BridgePool>>), String> {
    match (backend, command.is_empty()) {
        (Some(wanted), true) => backends
            .gate(wanted)
            .map(|gate| (gate.subject().clone(), None)),
        (None, false) => {
            let (name, profile) = declared()?;
            bridged_subject(
                command,
                &name,
                profile,
                Duration::from_secs(op_timeout.max(1)),
                children,
            )
            .map(|(subject, bridge)| (subject, Some(bridge)))
        }
        _ => Err(
            "name a bundled backend with --backend, or a bridge command after `--`, not both"
                .into(),
        ),
    }
}
