//! The debugging guide's worked example against the real ADK Java: the JUnit test of
//! `bridges/adk-java/src/test/` (the guide's three-assertion test as it is written, and the
//! write under the wrong key `support/42`), run offline with Maven against `google-adk` 1.8.0's
//! `InMemoryMemoryService`, and its Surefire report read back, so the trial fails unless both
//! JUnit tests ran and passed. Ignored, with the install command, where `bash
//! bridges/install.sh` has not built the ADK Java bridge (failed instead where
//! `MEMORY_CONFORMANCE_REQUIRE_ALL_BACKENDS` is set).

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use libtest_mimic::{Arguments, Completion, Failed, Trial};

const REQUIRE_ALL: &str = "MEMORY_CONFORMANCE_REQUIRE_ALL_BACKENDS";

/// The JUnit class, and the tests it must report as run and passed.
const TEST_CLASS: &str = "memoryconformance.adkjava.WorkedExampleTest";
const TESTS: [&str; 2] = [
    "recallsAcrossSessionsUnderSameKey",
    "aWriteUnderTheWrongKeyIsNotFound",
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

/// Runs the JUnit test offline and checks Surefire's report: both tests run, none failed.
fn the_guides_three_assertions_hold_against_adk_java() -> Result<(), Failed> {
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
    let report = reports.join(format!("TEST-{TEST_CLASS}.xml"));
    let xml = std::fs::read_to_string(&report).map_err(|err| {
        format!(
            "`mvn --offline test` in {} left no report at {} ({err}); it said:\n{}{}",
            dir.display(),
            report.display(),
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    })?;
    let suite = xml
        .lines()
        .find(|line| line.trim_start().starts_with("<testsuite "))
        .ok_or_else(|| format!("{} has no <testsuite> line", report.display()))?;
    let counts = ["tests", "failures", "errors", "skipped"].map(|name| attribute(suite, name));
    let expected = [
        Some(TESTS.len().to_string()),
        Some("0".into()),
        Some("0".into()),
        Some("0".into()),
    ];
    let missing: Vec<&str> = TESTS
        .iter()
        .copied()
        .filter(|test| !xml.contains(&format!("<testcase name=\"{test}\"")))
        .collect();
    if counts != expected || !missing.is_empty() || !output.status.success() {
        return Err(format!(
            "the guide's worked example does not hold against google-adk 1.8.0: {} reports tests/failures/errors/skipped {counts:?} (expected {expected:?}), missing {missing:?}, mvn {}; reproduce with `cd bridges/adk-java && mvn -o -Dmaven.repo.local=.m2 test`:\n{}{}",
            report.display(),
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
        .into());
    }
    Ok(())
}

/// The value of the XML attribute `name` on `line`.
fn attribute(line: &str, name: &str) -> Option<String> {
    let start = line.find(&format!(" {name}=\""))? + name.len() + 3;
    let end = line[start..].find('"')? + start;
    Some(line[start..end].to_owned())
}

fn main() -> ExitCode {
    let name = "worked_example::the_guides_three_assertions_hold_against_adk_java";
    let trial = match installed() {
        Ok(()) => Trial::test(name, the_guides_three_assertions_hold_against_adk_java),
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
