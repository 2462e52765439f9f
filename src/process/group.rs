//! What a bridge child leaves behind, and how the kit takes it back: each child runs in a
//! process group of its own, with a scratch folder of its own as its `TMPDIR`
//! (`memory-conformance-bridge-<pid>-<n>` in the system's temporary folder), so everything it
//! starts and writes can be found and removed.
//!
//! A child that ends normally has its group killed (grandchildren included) and its scratch
//! folder removed. On SIGINT or SIGTERM, once any child was started, the kit closes every
//! child's stdin (a bridge's request to close), waits up to [`SIGNAL_GRACE`] for the groups to
//! exit, kills what is left, removes the scratch folders and exits with `128 + signal` (130
//! for SIGINT, 143 for SIGTERM), as a shell reports a process the signal ended.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Once, PoisonError};
use std::time::{Duration, Instant};

use tokio::sync::Notify;

/// How long children get, after the kit was interrupted, to exit after their stdin closed.
pub(crate) const SIGNAL_GRACE: Duration = Duration::from_secs(2);
/// The prefix of every scratch folder, in the system's temporary folder.
pub(crate) const SCRATCH_PREFIX: &str = "memory-conformance-bridge-";

/// One running child, as the signal handler sees it.
struct Live {
    id: u64,
    /// The child's process group (its pid), once it started.
    group: Option<i32>,
    scratch: PathBuf,
    /// Asks the child's writer to close its stdin.
    hangup: Arc<Notify>,
}

static LIVE: Mutex<Vec<Live>> = Mutex::new(Vec::new());
static NEXT: AtomicU64 = AtomicU64::new(1);
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Whether the kit was interrupted and is taking its children back before it exits: calls to
/// a child then wait for the exit instead of failing, so no caller reports the children it
/// stops as broken backends, or exits first with a code of its own.
pub(crate) fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

fn live() -> std::sync::MutexGuard<'static, Vec<Live>> {
    LIVE.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A child's place in the registry: its scratch folder, and its group once it started.
/// Dropping it kills what is left of the group and removes the folder.
pub(crate) struct Group {
    id: u64,
    scratch: PathBuf,
    leader: Option<i32>,
}

impl Group {
    /// Makes the scratch folder and registers a child to be started with it; `hangup` is
    /// how the signal handler asks it to close.
    pub(crate) fn prepare(hangup: Arc<Notify>) -> std::io::Result<Self> {
        install_signal_handler();
        let id = NEXT.fetch_add(1, Ordering::Relaxed);
        let scratch =
            std::env::temp_dir().join(format!("{SCRATCH_PREFIX}{}-{id}", std::process::id()));
        std::fs::create_dir_all(&scratch)?;
        live().push(Live {
            id,
            group: None,
            scratch: scratch.clone(),
            hangup,
        });
        Ok(Self {
            id,
            scratch,
            leader: None,
        })
    }

    /// The child's `TMPDIR`.
    pub(crate) fn scratch(&self) -> &Path {
        &self.scratch
    }

    /// Notes the started child's pid, which is its process group.
    pub(crate) fn started(&mut self, pid: Option<u32>) {
        self.leader = pid.and_then(|pid| i32::try_from(pid).ok());
        if let Some(entry) = live().iter_mut().find(|l| l.id == self.id) {
            entry.group = self.leader;
        }
    }

    /// Kills every process left in the group.
    pub(crate) fn kill(&self) {
        if let Some(group) = self.leader {
            kill_group(group);
        }
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        self.kill();
        live().retain(|l| l.id != self.id);
        let _ = std::fs::remove_dir_all(&self.scratch);
    }
}

/// Sends SIGKILL to every process of `group`.
fn kill_group(group: i32) {
    // SAFETY: killpg only sends a signal; a group that is gone gives ESRCH, ignored.
    unsafe {
        libc::killpg(group, libc::SIGKILL);
    }
}

/// Whether any process of `group` is left (zombies included, until reaped).
fn group_alive(group: i32) -> bool {
    // SAFETY: signal 0 sends nothing; it only checks that the group exists.
    unsafe { libc::killpg(group, 0) == 0 }
}

/// Installs, once, a thread that waits for SIGINT or SIGTERM and then takes every child back
/// and exits.
fn install_signal_handler() {
    static INSTALLED: Once = Once::new();
    INSTALLED.call_once(|| {
        let _ = std::thread::Builder::new()
            .name("memory-bridge-signals".into())
            .spawn(|| {
                let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                else {
                    return;
                };
                let signal = runtime.block_on(async {
                    use tokio::signal::unix::{SignalKind, signal};
                    let (Ok(mut interrupt), Ok(mut terminate)) = (
                        signal(SignalKind::interrupt()),
                        signal(SignalKind::terminate()),
                    ) else {
                        return None;
                    };
                    tokio::select! {
                        _ = interrupt.recv() => Some(libc::SIGINT),
                        _ = terminate.recv() => Some(libc::SIGTERM),
                    }
                });
                if let Some(signal) = signal {
                    take_back_everything();
                    std::process::exit(128 + signal);
                }
            });
    });
}

/// Closes every child's stdin, waits up to [`SIGNAL_GRACE`] for their groups to exit, kills
/// what is left and removes every scratch folder.
fn take_back_everything() {
    INTERRUPTED.store(true, Ordering::SeqCst);
    let children: Vec<(Option<i32>, PathBuf)> = live()
        .iter()
        .map(|l| {
            l.hangup.notify_one();
            (l.group, l.scratch.clone())
        })
        .collect();
    let deadline = Instant::now() + SIGNAL_GRACE;
    while Instant::now() < deadline
        && children
            .iter()
            .any(|(group, _)| group.is_some_and(group_alive))
    {
        std::thread::sleep(Duration::from_millis(20));
    }
    for (group, scratch) in &children {
        if let Some(group) = group {
            kill_group(*group);
        }
        let _ = std::fs::remove_dir_all(scratch);
    }
}
