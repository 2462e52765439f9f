//! A backend behind a bridge command as a gate's [`Subject`]: the child started once, a store
//! of it per case.

use std::ffi::OsString;
use std::sync::Arc;
use std::time::Duration;

use super::ProcessBridge;
use crate::conformance::Subject;
use crate::profile::Profile;

/// The subject of a backend behind the bridge `command` (program and arguments): the child is
/// started once, shaking hands, every case gets a store of its own, and each instance the case
/// opens is an `open` on that store (a reopen or a second instance reaches the same storage,
/// under protocol v2), the store dropped when the case is over. Every request may take
/// `op_timeout`; the harness waits [`ProcessBridge::HARNESS_MARGIN`] longer, so a hung child is
/// reported by the bridge, with its standard error. The bridge comes with it, to ask whether it still works
/// ([`ProcessBridge::broken`]): once the child has died every later call fails the same way, so
/// a runner stops there with one error. `Err` says why the bridge could not start.
///
/// ```no_run
/// use memory_conformance::conformance::{DEFAULT_OP_TIMEOUT, Gate};
/// use memory_conformance::process::bridged_subject;
/// use memory_conformance::profile::Profile;
/// let command = ["python3".into(), "bridge.py".into()];
/// let (subject, bridge) = bridged_subject(&command, "my-backend", Profile::adk_python(), DEFAULT_OP_TIMEOUT)?;
/// let report = Gate::new(subject).run();
/// assert!(bridge.broken().is_none(), "the bridge died during the gate");
/// # Ok::<(), String>(())
/// ```
pub fn bridged_subject(
    command: &[OsString],
    backend: &str,
    profile: Profile,
    op_timeout: Duration,
) -> Result<(Subject, Arc<ProcessBridge>), String> {
    let (program, args) = command
        .split_first()
        .ok_or("name the bridge command after `--`, for example `-- python3 bridge.py`")?;
    let mut child = std::process::Command::new(program);
    child.args(args);
    let bridge = start(child, op_timeout).map_err(|err| {
        format!(
            "the bridge `{}` could not start: {err}",
            command_line(command)
        )
    })?;
    let forget = Arc::clone(&bridge);
    let handle = Arc::clone(&bridge);
    let subject = Subject::namespaced(backend, profile, move |namespace| {
        let bridge = Arc::clone(&bridge);
        async move {
            bridge
                .open(namespace.as_str())
                .await
                // Unwinds without the panic hook: the harness reports the failure once, and a
                // dead bridge is not a bug of this program to print a backtrace for.
                .unwrap_or_else(|err| {
                    std::panic::resume_unwind(Box::new(format!(
                        "the bridge opened no store: {err}"
                    )))
                })
        }
    })
    .cleanup_with(move |namespace| forget.forget(namespace.as_str()))
    .op_timeout(op_timeout + ProcessBridge::HARNESS_MARGIN);
    Ok((subject, handle))
}

/// A bridge command as one line, for messages and reproduction commands.
pub fn command_line(command: &[OsString]) -> String {
    command
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Starts the bridge child once, shaking hands.
fn start(command: std::process::Command, timeout: Duration) -> Result<Arc<ProcessBridge>, String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|err| format!("no runtime: {err}"))?;
    runtime
        .block_on(ProcessBridge::spawn_with_timeout(command, timeout))
        .map(Arc::new)
        .map_err(|err| err.to_string())
}
