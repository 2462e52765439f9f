//! `memory-conformance infer`: the kit's [`infer`](memory_conformance::infer) against a named
//! backend or a bridged one, with a line per dimension as it goes, printed as a profile file.

use std::ffi::OsString;
use std::process::ExitCode;

use memory_conformance::infer::infer;
use memory_conformance::profile::Profile;

use crate::backends::Backends;
use crate::reproduce;
use crate::subject;

/// Infers the profile of the backend `backend` names in `backends`, or of the bridge `command`
/// (named `name`, else as the bridge's hello names its backend) on `cases` cases per candidate
/// from `seed`, each call bounded by `op_timeout` seconds, and prints it; for a dimension no
/// value fits, the failure that ruled out each value goes to standard error. Exit 0 when every dimension found
/// a value, 1 when one did not; `Err` (exit 2) when the backend cannot start or the bridge
/// stopped working.
pub fn run(
    backends: Backends,
    backend: Option<&str>,
    name: Option<String>,
    cases: u32,
    seed: u64,
    op_timeout: u64,
    command: &[OsString],
) -> Result<ExitCode, String> {
    // Infer checks a candidate's rules on every core, each thread's case on a child of its own.
    let children = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let (subject, bridge) =
        subject::chosen(backends, backend, command, op_timeout, children, || {
            Ok((name.clone().unwrap_or_default(), Profile::reference()))
        })?;
    // A failure that ruled a value out happened under a candidate profile no file holds: the
    // same inference, from the same seed, shows it again.
    let mut again: Vec<String> = ["memory-conformance", "infer"].map(str::to_owned).into();
    if let Some(backend) = backend {
        again.extend(["--backend".to_owned(), backend.to_owned()]);
    }
    again.extend([
        "--cases".to_owned(),
        cases.to_string(),
        "--seed".to_owned(),
        "{seed}".to_owned(),
        "--op-timeout".to_owned(),
        op_timeout.to_string(),
    ]);
    if !command.is_empty() {
        again.push("--".to_owned());
        again.extend(reproduce::command_words(command));
    }
    let subject = subject.reproduce_with(reproduce::shell_line(again));
    let inferring = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        infer(&subject, cases, seed, |dimension| {
            eprintln!("memory-conformance infer: deciding {dimension}");
        })
    }));
    // A bridge that stopped working is one error (exit 2), whatever it broke.
    if let Some(why) = bridge.as_ref().and_then(|bridge| bridge.broken()) {
        return Err(format!(
            "the bridge stopped working while its profile was inferred: {why}"
        ));
    }
    let mut inferred = inferring.unwrap_or_else(|panic| std::panic::resume_unwind(panic));
    // The profile is named as asked, else after the bundled backend, else as the bridge's
    // hello names its backend.
    // A blank name is no name: a profile file needs one.
    match (name, &bridge) {
        (Some(name), _) if !name.trim().is_empty() => inferred.profile.name = name,
        (_, Some(bridge)) if !bridge.backend().trim().is_empty() => {
            inferred.profile.name = bridge.backend().to_owned();
        }
        _ => {}
    }
    print!("{}", inferred.to_toml());
    eprint!("{}", inferred.misfit_reports());
    Ok(if inferred.has_misfit() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
