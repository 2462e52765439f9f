//! The property loop: generate cases from a seed, run each on a fresh namespace, shrink the
//! first failure to a minimal scenario, and record it for replay.

use std::time::{Duration, Instant};

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, TestRunner};

use super::failure_record::FailureRecord;
use super::interpreter;
use super::transcript::Transcript;
use crate::conformance::declare::subject::Subject;
use crate::conformance::generate::operation_mix::OperationMix;
use crate::conformance::generate::scenario::Scenario;
use crate::conformance::generate::seeding::{case_seed, rng_for, run_seed};
use crate::conformance::judge::mismatch::Mismatch;

/// How many smaller cases shrinking may try.
const SHRINK_RUNS: u32 = 1024;

/// How long shrinking may take: as long as this many runs of the failing case, so that a busy
/// machine, which slows every case alike, shrinks as far as an idle one; at least
/// [`SHRINK_TIME`], and at most [`SHRINK_TIME_CAP`] (a slow backend's report still comes).
const SHRINK_TIME_IN_CASES: u32 = 64;
const SHRINK_TIME: Duration = Duration::from_secs(20);
const SHRINK_TIME_CAP: Duration = Duration::from_secs(160);

/// A failing case, shrunk as far as the budget allowed.
#[derive(Clone, Debug)]
pub(crate) struct Counterexample {
    pub(crate) scenario: Scenario,
    pub(crate) mismatch: Mismatch,
    /// What the backend answered in the minimal scenario before the failing step.
    pub(crate) answers: Transcript,
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

/// What a rule's passing cases came to.
#[derive(Clone, Debug)]
pub(crate) struct Passed {
    /// Cases run (generated and replayed).
    pub(crate) cases: u32,
    /// The longest a search waited to see a write, where visibility is delayed.
    pub(crate) slowest_write: Option<Duration>,
    /// The longest the harness's own timers ran late while waiting for writes.
    pub(crate) scheduling_delay: Option<Duration>,
    /// The operations of the cases run.
    pub(crate) operations: OperationMix,
}

/// Runs `cases` cases of `strategy` (replaying recorded failures first); `Ok` with the number
/// of cases run. Under a budget's deadline it starts no generated case after the first that
/// its longest case so far says would end past the deadline.
pub(crate) async fn check<S>(
    subject: &Subject,
    rule_id: &str,
    cases: u32,
    strategy: S,
) -> Result<Passed, Counterexample>
where
    S: Strategy<Value = Scenario>,
{
    let seed = run_seed(&subject.options);
    let record = FailureRecord::of(subject, rule_id);
    let config = Config {
        failure_persistence: None,
        ..Config::default()
    };
    let planned = record
        .load()
        .into_iter()
        .map(|recorded| (0, recorded))
        .chain((1..=cases).map(|case| (case, case_seed(seed, case))));
    let mut passed = Passed {
        cases: 0,
        slowest_write: None,
        scheduling_delay: None,
        operations: OperationMix::default(),
    };
    let deadline = subject.options.case_deadline;
    let mut longest = Duration::ZERO;
    let mut generated = 0;
    for (case, case_seed) in planned {
        if case > 0 && generated > 0 && deadline.is_some_and(|d| Instant::now() + longest > d) {
            break;
        }
        let started = Instant::now();
        let mut runner = TestRunner::new_with_rng(config.clone(), rng_for(case_seed));
        let Ok(mut tree) = strategy.new_tree(&mut runner) else {
            continue;
        };
        passed.cases += 1;
        generated += u32::from(case > 0);
        let scenario = tree.current();
        passed.operations.tally(&scenario);
        match interpreter::run(subject, &scenario).await {
            Ok(stats) => {
                passed.slowest_write = passed.slowest_write.max(stats.slowest_write);
                passed.scheduling_delay = passed.scheduling_delay.max(stats.scheduling_delay);
                longest = longest.max(started.elapsed());
                if let Some(counter) = &subject.options.cases_passed {
                    counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                }
            }
            Err(failed) => {
                let budget = shrink_budget(started.elapsed());
                let mut found = shrink(subject, &mut tree, failed, budget).await;
                found.seed = seed;
                found.case_seed = case_seed;
                found.case = case;
                record.save(case_seed, &found.mismatch);
                return Err(found);
            }
        }
    }
    Ok(passed)
}

/// How long shrinking a case that took `failing_case` to fail may take:
/// [`SHRINK_TIME_IN_CASES`] times as long, within [`SHRINK_TIME`] and [`SHRINK_TIME_CAP`].
fn shrink_budget(failing_case: Duration) -> Duration {
    failing_case
        .saturating_mul(SHRINK_TIME_IN_CASES)
        .clamp(SHRINK_TIME, SHRINK_TIME_CAP)
}

/// The failing case `tree` shrunk for at most `budget` (and [`SHRINK_RUNS`] tries).
async fn shrink<T>(
    subject: &Subject,
    tree: &mut T,
    failed: interpreter::Failed,
    budget: Duration,
) -> Counterexample
where
    T: ValueTree<Value = Scenario>,
{
    let mut best = (tree.current(), failed);
    let found = |scenario, (mismatch, answers): interpreter::Failed| Counterexample {
        scenario,
        mismatch,
        answers,
        seed: 0,
        case_seed: 0,
        case: 0,
        shrink_runs: 0,
        unshrunk_because: None,
    };
    if best.1.0.problem.is_hang() {
        let mut counterexample = found(best.0, best.1);
        counterexample.unshrunk_because =
            Some("the backend hung, and every smaller case could hang as long");
        return counterexample;
    }
    let started = Instant::now();
    let mut runs = 0;
    let mut simplifying = tree.simplify();
    while simplifying && runs < SHRINK_RUNS && started.elapsed() < budget {
        runs += 1;
        let candidate = tree.current();
        simplifying = match interpreter::run(subject, &candidate).await {
            Err(failed) if !failed.0.problem.is_hang() => {
                best = (candidate, failed);
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A fast case gets the floor, a slow one as long as its runs, a very slow one the cap
    /// (and a case longer than any multiple can hold does not overflow).
    #[test]
    fn the_shrink_budget_is_the_failing_cases_time_within_the_floor_and_the_cap() {
        assert_eq!(shrink_budget(Duration::ZERO), SHRINK_TIME);
        assert_eq!(shrink_budget(Duration::from_millis(5)), SHRINK_TIME);
        assert_eq!(
            shrink_budget(Duration::from_secs(1)),
            Duration::from_secs(u64::from(SHRINK_TIME_IN_CASES))
        );
        assert_eq!(shrink_budget(Duration::from_secs(10)), SHRINK_TIME_CAP);
        assert_eq!(shrink_budget(Duration::MAX), SHRINK_TIME_CAP);
        assert!(SHRINK_TIME < Duration::from_secs(u64::from(SHRINK_TIME_IN_CASES)));
        assert!(Duration::from_secs(u64::from(SHRINK_TIME_IN_CASES)) < SHRINK_TIME_CAP);
    }
}
