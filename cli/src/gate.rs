//! `memory-conformance gate`: every rule of the kit, and the recall snapshot, against a backend
//! behind a bridge command, with no Rust to write: libtest-like output, JUnit XML, JSON.

use std::ffi::OsString;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use memory_conformance::conformance::rules::{self, Rule};
use memory_conformance::conformance::{DEFAULT_OP_TIMEOUT, KnownViolation, ProfileFile};
use memory_conformance::conformance::{
    Gate, RECALL_FLOOR, RECALL_SNAPSHOT, RuleSetVersion, Subject, Trial, TrialOutcome,
};
use memory_conformance::process::bridged_subject;
use serde::Serialize;

use crate::junit::{self, Case, Outcome};
use crate::profiles;
use crate::reproduce;
use crate::snapshot;

/// What the command line asked for.
pub struct Options {
    /// The bridge's program and its arguments.
    pub command: Vec<OsString>,
    /// The profile file the backend declares (a preset's is the preset alone), with what the
    /// command line adds to it or sets instead: known violations, cases, seed.
    pub file: ProfileFile,
    /// How `--profile` named it, for the reproduction command.
    pub profile_arg: String,
    /// The backend's name in test names; the profile's name by default.
    pub backend: Option<String>,
    /// Only the tests whose id or name matches one of these (`key.isolation`, `key.*`,
    /// `backend::key.isolation`); every test when empty.
    pub rules: Vec<String>,
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
    /// How long the whole run may take, if bounded.
    pub budget: Option<Duration>,
    /// The per-call timeout `--op-timeout` gave, for the reproduction command.
    pub op_timeout_flag: Option<u64>,
    /// The reproduction command failures print, when the runner gives its own (`--reproduce`).
    pub reproduce: Option<String>,
    /// How many tests run at once, each on a bridge child of its own.
    pub test_threads: usize,
}

/// The command's flags, as given.
#[derive(clap::Args)]
pub struct Flags {
    /// The profile the backend declares: a profile file (.toml, docs/profile-format.md),
    /// whose known violations and gate options apply too, or a preset name (reference,
    /// adk-python, adk-python-sqlite, adk-js, adk-java, adk-go, adk-rust-in-memory,
    /// adk-rust-sqlite, sqlite-fts5).
    #[arg(long, value_name = "FILE|NAME")]
    pub profile: String,
    /// The backend's name in test names (default: the profile's name).
    #[arg(long, value_name = "NAME")]
    pub backend: Option<String>,
    /// A rule the backend breaks on purpose, and why: `rule.id=reason` (repeatable).
    #[arg(long = "known-violation", value_name = "RULE=REASON")]
    pub known_violations: Vec<String>,
    /// Only these tests: a rule id, a group (`key.*`) or `snapshot.recall` (repeatable).
    #[arg(long = "rules", value_name = "PATTERN")]
    pub rules: Vec<String>,
    /// Generated cases per rule (default: PROPTEST_CASES, else 256).
    #[arg(long)]
    pub cases: Option<u32>,
    /// The seed cases are generated from (default: PROPTEST_RNG_SEED, else random).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Count only the rules of this kit version's rule set (`0.1`); a later rule runs and is
    /// reported as new without failing the gate (default: the profile file's `rules_as_of`,
    /// else every rule of the kit).
    #[arg(long, value_name = "VERSION")]
    pub rules_as_of: Option<RuleSetVersion>,
    /// How long the whole run may take (`90s`, `5m`, `1h`, `1m30s`): the rules share it, each
    /// running the cases that fit its share, at least one; the summary says what ran.
    #[arg(long, value_name = "DURATION", value_parser = parse_duration)]
    pub budget: Option<Duration>,
    /// Run only part K of N of the tests, as `K/N` (to split a slow gate across machines).
    #[arg(long, value_name = "K/N", value_parser = parse_partition)]
    pub partition: Option<(usize, usize)>,
    /// Also write JUnit XML, which CI systems display, to this file.
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
    /// Output format on standard output.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Pin the backend's recall on the probe corpus in this folder (test `snapshot.recall`).
    #[arg(long, value_name = "DIR")]
    pub snapshots: Option<PathBuf>,
    /// How long one call of the bridge may take, in seconds (default: the profile file's,
    /// else the kit's default, 20).
    #[arg(long, value_name = "SECONDS")]
    pub op_timeout: Option<u64>,
    /// The command a failure says reruns its rule, for a runner that runs this gate for the
    /// user (the pytest plugin gives its node id): `{id}` stands for the rule's id, `{rule}`
    /// for its test name, `{seed}` for the seed (default: this command, `--rules {id} --seed
    /// {seed}`, with the same profile and bridge).
    #[arg(long, value_name = "COMMAND")]
    pub reproduce: Option<String>,
    /// How many tests run at once, each on a child of the bridge of its own, so the backend's
    /// work spreads over as many cores (default: the machine's cores).
    #[arg(long, value_name = "N")]
    pub test_threads: Option<usize>,
    /// The bridge's program and arguments.
    #[arg(last = true, required = true, value_name = "COMMAND")]
    pub command: Vec<std::ffi::OsString>,
}

impl Flags {
    /// The run the flags ask for: the profile file loaded, the flags' known violations before
    /// its own, their cases, seed and rule set winning over its, and the per-call timeout the flag's,
    /// else the file's, else [`DEFAULT_OP_TIMEOUT`]. `Err` names what is wrong.
    pub fn options(self) -> Result<Options, String> {
        let declared = self
            .known_violations
            .iter()
            .map(|declared| {
                declared
                    .split_once('=')
                    .map(|(rule, reason)| KnownViolation::declared(rule.trim(), reason.trim()))
                    .ok_or_else(|| format!("--known-violation {declared:?} is not RULE=REASON"))
            })
            .collect::<Result<Vec<_>, String>>()?;
        let mut file = profiles::load(&self.profile)?;
        // The bridge owns the file's timeout: the gate does not apply it again.
        let op_timeout = self
            .op_timeout
            .or(file.op_timeout_seconds.take())
            .unwrap_or(DEFAULT_OP_TIMEOUT.as_secs())
            .max(1);
        file.known_violations.splice(0..0, declared);
        file.cases = self.cases.or(file.cases);
        file.seed = self.seed.or(file.seed);
        file.rules_as_of = self.rules_as_of.or(file.rules_as_of);
        Ok(Options {
            command: self.command,
            file,
            profile_arg: self.profile,
            backend: self.backend,
            rules: self.rules,
            partition: self.partition,
            junit: self.junit,
            json: matches!(self.format, Format::Json),
            snapshots: self.snapshots,
            op_timeout: Duration::from_secs(op_timeout),
            budget: self.budget,
            op_timeout_flag: self.op_timeout,
            reproduce: self.reproduce,
            test_threads: self
                .test_threads
                .unwrap_or_else(|| {
                    std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
                })
                .max(1),
        })
    }
}

/// What `gate` writes on standard output.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum Format {
    /// libtest's lines.
    Text,
    /// One JSON document.
    Json,
}

/// `90s`, `5m`, `1h`, `1m30s`, or a number of seconds.
fn parse_duration(text: &str) -> Result<Duration, String> {
    let expected = || format!("{text:?} is not a duration such as 90s, 5m, 1h or 1m30s");
    if let Ok(seconds) = text.parse::<u64>() {
        return Ok(Duration::from_secs(seconds));
    }
    let mut total = 0u64;
    let mut number = String::new();
    for c in text.chars() {
        if c.is_ascii_digit() {
            number.push(c);
            continue;
        }
        let unit = match c {
            'h' => 3600,
            'm' => 60,
            's' => 1,
            _ => return Err(expected()),
        };
        let value: u64 = number.parse().map_err(|_| expected())?;
        total = value
            .checked_mul(unit)
            .and_then(|v| total.checked_add(v))
            .ok_or_else(expected)?;
        number.clear();
    }
    if !number.is_empty() || total == 0 {
        return Err(expected());
    }
    Ok(Duration::from_secs(total))
}

fn parse_partition(text: &str) -> Result<(usize, usize), String> {
    let (part, of) = text
        .split_once('/')
        .ok_or_else(|| format!("{text:?} is not K/N, for example 1/3"))?;
    let part: usize = part
        .parse()
        .map_err(|_| format!("{part:?} is not a number"))?;
    let of: usize = of.parse().map_err(|_| format!("{of:?} is not a number"))?;
    if of == 0 || part == 0 || part > of {
        return Err(format!("{text:?}: K must be from 1 to N, and N at least 1"));
    }
    Ok((part, of))
}

/// One test of the run, as the gate's trial came out, formatted.
#[derive(Serialize)]
struct TestRun {
    name: String,
    outcome: Shown,
    /// The failure report, the reason a test was ignored, a known violation's reason, or a
    /// new rule's report.
    detail: Option<String>,
    /// Whether the rule is later than the rule set the gate pins: it ran, and does not count.
    new_rule: bool,
    #[serde(skip)]
    known_violation: bool,
}

/// A trial's outcome as libtest writes it.
#[derive(Clone, Copy, PartialEq, Eq, Serialize)]
enum Shown {
    #[serde(rename = "ok")]
    Ok,
    #[serde(rename = "FAILED")]
    Failed,
    #[serde(rename = "ignored")]
    Ignored,
}

impl Shown {
    fn as_str(self) -> &'static str {
        match self {
            Self::Ok => "ok",
            Self::Failed => "FAILED",
            Self::Ignored => "ignored",
        }
    }
}

#[derive(Serialize)]
struct Summary<'a> {
    backend: &'a str,
    profile: &'a str,
    /// The rule set the gate counted: the one `rules_as_of` pins, else the kit's.
    rule_set: RuleSetVersion,
    /// Whether `rules_as_of` pins it.
    rules_pinned: bool,
    seed: Option<u64>,
    tests: &'a [TestRun],
    passed: usize,
    failed: usize,
    ignored: usize,
    filtered_out: usize,
    spent: SpentJson,
    /// The lexicon queries the cases drew from each named generator, and its declared share.
    lexicon_draws: Vec<LexiconDrawJson>,
    /// The summary's lines about what the run spent (the budget, slow opening, the lexicon
    /// draws).
    #[serde(skip)]
    spent_lines: String,
}

/// One generator's lexicon draws in the run.
#[derive(Serialize)]
struct LexiconDrawJson {
    generator: &'static str,
    /// Its declared share, of the sum of all generators' shares.
    share: u32,
    draws: u64,
}

/// What the run spent, in seconds.
#[derive(Serialize)]
struct SpentJson {
    budget_seconds: Option<f64>,
    elapsed_seconds: f64,
    planned_cases: u64,
    cases: u64,
    stores_opened: u64,
    opening_seconds: f64,
}

/// Runs the gate; `Err` is bad input or a backend that could not start (exit 2).
pub fn run(options: Options) -> Result<ExitCode, String> {
    let started = std::time::Instant::now();
    let backend = options
        .backend
        .clone()
        .unwrap_or_else(|| options.file.profile.name.clone());
    let (subject, bridge) = bridged_subject(
        &options.command,
        &backend,
        options.file.profile.clone(),
        options.op_timeout,
        options.test_threads,
    )?;
    let gate = gate(&options, subject, started);
    if let Err(problem) = gate.validate() {
        return Err(format!("the gate's declaration is wrong: {problem}"));
    }
    let trials = gate.trials();
    let listed = trials
        .iter()
        .filter(|test| test.id() != RECALL_SNAPSHOT || options.snapshots.is_some())
        .count();
    let selected = select(&options, &backend, trials)?;
    let filtered_out = listed - selected.len();
    let lanes = if gate.one_rule_at_a_time_reason().is_some() {
        1
    } else {
        options.test_threads.min(selected.len()).max(1)
    };
    gate.run_in_lanes(lanes);
    let mut printer = Printer::new(!options.json, selected.len());
    let runs = run_in_lanes(&gate, selected, lanes, &options.snapshots, &mut |run| {
        printer.line(run);
        // A dead bridge is one error: every later test would fail the same way.
        match bridge.broken() {
            Some(why) => Err(format!(
                "the bridge stopped working during {}, so the gate stopped there: {why}",
                run.name
            )),
            None => Ok(()),
        }
    })?;
    let count = |outcome: Shown| runs.iter().filter(|r| r.outcome == outcome).count();
    let spent = gate.spent();
    let draws = gate.lexicon_draws();
    let summary = Summary {
        backend: &backend,
        profile: &options.file.profile.name,
        rule_set: gate.rule_set(),
        rules_pinned: gate.pinned_rule_set().is_some(),
        seed: options.file.seed,
        tests: &runs,
        passed: count(Shown::Ok),
        failed: count(Shown::Failed),
        ignored: count(Shown::Ignored),
        filtered_out,
        spent: SpentJson {
            budget_seconds: spent.budget.map(|b| b.as_secs_f64()),
            elapsed_seconds: spent.elapsed.as_secs_f64(),
            planned_cases: spent.planned_cases,
            cases: spent.cases,
            stores_opened: spent.opens,
            opening_seconds: spent.opening.as_secs_f64(),
        },
        lexicon_draws: draws
            .by_generator()
            .iter()
            .map(|g| LexiconDrawJson {
                generator: g.generator,
                share: g.share,
                draws: g.draws,
            })
            .collect(),
        spent_lines: [spent.to_string(), draws.to_string(), reuse_line(&bridge)]
            .into_iter()
            .filter(|lines| !lines.is_empty())
            .collect::<Vec<_>>()
            .join("\n"),
    };
    if let Some(path) = &options.junit {
        let cases: Vec<Case> = runs.iter().map(junit_case).collect();
        let properties = [("rule_set", summary.rule_set.to_string())];
        std::fs::write(path, junit::render(&backend, &properties, &cases))
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

fn gate(options: &Options, subject: Subject, started: std::time::Instant) -> Gate {
    let gate = match options.budget {
        Some(budget) => Gate::new(subject).budget_from(budget, started),
        None => Gate::new(subject),
    };
    gate.reproduce_with(
        options
            .reproduce
            .clone()
            .unwrap_or_else(|| reproduce_line(options)),
    )
    .declared_by(&options.file)
}

/// The command that reruns one rule (`{id}`) from one seed (`{seed}`): this command, with the
/// profile, backend name, cases and per-call timeout as given, and the same bridge command.
fn reproduce_line(options: &Options) -> String {
    let mut words: Vec<String> = [
        "memory-conformance",
        "gate",
        "--profile",
        &options.profile_arg,
    ]
    .map(str::to_owned)
    .into();
    if let Some(backend) = &options.backend {
        words.extend(["--backend".to_owned(), backend.clone()]);
    }
    words.extend(["--rules", "{id}", "--seed", "{seed}"].map(str::to_owned));
    if let Some(cases) = options.file.cases {
        words.extend(["--cases".to_owned(), cases.to_string()]);
    }
    if let Some(seconds) = options.op_timeout_flag {
        words.extend(["--op-timeout".to_owned(), seconds.to_string()]);
    }
    words.push("--".to_owned());
    words.extend(reproduce::command_words(&options.command));
    reproduce::shell_line(words)
}

/// The trials `--rules` and `--partition` leave, in the gate's order; the recall snapshot only
/// with `--snapshots`, and the checks of the gate's declaration always.
fn select(options: &Options, backend: &str, trials: Vec<Trial>) -> Result<Vec<Trial>, String> {
    let matching = |pattern: &str, id: &str| {
        let pattern = pattern
            .strip_prefix(&format!("{backend}::"))
            .unwrap_or(pattern);
        match pattern.strip_suffix('*') {
            Some(prefix) => id.starts_with(prefix),
            None => id == pattern,
        }
    };
    let ids = || {
        rules::catalogue()
            .iter()
            .map(Rule::id)
            .chain([RECALL_SNAPSHOT, RECALL_FLOOR])
    };
    for pattern in &options.rules {
        if !ids().any(|id| matching(pattern, id)) {
            let pattern = pattern
                .strip_prefix(&format!("{backend}::"))
                .unwrap_or(pattern);
            let rules: Vec<&str> = rules::catalogue().iter().map(Rule::id).collect();
            return Err(format!(
                "--rules {pattern:?} matches no test; the rules are {}, {RECALL_SNAPSHOT} and {RECALL_FLOOR}",
                rules.join(", ")
            ));
        }
    }
    let (declaration, tests): (Vec<Trial>, Vec<Trial>) = trials
        .into_iter()
        .filter(|test| test.id() != RECALL_SNAPSHOT || options.snapshots.is_some())
        .partition(Trial::checks_the_declaration);
    let mut selected: Vec<Trial> = tests
        .into_iter()
        .filter(|test| {
            options.rules.is_empty()
                || options
                    .rules
                    .iter()
                    .any(|pattern| matching(pattern, test.id()))
        })
        .collect();
    if let Some((part, of)) = options.partition {
        selected = selected
            .into_iter()
            .enumerate()
            .filter(|(i, _)| i % of == part - 1)
            .map(|(_, test)| test)
            .collect();
    }
    Ok(declaration.into_iter().chain(selected).collect())
}

/// Runs the `selected` trials `lanes` at a time, each lane a thread that takes the next trial
/// not yet taken, and hands each run to `done` in the trials' order; the first `Err` of
/// `done` stops the run there (the lanes start no more trials, and the runs still going are
/// left to the process's exit).
fn run_in_lanes(
    gate: &Gate,
    selected: Vec<Trial>,
    lanes: usize,
    snapshots: &Option<PathBuf>,
    done: &mut dyn FnMut(&TestRun) -> Result<(), String>,
) -> Result<Vec<TestRun>, String> {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    let total = selected.len();
    let selected = Arc::new(selected);
    let (next, stop) = (
        Arc::new(AtomicUsize::new(0)),
        Arc::new(AtomicBool::new(false)),
    );
    let (sender, receiver) = std::sync::mpsc::channel();
    for _ in 0..lanes {
        let (gate, selected, snapshots) = (gate.clone(), Arc::clone(&selected), snapshots.clone());
        let (next, stop, sender) = (Arc::clone(&next), Arc::clone(&stop), sender.clone());
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                let index = next.fetch_add(1, Ordering::Relaxed);
                let Some(test) = selected.get(index) else {
                    break;
                };
                let run = test_run(&gate, test, snapshots.as_deref());
                if sender.send((index, run)).is_err() {
                    break;
                }
            }
        });
    }
    drop(sender);
    let mut finished: Vec<Option<TestRun>> = (0..total).map(|_| None).collect();
    let mut runs = Vec::with_capacity(total);
    for (index, run) in receiver {
        finished[index] = Some(run);
        while let Some(run) = finished.get_mut(runs.len()).and_then(Option::take) {
            if let Err(stopped) = done(&run) {
                stop.store(true, Ordering::Relaxed);
                return Err(stopped);
            }
            runs.push(run);
        }
    }
    if runs.len() < total {
        return Err(format!(
            "{} of the {total} tests did not finish: a test's thread ended without a result",
            total - runs.len()
        ));
    }
    Ok(runs)
}

/// Runs one trial, the recall snapshot pinned in `snapshots`.
fn test_run(gate: &Gate, test: &Trial, snapshots: Option<&Path>) -> TestRun {
    let pin = |gate: &Gate| match snapshots {
        Some(dir) => pin_recall(gate, dir),
        None => Err("no folder to pin the recall in: give --snapshots".to_owned()),
    };
    let outcome = test.run(gate, &pin);
    let new_rule = outcome.new_rule_report().is_some();
    let note = outcome
        .known_violation_note()
        .or_else(|| outcome.new_rule_report())
        .or_else(|| {
            outcome
                .operation_mix()
                .map(|mix| format!("operation mix, {mix}"))
        });
    let (outcome, detail) = match outcome {
        TrialOutcome::Passed { .. } => (Shown::Ok, note),
        TrialOutcome::Ignored(reason) => (Shown::Ignored, Some(reason)),
        TrialOutcome::Failed { report, .. } => (Shown::Failed, Some(report)),
        _ => (
            Shown::Failed,
            Some("an outcome this command cannot show".to_owned()),
        ),
    };
    TestRun {
        name: gate.subject().test_name(test.id()),
        outcome,
        detail,
        new_rule,
        known_violation: test.is_known_violation(),
    }
}

/// Pins the gate's recall in `dir`, one file per snapshot.
fn pin_recall(gate: &Gate, dir: &Path) -> Result<(), String> {
    let stem = gate.subject().file_stem();
    let pins = gate.observe_recall()?;
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
}

fn junit_case(run: &TestRun) -> Case {
    let outcome = match run.outcome {
        Shown::Ok => Outcome::Passed {
            note: run.detail.clone(),
        },
        Shown::Ignored => Outcome::Skipped(run.detail.clone().unwrap_or_default()),
        Shown::Failed => Outcome::Failed(run.detail.clone().unwrap_or_default()),
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
            (Shown::Ignored, Some(reason)) => format!(", {reason}"),
            _ => String::new(),
        };
        println!(
            "test {kind}{} ... {}{reason}",
            run.name,
            run.outcome.as_str()
        );
    }

    fn finish(&self, summary: &Summary<'_>) {
        let failed: Vec<&TestRun> = summary
            .tests
            .iter()
            .filter(|r| r.outcome == Shown::Failed)
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
        let pinned = if summary.rules_pinned {
            format!(
                " (pinned by rules_as_of; this kit's are {})",
                RuleSetVersion::CURRENT
            )
        } else {
            String::new()
        };
        let _ = writeln!(out, "  rules {}{pinned}", summary.rule_set);
        for run in summary
            .tests
            .iter()
            .filter(|r| r.outcome == Shown::Ok && r.detail.is_some())
        {
            let _ = writeln!(
                out,
                "  {} {}",
                run.name,
                run.detail.as_deref().unwrap_or_default()
            );
        }
        for line in summary.spent_lines.lines() {
            let _ = writeln!(out, "  {line}");
        }
        print!("{out}");
    }
}

/// The summary's line saying that the bridge reuses its stores, cleared between cases (its
/// `hello`), or nothing.
fn reuse_line(bridge: &memory_conformance::process::BridgePool) -> String {
    if bridge.reuses_stores() {
        "stores reused: the bridge clears a dropped store's storage and gives it to a later \
         case (its hello's `reuses_stores`), so an entry of another case in a search is the \
         clearing's fault"
            .to_owned()
    } else {
        String::new()
    }
}
