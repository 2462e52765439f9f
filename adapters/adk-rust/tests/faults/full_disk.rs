//! A full disk under a store: its files on a small tmpfs (mounted by the test, so it needs root,
//! as CI runs), written until the disk refuses. The refused add must be a `MemoryError` naming
//! the full disk, every add acknowledged before it must be found exactly once afterwards
//! (through the instance that wrote it and through a new one), and once the disk has room again
//! the refused session must be taken.
//!
//! Included by each SQLite subject's full-disk test: the kit's sqlite-fts5, ADK-Rust's
//! `SqliteMemoryService` and ADK Python's. Without root (or without `mount`), the test shows as
//! ignored with the reason; with `MEMORY_CONFORMANCE_REQUIRE_ALL_BACKENDS` set, as in CI, it
//! fails instead.

use std::error::Error;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::sync::Arc;
use std::time::{Duration, Instant};

use libtest_mimic::{Arguments, Completion, Failed, Trial};
use memory_conformance::conformance::REQUIRE_ALL_BACKENDS;
use memory_conformance::{Event, MemoryError, MemoryService, Session};

/// The tmpfs's size: filled by a few dozen sessions at most, in a second or two.
pub const DISK_KIB: usize = 1024;

/// Runs a full-disk test as one trial named `name`: `test` gets the mounted disk and says what
/// it saw. `unavailable` is why the subject cannot run here (not installed), if it cannot; the
/// trial then shows as ignored with that reason, as it does when the disk cannot be mounted.
pub fn main(
    name: &'static str,
    unavailable: Option<String>,
    test: fn(&SmallDisk) -> Result<String, Failed>,
) -> ExitCode {
    let arguments = Arguments::from_args();
    let trial = Trial::ignorable_test(name, move || {
        match unavailable.map_or_else(|| SmallDisk::mount(DISK_KIB), Err) {
            Ok(disk) => {
                let said = test(&disk)?;
                println!("{name}: {said}");
                Ok(Completion::Completed)
            }
            Err(reason) if std::env::var_os(REQUIRE_ALL_BACKENDS).is_none() => {
                Ok(Completion::ignored_with(reason))
            }
            Err(reason) => Err(format!("{REQUIRE_ALL_BACKENDS} is set, but {reason}").into()),
        }
    });
    libtest_mimic::run(&arguments, vec![trial]).exit_code()
}

/// A tokio runtime with its I/O and timers, for the tests' bodies; two workers, as adk-memory's
/// `SqliteMemoryService` runs its migration on a blocking thread that drives the runtime.
pub fn runtime() -> Result<tokio::runtime::Runtime, Failed> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|err| format!("no tokio runtime: {err}").into())
}

/// Session `n`: its marker word, then about 400 bytes of words.
fn session(n: usize) -> Session {
    let filler: Vec<String> = (0..60)
        .map(|k| format!("w{}", (n * 61 + k) % 997))
        .collect();
    Session::new("support", "u-42", format!("s-{n}")).with_event(
        Event::text("user", format!("{} {}", marker(n), filler.join(" ")))
            .with_id(format!("e-{n}")),
    )
}

fn marker(n: usize) -> String {
    format!("marker{n:05}")
}

/// How many sessions of `acknowledged` a search for their marker does not find exactly once.
async fn missing(memory: &dyn MemoryService, acknowledged: usize) -> Result<usize, Failed> {
    let mut missing = 0;
    for n in 0..acknowledged {
        let found = memory
            .search_memory("support", "u-42", &marker(n))
            .await
            .map_err(|err| format!("the search for session {n} failed: {}", chain(&err)))?
            .memories
            .len();
        missing += usize::from(found != 1);
    }
    Ok(missing)
}

/// An error with its sources, each after a colon.
fn chain(err: &MemoryError) -> String {
    let mut text = err.to_string();
    let mut source = err.source();
    while let Some(cause) = source {
        text.push_str(&format!(": {cause}"));
        source = cause.source();
    }
    text
}

/// Fills `disk` through the store `open` opens (each call a new instance of the same store,
/// on the disk), until an add is refused; then checks the refusal, that nothing acknowledged
/// is lost, and that the store takes the refused session once the disk has room. Returns what
/// it saw: how many sessions were acknowledged, and the refusal.
pub async fn fill_then_check<F, Fut>(disk: &SmallDisk, open: F) -> Result<String, Failed>
where
    F: Fn() -> Fut,
    Fut: Future<Output = Result<Arc<dyn MemoryService>, MemoryError>>,
{
    let memory = open()
        .await
        .map_err(|err| format!("cannot open a store on the empty disk: {}", chain(&err)))?;
    let mut acknowledged = 0;
    let refusal = loop {
        if acknowledged == 10_000 {
            return Err(format!("{DISK_KIB} KiB never filled up").into());
        }
        match memory.add_session_to_memory(&session(acknowledged)).await {
            Ok(()) => acknowledged += 1,
            Err(err) => break err,
        }
    };
    let refusal = match &refusal {
        MemoryError::Backend { .. } if chain(&refusal).contains("full") => chain(&refusal),
        other => {
            return Err(format!(
                "the refused add (after {acknowledged} acknowledged) is not a backend error \
                 naming the full disk: {other:?}"
            )
            .into());
        }
    };
    if acknowledged == 0 {
        return Err("the first add was refused: the disk is too small to test".into());
    }
    let lost = missing(&*memory, acknowledged).await?;
    if lost > 0 {
        return Err(format!(
            "{lost} of the {acknowledged} acknowledged sessions are not found exactly once by \
             the instance that wrote them, after the refusal ({refusal})"
        )
        .into());
    }
    drop(memory);
    let reopened = open()
        .await
        .map_err(|err| format!("cannot reopen the store on the full disk: {}", chain(&err)))?;
    let lost = missing(&*reopened, acknowledged).await?;
    if lost > 0 {
        return Err(format!(
            "{lost} of the {acknowledged} acknowledged sessions are not found exactly once \
             after a reopen"
        )
        .into());
    }
    disk.resize(DISK_KIB * 4)?;
    reopened
        .add_session_to_memory(&session(acknowledged))
        .await
        .map_err(|err| format!("with room again, the store refused an add: {}", chain(&err)))?;
    let lost = missing(&*reopened, acknowledged + 1).await?;
    if lost > 0 {
        return Err(format!("{lost} sessions are not found exactly once with room again").into());
    }
    Ok(format!(
        "{acknowledged} sessions acknowledged on {DISK_KIB} KiB, then refused: {refusal}"
    ))
}

/// A tmpfs of a given size, mounted on a fresh folder of the temporary directory; unmounted
/// and removed on drop.
pub struct SmallDisk {
    /// Where it is mounted.
    pub dir: PathBuf,
}

impl SmallDisk {
    /// Mounts it; the error says why it cannot be (not root, no `mount`).
    fn mount(kib: usize) -> Result<SmallDisk, String> {
        let dir = std::env::temp_dir().join(format!(
            "memory-conformance-full-disk-{}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir)
            .map_err(|err| format!("cannot make {}: {err}", dir.display()))?;
        let disk = SmallDisk { dir };
        mount(
            &["-t", "tmpfs", "-o", &format!("size={kib}k,mode=0700")],
            &disk.dir,
        )
        .map_err(|err| format!("a small tmpfs cannot be mounted here (it needs root): {err}"))?;
        Ok(disk)
    }

    /// Gives the disk `kib` KiB, keeping what it holds.
    fn resize(&self, kib: usize) -> Result<(), String> {
        mount(&["-o", &format!("remount,size={kib}k")], &self.dir)
    }
}

impl Drop for SmallDisk {
    /// Something can still hold the disk for a moment (a bridge child exits up to two seconds
    /// after its last handle is dropped, and a busy machine makes that longer): the unmount is
    /// retried for up to 10 s, then done lazily (detached at once, freed when the last file on
    /// it is closed), so no mount is left behind.
    fn drop(&mut self) {
        let deadline = Instant::now() + Duration::from_secs(10);
        while !unmount(&self.dir, false) {
            if Instant::now() >= deadline {
                unmount(&self.dir, true);
                break;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let _ = std::fs::remove_dir(&self.dir);
    }
}

/// `umount DIR` (with `--lazy` if `lazy`); whether it succeeded.
fn unmount(dir: &Path, lazy: bool) -> bool {
    Command::new("umount")
        .args(lazy.then_some("--lazy"))
        .arg(dir)
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|status| status.success())
}

/// `mount ARGS tmpfs DIR`, failing with what `mount` wrote.
fn mount(args: &[&str], dir: &Path) -> Result<(), String> {
    let output = Command::new("mount")
        .args(args)
        .arg("memory-conformance-full-disk")
        .arg(dir)
        .output()
        .map_err(|err| format!("cannot run mount: {err}"))?;
    if output.status.success() {
        Ok(())
    } else {
        Err(format!(
            "mount {} failed ({}): {}",
            args.join(" "),
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        ))
    }
}
