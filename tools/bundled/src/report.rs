//! `memory-conformance-bundled report`: every rule and the probe corpus against every bundled
//! backend, each through its gate's own code path (rules on their own threads, timeouts,
//! namespace cleanup, typed verdicts).

use std::fmt::Write as _;
use std::io::{IsTerminal, Write as _};
use std::path::PathBuf;
use std::process::ExitCode;

use memory_conformance::benchmark::{self, Benchmark, BenchmarkRun, Metrics, locomo_path};
use memory_conformance::conformance::rules::{self, Requirement};
use memory_conformance::conformance::{Gate, Verdict};
use memory_conformance::probe::{self, Difference, Observation};
use memory_conformance::profile::Profile;
use serde::Serialize;

use crate::bundled::BUNDLED;

/// The command's flags, as given.
#[derive(clap::Args)]
pub struct Flags {
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Markdown)]
    format: Format,
    /// Write the report to this file instead of standard output.
    #[arg(long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Only these backends (repeatable); all bundled backends by default.
    #[arg(long = "backend", value_name = "NAME")]
    backends: Vec<String>,
    /// Generated cases per rule.
    #[arg(long, default_value_t = 64)]
    cases: u32,
    /// The seed cases are generated from; fixed by default, so the report is reproducible.
    #[arg(long, default_value_t = 2026)]
    seed: u64,
    /// Fail (exit 1) when a backend cannot run here, instead of reporting it as not run.
    #[arg(long)]
    require_all: bool,
}

impl Flags {
    /// The report the flags ask for.
    pub fn options(self) -> Options {
        Options {
            json: matches!(self.format, Format::Json),
            output: self.output,
            backends: self.backends,
            cases: self.cases,
            seed: self.seed,
            require_all: self.require_all,
        }
    }
}

/// Report formats.
#[derive(Clone, Copy, clap::ValueEnum)]
enum Format {
    /// Markdown tables, for people and for BEHAVIOUR.md.
    Markdown,
    /// JSON, for CI.
    Json,
}

/// What the command line asked for.
pub struct Options {
    /// JSON instead of Markdown.
    pub json: bool,
    /// Where to write the report (standard output when `None`).
    pub output: Option<PathBuf>,
    /// Only these backends; all bundled backends when empty.
    pub backends: Vec<String>,
    /// Generated cases per rule.
    pub cases: u32,
    /// The seed cases are generated from.
    pub seed: u64,
    /// Fail when a backend could not run here.
    pub require_all: bool,
}

/// The whole report.
#[derive(Serialize)]
pub struct Report {
    kit_version: &'static str,
    corpus_version: u32,
    seed: u64,
    cases: u32,
    /// Why LoCoMo could not be read (absent: where to get it), when it could not.
    locomo_unavailable: Option<String>,
    backends: Vec<BackendReport>,
    /// The file name of the recall plot beside the Markdown report, when one is written.
    #[serde(skip)]
    plot: Option<String>,
}

#[derive(Serialize)]
struct BackendReport {
    name: String,
    version: String,
    /// Why the backend was not run, when it was not.
    not_run: Option<String>,
    profile: Option<Profile>,
    /// What is wrong with the gate's declaration.
    problems: Vec<String>,
    rules: Vec<RuleRow>,
    recall: Option<Observation>,
    /// Why the recall could not be observed, when it could not.
    recall_failed: Option<String>,
    difference: Option<Difference>,
    /// The figures on the recall benchmark.
    recall_benchmark: Option<BenchmarkFigures>,
    /// Why the recall benchmark could not run, when it could not.
    recall_benchmark_failed: Option<String>,
    /// The figures on LoCoMo.
    locomo: Option<BenchmarkFigures>,
    /// Why LoCoMo could not run against the backend, when it could not.
    locomo_failed: Option<String>,
}

/// A backend's figures on the recall benchmark, overall and per question kind.
#[derive(Serialize)]
struct BenchmarkFigures {
    version: u32,
    overall: Metrics,
    by_kind: std::collections::BTreeMap<&'static str, Metrics>,
    #[serde(skip)]
    run: BenchmarkRun,
}

impl BenchmarkFigures {
    fn of(run: BenchmarkRun) -> Self {
        Self {
            version: run.version,
            overall: run.overall(),
            by_kind: run
                .dataset
                .kinds()
                .iter()
                .map(|&kind| (kind.name(), run.of_kind(kind)))
                .collect(),
            run,
        }
    }
}

#[derive(Serialize)]
struct RuleRow {
    rule: &'static str,
    requirement: Requirement,
    outcome: &'static str,
    /// The known violation's reason, the failure report or why the rule does not apply.
    detail: Option<String>,
    #[serde(skip)]
    green: bool,
}

impl Report {
    /// Runs `gates` with the options' seed and cases, one backend after the other.
    pub fn of(gates: Vec<Gate>, options: &Options) -> Self {
        let progress = Progress::new(gates.len() * (rules::catalogue().len() + STEPS_BEYOND_RULES));
        let reference = Observation::reference();
        let locomo = Benchmark::locomo(&locomo_path());
        let backends = gates
            .into_iter()
            .map(|gate| backend_report(gate, options, &reference, locomo.as_ref().ok(), &progress))
            .collect();
        progress.finish();
        Self {
            kit_version: env!("CARGO_PKG_VERSION"),
            corpus_version: probe::VERSION,
            seed: options.seed,
            cases: options.cases,
            locomo_unavailable: locomo.err(),
            backends,
            plot: options
                .output
                .as_deref()
                .and_then(plot_path)
                .and_then(|p| Some(p.file_name()?.to_string_lossy().into_owned())),
        }
    }

    /// The recall plot (SVG) of every backend that ran the benchmark.
    pub fn plot(&self) -> String {
        let runs: Vec<&BenchmarkRun> = self
            .backends
            .iter()
            .filter_map(|b| Some(&b.recall_benchmark.as_ref()?.run))
            .collect();
        benchmark::svg(&runs)
    }

    /// Whether a gate that ran is red.
    pub fn is_red(&self) -> bool {
        self.backends.iter().any(|b| {
            !b.problems.is_empty()
                || b.recall_failed.is_some()
                || b.recall_benchmark_failed.is_some()
                || b.locomo_failed.is_some()
                || b.rules.iter().any(|r| !r.green)
        })
    }

    /// The backends that did not run here, with the reason.
    pub fn not_run(&self) -> Vec<(&str, &str)> {
        self.backends
            .iter()
            .filter_map(|b| Some((b.name.as_str(), b.not_run.as_deref()?)))
            .collect()
    }

    /// The report as Markdown (BEHAVIOUR.md).
    pub fn to_markdown(&self) -> String {
        markdown(self)
    }

    /// The report as pretty JSON.
    pub fn to_json(&self) -> Result<String, String> {
        serde_json::to_string_pretty(self)
            .map(|json| json + "\n")
            .map_err(|err| format!("cannot render JSON: {err}"))
    }
}

/// Runs the report over the bundled backends and writes it; exit 1 when a gate is red, or
/// when a backend did not run and `require_all` is set. Their bridges' stderr is quoted
/// verbatim ([`show_stderr_verbatim`](memory_conformance::process::show_stderr_verbatim)).
pub fn run(options: Options) -> Result<ExitCode, String> {
    // The bundled backends see only the kit's generated data: their bridges' stderr is shown
    // as written, as BEHAVIOUR.md quotes it.
    memory_conformance::process::show_stderr_verbatim();
    let chosen = BUNDLED.among(&options.backends)?;
    let report = Report::of(chosen.clone(), &options);
    let text = if options.json {
        report.to_json()?
    } else {
        report.to_markdown() + &crate::replicas::replicas_section(&chosen)
    };
    match &options.output {
        Some(path) => {
            std::fs::write(path, text)
                .map_err(|err| format!("cannot write {}: {err}", path.display()))?;
            if let (false, Some(plot)) = (options.json, plot_path(path)) {
                std::fs::write(&plot, report.plot())
                    .map_err(|err| format!("cannot write {}: {err}", plot.display()))?;
            }
        }
        None => print!("{text}"),
    }
    let not_run = report.not_run();
    for (name, why) in &not_run {
        eprintln!("memory-conformance-bundled: backend {name:?} was not run: {why}");
    }
    let incomplete = options.require_all && !not_run.is_empty();
    if incomplete {
        eprintln!(
            "memory-conformance-bundled: --require-all is set, and {} backend(s) did not run",
            not_run.len()
        );
    }
    Ok(if report.is_red() || incomplete {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// Where the recall plot of a Markdown report at `output` goes: beside it, `NAME.recall.svg`.
fn plot_path(output: &std::path::Path) -> Option<PathBuf> {
    let stem = output.file_stem()?.to_string_lossy().into_owned();
    Some(output.with_file_name(format!("{stem}.recall.svg")))
}

/// The steps of a backend beyond its rules: the probe corpus, the recall benchmark, LoCoMo.
const STEPS_BEYOND_RULES: usize = 3;

fn backend_report(
    gate: Gate,
    options: &Options,
    reference: &Observation,
    locomo: Option<&Benchmark>,
    progress: &Progress,
) -> BackendReport {
    let name = gate.subject().backend().to_owned();
    let version = gate.description().to_owned();
    if let Some(why) = gate.unavailable_reason() {
        progress.skip(rules::catalogue().len() + STEPS_BEYOND_RULES, &name);
        return BackendReport {
            name,
            version,
            not_run: Some(why.to_owned()),
            profile: None,
            problems: Vec::new(),
            rules: Vec::new(),
            recall: None,
            recall_failed: None,
            difference: None,
            recall_benchmark: None,
            recall_benchmark_failed: None,
            locomo: None,
            locomo_failed: None,
        };
    }
    let gate = gate
        .seed(options.seed)
        .cases(options.cases)
        .reproduce_with(format!(
            "memory-conformance-bundled report --backend {name} --seed {{seed}} --cases {}",
            options.cases
        ));
    let profile = gate.subject().profile().clone();
    let ran = gate.run_with(|rule| progress.step(&name, rule.id()));
    let rows = ran
        .runs()
        .iter()
        .map(|run| {
            let verdict = run.verdict();
            let detail = match verdict {
                Verdict::Passed { .. } => None,
                Verdict::NotApplicable { reason } => Some(reason.clone()),
                // The same row whether the race was hit or not, so the report stays the same
                // from run to run.
                Verdict::KnownViolationShown { violation, .. }
                | Verdict::KnownViolationNotShown { violation, .. }
                    if violation.is_intermittent() =>
                {
                    Some(format!(
                        "{} (a race: the violation shows in some runs and not in others, so the rule is not enforced)",
                        violation.reason()
                    ))
                }
                Verdict::KnownViolationShown { violation, failure } => Some(format!(
                    "{}\n{}{}",
                    violation.reason(),
                    failure.scenario(),
                    failure.mismatch()
                )),
                other => Some(other.to_string()),
            };
            RuleRow {
                rule: run.rule().id(),
                requirement: run.rule().requirement(),
                outcome: verdict.label(),
                detail,
                green: verdict.is_green(),
            }
        })
        .collect();
    progress.step(&name, "probe corpus");
    let (recall, recall_failed) = match gate.observe() {
        Ok(observed) => (Some(observed), None),
        Err(problem) => (None, Some(format!("the probe corpus {problem}"))),
    };
    let difference = recall
        .as_ref()
        .map(|observed| Difference::between(observed, &profile, reference));
    progress.step(&name, "recall benchmark");
    let (recall_benchmark, recall_benchmark_failed) = match gate.benchmark() {
        Ok(run) => (Some(BenchmarkFigures::of(run)), None),
        Err(problem) => (None, Some(format!("the recall benchmark: {problem}"))),
    };
    progress.step(&name, "LoCoMo");
    let (locomo, locomo_failed) = match locomo.map(|data| gate.benchmark_on(data)) {
        None => (None, None),
        Some(Ok(run)) => (Some(BenchmarkFigures::of(run)), None),
        Some(Err(problem)) => (None, Some(format!("LoCoMo: {problem}"))),
    };
    BackendReport {
        name,
        version,
        not_run: None,
        profile: Some(profile),
        problems: ran.problems().to_vec(),
        rules: rows,
        recall,
        recall_failed,
        difference,
        recall_benchmark,
        recall_benchmark_failed,
        locomo,
        locomo_failed,
    }
}

fn markdown(report: &Report) -> String {
    let mut out = String::new();
    let ran: Vec<&BackendReport> = report
        .backends
        .iter()
        .filter(|b| b.not_run.is_none())
        .collect();
    let _ = writeln!(out, "# How agent-memory backends behave\n");
    let which = if ran.len() == report.backends.len() {
        "every bundled backend".to_owned()
    } else {
        format!(
            "{} of the {} bundled backends (the others could not run here; see below)",
            ran.len(),
            report.backends.len()
        )
    };
    let _ = writeln!(
        out,
        "Generated by `memory-conformance-bundled report` (kit {}, probe corpus version {}, seed {}, {} cases per rule) \
         from real runs of {which}. Do not edit by hand: CI regenerates this file and fails when it \
         differs.\n",
        report.kit_version, report.corpus_version, report.seed, report.cases
    );
    let _ = writeln!(out, "## Backends\n\n| backend | what ran |\n|---|---|");
    for backend in &report.backends {
        let what = match &backend.not_run {
            None => backend.version.clone(),
            Some(why) => format!("{} (not run: {why})", backend.version),
        };
        let _ = writeln!(out, "| {} | {} |", backend.name, what.replace('|', "\\|"));
    }
    let profiles: Vec<&Profile> = ran.iter().filter_map(|b| b.profile.as_ref()).collect();
    let _ = writeln!(
        out,
        "\n## Declared profiles\n\n{}",
        Profile::markdown_table(&profiles)
    );
    let _ = write!(out, "## Conformance\n\n| rule | requirement |");
    for backend in &ran {
        let _ = write!(out, " {} |", backend.name);
    }
    let _ = write!(out, "\n|---|---|{}\n", "---|".repeat(ran.len()));
    for (i, rule) in rules::catalogue().iter().enumerate() {
        let _ = write!(out, "| {} | {} |", rule.id(), rule.requirement());
        for backend in &ran {
            let _ = write!(out, " {} |", backend.rules.get(i).map_or("", |r| r.outcome));
        }
        out.push('\n');
    }
    let _ = writeln!(out, "\nWhat each rule checks:\n");
    for rule in rules::catalogue() {
        let _ = writeln!(out, "- `{}`: {}", rule.id(), rule.statement());
    }
    let notes: Vec<(&str, &RuleRow)> = ran
        .iter()
        .flat_map(|b| b.rules.iter().map(move |r| (b.name.as_str(), r)))
        .filter(|(_, r)| !matches!(r.outcome, "pass" | "ignored"))
        .collect();
    let problems: Vec<(&str, &str)> = ran
        .iter()
        .flat_map(|b| {
            let declaration = b.problems.iter().map(String::as_str);
            let recall = b.recall_failed.iter().map(String::as_str);
            let benchmark = b.recall_benchmark_failed.iter().map(String::as_str);
            let locomo = b.locomo_failed.iter().map(String::as_str);
            declaration
                .chain(recall)
                .chain(benchmark)
                .chain(locomo)
                .map(move |p| (b.name.as_str(), p))
        })
        .collect();
    if !notes.is_empty() || !problems.is_empty() {
        let _ = writeln!(out, "\n### Known violations and failures\n");
        for (backend, problem) in &problems {
            let _ = writeln!(out, "- **{backend}**: {}", problem.replace('\n', " "));
        }
        for (backend, row) in notes {
            let detail = row.detail.as_deref().unwrap_or_default();
            let mut lines = detail.lines();
            let _ = writeln!(
                out,
                "- **{backend}**, `{}` ({}): {}",
                row.rule,
                row.outcome,
                lines.next().unwrap_or_default()
            );
            let rest: Vec<&str> = lines.collect();
            if !rest.is_empty() {
                let _ = writeln!(
                    out,
                    "\n  ```text\n{}\n  ```\n",
                    rest.iter()
                        .map(|l| format!("  {l}"))
                        .collect::<Vec<_>>()
                        .join("\n")
                );
            }
        }
    }
    let observations: Vec<&Observation> = ran.iter().filter_map(|b| b.recall.as_ref()).collect();
    let _ = write!(
        out,
        "\n## Recall on the probe corpus\n\n{}",
        Observation::markdown_table(&observations)
    );
    let runs: Vec<&BenchmarkRun> = ran
        .iter()
        .filter_map(|b| Some(&b.recall_benchmark.as_ref()?.run))
        .collect();
    // An approximate index's recall on LoCoMo changes from run to run (pgvector's HNSW draws
    // its graph's levels at random), so it is named, not tabled.
    let approximate = |b: &BackendReport| {
        b.profile.as_ref().is_some_and(|p| {
            matches!(&p.retrieval, memory_conformance::profile::Retrieval::Vector(search)
                if matches!(search.index, memory_conformance::profile::VectorIndex::Approximate { .. }))
        })
    };
    let locomo_runs: Vec<&BenchmarkRun> = ran
        .iter()
        .filter(|b| !approximate(b))
        .filter_map(|b| Some(&b.locomo.as_ref()?.run))
        .collect();
    let locomo_unpinned: Vec<&str> = ran
        .iter()
        .filter(|b| approximate(b) && b.locomo.is_some())
        .map(|b| b.name.as_str())
        .collect();
    let locomo_failed: Vec<(&str, &str)> = ran
        .iter()
        .filter_map(|b| Some((b.name.as_str(), b.locomo_failed.as_deref()?)))
        .collect();
    out.push_str(&crate::locomo::section(
        &locomo_runs,
        report.locomo_unavailable.as_deref(),
        &locomo_failed,
        &locomo_unpinned,
    ));
    if let Some(first) = runs.first() {
        let _ = writeln!(
            out,
            "\n## Per-kind behaviour diagnostic (recall benchmark v1)\n\n\
             Where each backend's behaviour wins and loses, kind by kind, on the kit's own recall \
             benchmark version {} (docs/recall-benchmark.md: {} questions over {} users' \
             histories, each labelled with the events that answer it). Each kind is built to \
             separate two kinds of backend (many share no word with the answer on purpose, others \
             reward a tokenisation choice), and with about 50 text events per user a random top 10 \
             already reaches a fifth of the answers: the figures below diagnose behaviour; they are \
             no measure of recall quality, which the LoCoMo section above gives. recall@k: the share of a \
             question's answering events among the first k entries returned, averaged over the \
             answerable questions; MRR: the mean of 1 / the rank of the first answering entry. A \
             backend that does not rank (the reference returns every match in storage order) is \
             measured the same way, by where its answers fall in what it returns; one that promises no \
             order at all (`order = unordered`) has its entries counted in event-id order, as its \
             own changes from run to run. Each question's outcome is pinned in the backend's recall snapshots; \
             `memory-conformance-bundled compare A B` shows two backends question by question.\n\n{}",
            first.version,
            first.results.len(),
            benchmark::Benchmark::v1()
                .sessions
                .iter()
                .map(|s| s.user_id.as_str())
                .collect::<std::collections::BTreeSet<_>>()
                .len(),
            benchmark::overall_table(&runs)
        );
        let _ = writeln!(
            out,
            "By question kind (recall@5 / MRR; for tool-only questions, which nothing in indexed \
             text answers, the share that returned nothing):\n\n{}",
            benchmark::by_kind_table(&runs)
        );
        match &report.plot {
            Some(plot) => {
                let _ = writeln!(out, "![Recall@5 by question kind and backend]({plot})");
            }
            None => {
                let _ = writeln!(
                    out,
                    "(The plot of these figures is written beside the report when it is written to a file with `--output`.)"
                );
            }
        }
    }
    let _ = writeln!(out, "\n## Differences from the reference\n");
    for backend in ran.iter().filter(|b| b.name != "reference") {
        if let Some(difference) = &backend.difference {
            let _ = writeln!(out, "### {}\n\n{}", backend.name, difference.to_markdown());
        }
    }
    out
}

/// A one-line progress indicator on standard error, shown only on a terminal.
struct Progress {
    total: usize,
    done: std::sync::atomic::AtomicUsize,
    visible: bool,
}

impl Progress {
    fn new(total: usize) -> Self {
        Self {
            total,
            done: std::sync::atomic::AtomicUsize::new(0),
            visible: std::io::stderr().is_terminal(),
        }
    }

    fn step(&self, backend: &str, what: &str) {
        let done = self.done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
        if self.visible {
            let mut err = std::io::stderr();
            let _ = write!(err, "\r\x1b[2K[{done}/{}] {backend}: {what}", self.total);
            let _ = err.flush();
        }
    }

    fn skip(&self, steps: usize, backend: &str) {
        self.done.fetch_add(
            steps.saturating_sub(1),
            std::sync::atomic::Ordering::Relaxed,
        );
        self.step(backend, "not run");
    }

    fn finish(&self) {
        if self.visible {
            eprintln!("\r\x1b[2K{} steps done", self.total);
        }
    }
}
