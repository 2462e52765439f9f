//! `memory-conformance infer`: the kit's [`infer`](memory_conformance::infer) against a named
//! backend or a bridged one, with a line per dimension as it goes, printed as a profile file.

use std::ffi::OsString;
use std::process::ExitCode;

use memory_conformance::infer::infer;
use memory_conformance::profile::Profile;

use crate::backends::Backends;
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
    let (subject, bridge) = subject::chosen(backends, backend, command, op_timeout, || {
        let name = name.clone().unwrap_or_else(|| "inferred".into());
        Ok((name, Profile::reference()))
    })?;
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
