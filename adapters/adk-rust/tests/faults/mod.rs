//! What the fault tests of the server backends share: trials that show as ignored, with the
//! command that starts the servers as the reason, when a server is not running here; the
//! acknowledged write they check for; the repository's server scripts. Also included by
//! `tools/bundled/tests/faults_mariadb.rs` (MariaDB's subject is a community package, its
//! server's URL read with this crate's `servers::server_url`).

use std::future::Future;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Duration;

use libtest_mimic::{Arguments, Completion, Failed, Trial};
use memory_conformance::conformance::REQUIRE_ALL_BACKENDS;
use memory_conformance::{Event, MemoryError, MemoryService, Session};

/// A fault test: its name, its body (run with the server's URL) and, where the backend is
/// known to fail it, why.
pub struct Fault {
    /// The test's name.
    pub name: &'static str,
    /// The test, given the server's URL.
    pub body: fn(String) -> Result<(), Failed>,
    /// A failure the backend is known to show: (a phrase the failure holds, why). The test
    /// then passes while that failure shows, and fails on any other failure and once the
    /// failure is gone, so an upstream fix is noticed.
    pub known_violation: Option<(&'static str, &'static str)>,
}

impl Fault {
    /// A fault test the backend is expected to pass.
    pub const fn new(name: &'static str, body: fn(String) -> Result<(), Failed>) -> Self {
        Self {
            name,
            body,
            known_violation: None,
        }
    }

    /// The same test, known to fail with a failure holding `shows`, because of `reason`.
    #[allow(dead_code)] // each test binary compiles this module; not every one declares one
    pub const fn known_violation(mut self, shows: &'static str, reason: &'static str) -> Self {
        self.known_violation = Some((shows, reason));
        self
    }
}

/// Runs `fault` and weighs its outcome against its known violation.
fn judged(fault: &Fault, url: String) -> Result<(), Failed> {
    let outcome = (fault.body)(url);
    let Some((shows, reason)) = fault.known_violation else {
        return outcome;
    };
    match outcome {
        Ok(()) => {
            Err(format!("the known violation is gone ({reason}): remove its declaration").into())
        }
        Err(failed) => {
            let text = failed.message().unwrap_or_default().to_owned();
            if text.contains(shows) {
                println!(
                    "{}: known violation still present ({reason}): {text}",
                    fault.name
                );
                Ok(())
            } else {
                Err(format!("failed otherwise than its known violation ({reason}): {text}").into())
            }
        }
    }
}

/// Runs `faults` against the server `available` reaches (its URL), or shows each as ignored
/// with the reason it gives; with `MEMORY_CONFORMANCE_REQUIRE_ALL_BACKENDS` set, a missing
/// server fails them instead. The faults restart and slow down the shared server, so they run
/// one after the other.
pub fn main(available: Result<String, String>, faults: Vec<Fault>) -> ExitCode {
    let mut arguments = Arguments::from_args();
    arguments.test_threads = Some(1);
    let required = std::env::var_os(REQUIRE_ALL_BACKENDS).is_some();
    let trials = faults
        .into_iter()
        .map(|fault| match &available {
            Ok(url) => {
                let (url, kind) = (
                    url.clone(),
                    fault.known_violation.map(|_| "known-violation"),
                );
                let trial = Trial::test(fault.name, move || judged(&fault, url));
                match kind {
                    Some(kind) => trial.with_kind(kind),
                    None => trial,
                }
            }
            Err(reason) => {
                let reason = reason.clone();
                Trial::ignorable_test(fault.name, move || {
                    if required {
                        Err(format!(
                            "{REQUIRE_ALL_BACKENDS} is set, but the server is not running: {reason}"
                        )
                        .into())
                    } else {
                        Ok(Completion::ignored_with(reason))
                    }
                })
                .with_ignored_flag(!required)
            }
        })
        .collect();
    libtest_mimic::run(&arguments, trials).exit_code()
}

/// Runs `future` on a fresh multi-threaded runtime, at most `limit`: a fault test that hangs
/// fails instead.
pub fn run<T>(
    limit: Duration,
    future: impl Future<Output = Result<T, Failed>>,
) -> Result<T, Failed> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|err| format!("no tokio runtime: {err}"))?;
    let outcome = runtime.block_on(async {
        tokio::time::timeout(limit, future)
            .await
            .unwrap_or_else(|_| {
                Err(format!("the test did not finish within {limit:?}: something hung").into())
            })
    });
    runtime.shutdown_background();
    outcome
}

/// The write each fault test acknowledges before its fault.
pub fn monday() -> Session {
    Session::new("support", "u-42", "monday")
        .with_event(Event::text("user", "My favourite coffee is a flat white"))
}

/// How many memories a search for [`monday`]'s coffee finds.
pub async fn coffee(memory: &dyn MemoryService) -> Result<usize, MemoryError> {
    Ok(memory
        .search_memory("support", "u-42", "coffee")
        .await?
        .memories
        .len())
}

/// Fails, naming `through`, unless a search through `memory` finds [`monday`] once.
#[allow(dead_code)] // each test binary compiles this module; not every one checks this way
pub async fn assert_found(memory: &dyn MemoryService, through: &str) -> Result<(), Failed> {
    match coffee(memory).await {
        Ok(1) => Ok(()),
        Ok(n) => {
            Err(format!("{through} found {n} memories of the acknowledged write, not 1").into())
        }
        Err(err) => Err(format!("{through} could not search: {err}").into()),
    }
}

/// The repository's root: the nearest folder above the test's crate with `servers/`.
fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .find(|dir| dir.join("servers/restart.sh").is_file())
        .expect("the test's crate is inside the repository, which has servers/restart.sh")
        .to_path_buf()
}

/// Runs `servers/<script>` of the repository with `args`, failing with its output.
pub fn servers_script(script: &str, args: &[&str]) -> Result<(), Failed> {
    let path = repository().join("servers").join(script);
    let output = Command::new("bash")
        .arg(&path)
        .args(args)
        .output()
        .map_err(|err| format!("cannot run {}: {err}", path.display()))?;
    if output.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{} {} failed: {}{}",
            path.display(),
            args.join(" "),
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
        .into())
    }
}
