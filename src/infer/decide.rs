//! Deciding one dimension: each candidate value's profile gated on the dimension's rules, the
//! first that holds taken.

use crate::conformance::rules::{self, Rule};
use crate::conformance::{Gate, Subject, Verdict};
use crate::profile::Profile;
use crate::profile::dimension::Dimension;

use super::{Decision, Inference};

/// How many times a decision's cases the last check runs every rule on
/// ([`Run::still_failing`]).
const CHECK_CASES_FACTOR: u32 = 4;

/// An inference under way: the profile decided so far, and how.
pub(super) struct Run<'a, P: FnMut(&str)> {
    subject: &'a Subject,
    cases: u32,
    seed: u64,
    progress: P,
    pub(super) profile: Profile,
    decisions: Vec<Decision>,
}

/// How the rules came out for one candidate.
struct Outcome {
    /// The rules that failed, each with the first line of its verdict.
    failing: Vec<String>,
    /// The rules that failed as a known violation the candidate implies.
    implied_failures: Vec<&'static str>,
    /// The rules that ran and held.
    held: Vec<&'static str>,
    /// The rules that do not apply to the candidate, each with why not.
    not_applicable: Vec<(&'static str, String)>,
    /// The whole report of the first rule that failed: its minimal scenario.
    first_report: Option<String>,
}

impl Outcome {
    /// Whether some rule ran (held, or failed as implied or not).
    fn ran(&self) -> bool {
        !self.held.is_empty() || !self.implied_failures.is_empty() || !self.failing.is_empty()
    }
}

impl<'a, P: FnMut(&str)> Run<'a, P> {
    pub(super) fn new(subject: &'a Subject, cases: u32, seed: u64, progress: P) -> Self {
        Self {
            subject,
            cases,
            seed,
            progress,
            profile: super::start(subject),
            decisions: Vec::new(),
        }
    }

    /// Tells `progress` that `step` starts (a probe; a decision tells it itself).
    pub(super) fn report(&mut self, step: &str) {
        (self.progress)(step);
    }

    /// The profile decided so far, changed by `change`.
    pub(super) fn with(&self, change: impl FnOnce(&mut Profile)) -> Profile {
        let mut profile = self.profile.clone();
        change(&mut profile);
        profile
    }

    /// Decides dimension `D` among its values, by its rules.
    pub(super) fn dimension<D: Dimension>(&mut self) {
        self.among(D::values());
    }

    /// Decides dimension `D` among `values` (most specific first), by its rules.
    pub(super) fn among<D: Dimension>(&mut self, values: Vec<D>) {
        let candidates = values
            .into_iter()
            .map(|value| {
                let name = value
                    .entry()
                    .map_or_else(|| value.text(), |entry| entry.value.to_owned());
                (name, self.with(|p| value.set(p)))
            })
            .collect();
        self.decide(D::KEY, D::DECIDED_BY, candidates);
    }

    /// Decides `dimension` among `candidates` (a name, and the profile with that value) by
    /// `rule_ids`: the first candidate none of whose rules fails and one of which held on the
    /// backend. Where no rule ran for any candidate, the first (the contract's value), not
    /// checked. Where rules ran and ruled candidates out, but none held for the rest, the last
    /// of the rest (the value that claims least), not checked. Else the one with the fewest
    /// failing rules, noted as a misfit.
    pub(super) fn decide(
        &mut self,
        dimension: &str,
        rule_ids: &[&'static str],
        candidates: Vec<(String, Profile)>,
    ) {
        (self.progress)(dimension);
        let decided = |value: String, outcome: &Outcome| Decision {
            dimension: dimension.to_owned(),
            value,
            rules: rule_ids.to_vec(),
            held: outcome.held.clone(),
            implied_failures: outcome.implied_failures.clone(),
            misfit: None,
            unchecked: false,
            reason: None,
            not_applicable: outcome
                .not_applicable
                .first()
                .map(|(rule, why)| format!("{rule}: {why}")),
            declined: false,
            ruled_out: Vec::new(),
        };
        let mut tried: Vec<(String, Profile, Outcome)> = Vec::new();
        for (value, candidate) in candidates {
            let outcome = self.outcome(&candidate, rule_ids);
            if outcome.failing.is_empty() && !outcome.held.is_empty() {
                self.profile = candidate;
                self.decisions.push(decided(value, &outcome));
                return;
            }
            tried.push((value, candidate, outcome));
        }
        let ruled_out: Vec<(String, String)> = tried
            .iter()
            .filter_map(|(value, _, outcome)| {
                outcome
                    .first_report
                    .clone()
                    .map(|report| (value.clone(), report))
            })
            .collect();
        if !tried.iter().any(|(.., outcome)| outcome.ran()) {
            if let Some((value, candidate, outcome)) = tried.into_iter().next() {
                self.profile = candidate;
                let mut decision = decided(value, &outcome);
                decision.unchecked = true;
                decision.reason = Some(format!(
                    "none of {} applies to the profile",
                    rule_ids.join(", ")
                ));
                self.decisions.push(decision);
            }
            return;
        }
        if let Some(index) = tried
            .iter()
            .rposition(|(.., outcome)| outcome.failing.is_empty())
        {
            let (value, candidate, outcome) = tried.swap_remove(index);
            self.profile = candidate;
            let mut decision = decided(value, &outcome);
            decision.unchecked = true;
            let mut why = vec!["no rule held for it".to_owned()];
            if !outcome.implied_failures.is_empty() {
                why.push(format!(
                    "{} failed as it says {} must",
                    outcome.implied_failures.join(", "),
                    if outcome.implied_failures.len() == 1 {
                        "it"
                    } else {
                        "they"
                    }
                ));
            }
            why.push("of the values no rule ruled out, the one that claims least".to_owned());
            decision.reason = Some(why.join("; "));
            decision.ruled_out = ruled_out;
            self.decisions.push(decision);
            return;
        }
        if let Some((value, candidate, outcome)) = tried
            .into_iter()
            .min_by_key(|(.., outcome)| outcome.failing.len())
        {
            self.profile = candidate;
            let mut decision = decided(value, &outcome);
            decision.implied_failures = Vec::new();
            decision.misfit = Some(outcome.failing);
            decision.ruled_out = ruled_out;
            self.decisions.push(decision);
        }
    }

    /// Decides as [`Run::decide`], but where no candidate fits, or no rule could check it, the
    /// profile stays as it was and the decision is `declined` (a capability not claimed), saying
    /// why.
    pub(super) fn decide_or_decline(
        &mut self,
        dimension: &str,
        rule_ids: &[&'static str],
        candidates: Vec<(String, Profile)>,
        declined: &str,
    ) {
        let before = self.profile.capabilities;
        self.decide(dimension, rule_ids, candidates);
        let Some(last) = self.decisions.last() else {
            return;
        };
        let (reason, unchecked) = match (&last.misfit, last.unchecked) {
            (Some(failing), _) => {
                let ids: Vec<&str> = failing
                    .iter()
                    .map(|f| f.split_once(" (").map_or(f.as_str(), |(id, _)| id))
                    .collect();
                (format!("{} failed on this backend", ids.join(", ")), false)
            }
            (None, true) => {
                let mut why = last.reason.clone().unwrap_or_default();
                if let Some(detail) = &last.not_applicable {
                    why.push_str(&format!(" ({detail})"));
                }
                (why, true)
            }
            (None, false) => return,
        };
        let ruled_out = last.ruled_out.clone();
        self.profile.capabilities = before;
        self.forget(&[dimension]);
        self.declined(dimension, declined, rule_ids, reason, unchecked);
        if let Some(decision) = self.decisions.last_mut() {
            decision.ruled_out = ruled_out;
        }
    }

    /// Notes that `dimension` keeps the value `kept` (claims nothing), for `reason`; `rules`
    /// are those that would have decided it, `unchecked` whether none of them could run.
    pub(super) fn declined(
        &mut self,
        dimension: &str,
        kept: &str,
        rules: &[&'static str],
        reason: String,
        unchecked: bool,
    ) {
        self.decisions.push(Decision {
            dimension: dimension.to_owned(),
            value: kept.to_owned(),
            rules: rules.to_vec(),
            held: Vec::new(),
            implied_failures: Vec::new(),
            misfit: None,
            unchecked,
            reason: Some(reason),
            not_applicable: None,
            declined: true,
            ruled_out: Vec::new(),
        });
    }

    /// Whether `dimension` has been decided (and not forgotten).
    pub(super) fn decided(&self, dimension: &str) -> bool {
        self.decisions.iter().any(|d| d.dimension == dimension)
    }

    /// Whether the last decision of `dimension` is a misfit.
    pub(super) fn misfit(&self, dimension: &str) -> bool {
        self.decisions
            .iter()
            .rev()
            .find(|d| d.dimension == dimension)
            .is_some_and(|d| d.misfit.is_some())
    }

    /// Whether the last decision of `dimension` was taken with no rule holding for it.
    pub(super) fn unchecked(&self, dimension: &str) -> bool {
        self.decisions
            .iter()
            .rev()
            .find(|d| d.dimension == dimension)
            .is_some_and(|d| d.unchecked)
    }

    /// Forgets the decisions of `dimensions` (decided again together).
    pub(super) fn forget(&mut self, dimensions: &[&str]) {
        self.decisions
            .retain(|d| !dimensions.contains(&d.dimension.as_str()));
    }

    /// The subject under the profile decided so far.
    pub(super) fn subject(&self) -> Subject {
        self.subject.clone().with_profile(self.profile.clone())
    }

    /// The inference, each dimension with its last decision.
    pub(super) fn finish(self) -> Inference {
        let mut last: Vec<Decision> = Vec::new();
        for decision in self.decisions.into_iter().rev() {
            if !last.iter().any(|d| d.dimension == decision.dimension) {
                last.push(decision);
            }
        }
        last.reverse();
        Inference {
            profile: self.profile,
            decisions: last,
            still_failing: Vec::new(),
        }
    }

    /// The rules of the whole catalogue that fail on the backend under the profile decided
    /// (those it implies fail, shown as known violations, not counted), each with the first
    /// line of its verdict: what no decision accounted for, a defect of the backend or a
    /// design no value of the vocabulary says. Run on [`CHECK_CASES_FACTOR`] times the
    /// cases of one decision, since a gate runs more cases than a decision did.
    pub(super) fn still_failing(&mut self) -> Vec<String> {
        (self.progress)("what still fails (every rule, under the profile decided)");
        let every: Vec<&'static str> = rules::catalogue().iter().map(|rule| rule.id()).collect();
        let cases = self.cases.saturating_mul(CHECK_CASES_FACTOR);
        self.outcome_on(cases, &self.profile, &every).failing
    }

    fn outcome(&self, candidate: &Profile, rule_ids: &[&'static str]) -> Outcome {
        self.outcome_on(self.cases, candidate, rule_ids)
    }

    fn outcome_on(&self, cases: u32, candidate: &Profile, rule_ids: &[&'static str]) -> Outcome {
        let subject = self.subject.clone().with_profile(candidate.clone());
        let gate = Gate::new(subject).cases(cases).seed(self.seed);
        let mut outcome = Outcome {
            failing: Vec::new(),
            implied_failures: Vec::new(),
            held: Vec::new(),
            not_applicable: Vec::new(),
            first_report: None,
        };
        for (rule, verdict) in checked_in_lanes(&gate, rule_ids) {
            match verdict {
                Verdict::Passed { .. } | Verdict::KnownViolationNotShown { .. } => {
                    outcome.held.push(rule.id());
                }
                Verdict::KnownViolationShown { .. } => {
                    outcome.implied_failures.push(rule.id());
                }
                Verdict::NotApplicable { reason } => {
                    outcome.not_applicable.push((rule.id(), reason));
                }
                other => {
                    let report = other.to_string();
                    outcome.failing.push(format!(
                        "{} ({})",
                        rule.id(),
                        report.lines().next().unwrap_or_default()
                    ));
                    outcome.first_report.get_or_insert(report);
                }
            }
        }
        outcome
    }
}

/// Each of `rule_ids` checked by `gate`, in their order: on as many threads as the machine
/// runs at once (each rule on a thread and runtime of its own, as [`Gate::check`] runs it), so
/// a backend that waits on its disk or its children (a bridge serves each thread's case on a
/// child of its own) waits on every core.
fn checked_in_lanes(gate: &Gate, rule_ids: &[&'static str]) -> Vec<(&'static Rule, Verdict)> {
    let rules: Vec<&'static Rule> = rule_ids.iter().map(|id| known(id)).collect();
    let lanes = std::thread::available_parallelism()
        .map_or(1, std::num::NonZeroUsize::get)
        .min(rules.len());
    if lanes <= 1 {
        return rules
            .into_iter()
            .map(|rule| (rule, gate.check(rule)))
            .collect();
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let verdicts: Vec<std::sync::Mutex<Option<Verdict>>> =
        rules.iter().map(|_| std::sync::Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..lanes {
            scope.spawn(|| {
                loop {
                    let index = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(rule) = rules.get(index) else { break };
                    let verdict = gate.check(rule);
                    *verdicts[index]
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(verdict);
                }
            });
        }
    });
    rules
        .into_iter()
        .zip(verdicts)
        .filter_map(|(rule, verdict)| {
            let verdict = verdict
                .into_inner()
                .unwrap_or_else(std::sync::PoisonError::into_inner)?;
            Some((rule, verdict))
        })
        .collect()
}

/// The rule `id` names: the dimension table names only rules of the catalogue (its test
/// checks every one).
fn known(id: &str) -> &'static Rule {
    rules::find(id).unwrap_or_else(|| {
        panic!("the dimension table names {id}, which is no rule of the catalogue")
    })
}
