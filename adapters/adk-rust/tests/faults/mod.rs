//! What the fault tests of the server backends share: trials that show as ignored, with the
//! command that starts the servers as the reason, when a server is not running here.

use std::future::Future;
use std::path::PathBuf;
use std::process::{Command, ExitCode};
use std::time::Duration;

use libtest_mimic::{Arguments, Completion, Failed, Trial};
use memory_conformance::conformance::REQUIRE_ALL_BACKENDS;

/// A fault test: its name and its body, run with the server's URL.
pub type Fault = (&'static str, fn(String) -> Result<(), Failed>);

/// Runs `faults` against the server `available` reaches (its URL), or shows each as ignored
/// with the reason it gives; with `MEMORY_CONFORMANCE_REQUIRE_ALL_BACKENDS` set, a missing
/// server fails them instead. The faults restart and slow down the shared server, so they run
/// one after the other.
pub fn main(available: Result<String, String>, faults: &[Fault]) -> ExitCode {
    let mut arguments = Arguments::from_args();
    arguments.test_threads = Some(1);
    let required = std::env::var_os(REQUIRE_ALL_BACKENDS).is_some();
    let trials = faults
        .iter()
        .map(|&(name, body)| match &available {
            Ok(url) => {
                let url = url.clone();
                Trial::test(name, move || body(url))
            }
            Err(reason) => {
                let reason = reason.clone();
                Trial::ignorable_test(name, move || {
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

/// Runs `servers/<script>` of the repository with `args`, failing with its output.
pub fn servers_script(script: &str, args: &[&str]) -> Result<(), Failed> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../servers")
        .join(script);
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
