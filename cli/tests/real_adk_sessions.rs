//! Sessions as the real ADK packages write them: google-adk 2.13.0 (pydantic JSON with and
//! without aliases, and its `DatabaseSessionService` SQLite file) and @google/adk 2.0.0
//! (`JSON.stringify`), dumped by `bridges/adk-python/dump_sessions.py` and
//! `bridges/adk-js/dump_sessions.mjs`, then diagnosed through the seed's worked example.
//!
//! Where `bash bridges/install.sh` has not been run, every test reports itself ignored with that
//! command as the reason; with `MEMORY_CONFORMANCE_REQUIRE_ALL_BACKENDS` set (CI), they fail.

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::sync::OnceLock;

use libtest_mimic::{Arguments, Failed, Trial};

use support::installed::when_installed;
use support::{assert_worked_example, diagnose_json};

const INSTALL: &str = "bash bridges/install.sh";

fn bridges() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../bridges")
}

struct Package {
    name: &'static str,
    /// `Ok` when installed, else why not.
    installed: fn() -> Result<(), String>,
    /// Dumps the worked example into the folder.
    dump: fn(&Path) -> Result<(), String>,
}

fn python_installed() -> Result<(), String> {
    let venv = bridges().join("adk-python/.venv");
    if venv.join("bin/python").is_file() && venv.join("installed-pins").is_file() {
        Ok(())
    } else {
        Err(format!(
            "google-adk 2.13.0 is not installed in bridges/adk-python/.venv: run `{INSTALL}`"
        ))
    }
}

fn js_installed() -> Result<(), String> {
    if bridges()
        .join("adk-js/node_modules/.installed-pins")
        .is_file()
    {
        Ok(())
    } else {
        Err(format!(
            "@google/adk 2.0.0 is not installed in bridges/adk-js/node_modules: run `{INSTALL}`"
        ))
    }
}

fn dump_python(out: &Path) -> Result<(), String> {
    let mut command = Command::new(bridges().join("adk-python/.venv/bin/python"));
    command
        .env("TZ", "UTC")
        .arg("dump_sessions.py")
        .arg(out)
        .current_dir(bridges().join("adk-python"));
    run_dump(command)
}

fn dump_js(out: &Path) -> Result<(), String> {
    let mut command = Command::new("node");
    command
        .arg("dump_sessions.mjs")
        .arg(out)
        .current_dir(bridges().join("adk-js"));
    run_dump(command)
}

fn run_dump(mut command: Command) -> Result<(), String> {
    let output = command
        .output()
        .map_err(|err| format!("cannot run {command:?}: {err}"))?;
    if output.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{command:?} failed: {}",
            String::from_utf8_lossy(&output.stderr)
        ))
    }
}

/// Where this process dumps a package's sessions.
fn dump_dir(package: &Package) -> PathBuf {
    std::env::temp_dir().join(format!(
        "memory-conformance-real-{}-{}",
        package.name,
        std::process::id()
    ))
}

/// The folder a package's dump is in, dumped once per process.
fn dumped(package: &'static Package) -> Result<PathBuf, String> {
    static PYTHON: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    static JS: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    let cell = if package.name == "adk-python" {
        &PYTHON
    } else {
        &JS
    };
    cell.get_or_init(|| {
        let out = dump_dir(package);
        (package.dump)(&out)?;
        Ok(out)
    })
    .clone()
}

static PYTHON: Package = Package {
    name: "adk-python",
    installed: python_installed,
    dump: dump_python,
};
static JS: Package = Package {
    name: "adk-js",
    installed: js_installed,
    dump: dump_js,
};

/// One check on a package's dump folder.
type Check = Box<dyn Fn(&Path) -> Result<(), Failed> + Send + Sync>;

fn file(dir: &Path, name: &str) -> String {
    dir.join(name).display().to_string()
}

fn worked_example_from(
    before: &'static str,
    after: &'static str,
    flag: &'static str,
) -> impl Fn(&Path) -> Result<(), Failed> {
    move |dir| {
        let (before, after) = (file(dir, before), file(dir, after));
        assert_worked_example(&[flag, &before], &[flag, &after]);
        Ok(())
    }
}

fn detected(name: &'static str, format: &'static str) -> impl Fn(&Path) -> Result<(), Failed> {
    move |dir| {
        let path = file(dir, name);
        let (_, out) = diagnose_json(&[
            "--session",
            &path,
            "--app",
            "support",
            "--user",
            "42",
            "--query",
            "coffee",
        ]);
        let found = out["sources"][0]["format"].as_str().unwrap_or_default();
        if !found.starts_with(format) {
            return Err(format!("{name} detected as {found:?}, not {format:?}").into());
        }
        if out["sources"][0]["skipped_parts"] != 0 {
            return Err(format!("{name}: parts skipped: {out:#}").into());
        }
        if out["verdict"] != "WriteNotKnown" {
            return Err(format!("{name}: {out:#}").into());
        }
        Ok(())
    }
}

/// A real dump with one field broken: the error names its JSON path.
fn malformed(name: &'static str, path: &'static str) -> impl Fn(&Path) -> Result<(), Failed> {
    move |dir| {
        let text = std::fs::read_to_string(dir.join(name)).map_err(|e| e.to_string())?;
        let mut value: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| e.to_string())?;
        let parts = value["events"][0]["content"]["parts"][0]
            .as_object_mut()
            .ok_or("the first event has no part")?;
        parts.insert("text".to_owned(), serde_json::json!(["not", "text"]));
        let broken = dir.join(format!("broken-{name}"));
        std::fs::write(&broken, value.to_string()).map_err(|e| e.to_string())?;
        let out = support::run(&[
            "diagnose",
            "--session",
            broken.to_str().unwrap(),
            "--app",
            "a",
            "--user",
            "u",
            "--query",
            "q",
        ]);
        let stderr = support::text(&out.stderr);
        let expected = format!(
            "{}: {path}: expected the part's text (a string), found an array of 2",
            broken.display()
        );
        if out.status.code() != Some(2) || !stderr.contains(&expected) {
            return Err(format!(
                "expected {expected:?}, got {:?}: {stderr}",
                out.status.code()
            )
            .into());
        }
        Ok(())
    }
}

fn trials() -> Vec<Trial> {
    let mut cases: Vec<(&'static Package, &'static str, Check)> = vec![
        (
            &PYTHON,
            "adk_python::by_alias::worked_example",
            Box::new(worked_example_from(
                "before.alias.json",
                "after.alias.json",
                "--session",
            )),
        ),
        (
            &PYTHON,
            "adk_python::model_dump::worked_example",
            Box::new(worked_example_from(
                "before.json",
                "after.json",
                "--session",
            )),
        ),
        (
            &PYTHON,
            "adk_python::database::worked_example",
            Box::new(worked_example_from("before.db", "after.db", "--database")),
        ),
        (
            &PYTHON,
            "adk_python::by_alias::detected",
            Box::new(detected(
                "before.alias.json",
                "ADK Python JSON (model_dump_json by_alias",
            )),
        ),
        (
            &PYTHON,
            "adk_python::model_dump::detected",
            Box::new(detected("before.json", "ADK Python JSON (model_dump_json)")),
        ),
        (
            &JS,
            "adk_js::stringify::worked_example",
            Box::new(worked_example_from(
                "before.json",
                "after.json",
                "--session",
            )),
        ),
        (
            &JS,
            "adk_js::stringify::detected",
            Box::new(detected("before.json", "ADK JS JSON")),
        ),
        (
            &PYTHON,
            "adk_python::by_alias::malformed_names_the_path",
            Box::new(malformed(
                "after.alias.json",
                "$.events[0].content.parts[0].text",
            )),
        ),
        (
            &JS,
            "adk_js::stringify::malformed_names_the_path",
            Box::new(malformed("after.json", "$.events[0].content.parts[0].text")),
        ),
    ];
    cases
        .drain(..)
        .map(|(package, name, check)| {
            when_installed(name, (package.installed)(), move || {
                let dir = dumped(package)?;
                check(&dir)
            })
        })
        .collect()
}

fn main() -> ExitCode {
    let conclusion = libtest_mimic::run(&Arguments::from_args(), trials());
    for package in [&PYTHON, &JS] {
        let _ = std::fs::remove_dir_all(dump_dir(package));
    }
    conclusion.exit_code()
}
