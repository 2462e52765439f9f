//! Third-party memory services from PyPI, gated from their real packages (`community/`): each
//! folder's bridge (where it has a `profile.toml`) gated with `memory-conformance gate` under the profile the folder declares,
//! and each finding page under `docs/findings/` re-checked by running its standalone
//! reproduction, written in the package's own API, against the pinned package.
//!
//! A gate is green when the backend behaves as its profile declares: design differences are
//! profile dimensions, defects are known violations, each backed by a finding page. A finding's
//! page says `still present` or `fixed in <package> <version>`; its reproduction exits 0 when
//! the defect shows and 1 when it does not, and a page whose status no longer matches fails.
//!
//! Where `bash community/install.sh` has not been run, each test reports itself ignored with
//! that command as the reason; with `MEMORY_CONFORMANCE_REQUIRE_ALL_BACKENDS` set (CI), it fails.

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use libtest_mimic::{Arguments, Failed, Trial};

use support::installed::when_installed;

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the CLI is a workspace member")
        .to_path_buf()
}

/// The folder of a community package and the Python of its own virtual environment.
struct Package {
    name: String,
    dir: PathBuf,
}

impl Package {
    fn python(&self) -> PathBuf {
        self.dir.join(".venv/bin/python")
    }

    /// The servers its `servers.txt` names, one environment variable a line (none without it).
    fn servers(&self) -> Vec<String> {
        std::fs::read_to_string(self.dir.join("servers.txt"))
            .unwrap_or_default()
            .lines()
            .map(str::trim)
            .filter(|line| !line.is_empty() && !line.starts_with('#'))
            .map(String::from)
            .collect()
    }

    /// What the stores of the gate tagged `tag` left on the package's servers, one
    /// `<server>: <name>` a line, and what its `server.py` lists as its stores, `<package>:
    /// <name>` (`community/leftovers.py`, run with the package's Python).
    fn leftovers(&self, tag: &str) -> Result<Vec<String>, Failed> {
        let mut command = Command::new(self.python());
        command
            .arg(repository().join("community/leftovers.py"))
            .arg("--package")
            .arg(&self.dir)
            .args(self.servers())
            .env(STORE_TAG, tag);
        let output = bridge_env(&mut command)
            .output()
            .map_err(|err| format!("cannot run {command:?}: {err}"))?;
        if !output.status.success() {
            return Err(format!(
                "{command:?} failed ({}): {}",
                output.status,
                String::from_utf8_lossy(&output.stderr)
            )
            .into());
        }
        Ok(String::from_utf8_lossy(&output.stdout)
            .lines()
            .map(String::from)
            .collect())
    }

    /// Ok when `community/install.sh` installed the package's current pins and every server
    /// its `servers.txt` names (one environment variable a line) is set, in the environment or
    /// in `target/servers/env`.
    fn installed(&self) -> Result<(), String> {
        if !self.dir.join(".venv/installed-pins").is_file() {
            return Err(format!(
                "{} is not installed in community/{}/.venv: run `bash community/install.sh {}`",
                self.name, self.name, self.name
            ));
        }
        let started =
            std::fs::read_to_string(repository().join("target/servers/env")).unwrap_or_default();
        for variable in self.servers() {
            let in_file = started
                .lines()
                .any(|line| line.starts_with(&format!("{variable}=")));
            if std::env::var_os(&variable).is_none() && !in_file {
                return Err(format!(
                    "{} needs the server of {variable}: run `bash servers/install.sh && bash servers/start.sh`",
                    self.name
                ));
            }
        }
        Ok(())
    }
}

/// Every folder of `community/` with a `requirements.txt`, by name.
fn packages() -> Vec<Package> {
    let root = repository().join("community");
    let mut packages: Vec<Package> = std::fs::read_dir(&root)
        .unwrap_or_else(|err| panic!("cannot read {}: {err}", root.display()))
        .flatten()
        .map(|entry| entry.path())
        .filter(|dir| dir.join("requirements.txt").is_file())
        .map(|dir| Package {
            name: dir
                .file_name()
                .expect("a folder has a name")
                .to_string_lossy()
                .into_owned(),
            dir,
        })
        .collect();
    packages.sort_by(|a, b| a.name.cmp(&b.name));
    packages
}

/// The bridge's environment: the repository's Python helper on the path, naive timestamps read
/// as UTC wall-clock time.
fn bridge_env(command: &mut Command) -> &mut Command {
    command
        .env("PYTHONPATH", repository().join("bridges/python"))
        .env("TZ", "UTC")
}

/// Set to regenerate each package's `VERDICTS.md` instead of comparing it.
const UPDATE: &str = "MEMORY_CONFORMANCE_UPDATE_COMMUNITY";

/// The variable `community/servers_env.py` begins every store name with (after `mc_`): one
/// value per gate, so the stores of other runs on the same server are never taken for this
/// gate's leftovers.
const STORE_TAG: &str = "MEMORY_CONFORMANCE_STORE_TAG";

/// A store tag no other gate of this or another run uses: this process's id and a hash of the
/// package's name (short: a store's name must fit PostgreSQL's 63 bytes).
fn store_tag(package: &Package) -> String {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::hash::DefaultHasher::new();
    package.name.hash(&mut hasher);
    format!(
        "t{}x{:06x}",
        std::process::id(),
        hasher.finish() & 0xff_ffff
    )
}

/// Gates the package's bridge under its profile; fails unless every test passed (known
/// violations as declared), when the package's `VERDICTS.md` is not what the gate shows, or
/// when the gate left a store's schema or database on the package's servers.
fn gate(package: &Package) -> Result<(), Failed> {
    let tag = store_tag(package);
    let before = package.leftovers(&tag)?;
    let profile = package.dir.join("profile.toml");
    let mut command = Command::new(env!("CARGO_BIN_EXE_memory-conformance"));
    command
        .args(["gate", "--format", "json", "--profile"])
        .arg(&profile);
    command
        .arg("--")
        .arg(package.python())
        .arg(package.dir.join("bridge.py"))
        .current_dir(repository())
        .env(STORE_TAG, &tag);
    let output = bridge_env(&mut command)
        .output()
        .map_err(|err| format!("cannot run {command:?}: {err}"))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let report: serde_json::Value = serde_json::from_str(&stdout).map_err(|err| {
        format!(
            "the gate of {} wrote no JSON report ({err}; {}):\n{stdout}{}",
            package.name,
            output.status,
            String::from_utf8_lossy(&output.stderr)
        )
    })?;
    if !output.status.success() || report["failed"] != 0 {
        return Err(format!(
            "the gate of {} under community/{}/profile.toml is not green ({}):\n{stdout}{}",
            package.name,
            package.name,
            output.status,
            String::from_utf8_lossy(&output.stderr)
        )
        .into());
    }
    let left: Vec<String> = package
        .leftovers(&tag)?
        .into_iter()
        .filter(|name| !before.contains(name))
        .collect();
    if !left.is_empty() {
        return Err(format!(
            "the gate of {} left {} of its stores on its servers (its bridge must remove what a \
             store made there when the store is dropped: `serve(..., drop=...)`), the first: {}",
            package.name,
            left.len(),
            left.iter().take(5).cloned().collect::<Vec<_>>().join(", ")
        )
        .into());
    }
    let shown = run_cli(&["profile", "show"], &profile)?;
    check_verdicts(package, &verdicts(package, &shown, &report))
}

/// The CLI's standard output for `args` and `path`, or a failure naming the command.
fn run_cli(args: &[&str], path: &Path) -> Result<String, Failed> {
    let output = Command::new(env!("CARGO_BIN_EXE_memory-conformance"))
        .args(args)
        .arg(path)
        .output()
        .map_err(|err| format!("cannot run memory-conformance {args:?}: {err}"))?;
    if !output.status.success() {
        return Err(format!(
            "memory-conformance {args:?} {} failed: {}",
            path.display(),
            String::from_utf8_lossy(&output.stderr)
        )
        .into());
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// The package's `VERDICTS.md`: what runs, the profile it declares and each rule's verdict.
fn verdicts(package: &Package, profile: &str, report: &serde_json::Value) -> String {
    let pins = std::fs::read_to_string(package.dir.join("requirements.txt"))
        .unwrap_or_default()
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .collect::<Vec<_>>()
        .join("`, `");
    let prefix = format!("{}::", report["backend"].as_str().unwrap_or_default());
    let mut rows = String::new();
    let (mut passed, mut known, mut ignored) = (0, 0, 0);
    for test in report["tests"].as_array().into_iter().flatten() {
        let name = test["name"].as_str().unwrap_or_default();
        let rule = name.strip_prefix(&prefix).unwrap_or(name);
        let detail = test["detail"]
            .as_str()
            .unwrap_or_default()
            .replace('|', "\\|");
        let verdict = match test["outcome"].as_str() {
            Some("ok") if detail.starts_with("known violation") => {
                known += 1;
                detail
            }
            Some("ok") => {
                passed += 1;
                "holds".to_string()
            }
            Some("ignored") => {
                ignored += 1;
                format!("not applicable: {detail}")
            }
            other => format!("{other:?}: {detail}"),
        };
        rows.push_str(&format!("| `{rule}` | {verdict} |\n"));
    }
    format!(
        "# {name}: verdicts\n\n\
         Generated by `cargo test -p memory-conformance-cli --test community` from the gate of \
         `{pins}` (`community/{name}/bridge.py`) under `community/{name}/profile.toml`, seed {seed}; \
         regenerate with `{UPDATE}=1`. Recall is not pinned for the community gates.\n\n\
         {passed} rules hold, {known} are known violations (each reason says whether a defect, with \
         its page under `docs/findings/`, or a design the profile vocabulary has no dimension for), \
         {ignored} are not applicable.\n\n\
         ## The profile it declares\n\n```text\n{profile}```\n\n\
         ## Verdicts\n\n| rule | verdict |\n|---|---|\n{rows}",
        name = package.name,
        seed = report["seed"],
    )
}

/// Compares the package's `VERDICTS.md` with `generated`, or writes it when `UPDATE` is set.
fn check_verdicts(package: &Package, generated: &str) -> Result<(), Failed> {
    let path = package.dir.join("VERDICTS.md");
    if std::env::var_os(UPDATE).is_some() {
        return std::fs::write(&path, generated)
            .map_err(|err| format!("cannot write {}: {err}", path.display()).into());
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    if committed == generated {
        Ok(())
    } else {
        Err(format!(
            "{} is not what the gate shows: regenerate it with \
             `{UPDATE}=1 cargo test -p memory-conformance-cli --test community` and review the diff.\n\
             generated:\n{generated}",
            path.display()
        )
        .into())
    }
}

/// A finding page: what it says of itself in its `- key: value` lines.
struct Finding {
    page: PathBuf,
    package: String,
    status: String,
    reproduction: PathBuf,
}

/// The value of the page's line `- key: value`, or an error naming the page and the key.
fn field(page: &Path, text: &str, key: &str) -> Result<String, String> {
    let prefix = format!("- {key}: ");
    text.lines()
        .find_map(|line| line.strip_prefix(&prefix))
        .map(|value| value.trim().trim_matches('`').to_string())
        .ok_or_else(|| {
            format!(
                "{} has no line `{prefix}...` (a finding page says its package, status and reproduction)",
                page.display()
            )
        })
}

fn finding(page: &Path) -> Result<Finding, String> {
    let text = std::fs::read_to_string(page)
        .map_err(|err| format!("cannot read {}: {err}", page.display()))?;
    Ok(Finding {
        page: page.to_path_buf(),
        package: field(page, &text, "package")?,
        status: field(page, &text, "status")?,
        reproduction: repository().join(field(page, &text, "reproduction")?),
    })
}

/// Every page of `docs/findings/` but its index, by name.
fn finding_pages() -> Vec<PathBuf> {
    let root = repository().join("docs/findings");
    let Ok(entries) = std::fs::read_dir(&root) else {
        return Vec::new();
    };
    let mut pages: Vec<PathBuf> = entries
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| {
            path.extension().is_some_and(|ext| ext == "md")
                && path.file_name().is_some_and(|name| name != "README.md")
        })
        .collect();
    pages.sort();
    pages
}

/// Runs the finding's reproduction; fails when what it shows no longer matches the page. It
/// runs with a temporary folder of its own, removed afterwards: the packages leave files in
/// theirs (inspeximus its lock files, Milvus Lite a database its server writes back after the
/// reproduction removed its folder).
fn recheck(finding: &Finding, package: &Package) -> Result<(), Failed> {
    let name = finding
        .page
        .file_stem()
        .map(|stem| stem.to_string_lossy().into_owned())
        .unwrap_or_default();
    let scratch = support::Scratch::new(&format!("finding-{name}"));
    let mut command = Command::new(package.python());
    command
        .arg(&finding.reproduction)
        .current_dir(repository())
        .env("TMPDIR", &*scratch);
    let output = bridge_env(&mut command).output();
    drop(scratch);
    let output = output.map_err(|err| format!("cannot run {command:?}: {err}"))?;
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let present = match output.status.code() {
        Some(0) => true,
        Some(1) => false,
        _ => {
            return Err(format!(
                "the reproduction {} neither showed the defect (exit 0) nor its absence (exit 1): {}\n{said}",
                finding.reproduction.display(),
                output.status
            )
            .into());
        }
    };
    let page_says_present = finding.status.starts_with("still present");
    match (page_says_present, present) {
        (true, true) | (false, false) => Ok(()),
        (true, false) => Err(format!(
            "{} says `status: {}`, but its reproduction no longer shows the defect with the installed {}: \
             write `status: fixed in {} <version>` on the page and remove the known violation from community/{}/profile.toml\n{said}",
            finding.page.display(),
            finding.status,
            package.name,
            package.name,
            package.name
        )
        .into()),
        (false, true) => Err(format!(
            "{} says `status: {}`, but its reproduction shows the defect again with the installed {}\n{said}",
            finding.page.display(),
            finding.status,
            package.name
        )
        .into()),
    }
}

fn main() -> ExitCode {
    let packages = packages();
    let mut trials = Vec::new();
    for package in &packages {
        if !package.dir.join("profile.toml").is_file() {
            continue; // installed for its findings only
        }
        let installed = package.installed();
        let package = Package {
            name: package.name.clone(),
            dir: package.dir.clone(),
        };
        trials.push(when_installed(
            format!("{}::gate", package.name),
            installed,
            move || gate(&package),
        ));
    }
    for page in finding_pages() {
        // A Rust reproduction is a test of its adapter crate (community/adk-rs), which checks
        // the page itself; the Python ones run here.
        if std::fs::read_to_string(&page).is_ok_and(|text| {
            text.lines().any(|line| {
                line.starts_with("- reproduction: ") && line.trim_end().ends_with(".rs")
            })
        }) {
            continue;
        }
        let name = format!(
            "finding::{}",
            page.file_stem()
                .expect("a page has a name")
                .to_string_lossy()
        );
        let finding = match finding(&page) {
            Ok(finding) => finding,
            Err(err) => {
                trials.push(Trial::test(name, move || Err(err.into())));
                continue;
            }
        };
        let package_name = finding
            .package
            .split_whitespace()
            .next()
            .unwrap_or_default()
            .to_string();
        let Some(package) = packages.iter().find(|p| p.name == package_name) else {
            let err = format!(
                "{} names package `{}`, which has no folder community/{package_name}",
                page.display(),
                finding.package
            );
            trials.push(Trial::test(name, move || Err(err.into())));
            continue;
        };
        let installed = package.installed();
        let package = Package {
            name: package.name.clone(),
            dir: package.dir.clone(),
        };
        trials.push(when_installed(name, installed, move || {
            recheck(&finding, &package)
        }));
    }
    libtest_mimic::run(&Arguments::from_args(), trials).exit_code()
}
