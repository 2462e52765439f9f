//! The property loop: generate cases from a seed, run each on a fresh namespace, shrink the
//! first failure to a minimal scenario, and record it for replay.

use std::fs;
use std::io::Write as _;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

use super::execute::{self, Mismatch};
use super::scenario::Scenario;
use super::subject::{Subject, splitmix};

/// How long shrinking may take, and how many smaller cases it may try.
const SHRINK_TIME: Duration = Duration::from_secs(20);
const SHRINK_RUNS: u32 = 1024;

/// A failing case, shrunk as far as the budget allowed.
#[derive(Clone, Debug)]
pub(crate) struct Counterexample {
    pub(crate) scenario: Scenario,
    pub(crate) mismatch: Mismatch,
    /// The run's seed: rerunning with it generates the same cases.
    pub(crate) seed: u64,
    /// The seed of the failing case itself, as recorded in the failure records.
    pub(crate) case_seed: u64,
    /// 1-based number of the failing case (0 for a replayed record).
    pub(crate) case: u32,
    pub(crate) shrink_runs: u32,
    /// Why the scenario was not shrunk, if it was not.
    pub(crate) unshrunk_because: Option<&'static str>,
}

/// Runs `cases` cases of `strategy` (replaying recorded failures first).
pub(crate) async fn check<S>(
    subject: &Subject,
    rule_id: &str,
    cases: u32,
    strategy: S,
) -> Result<u32, Counterexample>
where
    S: Strategy<Value = Scenario>,
{
    let seed = subject.options.seed();
    let records = Records::new(subject, rule_id);
    let config = Config {
        failure_persistence: None,
        ..Config::default()
    };
    let recorded = records.load();
    let planned = recorded
        .iter()
        .map(|&case_seed| (0, case_seed))
        .chain((1..=cases).map(|case| (case, splitmix(seed ^ u64::from(case)))));
    let mut ran = 0;
    for (case, case_seed) in planned {
        let mut runner = TestRunner::new_with_rng(config.clone(), rng_for(case_seed));
        let Ok(mut tree) = strategy.new_tree(&mut runner) else {
            continue;
        };
        ran += 1;
        if let Err(mismatch) = execute::run(subject, &tree.current()).await {
            let mut found = shrink(subject, &mut tree, mismatch).await;
            found.seed = seed;
            found.case_seed = case_seed;
            found.case = case;
            records.save(case_seed, &found);
            return Err(found);
        }
    }
    Ok(ran)
}

async fn shrink<T>(subject: &Subject, tree: &mut T, mismatch: Mismatch) -> Counterexample
where
    T: ValueTree<Value = Scenario>,
{
    let mut best = (tree.current(), mismatch);
    let found = |scenario, mismatch| Counterexample {
        scenario,
        mismatch,
        seed: 0,
        case_seed: 0,
        case: 0,
        shrink_runs: 0,
        unshrunk_because: None,
    };
    if best.1.problem.is_hang() {
        let mut counterexample = found(best.0, best.1);
        counterexample.unshrunk_because =
            Some("the backend hung, and every smaller case could hang as long");
        return counterexample;
    }
    let started = Instant::now();
    let mut runs = 0;
    let mut simplifying = tree.simplify();
    while simplifying && runs < SHRINK_RUNS && started.elapsed() < SHRINK_TIME {
        runs += 1;
        let candidate = tree.current();
        simplifying = match execute::run(subject, &candidate).await {
            Err(mismatch) if !mismatch.problem.is_hang() => {
                best = (candidate, mismatch);
                tree.simplify()
            }
            _ => tree.complicate(),
        };
    }
    let mut counterexample = found(best.0, best.1);
    counterexample.shrink_runs = runs;
    if simplifying {
        counterexample.unshrunk_because = Some("the shrinking budget ran out");
    }
    counterexample
}

fn rng_for(case_seed: u64) -> TestRng {
    let mut bytes = [0u8; 32];
    let mut x = case_seed;
    for chunk in bytes.chunks_mut(8) {
        x = splitmix(x);
        chunk.copy_from_slice(&x.to_le_bytes());
    }
    TestRng::from_seed(RngAlgorithm::ChaCha, &bytes)
}

/// The failure records of one rule and backend: one `cc <case seed>` line per failing case.
struct Records {
    path: Option<PathBuf>,
}

impl Records {
    fn new(subject: &Subject, rule_id: &str) -> Self {
        Self {
            path: subject.record_path(rule_id).map(PathBuf::from),
        }
    }

    fn load(&self) -> Vec<u64> {
        let Some(text) = self.path.as_ref().and_then(|p| fs::read_to_string(p).ok()) else {
            return Vec::new();
        };
        text.lines()
            .filter_map(|line| line.strip_prefix("cc "))
            .filter_map(|rest| u64::from_str_radix(rest.split_whitespace().next()?, 16).ok())
            .collect()
    }

    /// Appends the case unless it is recorded already. Recording is best effort: a read-only
    /// checkout must not turn a rule's failure into a different one.
    fn save(&self, case_seed: u64, found: &Counterexample) {
        let Some(path) = &self.path else {
            return;
        };
        if self.load().contains(&case_seed) {
            return;
        }
        let header = "# Cases that failed a memory-conformance rule, replayed first on every run.\n\
                      # Commit this file; delete a line once the case passes for good.\n";
        let first_line = found
            .mismatch
            .to_string()
            .lines()
            .next()
            .unwrap_or_default()
            .to_owned();
        let write = || -> std::io::Result<()> {
            if let Some(dir) = path.parent() {
                fs::create_dir_all(dir)?;
            }
            let fresh = !path.exists();
            let mut file = fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)?;
            if fresh {
                file.write_all(header.as_bytes())?;
            }
            writeln!(file, "cc {case_seed:016x} # {first_line}")
        };
        if let Err(err) = write() {
            eprintln!(
                "memory-conformance: could not record the failing case in {}: {err}",
                path.display()
            );
        }
    }
}
