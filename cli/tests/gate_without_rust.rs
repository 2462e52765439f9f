//! A Python team and a JS team gate their backends with no Rust: the Python wheel
//! (`bridges/python`, built with maturin) installed in a fresh virtual environment next to
//! google-adk gates ADK Python's `SqliteMemoryService`, and the JS helper packed as its npm
//! package gates ADK JS's `InMemoryMemoryService`; each from a bridge of a few lines, a TOML
//! profile and one `memory-conformance gate` command, its JUnit report read back
//! (`examples/gate-adk-python-sqlite`, `examples/gate-adk-js`); and `memory-conformance infer`
//! writes the profile the Python example declares.
//!
//! Where `bash bridges/install.sh` has not been run, each test reports itself ignored with that
//! command as the reason; with `MEMORY_CONFORMANCE_REQUIRE_ALL_BACKENDS` set (CI), they fail.

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use libtest_mimic::{Arguments, Failed};

use support::installed::when_installed;

const INSTALL: &str = "bash bridges/install.sh";

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the CLI is a workspace member")
        .to_path_buf()
}

fn example(name: &str) -> PathBuf {
    repository().join("examples").join(name)
}

/// A fresh folder for one test.
fn scratch(name: &str) -> Result<PathBuf, Failed> {
    let dir = std::env::temp_dir().join(format!("mc-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir)
        .map_err(|err| format!("cannot create {}: {err}", dir.display()))?;
    Ok(dir)
}

/// Runs `command`; its standard output when it succeeds, else a failure naming it.
fn run(command: &mut Command) -> Result<String, Failed> {
    let output = command
        .output()
        .map_err(|err| format!("cannot run {command:?}: {err}"))?;
    if output.status.success() {
        Ok(String::from_utf8_lossy(&output.stdout).into_owned())
    } else {
        Err(format!(
            "{command:?} exited with {}:\n{}{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
        .into())
    }
}

/// `program gate` with the example's profile and pinned snapshots, writing JUnit to `junit`, up
/// to the `--` the bridge's command follows.
fn gate_command(program: impl AsRef<std::ffi::OsStr>, example: &Path, junit: &Path) -> Command {
    let mut command = Command::new(program);
    command
        .args(["gate", "--profile"])
        .arg(example.join("profile.toml"))
        .arg("--snapshots")
        .arg(example.join("snapshots"))
        .arg("--junit")
        .arg(junit)
        .arg("--");
    command
}

/// Runs a gate; fails unless it reports `passed` tests passed and `ignored` ignored (the
/// capability rules of what the profile does not claim), none failed.
fn expect_green(gate: &mut Command, passed: usize, ignored: usize) -> Result<(), Failed> {
    let out = run(gate)?;
    let summary = format!("test result: ok. {passed} passed; 0 failed; {ignored} ignored");
    if !out.contains(&summary) {
        return Err(format!("the gate did not report `{summary}`:\n{out}").into());
    }
    Ok(())
}

/// What a gate's JUnit report must say: every rule a test case, none failed, and exactly the
/// known violations the profile declares or implies shown as such.
fn check_junit(
    path: &Path,
    suite: &str,
    skipped: usize,
    known_violations: &[&str],
) -> Result<(), Failed> {
    let xml = std::fs::read_to_string(path)
        .map_err(|err| format!("no JUnit report at {}: {err}", path.display()))?;
    // Every rule of the kit and the recall snapshot.
    let tests = memory_conformance::conformance::rules::catalogue().len() + 1;
    let header = format!(
        "<testsuite name=\"{suite}\" tests=\"{tests}\" failures=\"0\" skipped=\"{skipped}\">"
    );
    if !xml.contains(&header) {
        return Err(format!("the JUnit report lacks {header}:\n{xml}").into());
    }
    let cases = xml.matches("<testcase ").count();
    if cases != tests || xml.contains("<failure") {
        return Err(
            format!("expected {tests} test cases and no failure, got {cases}:\n{xml}").into(),
        );
    }
    let shown = xml.matches("<system-out>known violation: ").count();
    if shown != known_violations.len() {
        return Err(format!(
            "expected {} known violations ({known_violations:?}), the report shows {shown}:\n{xml}",
            known_violations.len()
        )
        .into());
    }
    for rule in known_violations {
        let case = format!("name=\"{suite}::{rule}\">\n      <system-out>known violation: ");
        if !xml.contains(&case) {
            return Err(format!("{rule} is not shown as a known violation:\n{xml}").into());
        }
    }
    Ok(())
}

fn python_installed() -> Result<(), String> {
    let bridges = repository().join("bridges");
    let adk = bridges.join("adk-python/.venv/installed-pins").is_file();
    let maturin = bridges.join("python/.venv/bin/maturin").is_file();
    if adk && maturin {
        Ok(())
    } else {
        Err(format!(
            "google-adk 2.13.0 (bridges/adk-python/.venv) and maturin (bridges/python/.venv) are not installed: run `{INSTALL}`"
        ))
    }
}

fn js_installed() -> Result<(), String> {
    if repository()
        .join("bridges/adk-js/node_modules/.installed-pins")
        .is_file()
    {
        Ok(())
    } else {
        Err(format!(
            "@google/adk 2.0.0 is not installed in bridges/adk-js/node_modules: run `{INSTALL}`"
        ))
    }
}

/// The wheel, built with maturin from `bridges/python`, installed in a fresh virtual
/// environment that sees google-adk's packages; the example's bridge and profile gated with the
/// `memory-conformance` command the wheel put on its path.
fn python_team() -> Result<(), Failed> {
    let dir = scratch("python-team")?;
    let bridges = repository().join("bridges");
    run(Command::new(bridges.join("python/.venv/bin/maturin"))
        .args(["build", "--profile", "dev", "--locked", "--quiet", "--out"])
        .arg(dir.join("dist"))
        .current_dir(bridges.join("python")))?;
    let wheel = std::fs::read_dir(dir.join("dist"))
        .map_err(|err| format!("maturin wrote no dist folder: {err}"))?
        .flatten()
        .map(|entry| entry.path())
        .find(|path| path.extension().is_some_and(|ext| ext == "whl"))
        .ok_or("maturin wrote no wheel")?;

    let venv = dir.join("venv");
    run(Command::new("python3").arg("-m").arg("venv").arg(&venv))?;
    let python = venv.join("bin/python");
    // google-adk is already installed for the bundled bridge: a .pth file puts its packages
    // beside the fresh environment instead of downloading them again.
    let site = run(Command::new(&python).args([
        "-c",
        "import sysconfig; print(sysconfig.get_paths()['purelib'])",
    ]))?;
    let adk_site = run(
        Command::new(bridges.join("adk-python/.venv/bin/python")).args([
            "-c",
            "import sysconfig; print(sysconfig.get_paths()['purelib'])",
        ]),
    )?;
    std::fs::write(
        Path::new(site.trim()).join("google-adk.pth"),
        format!("{}\n", adk_site.trim()),
    )
    .map_err(|err| format!("cannot write the .pth file: {err}"))?;
    run(Command::new(&python)
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-index",
            "--no-deps",
            "--disable-pip-version-check",
        ])
        .arg(&wheel))?;

    let example = example("gate-adk-python-sqlite");
    let junit = dir.join("gate.xml");
    expect_green(
        gate_command(venv.join("bin/memory-conformance"), &example, &junit)
            .arg(&python)
            .arg(example.join("bridge.py"))
            // The helper comes from the wheel, never from the repository.
            .env_remove("PYTHONPATH")
            .env("TZ", "UTC"),
        // Durable and shared: the reopen, the second instance and the three replicas run
        // through protocol v2, and so do the deltas; not applicable: vector search, a search
        // limit, explicit memories and the two deletion rules, which the service does not have.
        29,
        5,
    )?;
    check_junit(
        &junit,
        "adk-python-sqlite",
        5,
        &["replace.readd_replaces", "replace.readd_with_nothing"],
    )?;
    std::fs::remove_dir_all(&dir)
        .map_err(|err| format!("cannot remove {}: {err}", dir.display()))?;
    Ok(())
}

/// `memory-conformance infer` on the example's bridge (ADK Python's SQLite service, with the
/// helper from the repository) writes the profile the example declares, dimension for
/// dimension; the test above gates the service green on that profile.
fn python_infer() -> Result<(), Failed> {
    let example = example("gate-adk-python-sqlite");
    let inferred = run(Command::new(env!("CARGO_BIN_EXE_memory-conformance"))
        .args(["infer", "--cases", "32", "--seed", "1", "--"])
        .arg(repository().join("bridges/adk-python/.venv/bin/python"))
        .arg(example.join("bridge.py"))
        .env("PYTHONPATH", repository().join("bridges/python"))
        .env("TZ", "UTC"))?;
    let dimensions = |text: &str, whose: &str| -> Result<_, Failed> {
        let mut profile = memory_conformance::conformance::ProfileFile::parse(text)
            .map_err(|err| format!("{whose} is no profile file: {err}\n{text}"))?
            .profile;
        profile.provenance = String::new();
        Ok(profile)
    };
    let declared = std::fs::read_to_string(example.join("profile.toml"))
        .map_err(|err| format!("cannot read the example's profile: {err}"))?;
    let (inferred_profile, declared_profile) = (
        dimensions(&inferred, "what infer printed")?,
        dimensions(&declared, "the example's profile")?,
    );
    if inferred_profile != declared_profile {
        return Err(format!(
            "infer wrote another profile than the example declares:\n{inferred}\n\nthe example's:\n{declared}"
        )
        .into());
    }
    Ok(())
}

/// The JS helper packed as its npm package and installed in a fresh project beside
/// @google/adk; the example's bridge and profile gated with the `memory-conformance` command.
fn js_team() -> Result<(), Failed> {
    let dir = scratch("js-team")?;
    let bridges = repository().join("bridges");
    let example = example("gate-adk-js");
    let packed = run(Command::new("npm")
        .args(["pack", "--silent", "--pack-destination"])
        .arg(&dir)
        .arg(bridges.join("js")))?;
    let project = dir.join("project");
    std::fs::create_dir_all(project.join("node_modules"))
        .and_then(|()| std::fs::copy(example.join("bridge.mjs"), project.join("bridge.mjs")))
        .and_then(|_| std::fs::copy(example.join("package.json"), project.join("package.json")))
        .map_err(|err| format!("cannot lay out {}: {err}", project.display()))?;
    run(Command::new("npm")
        .args([
            "install",
            "--silent",
            "--offline",
            "--no-audit",
            "--no-fund",
        ])
        .arg(dir.join(packed.trim()))
        .current_dir(&project))?;
    // @google/adk is already installed for the bundled bridge: linked, not downloaded again.
    std::os::unix::fs::symlink(
        bridges.join("adk-js/node_modules/@google"),
        project.join("node_modules/@google"),
    )
    .map_err(|err| format!("cannot link @google/adk: {err}"))?;

    let junit = dir.join("gate.xml");
    expect_green(
        gate_command(env!("CARGO_BIN_EXE_memory-conformance"), &example, &junit)
            .args(["node", "bridge.mjs"])
            .current_dir(&project),
        // Not applicable: durability, the shared store (two rules), vector search and every
        // call beyond the two, which ADK JS's in-memory service does not have.
        24,
        10,
    )?;
    // The slash-joined key's known violation, implied by the profile, and the one the example
    // declares for JavaScript's numbers.
    check_junit(
        &junit,
        "adk-js-team",
        10,
        &["key.no_separator_collision", "result.fidelity"],
    )?;
    std::fs::remove_dir_all(&dir)
        .map_err(|err| format!("cannot remove {}: {err}", dir.display()))?;
    Ok(())
}

fn main() -> ExitCode {
    let trials = vec![
        when_installed(
            "python::the_wheel_gates_adk_python_sqlite",
            python_installed(),
            python_team,
        ),
        when_installed(
            "python::infer_writes_the_profile_adk_python_sqlite_is_green_on",
            python_installed(),
            python_infer,
        ),
        when_installed(
            "js::the_helper_package_gates_adk_js",
            js_installed(),
            js_team,
        ),
    ];
    libtest_mimic::run(&Arguments::from_args(), trials).exit_code()
}
