//! The verdicts of every rule for one backend.

use std::fmt;

use crate::conformance::declare::rule_set::RuleSetVersion;
use crate::conformance::rules::Rule;
use crate::conformance::verdict::at_fault::causes;
use crate::conformance::verdict::rule_verdict::Verdict;

/// One rule and its verdict.
#[derive(Clone, Debug)]
pub struct RuleRun {
    rule: &'static Rule,
    verdict: Verdict,
}

impl RuleRun {
    pub(crate) fn new(rule: &'static Rule, verdict: Verdict) -> Self {
        Self { rule, verdict }
    }

    /// The rule.
    pub fn rule(&self) -> &'static Rule {
        self.rule
    }

    /// Its verdict.
    pub fn verdict(&self) -> &Verdict {
        &self.verdict
    }
}

/// The verdict of every rule for one backend, from [`Gate::run`](crate::conformance::Gate::run).
#[derive(Clone, Debug)]
pub struct GateReport {
    backend: String,
    profile: String,
    rule_set: RuleSetVersion,
    problems: Vec<String>,
    runs: Vec<RuleRun>,
}

impl GateReport {
    pub(crate) fn new(
        backend: &str,
        profile: &str,
        rule_set: RuleSetVersion,
        problems: Vec<String>,
        runs: Vec<RuleRun>,
    ) -> Self {
        Self {
            backend: backend.to_owned(),
            profile: profile.to_owned(),
            rule_set,
            problems,
            runs,
        }
    }

    /// The backend's name.
    pub fn backend(&self) -> &str {
        &self.backend
    }

    /// The profile's name.
    pub fn profile(&self) -> &str {
        &self.profile
    }

    /// The rule set the gate counted ([`Gate::rule_set`](crate::conformance::Gate::rule_set)):
    /// a rule later than it is reported as new.
    pub fn rule_set(&self) -> RuleSetVersion {
        self.rule_set
    }

    /// What is wrong with the gate's declaration (a known violation naming no rule, ...).
    pub fn problems(&self) -> &[String] {
        &self.problems
    }

    /// Every rule and its verdict, in catalogue order.
    pub fn runs(&self) -> &[RuleRun] {
        &self.runs
    }

    /// The verdict of `rule_id`.
    pub fn verdict(&self, rule_id: &str) -> Option<&Verdict> {
        self.runs
            .iter()
            .find(|run| run.rule.id() == rule_id)
            .map(|run| &run.verdict)
    }

    /// Whether the declaration is sound, every verdict lets the gate pass, and at least one
    /// rule checked something: a gate that verified nothing is never green.
    pub fn is_green(&self) -> bool {
        self.problems.is_empty()
            && self.runs.iter().all(|run| run.verdict.is_green())
            && self
                .runs
                .iter()
                .any(|run| !matches!(run.verdict, Verdict::NotApplicable { .. }))
    }
}

impl fmt::Display for GateReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "gate of backend {:?} (profile {:?}, rules {}):",
            self.backend, self.profile, self.rule_set
        )?;
        for problem in &self.problems {
            writeln!(f, "  gate.configuration: {problem}")?;
        }
        for run in &self.runs {
            writeln!(
                f,
                "  {:<34} {:<10} {}",
                run.rule.id(),
                run.rule.requirement(),
                run.verdict.label()
            )?;
        }
        for run in &self.runs {
            if !matches!(run.verdict, Verdict::Passed { .. }) {
                writeln!(f, "\n{}: {}", run.rule.id(), run.verdict)?;
            }
        }
        // The failures grouped by the value that fits them, where their scenarios show one.
        let named = self.runs.iter().filter_map(|run| match &run.verdict {
            Verdict::Failed(failure) => Some((run.rule.id(), failure.at_fault()?)),
            _ => None,
        });
        for (cause, rules) in causes(named) {
            let (count, verb) = match rules.len() {
                1 => ("1 rule".to_owned(), "fails"),
                n => (format!("{n} rules"), "fail"),
            };
            writeln!(
                f,
                "\n{count} {verb} as `{cause}` would: {}",
                rules.join(", ")
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance::rules;

    #[test]
    fn a_gate_that_verified_nothing_is_never_green() {
        let not_applicable = Verdict::NotApplicable {
            reason: "not declared".into(),
        };
        let rule = rules::find("durability.reopen").unwrap();
        let nothing = GateReport::new(
            "nothing",
            "nothing",
            RuleSetVersion::CURRENT,
            Vec::new(),
            vec![RuleRun::new(rule, not_applicable)],
        );
        assert!(!nothing.is_green());
        assert!(
            !GateReport::new(
                "empty",
                "empty",
                RuleSetVersion::CURRENT,
                Vec::new(),
                Vec::new()
            )
            .is_green()
        );
        let passed = RuleRun::new(
            rule,
            Verdict::Passed {
                cases: 1,
                slowest_write: None,
                scheduling_delay: None,
                operations: None,
            },
        );
        assert!(
            GateReport::new(
                "one",
                "one",
                RuleSetVersion::CURRENT,
                Vec::new(),
                vec![passed.clone()]
            )
            .is_green()
        );
        let misdeclared = GateReport::new(
            "one",
            "one",
            RuleSetVersion::CURRENT,
            vec!["twice".into()],
            vec![passed],
        );
        assert!(!misdeclared.is_green());
    }
}
