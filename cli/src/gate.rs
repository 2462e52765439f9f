//! `memory-conformance gate`: every rule of the kit, and the recall snapshot, against a backend
//! behind a bridge command, with no Rust to write: libtest-like output, JUnit XML, JSON.

use std::ffi::OsString;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use memory_conformance::benchmark::RecallFloor;
use memory_conformance::conformance::rules::{self, Rule};
use memory_conformance::conformance::{Gate, Subject, Verdict};
use memory_conformance::process::ProcessBridge;
use memory_conformance::profile::Profile;
use serde::Serialize;

use crate::junit::{self, Case, Outcome};
use crate::snapshot;

/// What the command line asked for.
pub struct Options {
    /// The bridge's program and its arguments.
    pub command: Vec<OsString>,
    /// The profile the backend declares.
    pub profile: Profile,
    /// How `--profile` named it, for the reproduction command.
    pub profile_arg: String,
    /// The backend's name in test names; the profile's name by default.
    pub backend: Option<String>,
    /// Declared known violations: (rule id, reason).
    pub known_violations: Vec<(String, String)>,
    /// Declared known violations that are races (the profile file's `intermittent = true`):
    /// (rule id, reason).
    pub intermittent_violations: Vec<(String, String)>,
    /// Only the tests whose id or name matches one of these (`key.isolation`, `key.*`,
    /// `backend::key.isolation`); every test when empty.
    pub rules: Vec<String>,
    /// Generated cases per rule (default: `PROPTEST_CASES`, else 256).
    pub cases: Option<u32>,
    /// The seed cases are generated from (default: `PROPTEST_RNG_SEED`, else random).
    pub seed: Option<u64>,
    /// Run only part `K` of `N` (1-based) of the selected tests.
    pub partition: Option<(usize, usize)>,
    /// Also write JUnit XML here.
    pub junit: Option<PathBuf>,
    /// JSON on standard output instead of libtest-like lines.
    pub json: bool,
    /// Pin the recall in this folder; no recall test without it.
    pub snapshots: Option<PathBuf>,
    /// How long one call of the bridge may take.
    pub op_timeout: Duration,
    /// The least recall on the recall benchmark the backend declares (test `recall.floor`);
    /// no such test when empty.
    pub recall_floor: RecallFloor,
}

/// One test of the run: a rule, or the recall snapshot.
#[derive(Serialize)]
struct TestRun {
    name: String,
    outcome: &'static str,
    /// The failure report, the reason a test was ignored, or a known violation's reason.
    detail: Option<String>,
    #[serde(skip)]
    known_violation: bool,
}

#[derive(Serialize)]
struct Summary<'a> {
    backend: &'a str,
    profile: &'a str,
    seed: Option<u64>,
    tests: &'a [TestRun],
    passed: usize,
    failed: usize,
    ignored: usize,
    filtered_out: usize,
}

const RECALL: &str = "snapshot.recall";
const FLOOR: &str = "recall.floor";

/// Runs the gate; `Err` is bad input or a backend that could not start (exit 2).
pub fn run(options: Options) -> Result<ExitCode, String> {
    let shown = shown(&options.command);
    let backend = options
        .backend
        .clone()
        .unwrap_or_else(|| options.profile.name.clone());
    let (subject, bridge) = bridge_subject(
        &options.command,
        &backend,
        options.profile.clone(),
        options.op_timeout,
    )?;
    let gate = gate(&options, subject, &shown);
    if let Err(problem) = gate.validate() {
        return Err(format!("the gate's declaration is wrong: {problem}"));
    }
    let selected = select(&options, &backend)?;
    let filtered_out = rules::catalogue().len()
        + usize::from(options.snapshots.is_some())
        + usize::from(!options.recall_floor.is_empty())
        - selected.len();
    let mut runs = Vec::new();
    let mut printer = Printer::new(!options.json, selected.len());
    for test in &selected {
        let run = match test {
            Selected::Rule(rule) => rule_run(&gate, rule),
            Selected::Recall(dir) => recall_run(&gate, dir),
            Selected::Floor(floor) => floor_run(&gate, floor),
        };
        printer.line(&run);
        // A dead bridge is one error: every later test would fail the same way.
        if let Some(why) = bridge.broken() {
            return Err(format!(
                "the bridge stopped working during {}, so the gate stopped there: {why}",
                run.name
            ));
        }
        runs.push(run);
    }
    let count = |outcome: &str| runs.iter().filter(|r| r.outcome == outcome).count();
    let summary = Summary {
        backend: &backend,
        profile: &options.profile.name,
        seed: options.seed,
        tests: &runs,
        passed: count("ok"),
        failed: count("FAILED"),
        ignored: count("ignored"),
        filtered_out,
    };
    if let Some(path) = &options.junit {
        let cases: Vec<Case> = runs.iter().map(junit_case).collect();
        std::fs::write(path, junit::render(&backend, &cases))
            .map_err(|err| format!("cannot write {}: {err}", path.display()))?;
    }
    if options.json {
        println!(
            "{}",
            serde_json::to_string_pretty(&summary)
                .map_err(|err| format!("cannot render JSON: {err}"))?
        );
    } else {
        printer.finish(&summary);
    }
    Ok(if summary.failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// The command as one line, for messages and reproduction commands.
pub fn shown(command: &[OsString]) -> String {
    command
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The subject of a backend behind the bridge `command` (program and arguments): the child is
/// started once, shaking hands, every case gets a store of its own, and each instance the case
/// opens is an `open` on that store (a reopen or a second instance reaches the same storage,
/// under protocol v2), the store dropped when the case is over. `Err` says why the bridge could
/// not start.
pub fn bridged(
    command: &[OsString],
    backend: &str,
    profile: Profile,
    op_timeout: Duration,
) -> Result<Subject, String> {
    bridge_subject(command, backend, profile, op_timeout).map(|(subject, _)| subject)
}

/// [`bridged`], with the bridge itself, to ask whether it still works.
pub fn bridge_subject(
    command: &[OsString],
    backend: &str,
    profile: Profile,
    op_timeout: Duration,
) -> Result<(Subject, Arc<ProcessBridge>), String> {
    let (program, args) = command
        .split_first()
        .ok_or("name the bridge command after `--`, for example `-- python3 bridge.py`")?;
    let mut child = std::process::Command::new(program);
    child.args(args);
    let bridge = start(child, op_timeout)
        .map_err(|err| format!("the bridge `{}` could not start: {err}", shown(command)))?;
    let forget = Arc::clone(&bridge);
    let handle = Arc::clone(&bridge);
    let subject = Subject::namespaced(backend, profile, move |namespace| {
        let bridge = Arc::clone(&bridge);
        async move {
            bridge
                .open(namespace.as_str())
                .await
                // Unwinds without the panic hook: the harness reports the failure once, and a
                // dead bridge is not a bug of this program to print a backtrace for.
                .unwrap_or_else(|err| {
                    std::panic::resume_unwind(Box::new(format!(
                        "the bridge opened no store: {err}"
                    )))
                })
        }
    })
    .cleanup_with(move |namespace| forget.forget(namespace.as_str()))
    // The harness waits longer than the bridge, so a hung child is reported by the bridge,
    // with its standard error.
    .op_timeout(op_timeout + Duration::from_secs(5));
    Ok((subject, handle))
}

/// Starts the bridge child once, shaking hands.
fn start(command: std::process::Command, timeout: Duration) -> Result<Arc<ProcessBridge>, String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|err| format!("no runtime: {err}"))?;
    runtime
        .block_on(ProcessBridge::spawn_with_timeout(command, timeout))
        .map(Arc::new)
        .map_err(|err| err.to_string())
}

fn gate(options: &Options, subject: Subject, shown: &str) -> Gate {
    let mut gate = Gate::new(subject).reproduce_with(format!(
        "memory-conformance gate --profile {} --rules '{{rule}}' --seed {{seed}}{} -- {shown}",
        options.profile_arg,
        options
            .cases
            .map(|c| format!(" --cases {c}"))
            .unwrap_or_default()
    ));
    gate = gate.recall_floor(options.recall_floor.clone());
    if let Some(cases) = options.cases {
        gate = gate.cases(cases);
    }
    if let Some(seed) = options.seed {
        gate = gate.seed(seed);
    }
    let gate = options
        .known_violations
        .iter()
        .fold(gate, |gate, (rule, reason)| {
            gate.known_violation(rule, reason)
        });
    options
        .intermittent_violations
        .iter()
        .fold(gate, |gate, (rule, reason)| {
            gate.known_intermittent_violation(rule, reason)
        })
}

enum Selected {
    Rule(&'static Rule),
    Recall(PathBuf),
    Floor(RecallFloor),
}

/// The tests `--rules` and `--partition` leave, in catalogue order, the recall snapshot and
/// the recall floor last.
fn select(options: &Options, backend: &str) -> Result<Vec<Selected>, String> {
    let matches = |id: &str| {
        options.rules.is_empty()
            || options.rules.iter().any(|pattern| {
                let pattern = pattern
                    .strip_prefix(&format!("{backend}::"))
                    .unwrap_or(pattern);
                match pattern.strip_suffix('*') {
                    Some(prefix) => id.starts_with(prefix),
                    None => id == pattern,
                }
            })
    };
    for pattern in &options.rules {
        let pattern = pattern
            .strip_prefix(&format!("{backend}::"))
            .unwrap_or(pattern);
        let known = rules::catalogue()
            .iter()
            .map(Rule::id)
            .chain([RECALL, FLOOR]);
        let mut known = known.filter(|id| match pattern.strip_suffix('*') {
            Some(prefix) => id.starts_with(prefix),
            None => *id == pattern,
        });
        if known.next().is_none() {
            let ids: Vec<&str> = rules::catalogue().iter().map(Rule::id).collect();
            return Err(format!(
                "--rules {pattern:?} matches no test; the rules are {}, {RECALL} and {FLOOR}",
                ids.join(", ")
            ));
        }
    }
    let mut selected: Vec<Selected> = rules::catalogue()
        .iter()
        .filter(|rule| matches(rule.id()))
        .map(Selected::Rule)
        .collect();
    if let Some(dir) = &options.snapshots
        && matches(RECALL)
    {
        selected.push(Selected::Recall(dir.clone()));
    }
    if !options.recall_floor.is_empty() && matches(FLOOR) {
        selected.push(Selected::Floor(options.recall_floor.clone()));
    }
    if let Some((part, of)) = options.partition {
        selected = selected
            .into_iter()
            .enumerate()
            .filter(|(i, _)| i % of == part - 1)
            .map(|(_, test)| test)
            .collect();
    }
    Ok(selected)
}

fn rule_run(gate: &Gate, rule: &'static Rule) -> TestRun {
    let verdict = gate.check(rule);
    let name = gate.subject().test_name(rule.id());
    let (outcome, detail, known_violation) = match &verdict {
        Verdict::Passed { .. } => ("ok", None, false),
        Verdict::NotApplicable { reason } => ("ignored", Some(reason.clone()), false),
        Verdict::KnownViolationShown { .. } | Verdict::KnownViolationNotShown { .. } => {
            ("ok", verdict.known_violation_note(), true)
        }
        red => (
            "FAILED",
            Some(red.to_string()),
            matches!(red, Verdict::KnownViolationGone { .. }),
        ),
    };
    TestRun {
        name,
        outcome,
        detail,
        known_violation,
    }
}

fn recall_run(gate: &Gate, dir: &std::path::Path) -> TestRun {
    let name = gate.subject().test_name(RECALL);
    let stem: String = gate
        .subject()
        .backend()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    let pinned = gate.observe_recall().and_then(|pins| {
        let problems: Vec<String> = pins
            .iter()
            .map(|(suffix, text)| snapshot::pin(dir, &format!("{stem}.{suffix}.md"), text))
            .filter_map(Result::err)
            .collect();
        if problems.is_empty() {
            Ok(())
        } else {
            Err(problems.join("\n"))
        }
    });
    let (outcome, detail) = match pinned {
        Ok(()) => ("ok", None),
        Err(problem) => ("FAILED", Some(problem)),
    };
    TestRun {
        name,
        outcome,
        detail,
        known_violation: false,
    }
}

/// The recall benchmark against a fresh store, checked against the declared floor.
fn floor_run(gate: &Gate, floor: &RecallFloor) -> TestRun {
    let checked = gate.benchmark().and_then(|run| floor.check(&run));
    let (outcome, detail) = match checked {
        Ok(()) => ("ok", None),
        Err(problem) => ("FAILED", Some(format!("{problem}declared: {floor}"))),
    };
    TestRun {
        name: gate.subject().test_name(FLOOR),
        outcome,
        detail,
        known_violation: false,
    }
}

fn junit_case(run: &TestRun) -> Case {
    let outcome = match run.outcome {
        "ok" => Outcome::Passed {
            note: run.detail.clone(),
        },
        "ignored" => Outcome::Skipped(run.detail.clone().unwrap_or_default()),
        _ => Outcome::Failed(run.detail.clone().unwrap_or_default()),
    };
    Case {
        name: run.name.clone(),
        outcome,
    }
}

/// libtest's output: `running N tests`, a line per test, the failures, `test result: ...`.
struct Printer {
    visible: bool,
}

impl Printer {
    fn new(visible: bool, tests: usize) -> Self {
        if visible {
            println!("\nrunning {tests} tests");
        }
        Self { visible }
    }

    fn line(&mut self, run: &TestRun) {
        if !self.visible {
            return;
        }
        let kind = if run.known_violation {
            "[known-violation] "
        } else {
            ""
        };
        let reason = match (run.outcome, &run.detail) {
            ("ignored", Some(reason)) => format!(", {reason}"),
            _ => String::new(),
        };
        println!("test {kind}{} ... {}{reason}", run.name, run.outcome);
    }

    fn finish(&self, summary: &Summary<'_>) {
        let failed: Vec<&TestRun> = summary
            .tests
            .iter()
            .filter(|r| r.outcome == "FAILED")
            .collect();
        let mut out = String::new();
        if !failed.is_empty() {
            out.push_str("\nfailures:\n");
            for run in &failed {
                let _ = write!(
                    out,
                    "\n---- {} ----\n{}\n",
                    run.name,
                    run.detail.as_deref().unwrap_or_default()
                );
            }
            out.push_str("\nfailures:\n");
            for run in &failed {
                let _ = writeln!(out, "    {}", run.name);
            }
        }
        let _ = writeln!(
            out,
            "\ntest result: {}. {} passed; {} failed; {} ignored; 0 measured; {} filtered out",
            if failed.is_empty() { "ok" } else { "FAILED" },
            summary.passed,
            summary.failed,
            summary.ignored,
            summary.filtered_out
        );
        for run in summary
            .tests
            .iter()
            .filter(|r| r.known_violation && r.outcome == "ok")
        {
            let _ = writeln!(
                out,
                "  {} {}",
                run.name,
                run.detail.as_deref().unwrap_or_default()
            );
        }
        print!("{out}");
    }
}
