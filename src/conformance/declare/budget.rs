//! What a gate's run spends, and the time budget that bounds it: the rules share the budget
//! as they start, each stopping before a case it would not finish in its share; the stores
//! opened and the time opening them took are counted, so a slow open is reported with what
//! to do about it.

use std::fmt;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// The part of a budget the rules leave for a last case slower than those before it and for
/// what follows them (closing the backend, the summary): they aim to end at 19/20 of it.
#[cfg(feature = "harness")]
const TAIL: u32 = 20;

/// An average time to open a store from which the gate's summary warns that opening stores
/// is what the run's time goes to.
const SLOW_OPEN: Duration = Duration::from_millis(100);

/// The run's spending, shared by every clone of a gate (and its subject) and every thread
/// its rules run on.
#[derive(Debug, Default)]
// Without the harness, nothing starts rules: the fields it reads are unread.
#[cfg_attr(not(feature = "harness"), allow(dead_code))]
pub(crate) struct Spending {
    budget: OnceLock<Duration>,
    /// How many rules run at once (the test runner's threads): the budget's rounds.
    lanes: AtomicUsize,
    started: OnceLock<Instant>,
    rules_to_run: OnceLock<usize>,
    rules_started: AtomicUsize,
    planned_cases: AtomicU64,
    cases: AtomicU64,
    opens: AtomicU64,
    open_nanos: AtomicU64,
    /// The lexicon queries the cases ran, by generator name, in the order first drawn.
    lexicon_draws: Mutex<Vec<(&'static str, u64)>>,
}

impl Spending {
    /// Bounds the run's time by `budget`, counted from `started` (the first bound set stays).
    pub(crate) fn bound(&self, budget: Duration, started: Instant) {
        let _ = self.budget.set(budget);
        let _ = self.started.set(started);
    }

    /// Rules run `lanes` at a time.
    #[cfg(feature = "harness")]
    pub(crate) fn run_in_lanes(&self, lanes: usize) {
        self.lanes.store(lanes.max(1), Ordering::Relaxed);
    }

    /// A rule starts: under a budget, the time by which it starts no more cases. The rule
    /// gets an even share of what is left (but the tail) among the rules not started yet
    /// (`rules_to_run` counts them all, asked once), run `lanes` at a time.
    #[cfg(feature = "harness")]
    pub(crate) fn rule_starts(&self, rules_to_run: impl FnOnce() -> usize) -> Option<Instant> {
        let started = *self.started.get_or_init(Instant::now);
        let started_before = self.rules_started.fetch_add(1, Ordering::Relaxed);
        let budget = *self.budget.get()?;
        let rules_left = self
            .rules_to_run
            .get_or_init(rules_to_run)
            .saturating_sub(started_before)
            .max(1);
        let rounds = rules_left.div_ceil(self.lanes.load(Ordering::Relaxed).max(1));
        let now = Instant::now();
        let left = (started + budget - budget / TAIL).saturating_duration_since(now);
        Some(now + left / u32::try_from(rounds).unwrap_or(u32::MAX))
    }

    /// A rule that passed ran `cases` of the `planned` ones.
    #[cfg(feature = "harness")]
    pub(crate) fn rule_ran(&self, planned: u32, cases: u32) {
        self.planned_cases
            .fetch_add(u64::from(planned), Ordering::Relaxed);
        self.cases.fetch_add(u64::from(cases), Ordering::Relaxed);
    }

    /// A store was opened, in `took`.
    pub(crate) fn opened(&self, took: Duration) {
        self.opens.fetch_add(1, Ordering::Relaxed);
        let nanos = u64::try_from(took.as_nanos()).unwrap_or(u64::MAX);
        self.open_nanos.fetch_add(nanos, Ordering::Relaxed);
    }

    /// A case ran a lexicon query drawn from the generator `name` (once a query, shrinking's
    /// cases included).
    #[cfg(feature = "harness")]
    pub(crate) fn drew(&self, name: &'static str) {
        let mut draws = self
            .lexicon_draws
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        match draws.iter_mut().find(|(n, _)| *n == name) {
            Some((_, count)) => *count += 1,
            None => draws.push((name, 1)),
        }
    }

    /// The lexicon queries drawn from the generator `name` so far.
    #[cfg(feature = "harness")]
    pub(crate) fn draws_of(&self, name: &str) -> u64 {
        self.lexicon_draws
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .iter()
            .find(|(n, _)| *n == name)
            .map_or(0, |(_, count)| *count)
    }

    /// What was spent so far.
    pub(crate) fn spent(&self) -> Spent {
        Spent {
            budget: self.budget.get().copied(),
            elapsed: self.started.get().map_or(Duration::ZERO, Instant::elapsed),
            planned_cases: self.planned_cases.load(Ordering::Relaxed),
            cases: self.cases.load(Ordering::Relaxed),
            opens: self.opens.load(Ordering::Relaxed),
            opening: Duration::from_nanos(self.open_nanos.load(Ordering::Relaxed)),
        }
    }
}

/// What a gate's run spent: its time against the budget, the cases its passing rules ran
/// against those planned, and the stores it opened. Its `Display` is the gate's summary lines
/// about them (none when there is nothing to say).
///
/// ```
/// use std::time::Duration;
/// use memory_conformance::InMemoryMemoryService;
/// use memory_conformance::conformance::{Gate, Subject};
/// use memory_conformance::profile::Profile;
/// let subject = Subject::new("reference", Profile::reference(), || async { InMemoryMemoryService::new() });
/// let gate = Gate::new(subject).cases(4).budget(Duration::from_secs(60));
/// let report = gate.run();
/// assert!(report.is_green());
/// let spent = gate.spent();
/// assert_eq!(spent.budget, Some(Duration::from_secs(60)));
/// assert!(spent.opens > 0 && spent.cases <= spent.planned_cases);
/// assert!(spent.to_string().starts_with("budget 1 min 0 s:"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Spent {
    /// The time budget, if the gate has one.
    pub budget: Option<Duration>,
    /// From the budget's start (else the first rule's) until now.
    pub elapsed: Duration,
    /// The cases the passing rules would have run without a budget.
    pub planned_cases: u64,
    /// The cases the passing rules ran.
    pub cases: u64,
    /// The stores (instances) opened.
    pub opens: u64,
    /// The time opening them took, in total.
    pub opening: Duration,
}

impl Spent {
    /// The average time to open a store, if one was opened.
    pub fn average_open(&self) -> Option<Duration> {
        let opens = u32::try_from(self.opens).ok().filter(|&n| n > 0)?;
        Some(self.opening / opens)
    }
}

impl fmt::Display for Spent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut lines = Vec::new();
        if let Some(budget) = self.budget {
            let within = if self.elapsed <= budget {
                "within it"
            } else {
                "over it: every rule runs at least one case"
            };
            lines.push(format!(
                "budget {}: the passing rules ran {} of their {} planned cases, in {} ({within})",
                minutes(budget),
                self.cases,
                self.planned_cases,
                minutes(self.elapsed),
            ));
        }
        if let Some(average) = self.average_open().filter(|&a| a >= SLOW_OPEN) {
            let advice = if self.budget.is_some() {
                "a larger --budget runs more of them"
            } else {
                "--budget bounds the run's time, or --cases runs fewer cases"
            };
            lines.push(format!(
                "slow opening: a store took {:.2} s to open on average ({} stores, {} of the run); \
                 every case opens a fresh store, so the cases cost at least that: {advice}",
                average.as_secs_f64(),
                self.opens,
                minutes(self.opening),
            ));
        }
        write!(f, "{}", lines.join("\n"))
    }
}

/// `1 min 5 s`, `12 s`, `0.4 s`.
fn minutes(duration: Duration) -> String {
    let seconds = duration.as_secs();
    if seconds >= 60 {
        format!("{} min {} s", seconds / 60, seconds % 60)
    } else if seconds >= 10 {
        format!("{seconds} s")
    } else {
        format!("{:.1} s", duration.as_secs_f64())
    }
}

#[cfg(all(test, feature = "harness"))]
mod tests {
    use super::*;

    #[test]
    fn each_rule_gets_an_even_share_of_what_is_left_per_lane() {
        let spending = Spending::default();
        spending.bound(Duration::from_secs(100), Instant::now());
        spending.run_in_lanes(2);
        let first = spending.rule_starts(|| 4).unwrap();
        // 4 rules in 2 lanes: 2 rounds, so the first rule may take half of the budget but
        // its tail (95 s).
        let share = first - *spending.started.get().unwrap();
        assert!(
            (Duration::from_millis(47_500)..=Duration::from_millis(47_600)).contains(&share),
            "{share:?}"
        );
        for _ in 0..3 {
            spending.rule_starts(|| unreachable!("counted once"));
        }
        // A rule beyond the count still gets what is left, not more.
        let late = spending.rule_starts(|| 4).unwrap();
        assert!(late <= *spending.started.get().unwrap() + Duration::from_secs(95));
    }

    #[test]
    fn without_a_budget_no_rule_has_a_deadline() {
        let spending = Spending::default();
        assert_eq!(spending.rule_starts(|| 4), None);
        assert!(spending.spent().budget.is_none());
    }

    #[test]
    fn the_summary_warns_of_slow_opening_and_says_what_ran() {
        let spending = Spending::default();
        spending.bound(Duration::from_secs(90), Instant::now());
        spending.rule_ran(128, 12);
        for _ in 0..4 {
            spending.opened(Duration::from_millis(500));
        }
        let text = spending.spent().to_string();
        assert!(
            text.starts_with("budget 1 min 30 s: the passing rules ran 12 of their 128 planned cases, in 0.0 s (within it)\n"),
            "{text}"
        );
        assert!(
            text.ends_with("a store took 0.50 s to open on average (4 stores, 2.0 s of the run); every case opens a fresh store, so the cases cost at least that: a larger --budget runs more of them"),
            "{text}"
        );
        let quick = Spending::default();
        quick.opened(Duration::from_millis(5));
        assert_eq!(quick.spent().to_string(), "");
    }
}
