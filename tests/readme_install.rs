//! The README's Rust dependency lines build in a fresh crate exactly as written: its `toml`
//! block becomes the crate's `Cargo.toml` (after a `[package]` table), its gate block the
//! crate's `src/lib.rs` and `tests/conformance.rs`, and `cargo test --no-run` builds them.
//!
//! The lines name the kit's repository (`[workspace.package] repository`); git resolves that
//! URL to this clone (a `url.<clone>.insteadOf` in a git configuration of the test's own, with
//! cargo fetching through the git command line), so cargo fetches this clone's committed
//! `HEAD`, which is what CI tests. The crate is built in the workspace's target folder, with
//! the workspace's build profiles and `Cargo.lock`, so the crates the kit depends on are
//! compiled once and no registry crate is fetched anew. The crate's folder is removed however
//! the test ends.
//!
//! The README's Python, JavaScript and Java install lines are held to the release folder's
//! artifacts (this version's names, and `SHA256SUMS` where `release/build.sh` has run), and
//! `release/install-check.sh` reads them out of README.md and runs them as written.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository the README's lines name.
const REPOSITORY: &str = env!("CARGO_PKG_REPOSITORY");
/// The root of this clone.
const ROOT: &str = env!("CARGO_MANIFEST_DIR");
/// The line of the README's gate block where the test file starts.
const TEST_FILE_MARKER: &str = "// tests/conformance.rs";

/// A folder removed when dropped, so a failing test leaves nothing behind.
struct TempFolder(PathBuf);

impl TempFolder {
    fn new() -> Self {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or_default();
        let path = std::env::temp_dir().join(format!(
            "memory-conformance-readme-install-{}-{nanos}",
            std::process::id()
        ));
        std::fs::create_dir_all(&path).expect("a temporary folder");
        Self(path)
    }
}

impl Drop for TempFolder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The fenced blocks of `markdown` whose info string is `lang`, each with the line number (from
/// 1) of its first line.
fn blocks(markdown: &str, lang: &str) -> Vec<(usize, Vec<String>)> {
    let mut found = Vec::new();
    let mut open: Option<(bool, usize, Vec<String>)> = None;
    for (index, line) in markdown.lines().enumerate() {
        match &mut open {
            None => {
                if let Some(info) = line.strip_prefix("```") {
                    open = Some((info.trim() == lang, index + 2, Vec::new()));
                }
            }
            Some((wanted, start, lines)) => {
                if line.starts_with("```") {
                    if *wanted {
                        found.push((*start, std::mem::take(lines)));
                    }
                    open = None;
                } else {
                    lines.push(line.to_owned());
                }
            }
        }
    }
    found
}

fn write(path: &Path, text: &str) {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("the crate's folder");
    }
    std::fs::write(path, text).unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
}

/// The workspace's `[profile.*]` tables, so the fresh crate's dependencies are compiled as the
/// workspace's are (and shared with them in the target folder).
fn workspace_profiles() -> String {
    let manifest = std::fs::read_to_string(Path::new(ROOT).join("Cargo.toml")).expect("Cargo.toml");
    let mut out = String::new();
    let mut in_profile = false;
    for line in manifest.lines() {
        if line.starts_with('[') {
            in_profile = line.starts_with("[profile.");
        }
        if in_profile && !line.trim_start().starts_with('#') {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

#[test]
fn the_readmes_dependency_lines_build_in_a_fresh_crate() {
    let readme = std::fs::read_to_string(Path::new(ROOT).join("README.md")).expect("README.md");

    let manifests: Vec<_> = blocks(&readme, "toml")
        .into_iter()
        .filter(|(_, lines)| lines.iter().any(|l| l.starts_with("memory-conformance")))
        .collect();
    let [(toml_line, dependency_lines)] = manifests.as_slice() else {
        panic!(
            "README.md should have one toml block with the kit's dependency lines, found {}",
            manifests.len()
        );
    };
    let gates: Vec<_> = blocks(&readme, "rust")
        .into_iter()
        .filter(|(_, lines)| lines.iter().any(|l| l.trim() == TEST_FILE_MARKER))
        .collect();
    let [(_, gate)] = gates.as_slice() else {
        panic!("README.md should have one rust block with a {TEST_FILE_MARKER:?} line");
    };
    let split = gate
        .iter()
        .position(|l| l.trim() == TEST_FILE_MARKER)
        .expect("the marker");
    let (lib, test) = gate.split_at(split);

    let crate_dir = TempFolder::new();
    let dir = &crate_dir.0;
    let manifest = format!(
        "[package]\nname = \"my-backend\"\nversion = \"0.1.0\"\nedition = \"2024\"\npublish = false\n\n\
         {}\n\n{}",
        dependency_lines.join("\n"),
        workspace_profiles()
    );
    write(&dir.join("Cargo.toml"), &manifest);
    write(&dir.join("src/lib.rs"), &lib.join("\n"));
    write(
        &dir.join("tests/conformance.rs"),
        &format!("use my_backend::gate;\n{}\n", test.join("\n")),
    );
    std::fs::copy(Path::new(ROOT).join("Cargo.lock"), dir.join("Cargo.lock")).expect("Cargo.lock");
    // Git resolves the repository's URL to this clone, for this test's commands only.
    let git_config = dir.join("gitconfig");
    write(
        &git_config,
        &format!("[url \"{ROOT}\"]\n\tinsteadOf = {REPOSITORY}\n[safe]\n\tdirectory = *\n"),
    );
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(ROOT).join("target"));

    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .args(["test", "--no-run", "--quiet", "--manifest-path"])
        .arg(dir.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", &target)
        .env("CARGO_NET_GIT_FETCH_WITH_CLI", "true")
        .env("GIT_CONFIG_GLOBAL", &git_config)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_TERMINAL_PROMPT", "0")
        .output()
        .expect("cargo starts");
    if !output.status.success() {
        let said = String::from_utf8_lossy(&output.stderr);
        // The dependency lines cargo names in its error, else every line of the block.
        let lines: Vec<(usize, &String)> = dependency_lines
            .iter()
            .enumerate()
            .filter(|(_, l)| l.contains('=') && !l.trim_start().starts_with('#'))
            .map(|(i, l)| (toml_line + i, l))
            .collect();
        let named: Vec<_> = lines
            .iter()
            .filter(|(_, l)| {
                let name = l.split('=').next().unwrap_or_default().trim();
                said.contains(&format!("`{name}`"))
            })
            .collect();
        let shown: Vec<String> = if named.is_empty() {
            lines.iter().collect()
        } else {
            named
        }
        .iter()
        .map(|(n, l)| format!("  README.md:{n}: {l}"))
        .collect();
        panic!(
            "the README's dependency lines do not build in a fresh crate ({}):\n{}\n\
             cargo test --no-run said:\n{said}",
            output.status,
            shown.join("\n"),
        );
    }
}

/// The Rust page repeats the README's dependency lines; it must repeat them exactly, as they
/// are the lines the test above builds.
#[test]
fn the_rust_page_gives_the_readmes_dependency_lines() {
    let read = |path: &str| {
        let text = std::fs::read_to_string(Path::new(ROOT).join(path)).expect(path);
        blocks(&text, "toml")
            .into_iter()
            .map(|(_, lines)| lines)
            .filter(|lines| lines.iter().any(|l| l.starts_with("memory-conformance")))
            .collect::<Vec<_>>()
    };
    let (readme, page) = (read("README.md"), read("docs/gate-a-rust-backend.md"));
    assert_eq!(
        page, readme,
        "docs/gate-a-rust-backend.md's dependency lines differ from the README's"
    );
}

/// The README's install line starting with `prefix`, exactly one.
fn install_line<'a>(readme: &'a str, prefix: &str) -> &'a str {
    let lines: Vec<&str> = readme
        .lines()
        .filter(|line| line.starts_with(prefix))
        .collect();
    assert_eq!(
        lines.len(),
        1,
        "README.md must have exactly one install line starting with {prefix:?} (release/install-check.sh runs it): {lines:?}"
    );
    lines[0]
}

/// The artifacts a line names, `target/release-artifacts/NAME` (without a `[extra]`).
fn artifacts_named(line: &str) -> Vec<&str> {
    line.split("target/release-artifacts/")
        .skip(1)
        .map(|rest| {
            let end = rest
                .find(|c: char| c == '[' || c == '\'' || c.is_whitespace())
                .unwrap_or(rest.len());
            &rest[..end]
        })
        .collect()
}

#[test]
fn the_readmes_python_javascript_and_java_lines_install_this_versions_release_artifacts() {
    let readme = std::fs::read_to_string(Path::new(ROOT).join("README.md")).expect("README.md");
    let script = std::fs::read_to_string(Path::new(ROOT).join("release/install-check.sh"))
        .expect("release/install-check.sh");
    let version = env!("CARGO_PKG_VERSION");
    let sums = std::fs::read_to_string(Path::new(ROOT).join("target/release-artifacts/SHA256SUMS"));
    // Each language's line: its prefix, and the artifacts release/build.sh writes for it.
    let expected = [
        (
            "pip install ",
            vec![format!(
                "memory_conformance-{version}-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl"
            )],
        ),
        (
            "npm install ",
            vec![format!("memory-conformance-bridge-{version}.tgz")],
        ),
        (
            "mvn ",
            vec![
                format!("adk-java-inspect-{version}.jar"),
                format!("adk-java-inspect-{version}.pom"),
            ],
        ),
    ];
    for (prefix, artifacts) in expected {
        let line = install_line(&readme, prefix);
        assert_eq!(
            artifacts_named(line),
            artifacts,
            "README.md's line {line:?} must install this version's artifacts from target/release-artifacts/"
        );
        assert!(
            script.contains(&format!("readme_line '{prefix}'")),
            "release/install-check.sh must run README.md's {prefix:?} line as written (readme_line '{prefix}')"
        );
        // Where release/build.sh has run, the artifacts are the ones it wrote.
        if let Ok(sums) = &sums {
            for artifact in &artifacts {
                assert!(
                    sums.lines().any(|l| l.ends_with(&format!(" {artifact}"))
                        || l.ends_with(&format!("*{artifact}"))),
                    "target/release-artifacts/SHA256SUMS lists no {artifact}, which README.md's line {line:?} installs: rebuild with `bash release/build.sh`, or correct the line"
                );
            }
        }
    }
    // The versions the artifacts take their names from are the kit's.
    for (manifest, says) in [
        (
            "bridges/js/package.json",
            format!("\"version\": \"{version}\""),
        ),
        (
            "bridges/python/pyproject.toml",
            format!("version = \"{version}\""),
        ),
        (
            "bridges/adk-java-inspect/pom.xml",
            format!("<version>{version}</version>"),
        ),
    ] {
        let text = std::fs::read_to_string(Path::new(ROOT).join(manifest)).expect(manifest);
        assert!(
            text.contains(&says),
            "{manifest} does not say {says}: the README's install lines name version {version}"
        );
    }
}

/// The README's longest: a front door (what the kit checks, the first gate in Rust and in
/// any language, a failure, profiles in brief, the rule table, stability, links); every
/// longer explanation is a page of `docs/` for its reader.
const README_MAX_LINES: usize = 250;

#[test]
fn the_readme_is_a_front_door_within_its_line_budget() {
    let readme = std::fs::read_to_string(Path::new(ROOT).join("README.md")).unwrap();
    let lines = readme.lines().count();
    assert!(
        lines <= README_MAX_LINES,
        "README.md has {lines} lines, more than {README_MAX_LINES}: move a section to a page of docs/ (see CONTRIBUTING.md)"
    );
}
