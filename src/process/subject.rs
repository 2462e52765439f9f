//! A backend behind a bridge command as a gate's [`Subject`]: a pool of its children, a store
//! on one of them per case.

use std::ffi::OsString;
use std::sync::Arc;
use std::time::Duration;

use super::{BridgePool, ProcessBridge};
use crate::conformance::Subject;
use crate::profile::Profile;

/// The subject of a backend behind the bridge `command` (program and arguments), named
/// `backend` (when blank, as the bridge's hello names its backend), run on up to
/// `children` children of it (at least 1; a runner gives one per thread, see [`BridgePool`]):
/// the first child is started here, shaking hands, the others when cases need them; every case
/// gets a store of its own on one child, and each instance the case opens is an `open` on that
/// store (a reopen or a second instance reaches the same storage, under protocol v2), the store
/// dropped when the case is over. Every request may take `op_timeout`; the harness waits
/// [`ProcessBridge::HARNESS_MARGIN`] longer, so a hung child is reported by the bridge, with
/// its standard error. The pool comes with it, to ask whether it still works
/// ([`BridgePool::broken`]): once a child has died every later call on it fails the same way,
/// so a runner stops there with one error. `Err` says why the bridge could not start.
///
/// ```no_run
/// use memory_conformance::conformance::{DEFAULT_OP_TIMEOUT, Gate};
/// use memory_conformance::process::bridged_subject;
/// use memory_conformance::profile::Profile;
/// let command = ["python3".into(), "bridge.py".into()];
/// let (subject, bridge) = bridged_subject(&command, "my-backend", Profile::adk_python(), DEFAULT_OP_TIMEOUT, 1)?;
/// let report = Gate::new(subject).run();
/// assert!(bridge.broken().is_none(), "the bridge died during the gate");
/// # Ok::<(), String>(())
/// ```
pub fn bridged_subject(
    command: &[OsString],
    backend: &str,
    profile: Profile,
    op_timeout: Duration,
    children: usize,
) -> Result<(Subject, Arc<BridgePool>), String> {
    if command.is_empty() {
        return Err(
            "name the bridge command after `--`, for example `-- python3 bridge.py`".into(),
        );
    }
    let pool = start(command, op_timeout, children).map_err(|err| {
        format!(
            "the bridge `{}` could not start: {err}",
            command_line(command)
        )
    })?;
    let backend = if backend.trim().is_empty() {
        pool.backend().to_owned()
    } else {
        backend.to_owned()
    };
    let forget = Arc::clone(&pool);
    let handle = Arc::clone(&pool);
    let subject = Subject::namespaced(backend, profile, move |namespace| {
        let pool = Arc::clone(&pool);
        async move {
            pool.open(namespace.as_str())
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

/// Starts the pool's first child, shaking hands.
fn start(
    command: &[OsString],
    timeout: Duration,
    children: usize,
) -> Result<Arc<BridgePool>, String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|err| format!("no runtime: {err}"))?;
    runtime
        .block_on(BridgePool::start(command, timeout, children))
        .map(Arc::new)
        .map_err(|err| err.to_string())
}
