//! Tests that need something installed outside Cargo (a bridge, a package, model weights, a
//! dataset).

use libtest_mimic::{Completion, Failed, Trial};
use memory_conformance::conformance::REQUIRE_ALL_BACKENDS;

/// The test `name`, run where `installed` is `Ok`; elsewhere it reports itself ignored with
/// `installed`'s reason (the command that installs what is missing), or fails with it where
/// `MEMORY_CONFORMANCE_REQUIRE_ALL_BACKENDS` is set (CI, after installing everything).
pub fn when_installed(
    name: impl Into<String>,
    installed: Result<(), String>,
    test: impl FnOnce() -> Result<(), Failed> + Send + 'static,
) -> Trial {
    match installed {
        Ok(()) => Trial::test(name, test),
        Err(reason) => {
            let required = std::env::var_os(REQUIRE_ALL_BACKENDS).is_some();
            Trial::ignorable_test(name, move || {
                if required {
                    Err(format!("{REQUIRE_ALL_BACKENDS} is set, but {reason}").into())
                } else {
                    Ok(Completion::ignored_with(reason))
                }
            })
        }
    }
}
