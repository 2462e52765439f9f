//! ADK Java for real, without the bridge: the JUnit tests of `bridges/adk-java/src/test/`, run
//! offline with Maven against `google-adk` 1.8.0's `InMemoryMemoryService`, and their Surefire
//! reports read back, so the trial fails unless every test ran and passed:
//!
//! - `WorkedExampleTest`: the debugging guide's worked example, its three-assertion test as the
//!   guide writes it, and the write under the wrong key `support/42`;
//! - `KnownDefectsTest`: the standalone reproductions, in the package's own API, of the two
//!   defects the `adk-java` gate declares as known violations (each fails once a release fixes
//!   its defect).
//!
//! Ignored, with the install command, where `bash bridges/install.sh` has not built the ADK Java
//! bridge (failed instead where `MEMORY_CONFORMANCE_REQUIRE_ALL_BACKENDS` is set).

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use libtest_mimic::{Arguments, Completion, Failed, Trial};

const REQUIRE_ALL: &str = "MEMORY_CONFORMANCE_REQUIRE_ALL_BACKENDS";

/// Each JUnit class, and the tests it must report as run and passed.
const SUITES: [(&str, &[&str]); 2] = [
    (
        "memoryconformance.adkjava.WorkedExampleTest",
        &[
            "recallsAcrossSessionsUnderSameKey",
            "aWriteUnderTheWrongKeyIsNotFound",
        ],
    ),
    // The standalone reproductions of the two defects the adk-java gate declares.
    (
        "memoryconformance.adkjava.KnownDefectsTest",
        &[
            "aStoredToolCallMakesEverySearchThrow",
            "anEntryTimestampIsTheEventsMillisecondsReadAsSeconds",
        ],
    ),
];

fn project() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("adk-java")
}

/// Whether Maven, Java and the installed bridge (its local repository) are here.
fn installed() -> Result<(), String> {
    for program in ["java", "mvn"] {
        if Command::new(program).arg("-version").output().is_err() {
            return Err(format!(
                "`{program}` cannot be run: install Java 17 or later with Maven, then run `bash bridges/install.sh`"
            ));
        }
    }
    if project().join("target/installed-pins").is_file() {
        Ok(())
    } else {
        Err("ADK Java (google-adk 1.8.0) is not installed in bridges/adk-java: run `bash bridges/install.sh` (needs Java 17 with Maven, and Maven Central)".into())
    }
}

/// Runs the JUnit tests offline and checks Surefire's reports: every test run, none failed.
fn the_guides_worked_example_holds_and_the_declared_defects_reproduce() -> Result<(), Failed> {
    let dir = project();
    let reports = dir.join("target/surefire-reports");
    // A report left by an earlier run must not stand in for this one.
    let _ = std::fs::remove_dir_all(&reports);
    let output = Command::new("mvn")
        .args([
            "--offline",
            "--batch-mode",
            "--quiet",
            "-Dstyle.color=never",
            "-Dmaven.repo.local=.m2",
            "test",
        ])
        .current_dir(&dir)
        .output()
        .map_err(|err| format!("cannot run mvn in {}: {err}", dir.display()))?;
    let said = || {
        format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    };
    let mut problems = Vec::new();
    for (class, tests) in SUITES {
        if let Err(problem) = suite_passed(&reports, class, tests) {
            problems.push(problem);
        }
    }
    if !output.status.success() {
        problems.push(format!("mvn ended with {}", output.status));
    }
    if !problems.is_empty() {
        return Err(format!(
            "ADK Java (google-adk 1.8.0) no longer behaves as the guide and the declared defects say:\n  {}\nreproduce with `cd bridges/adk-java && mvn -o -Dmaven.repo.local=.m2 test`; Maven said:\n{}",
            problems.join("\n  "),
            said()
        )
        .into());
    }
    Ok(())
}

/// Whether Surefire's report of `class` in `reports` shows exactly `tests`, run and passed.
fn suite_passed(reports: &Path, class: &str, tests: &[&str]) -> Result<(), String> {
    let report = reports.join(format!("TEST-{class}.xml"));
    let xml = std::fs::read_to_string(&report)
        .map_err(|err| format!("no report of {class} at {} ({err})", report.display()))?;
    let suite = xml
        .lines()
        .find(|line| line.trim_start().starts_with("<testsuite "))
        .ok_or_else(|| format!("{} has no <testsuite> line", report.display()))?;
    let counts = ["tests", "failures", "errors", "skipped"].map(|name| attribute(suite, name));
    let expected = [tests.len().to_string(), "0".into(), "0".into(), "0".into()].map(Some);
    let missing: Vec<&str> = tests
        .iter()
        .copied()
        .filter(|test| !xml.contains(&format!("<testcase name=\"{test}\"")))
        .collect();
    if counts == expected && missing.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{class}: tests, failures, errors, skipped are {counts:?} (expected {expected:?}), tests missing {missing:?}"
        ))
    }
}

/// The value of the XML attribute `name` on `line`.
fn attribute(line: &str, name: &str) -> Option<String> {
    let start = line.find(&format!(" {name}=\""))? + name.len() + 3;
    let end = line[start..].find('"')? + start;
    Some(line[start..end].to_owned())
}

fn main() -> ExitCode {
    let name = "adk_java::the_guides_worked_example_holds_and_the_declared_defects_reproduce";
    let trial = match installed() {
        Ok(()) => Trial::test(
            name,
            the_guides_worked_example_holds_and_the_declared_defects_reproduce,
        ),
        Err(reason) => {
            let required = std::env::var_os(REQUIRE_ALL).is_some();
            Trial::ignorable_test(name, move || {
                if required {
                    Err(format!("{REQUIRE_ALL} is set, but {reason}").into())
                } else {
                    Ok(Completion::ignored_with(reason.clone()))
                }
            })
        }
    };
    libtest_mimic::run(&Arguments::from_args(), vec![trial]).exit_code()
}
