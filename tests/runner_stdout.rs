//! The gate's test runner never holds standard output while a test runs: a test thread that
//! prints (a known violation's note, a backend's own `println!`) while the runner waits for
//! its outcome must not wait for ever.
//!
//! This target is a gate binary run twice. Run by `cargo test`, it starts itself again as a
//! child, with the runner's own arguments (two test threads, one rule), and checks that the
//! child finishes and printed the note. The child (`RUNNER_STDOUT_CHILD` set) is the gate: the
//! reference backend declared to match every query word (`multi_word = all words`), with
//! `query.multi_word`, which it therefore breaks, declared a known violation, so the rule's
//! test thread prints the violation's note while the main thread waits.
//!
//! A hang is a deadlock, which lasts for ever; the parent gives the child ten minutes, a
//! thousand times what the one rule takes on a busy machine, so a slow machine cannot fail it.

use std::io::Read;
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use memory_conformance::InMemoryMemoryService;
use memory_conformance::conformance::{Gate, Subject};
use memory_conformance::profile::{MultiWord, Profile};

/// Set in the child's environment: run the gate instead of starting a child.
const CHILD: &str = "RUNNER_STDOUT_CHILD";
/// The one rule the child runs, which its backend breaks as declared.
const RULE: &str = "query.multi_word";
const BACKEND: &str = "any-word-declared-all-words";
const DEADLOCK: Duration = Duration::from_secs(600);

fn gate() -> Gate {
    let mut profile = Profile::reference();
    profile.multi_word = MultiWord::AllWords;
    Gate::new(Subject::new(BACKEND, profile, || async {
        InMemoryMemoryService::new()
    }))
    .cases(16)
    .known_violation(
        RULE,
        "the reference finds an event by any query word, where this gate declares all words",
    )
}

/// Starts this binary again as the gate, on two test threads, and checks it ends, passed,
/// having printed the known violation's note from the rule's thread.
fn parent() -> ExitCode {
    let exe = std::env::current_exe().expect("this test binary's path");
    let test = format!("{BACKEND}::{RULE}");
    let mut child = Command::new(exe)
        .args(["--test-threads", "2", "--exact", &test])
        .env(CHILD, "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("this test binary, started again as the gate");
    let mut stdout = child.stdout.take().expect("the child's piped stdout");
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        stdout.read_to_string(&mut text).map(|_| text)
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("the child's status") {
            break status;
        }
        if started.elapsed() > DEADLOCK {
            let _ = child.kill();
            let _ = child.wait();
            eprintln!(
                "runner_stdout: the gate `{test}` on two test threads did not end in {} s: the \
                 runner holds standard output while a test thread prints (reproduce: \
                 {CHILD}=1 cargo test --test runner_stdout -- --test-threads 2 --exact '{test}')",
                DEADLOCK.as_secs()
            );
            return ExitCode::FAILURE;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let text = reader
        .join()
        .expect("the reader thread")
        .expect("the child's stdout, as UTF-8");
    forget_the_recorded_case();
    let note = format!("{RULE}: ");
    let mut problems = Vec::new();
    if !status.success() {
        problems.push(format!("the gate exited with {status}"));
    }
    if !text.lines().any(|line| line.starts_with(&note)) {
        problems.push(format!("no line starts with `{note}` (the rule's note)"));
    }
    if !text.contains("test result: ok. 1 passed") {
        problems.push("no `test result: ok. 1 passed`".to_owned());
    }
    if problems.is_empty() {
        println!("runner_stdout: `{test}` on two test threads ended, its note printed: ok");
        ExitCode::SUCCESS
    } else {
        eprintln!(
            "runner_stdout: {}; the child's stdout:\n{text}",
            problems.join("; ")
        );
        ExitCode::FAILURE
    }
}

/// The runner records the known violation's failing case in the crate's
/// `proptest-regressions/conformance/`, as it does for every gate; this test's case is its own
/// doing, so it leaves no file behind (the folders go too where nothing else is in them).
fn forget_the_recorded_case() {
    let records = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("proptest-regressions");
    let _ = std::fs::remove_dir_all(records.join("conformance").join(BACKEND));
    let _ = std::fs::remove_dir(records.join("conformance"));
    let _ = std::fs::remove_dir(&records);
}

memory_conformance::conformance_main!({
    // A list (`--list`, as `cargo nextest` asks first) is the gate's own.
    if std::env::var_os(CHILD).is_none() && !std::env::args().any(|a| a == "--list") {
        return parent();
    }
    gate()
});
