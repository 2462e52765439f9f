//! Deciding one dimension: each candidate value's profile gated on the dimension's rules, the
//! first that holds taken.

use crate::conformance::rules::{self, Rule};
use crate::conformance::{Gate, Subject, Verdict};
use crate::profile::Profile;
use crate::profile::dimension::Dimension;

use super::{Decision, Inference};

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
    /// How many rules checked something (passed, or showed an implied violation).
    checked: usize,
    /// The whole report of the first rule that failed: its minimal scenario.
    first_report: Option<String>,
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

    /// The profile decided so far, changed by `change`.
    pub(super) fn with(&self, change: impl FnOnce(&mut Profile)) -> Profile {
        let mut profile = self.profile.clone();
        change(&mut profile);
        profile
    }

    /// Decides dimension `D` among its values, by its rules.
    pub(super) fn dimension<D: Dimension>(&mut self) {
        let candidates = D::values()
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
    /// `rule_ids`: the first candidate whose rules all hold and check something, else the one
    /// with the fewest failing rules, noted as a misfit.
    pub(super) fn decide(
        &mut self,
        dimension: &str,
        rule_ids: &[&'static str],
        candidates: Vec<(String, Profile)>,
    ) {
        (self.progress)(dimension);
        let decided = |value, implied_failures, misfit| Decision {
            dimension: dimension.to_owned(),
            value,
            rules: rule_ids.to_vec(),
            implied_failures,
            misfit,
            unchecked: false,
            ruled_out: Vec::new(),
        };
        let mut best: Option<(String, Profile, Vec<String>)> = None;
        let mut ruled_out = Vec::new();
        let mut first_unchecked = None;
        let mut any_checked = false;
        for (value, candidate) in candidates {
            let outcome = self.outcome(&candidate, rule_ids);
            any_checked |= outcome.checked > 0 || !outcome.failing.is_empty();
            if first_unchecked.is_none() {
                first_unchecked = Some((value.clone(), candidate.clone()));
            }
            if let Some(report) = &outcome.first_report {
                ruled_out.push((value.clone(), report.clone()));
            }
            if outcome.failing.is_empty() && outcome.checked > 0 {
                self.profile = candidate;
                self.decisions
                    .push(decided(value, outcome.implied_failures, None));
                return;
            }
            if best
                .as_ref()
                .is_none_or(|(.., failing)| outcome.failing.len() < failing.len())
            {
                best = Some((value, candidate, outcome.failing));
            }
        }
        if !any_checked && let Some((value, candidate)) = first_unchecked {
            self.profile = candidate;
            let mut decision = decided(value, Vec::new(), None);
            decision.unchecked = true;
            self.decisions.push(decision);
            return;
        }
        if let Some((value, candidate, failing)) = best {
            self.profile = candidate;
            let mut decision = decided(value, Vec::new(), Some(failing));
            decision.ruled_out = ruled_out;
            self.decisions.push(decision);
        }
    }

    /// Decides as [`Run::decide`], but where no candidate fits, the profile stays as it was and
    /// the decision is `declined`, checking nothing (a capability not claimed).
    pub(super) fn decide_or_decline(
        &mut self,
        dimension: &str,
        rule_ids: &[&'static str],
        candidates: Vec<(String, Profile)>,
        declined: &str,
    ) {
        let before = self.profile.capabilities;
        self.decide(dimension, rule_ids, candidates);
        if self.misfit(dimension) {
            self.profile.capabilities = before;
            self.forget(&[dimension]);
            self.declined(dimension, declined);
        }
    }

    /// Notes that `dimension` keeps the value `kept`, no other value having held its rules.
    pub(super) fn declined(&mut self, dimension: &str, kept: &str) {
        self.decisions.push(Decision {
            dimension: dimension.to_owned(),
            value: kept.to_owned(),
            rules: Vec::new(),
            implied_failures: Vec::new(),
            misfit: None,
            unchecked: false,
            ruled_out: Vec::new(),
        });
    }

    /// Whether the last decision of `dimension` is a misfit.
    pub(super) fn misfit(&self, dimension: &str) -> bool {
        self.decisions
            .iter()
            .rev()
            .find(|d| d.dimension == dimension)
            .is_some_and(|d| d.misfit.is_some())
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
        }
    }

    fn outcome(&self, candidate: &Profile, rule_ids: &[&'static str]) -> Outcome {
        let subject = self.subject.clone().with_profile(candidate.clone());
        let gate = Gate::new(subject).cases(self.cases).seed(self.seed);
        let mut outcome = Outcome {
            failing: Vec::new(),
            implied_failures: Vec::new(),
            checked: 0,
            first_report: None,
        };
        for rule in rule_ids.iter().map(|id| known(id)) {
            match gate.check(rule) {
                Verdict::Passed { .. } | Verdict::KnownViolationNotShown { .. } => {
                    outcome.checked += 1;
                }
                Verdict::KnownViolationShown { .. } => {
                    outcome.checked += 1;
                    outcome.implied_failures.push(rule.id());
                }
                Verdict::NotApplicable { .. } => {}
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

/// The rule `id` names: the dimension table names only rules of the catalogue (its test
/// checks every one).
fn known(id: &str) -> &'static Rule {
    rules::find(id).unwrap_or_else(|| {
        panic!("the dimension table names {id}, which is no rule of the catalogue")
    })
}
