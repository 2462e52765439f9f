//! A full disk: the store's file on a small tmpfs (mounted by the test, so it needs root, as CI
//! runs), written until the disk refuses. The refused add is a `MemoryError` naming the full
//! disk, every add acknowledged before it is found afterwards (through the same instance and
//! after a reopen), and once there is room again the store takes writes.
//!
//! Without root (or without `mount`), the test shows as ignored with the reason; with
//! `MEMORY_CONFORMANCE_REQUIRE_ALL_BACKENDS` set, as in CI, it fails instead.

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use libtest_mimic::{Arguments, Completion, Failed, Trial};
use memory_conformance::conformance::REQUIRE_ALL_BACKENDS;
use memory_conformance::{Event, MemoryError, MemoryService, Session};
use memory_sqlite_fts5::SqliteFts5MemoryService;

/// The tmpfs's size: filled by a dozen sessions or so (the word index and the WAL take most of
/// it), in well under a second.
const DISK_KIB: usize = 1024;

fn main() -> ExitCode {
    let arguments = Arguments::from_args();
    let name = "a_full_disk_refuses_an_add_and_loses_nothing_acknowledged";
    let trial = Trial::ignorable_test(name, || match SmallDisk::mount(DISK_KIB) {
        Ok(disk) => full_disk(&disk).map(|()| Completion::Completed),
        Err(reason) if std::env::var_os(REQUIRE_ALL_BACKENDS).is_none() => {
            Ok(Completion::ignored_with(reason))
        }
        Err(reason) => Err(format!("{REQUIRE_ALL_BACKENDS} is set, but {reason}").into()),
    });
    libtest_mimic::run(&arguments, vec![trial]).exit_code()
}

/// Session `n`: its marker word, then about 400 bytes of words.
fn session(n: usize) -> Session {
    let filler: Vec<String> = (0..60)
        .map(|k| format!("w{}", (n * 61 + k) % 997))
        .collect();
    Session::new("support", "u-42", format!("s-{n}")).with_event(Event::text(
        "user",
        format!("{} {}", marker(n), filler.join(" ")),
    ))
}

fn marker(n: usize) -> String {
    format!("marker{n:05}")
}

/// How many sessions of `acknowledged` a search for their marker does not find exactly once.
async fn missing(memory: &SqliteFts5MemoryService, acknowledged: usize) -> Result<usize, Failed> {
    let mut missing = 0;
    for n in 0..acknowledged {
        let found = memory
            .search_memory("support", "u-42", &marker(n))
            .await
            .map_err(|err| format!("the search for session {n} failed: {err}"))?
            .memories
            .len();
        missing += usize::from(found != 1);
    }
    Ok(missing)
}

fn full_disk(disk: &SmallDisk) -> Result<(), Failed> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .map_err(|err| format!("no tokio runtime: {err}"))?;
    runtime.block_on(async {
        let path = disk.dir.join("memory.db");
        let memory = SqliteFts5MemoryService::open(&path)
            .map_err(|err| format!("cannot open a store on the empty disk: {err}"))?;
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
            MemoryError::Backend {
                source: Some(source),
                ..
            } if source.to_string().contains("full") => format!("{refusal}: {source}"),
            other => {
                return Err(format!(
                    "the refused add is not a backend error caused by the full disk: {other:?}"
                )
                .into());
            }
        };
        if acknowledged == 0 {
            return Err("the first add was refused: the disk is too small to test".into());
        }
        let lost = missing(&memory, acknowledged).await?;
        if lost > 0 {
            return Err(format!(
                "{lost} of the {acknowledged} acknowledged sessions are not found by the \
                 instance that wrote them, after the refusal ({refusal})"
            )
            .into());
        }
        drop(memory);
        let reopened = SqliteFts5MemoryService::open(&path)
            .map_err(|err| format!("cannot reopen the store on the full disk: {err}"))?;
        let lost = missing(&reopened, acknowledged).await?;
        if lost > 0 {
            return Err(format!(
                "{lost} of the {acknowledged} acknowledged sessions are not found after a reopen"
            )
            .into());
        }
        disk.resize(DISK_KIB * 4)?;
        reopened
            .add_session_to_memory(&session(acknowledged))
            .await
            .map_err(|err| format!("with room again, the store refused an add: {err}"))?;
        let lost = missing(&reopened, acknowledged + 1).await?;
        if lost > 0 {
            return Err(format!("{lost} sessions are missing once the disk had room").into());
        }
        println!("{acknowledged} sessions acknowledged on {DISK_KIB} KiB, then refused: {refusal}");
        Ok(())
    })
}

/// A tmpfs of a given size, mounted on a fresh folder of the temporary directory; unmounted
/// and removed on drop.
struct SmallDisk {
    dir: PathBuf,
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
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.dir).status();
        let _ = std::fs::remove_dir(&self.dir);
    }
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
