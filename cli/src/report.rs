//! `memory-conformance report`: every rule and the probe corpus against every bundled backend.

use std::fmt::Write as _;
use std::io::{IsTerminal, Write as _};
use std::path::PathBuf;
use std::process::ExitCode;

use memory_conformance::conformance::{RuleOutcome, Subject};
use memory_conformance::probe::{self, Difference, Observation};
use memory_conformance::rules::{self, Requirement};
use memory_conformance::{Gate, InMemoryMemoryService, Profile};
use serde::Serialize;

use crate::backends::{Bundled, bundled};

/// What the command line asked for.
pub struct Options {
    pub json: bool,
    pub output: Option<PathBuf>,
    pub backends: Vec<String>,
    pub cases: u32,
    pub seed: u64,
}

/// The whole report.
#[derive(Serialize)]
struct Report {
    kit_version: &'static str,
    corpus_version: u32,
    seed: u64,
    cases: u32,
    backends: Vec<BackendReport>,
}

#[derive(Serialize)]
struct BackendReport {
    name: &'static str,
    version: String,
    /// Why the backend was not run, when it was not.
    not_run: Option<String>,
    profile: Option<Profile>,
    rules: Vec<RuleRow>,
    recall: Option<Observation>,
    difference: Option<Difference>,
}

#[derive(Serialize)]
struct RuleRow {
    rule: &'static str,
    requirement: Requirement,
    outcome: &'static str,
    /// The declared reason, the failure report or why the rule does not apply.
    detail: Option<String>,
}

/// Runs the report and writes it; fails (exit 1) when a bundled backend's gate is red.
pub fn run(options: Options) -> Result<ExitCode, String> {
    let mut chosen: Vec<Bundled> = bundled();
    if !options.backends.is_empty() {
        let known: Vec<&str> = chosen.iter().map(|b| b.name).collect();
        for wanted in &options.backends {
            if !known.contains(&wanted.as_str()) {
                return Err(format!(
                    "no bundled backend is called {wanted:?}; the bundled backends are: {}",
                    known.join(", ")
                ));
            }
        }
        chosen.retain(|b| options.backends.iter().any(|w| w == b.name));
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|err| format!("cannot start a runtime: {err}"))?;
    let progress = Progress::new(chosen.len() * (rules::catalogue().len() + 1));
    let reference = runtime.block_on(Observation::of(
        "reference",
        &Profile::reference(),
        &InMemoryMemoryService::new(),
    ));
    let mut reports = Vec::new();
    for backend in chosen {
        reports.push(runtime.block_on(backend_report(backend, &options, &reference, &progress)));
    }
    progress.finish();
    let red = reports.iter().any(|b| {
        b.rules
            .iter()
            .any(|r| matches!(r.outcome, "FAIL" | "violation gone" | "broken"))
    });
    let report = Report {
        kit_version: env!("CARGO_PKG_VERSION"),
        corpus_version: probe::VERSION,
        seed: options.seed,
        cases: options.cases,
        backends: reports,
    };
    let text = if options.json {
        serde_json::to_string_pretty(&report).map_err(|err| format!("cannot render JSON: {err}"))?
            + "\n"
    } else {
        markdown(&report)
    };
    match &options.output {
        Some(path) => std::fs::write(path, text)
            .map_err(|err| format!("cannot write {}: {err}", path.display()))?,
        None => print!("{text}"),
    }
    Ok(if red {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

async fn backend_report(
    backend: Bundled,
    options: &Options,
    reference: &Observation,
    progress: &Progress,
) -> BackendReport {
    if let Some(why) = backend.gate.unavailable_reason() {
        progress.skip(rules::catalogue().len() + 1, backend.name);
        return BackendReport {
            name: backend.name,
            version: backend.version,
            not_run: Some(why.to_owned()),
            profile: None,
            rules: Vec::new(),
            recall: None,
            difference: None,
        };
    }
    let gate = backend.gate;
    let gate = reseeded(gate, options);
    let profile = gate.subject().profile().clone();
    let mut rows = Vec::new();
    for rule in rules::catalogue() {
        progress.step(backend.name, rule.id());
        let outcome = gate.check(rule).await;
        let detail = match &outcome {
            RuleOutcome::Passed { .. } => None,
            RuleOutcome::Ignored { reason } => Some(reason.clone()),
            RuleOutcome::KnownViolation { reason, failure } => Some(format!(
                "{reason}\n{}{}",
                failure.scenario(),
                failure.mismatch()
            )),
            other => Some(other.to_string()),
        };
        rows.push(RuleRow {
            rule: rule.id(),
            requirement: rule.requirement(),
            outcome: outcome.label(),
            detail,
        });
    }
    progress.step(backend.name, "probe corpus");
    let instance = gate
        .subject()
        .open(&memory_conformance::conformance::Namespace::fresh())
        .await;
    let recall = Observation::of(backend.name, &profile, instance.as_ref()).await;
    let difference = Difference::between(&recall, &profile, reference);
    BackendReport {
        name: backend.name,
        version: backend.version,
        not_run: None,
        profile: Some(profile),
        rules: rows,
        recall: Some(recall),
        difference: Some(difference),
    }
}

/// The gate with the report's seed and case count, and a reproduction command for it.
fn reseeded(gate: Gate, options: &Options) -> Gate {
    let subject: Subject = gate
        .subject()
        .clone()
        .seed(options.seed)
        .cases(options.cases)
        .reproduce_with(format!(
            "memory-conformance report --backend {} --seed {{seed}} --cases {}",
            gate.subject().backend(),
            options.cases
        ));
    gate.known_violations()
        .iter()
        .fold(Gate::new(subject), |g, k| {
            g.known_violation(k.rule_id.clone(), k.reason.clone())
        })
}

fn markdown(report: &Report) -> String {
    let mut out = String::new();
    let ran: Vec<&BackendReport> = report
        .backends
        .iter()
        .filter(|b| b.not_run.is_none())
        .collect();
    let _ = writeln!(out, "# How agent-memory backends behave\n");
    let _ = writeln!(
        out,
        "Generated by `memory-conformance report` (kit {}, probe corpus version {}, seed {}, {} cases per rule) \
         from real runs of every bundled backend. Do not edit by hand: CI regenerates this file and fails when it \
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
        .flat_map(|b| b.rules.iter().map(move |r| (b.name, r)))
        .filter(|(_, r)| !matches!(r.outcome, "pass" | "ignored"))
        .collect();
    if !notes.is_empty() {
        let _ = writeln!(out, "\n### Known violations and failures\n");
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
