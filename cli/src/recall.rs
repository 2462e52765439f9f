//! `memory-conformance benchmark` and `memory-conformance compare`: a backend's answers to the
//! recall benchmark (`docs/recall-benchmark.md`), and two runs question by question, the
//! guide's "measure recall before and after".

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use memory_conformance::benchmark::{
    Benchmark, BenchmarkRun, Comparison, Dataset, by_kind_table, locomo_path, overall_table,
};
use memory_conformance::conformance::{Gate, Subject};
use serde::Serialize;

use crate::backends::Backends;

/// The data `--dataset` names: `v1` (the kit's own), `locomo` (read from
/// `MEMORY_CONFORMANCE_LOCOMO`, else `../shared/data/locomo/locomo10.json` beside the
/// repository), or the path of a `locomo10.json`.
pub fn dataset(name_or_path: &str) -> Result<Benchmark, String> {
    if name_or_path == Dataset::V1.name() {
        Ok(Benchmark::v1())
    } else if name_or_path == Dataset::Locomo.name() {
        Benchmark::locomo(&locomo_path())
    } else {
        let path = Path::new(name_or_path);
        if !path.exists() {
            return Err(format!(
                "--dataset {name_or_path:?} is neither v1, locomo nor an existing locomo10.json"
            ));
        }
        Benchmark::locomo(path)
    }
}

/// Runs `benchmark` against `subject`'s backend, on a fresh store.
pub fn run_benchmark(subject: Subject, benchmark: &Benchmark) -> Result<BenchmarkRun, String> {
    let name = subject.backend().to_owned();
    Gate::new(subject).benchmark_on(benchmark).map_err(|err| {
        format!(
            "{} could not run against {name}: {err}",
            benchmark.dataset.describe(benchmark.version)
        )
    })
}

/// `memory-conformance benchmark`: the answers of the backend `backend` names in `backends`,
/// or of the bridge `command` under the profile `profile` names (each call bounded by
/// `op_timeout` seconds), to the dataset `dataset` names, printed, and saved to `output` when
/// given.
pub fn benchmark(
    backends: Backends,
    backend: Option<&str>,
    profile: &str,
    command: &[std::ffi::OsString],
    op_timeout: u64,
    dataset_name: &str,
    output: Option<&Path>,
) -> Result<ExitCode, String> {
    let (subject, _) = crate::subject::chosen(backends, backend, command, op_timeout, 1, || {
        let file = crate::profiles::load(profile)?;
        Ok((file.profile.name.clone(), file.profile))
    })?;
    let run = run_benchmark(subject, &dataset(dataset_name)?)?;
    print!("{}", render_run(&run));
    if let Some(path) = output {
        save(&run, path)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The figures and every question's outcome, for a person.
pub fn render_run(run: &BenchmarkRun) -> String {
    format!(
        "{}\n{}\n{}",
        overall_table(&[run]),
        by_kind_table(&[run]),
        run.per_question()
    )
}

/// Writes `run` as JSON to `path`, for a later `compare`.
pub fn save(run: &BenchmarkRun, path: &Path) -> Result<(), String> {
    let json = serde_json::to_string_pretty(run)
        .map_err(|err| format!("cannot render the run as JSON: {err}"))?;
    std::fs::write(path, json + "\n")
        .map_err(|err| format!("cannot write {}: {err}", path.display()))
}

/// One side of a comparison: the name of a backend of `backends`, run on the data `dataset`
/// loads, or a run saved by `memory-conformance benchmark --output FILE`.
pub fn side(
    backends: Backends,
    name_or_file: &str,
    dataset: &mut impl FnMut() -> Result<Benchmark, String>,
) -> Result<BenchmarkRun, String> {
    let path = PathBuf::from(name_or_file);
    if name_or_file.ends_with(".json") || path.is_file() {
        let text = std::fs::read_to_string(&path)
            .map_err(|err| format!("cannot read the saved run {}: {err}", path.display()))?;
        return serde_json::from_str(&text).map_err(|err| {
            format!(
                "{} is not a run saved by `memory-conformance benchmark --output`: {err}",
                path.display()
            )
        });
    }
    run_benchmark(backends.gate(name_or_file)?.subject().clone(), &dataset()?)
}

#[derive(Serialize)]
struct ComparisonJson<'a> {
    comparison: &'a Comparison,
    before: memory_conformance::benchmark::Metrics,
    after: memory_conformance::benchmark::Metrics,
}

/// `compare BEFORE AFTER --dataset NAME`: exit 1 when `fail_on_lost` and a question was lost.
/// The data is loaded once, and only when a side is a backend of `backends`.
pub fn compare(
    backends: Backends,
    before: &str,
    after: &str,
    dataset_name: &str,
    json: bool,
    fail_on_lost: bool,
) -> Result<ExitCode, String> {
    let mut loaded: Option<Benchmark> = None;
    let mut load = || -> Result<Benchmark, String> {
        if loaded.is_none() {
            loaded = Some(dataset(dataset_name)?);
        }
        Ok(loaded.clone().unwrap_or_else(Benchmark::v1))
    };
    let (before, after) = (
        side(backends, before, &mut load)?,
        side(backends, after, &mut load)?,
    );
    let comparison = Comparison::between(&before, &after)?;
    if json {
        let out = ComparisonJson {
            comparison: &comparison,
            before: before.headline(),
            after: after.headline(),
        };
        println!(
            "{}",
            serde_json::to_string_pretty(&out)
                .map_err(|err| format!("cannot render JSON: {err}"))?
        );
    } else {
        print!("{}", comparison.render(&before, &after));
    }
    Ok(if fail_on_lost && !comparison.lost.is_empty() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
