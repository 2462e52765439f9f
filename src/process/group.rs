//! What a bridge child leaves behind, and how the kit takes it back: each child runs in a
//! process group of its own, with a scratch folder of its own as its `TMPDIR`
//! (`memory-conformance-bridge-<pid>-<n>` in the system's temporary folder), so everything it
//! starts and writes can be found and removed.
//!
//! A child that ends normally has its group killed (grandchildren included) and its scratch
//! folder removed. On SIGINT or SIGTERM, once any child was started, the kit closes every
//! child's stdin (a bridge's request to close), waits up to [`SIGNAL_GRACE`] for the groups to
//! exit, kills what is left, removes the scratch folders and exits with `128 + signal` (130
//! for SIGINT, 143 for SIGTERM), as a shell reports a process the signal ended. The process's
//! exit does the same for every child still held then (a bridge kept in a static, or a command
//! that returns its exit code with its subject still alive), without marking the kit
//! interrupted. Once either take-back began, no scratch folder is made and a child that
//! starts anyway is killed at once: nothing would be left to remove it.

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

/// The children the kit holds, and whether it has begun taking them back for good.
struct Registry {
    children: Vec<Live>,
    /// Set, for the rest of the process, when an interrupt or the exit takes the children back:
    /// no scratch folder is made and no child is kept after that.
    closed: bool,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry::new());
static NEXT: AtomicU64 = AtomicU64::new(1);
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

impl Registry {
    const fn new() -> Self {
        Self {
            children: Vec::new(),
            closed: false,
        }
    }

    /// Makes the scratch folder and registers the child, in one step under the registry's
    /// lock: a take-back either finds both or comes first, and then this refuses, so no folder
    /// is made that nobody will remove. The error says the kit is exiting.
    fn register(&mut self, live: Live) -> std::io::Result<()> {
        if self.closed {
            return Err(std::io::Error::other(
                "the kit is exiting (interrupted, or its process is ending): no bridge child \
                 is started now",
            ));
        }
        std::fs::create_dir_all(&live.scratch)?;
        self.children.push(live);
        Ok(())
    }

    /// Notes child `id`'s group; false once the registry is closed, when the caller must kill
    /// the group itself (the take-back did not know it).
    fn started(&mut self, id: u64, group: Option<i32>) -> bool {
        if let Some(entry) = self.children.iter_mut().find(|l| l.id == id) {
            entry.group = group;
        }
        !self.closed
    }

    /// Closes the registry, asks every child to close (its stdin is closed) and lists them, so
    /// the caller can release the registry before [`TakenBack::finish`] waits.
    fn take_back(&mut self) -> TakenBack {
        self.closed = true;
        TakenBack(
            self.children
                .iter()
                .map(|l| {
                    l.hangup.notify_one();
                    (l.group, l.scratch.clone())
                })
                .collect(),
        )
    }
}

/// Whether the kit was interrupted and is taking its children back before it exits: calls to
/// a child then wait for the exit instead of failing, so no caller reports the children it
/// stops as broken backends, or exits first with a code of its own.
pub(crate) fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

fn registry() -> std::sync::MutexGuard<'static, Registry> {
    REGISTRY.lock().unwrap_or_else(PoisonError::into_inner)
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
    /// how the signal handler asks it to close. Fails once the kit is exiting.
    pub(crate) fn prepare(hangup: Arc<Notify>) -> std::io::Result<Self> {
        install_signal_handler();
        install_exit_hook();
        let id = NEXT.fetch_add(1, Ordering::Relaxed);
        let scratch =
            std::env::temp_dir().join(format!("{SCRATCH_PREFIX}{}-{id}", std::process::id()));
        registry().register(Live {
            id,
            group: None,
            scratch: scratch.clone(),
            hangup,
        })?;
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

    /// Notes the started child's pid, which is its process group. If the kit began exiting
    /// while the child started, the group is killed at once.
    pub(crate) fn started(&mut self, pid: Option<u32>) {
        self.leader = pid.and_then(|pid| i32::try_from(pid).ok());
        if !registry().started(self.id, self.leader) {
            self.kill();
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
    /// The folder goes before the registry's entry: a process that exits meanwhile then finds
    /// the entry and removes the folder itself, instead of ending while the folder is half
    /// removed and no longer registered.
    fn drop(&mut self) {
        self.kill();
        let _ = std::fs::remove_dir_all(&self.scratch);
        registry().children.retain(|l| l.id != self.id);
    }
}

/// Sends SIGKILL to every process of `group`.
fn kill_group(group: i32) {
    // SAFETY: killpg only sends a signal; a group that is gone gives ESRCH, ignored.
    unsafe {
        libc::killpg(group, libc::SIGKILL);
    }
}

/// Whether any process of `group` is still running. A zombie counts as gone: a killed
/// grandchild stays one until the system's init reaps it, which can take seconds, and it can
/// no longer write anything. Without `/proc`, any process of the group counts, zombies too.
fn group_alive(group: i32) -> bool {
    // SAFETY: signal 0 sends nothing; it only checks that the group exists.
    if unsafe { libc::killpg(group, 0) } != 0 {
        return false;
    }
    let Ok(processes) = std::fs::read_dir("/proc") else {
        return true;
    };
    processes.filter_map(Result::ok).any(|process| {
        std::fs::read_to_string(process.path().join("stat"))
            .is_ok_and(|stat| running_in(&stat, group))
    })
}

/// Whether `/proc/<pid>/stat` is of a process in `group` that is not a zombie: after the
/// command's name, in parentheses, come its state, its parent's pid and its group.
fn running_in(stat: &str, group: i32) -> bool {
    let Some((_, rest)) = stat.rsplit_once(')') else {
        return false;
    };
    let mut fields = rest.split_whitespace();
    let state = fields.next();
    let pgrp = fields.nth(1).and_then(|field| field.parse::<i32>().ok());
    pgrp == Some(group) && state != Some("Z")
}

/// Registers, once, [`take_back_at_exit`] to run when the process exits (returning from
/// `main` or `std::process::exit`, which also run C's `atexit` handlers).
fn install_exit_hook() {
    static INSTALLED: Once = Once::new();
    INSTALLED.call_once(|| {
        // SAFETY: registers a plain `extern "C"` function with no arguments; it runs once, at
        // exit, on the exiting thread.
        unsafe {
            libc::atexit(take_back_at_exit);
        }
    });
}

/// Takes back every child still registered when the process exits, as an interrupt does but
/// without marking the kit interrupted. Other threads still run during exit (a child's own
/// thread reaps it, and may hold the registry for a moment), so the registry is tried for up
/// to [`SIGNAL_GRACE`], not waited for: the exit must not hang on it.
extern "C" fn take_back_at_exit() {
    let deadline = Instant::now() + SIGNAL_GRACE;
    loop {
        match REGISTRY.try_lock() {
            Ok(mut registry) => break registry.take_back(),
            Err(std::sync::TryLockError::Poisoned(poisoned)) => {
                break poisoned.into_inner().take_back();
            }
            Err(std::sync::TryLockError::WouldBlock) if Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(1));
            }
            Err(std::sync::TryLockError::WouldBlock) => return,
        }
    }
    .finish();
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

/// Marks the kit interrupted and takes back every child.
fn take_back_everything() {
    INTERRUPTED.store(true, Ordering::SeqCst);
    let children = registry().take_back();
    children.finish();
}

/// The children being taken back: each one's group, if it started, and scratch folder.
struct TakenBack(Vec<(Option<i32>, PathBuf)>);

impl TakenBack {
    /// Waits up to [`SIGNAL_GRACE`] for the children's groups to exit, kills what is left and
    /// removes every scratch folder.
    fn finish(self) {
        let deadline = Instant::now() + SIGNAL_GRACE;
        while Instant::now() < deadline
            && self
                .0
                .iter()
                .any(|(group, _)| group.is_some_and(group_alive))
        {
            std::thread::sleep(Duration::from_millis(20));
        }
        for (group, scratch) in &self.0 {
            if let Some(group) = group {
                kill_group(*group);
            }
            let _ = std::fs::remove_dir_all(scratch);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Live, Registry, SCRATCH_PREFIX, running_in};
    use std::path::{Path, PathBuf};
    use std::sync::Arc;
    use tokio::sync::Notify;

    #[test]
    fn once_taken_back_the_registry_makes_no_folder_and_keeps_no_child() {
        let folder = |name: &str| -> PathBuf {
            std::env::temp_dir().join(format!(
                "{SCRATCH_PREFIX}unit-{}-{name}",
                std::process::id()
            ))
        };
        let live = |id: u64, scratch: &Path| Live {
            id,
            group: None,
            scratch: scratch.to_path_buf(),
            hangup: Arc::new(Notify::new()),
        };
        let (before, after) = (folder("before"), folder("after"));
        let mut registry = Registry::new();
        registry.register(live(1, &before)).unwrap();
        assert!(before.is_dir(), "registering makes the folder");
        assert!(
            registry.started(1, None),
            "an open registry keeps the child"
        );

        let taken = registry.take_back();
        assert_eq!(taken.0, [(None, before.clone())]);
        taken.finish();
        assert!(!before.exists(), "the take-back removes the folder");

        let refused = registry.register(live(2, &after)).unwrap_err();
        assert!(refused.to_string().contains("exiting"), "{refused}");
        assert!(!after.exists(), "no folder is made once taken back");
        assert!(
            !registry.started(1, Some(4242)),
            "a child that starts after the take-back is the caller's to kill"
        );
    }

    #[test]
    fn a_stat_line_is_read_after_the_last_parenthesis_and_zombies_are_not_running() {
        let sleeping = "4242 (sleep) S 4200 4200 4200 0 -1 4194560 95 0 0 0";
        assert!(running_in(sleeping, 4200));
        assert!(!running_in(sleeping, 4242), "the pid is not the group");
        let odd_name = "4243 (a) b (S 1 2) R 4200 4201 4200 0";
        assert!(running_in(odd_name, 4201));
        assert!(!running_in(odd_name, 2));
        let zombie = "4244 (sleep) Z 1 4200 4200 0 -1";
        assert!(!running_in(zombie, 4200));
        assert!(!running_in("garbage", 4200));
    }
}
