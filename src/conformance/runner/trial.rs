//! The gate's test list, once for every runner: the checks of its declaration, one trial per
//! rule, the recall snapshot and the recall floor, each run to a typed [`TrialOutcome`]. The
//! libtest runner (`test_binary.rs`) and the CLI's `gate` only select and format them.

use crate::benchmark::RecallFloor;
use crate::conformance::declare::gate::Gate;
use crate::conformance::declare::gate::REQUIRE_ALL_BACKENDS;
use crate::conformance::rules::{self, Rule};
use crate::conformance::verdict::rule_verdict::Verdict;

/// The recall snapshot's trial id.
pub const RECALL_SNAPSHOT: &str = "snapshot.recall";
/// The recall floor's trial id.
pub const RECALL_FLOOR: &str = "recall.floor";

/// One test of a gate.
#[derive(Clone, Debug)]
pub struct Trial {
    id: &'static str,
    check: Check,
    known_violation: bool,
    ignored: bool,
}

#[derive(Clone, Debug)]
enum Check {
    /// The gate cannot run here: every trial is ignored, or fails under
    /// [`REQUIRE_ALL_BACKENDS`].
    Unavailable(String),
    /// The gate's declaration is wrong, or verifies nothing: the trial fails with this.
    Declaration(String),
    Rule(&'static Rule),
    RecallSnapshot,
    RecallFloor(RecallFloor),
}

/// How a trial came out.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum TrialOutcome {
    /// It held; `verdict` is the rule's, with a note where a known violation showed or not.
    Passed {
        /// The rule's verdict, for a rule.
        verdict: Option<Verdict>,
    },
    /// It checked nothing, for this reason.
    Ignored(String),
    /// It failed: the report.
    Failed {
        /// The failure report.
        report: String,
        /// The rule's verdict, for a rule.
        verdict: Option<Verdict>,
    },
}

impl TrialOutcome {
    /// The known violation's note (how it came out), where one was declared and held.
    pub fn known_violation_note(&self) -> Option<String> {
        self.verdict().and_then(Verdict::known_violation_note)
    }

    /// For a rule later than the rule set the gate pins, its report: how it came out, and
    /// its failure where it failed ([`Verdict::New`]).
    pub fn new_rule_report(&self) -> Option<String> {
        self.verdict()
            .filter(|verdict| verdict.new_rule_note().is_some())
            .map(ToString::to_string)
    }

    /// The operation mix of a passing rule that reports one (`model.random_ops`).
    pub fn operation_mix(
        &self,
    ) -> Option<&crate::conformance::generate::operation_mix::OperationMix> {
        self.verdict().and_then(Verdict::operation_mix)
    }

    fn verdict(&self) -> Option<&Verdict> {
        match self {
            Self::Passed {
                verdict: Some(verdict),
            } => Some(verdict),
            _ => None,
        }
    }
}

impl Gate {
    /// The gate's test list: the checks of its declaration where it is wrong or verifies
    /// nothing (`gate.configuration`, `gate.no_rules`), one trial per rule in catalogue order,
    /// the recall snapshot, and the recall floor where one is declared. A gate that cannot
    /// run here lists the rules, the snapshot and the floor, each ignored with the reason.
    pub fn trials(&self) -> Vec<Trial> {
        let subject = self.subject();
        let trial = |id, check| Trial {
            id,
            check,
            known_violation: false,
            ignored: false,
        };
        let rest = || {
            rules::catalogue()
                .iter()
                .map(Rule::id)
                .chain([RECALL_SNAPSHOT])
                .chain(self.declared_recall_floor().map(|_| RECALL_FLOOR))
        };
        if let Some(reason) = self.unavailable_reason() {
            let required = std::env::var_os(REQUIRE_ALL_BACKENDS).is_some();
            return rest()
                .map(|id| Trial {
                    ignored: !required,
                    ..trial(id, Check::Unavailable(reason.to_owned()))
                })
                .collect();
        }
        let mut trials = Vec::new();
        if let Err(problem) = self.validate() {
            trials.push(trial("gate.configuration", Check::Declaration(problem)));
        }
        if !rules::catalogue()
            .iter()
            .any(|rule| rule.applies_to(subject.profile()).is_ok())
        {
            let problem = format!(
                "no rule of the kit applies to profile {:?}: a gate that verifies nothing must not pass",
                subject.profile().name
            );
            trials.push(trial("gate.no_rules", Check::Declaration(problem)));
        }
        for rule in rules::catalogue() {
            let known = self.known_violation_of(rule.id()).is_some();
            trials.push(Trial {
                known_violation: known,
                ignored: rule.applies_to(subject.profile()).is_err() && !known,
                ..trial(rule.id(), Check::Rule(rule))
            });
        }
        trials.push(trial(RECALL_SNAPSHOT, Check::RecallSnapshot));
        if let Some(floor) = self.declared_recall_floor() {
            trials.push(trial(RECALL_FLOOR, Check::RecallFloor(floor.clone())));
        }
        trials
    }
}

impl Trial {
    /// The trial's id: a rule's (`key.isolation`), `snapshot.recall`, `recall.floor`,
    /// `gate.configuration` or `gate.no_rules`.
    pub fn id(&self) -> &'static str {
        self.id
    }

    /// Whether a known violation is declared for its rule (listed as `[known-violation]`).
    pub fn is_known_violation(&self) -> bool {
        self.known_violation
    }

    /// Whether it is listed as ignored: its rule does not apply (and no known violation is
    /// declared for it), or the gate cannot run here.
    pub fn is_ignored(&self) -> bool {
        self.ignored
    }

    /// Whether it checks the gate's declaration rather than the backend: kept by every
    /// selection of tests, so a wrong gate fails whatever runs.
    pub fn checks_the_declaration(&self) -> bool {
        matches!(self.check, Check::Declaration(_))
    }

    /// Runs the trial on `gate`; `pin_recall` pins the recall snapshot (each runner keeps its
    /// snapshots its own way) and says what is missing or changed.
    pub fn run(
        &self,
        gate: &Gate,
        pin_recall: &dyn Fn(&Gate) -> Result<(), String>,
    ) -> TrialOutcome {
        let failed = |report: String| TrialOutcome::Failed {
            report,
            verdict: None,
        };
        let held = |result: Result<(), String>| match result {
            Ok(()) => TrialOutcome::Passed { verdict: None },
            Err(report) => failed(report),
        };
        match &self.check {
            Check::Unavailable(reason) if self.ignored => TrialOutcome::Ignored(reason.clone()),
            Check::Unavailable(reason) => failed(format!(
                "{REQUIRE_ALL_BACKENDS} is set, but the backend cannot run: {reason}"
            )),
            Check::Declaration(problem) => failed(problem.clone()),
            Check::Rule(rule) => {
                let verdict = gate.check(rule);
                match verdict {
                    Verdict::Passed { .. }
                    | Verdict::KnownViolationShown { .. }
                    | Verdict::KnownViolationNotShown { .. }
                    | Verdict::New { .. } => TrialOutcome::Passed {
                        verdict: Some(verdict),
                    },
                    Verdict::NotApplicable { reason } => TrialOutcome::Ignored(reason),
                    red => TrialOutcome::Failed {
                        report: red.to_string(),
                        verdict: Some(red),
                    },
                }
            }
            Check::RecallSnapshot => held(pin_recall(gate)),
            Check::RecallFloor(floor) => held(
                gate.benchmark()
                    .and_then(|run| floor.check(&run))
                    .map_err(|problem| format!("{problem}declared: {floor}")),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::Profile;

    fn ids(gate: &Gate) -> Vec<&'static str> {
        gate.trials().iter().map(Trial::id).collect()
    }

    #[test]
    fn the_list_is_the_rules_in_catalogue_order_then_the_recall_tests() {
        let gate = Gate::reference();
        let mut expected: Vec<&str> = rules::catalogue().iter().map(Rule::id).collect();
        expected.push(RECALL_SNAPSHOT);
        assert_eq!(ids(&gate), expected);

        let floored = Gate::reference().recall_floor(RecallFloor::recall_at_5(0.5));
        assert_eq!(ids(&floored).last(), Some(&RECALL_FLOOR));
    }

    #[test]
    fn a_known_violation_is_marked_and_a_rule_that_does_not_apply_is_ignored() {
        let adk_js = Gate::new(
            Gate::reference()
                .subject()
                .clone()
                .with_profile(Profile::adk_js()),
        );
        let trials = adk_js.trials();
        let marked: Vec<&str> = trials
            .iter()
            .filter(|t| t.is_known_violation())
            .map(Trial::id)
            .collect();
        assert_eq!(marked, ["key.no_separator_collision"]);
        let durable = trials
            .iter()
            .find(|t| t.id() == "durability.reopen")
            .expect("every rule is listed");
        assert!(durable.is_ignored() && !durable.checks_the_declaration());
    }

    #[test]
    fn a_wrong_declaration_is_a_failing_trial_that_says_what_is_wrong() {
        let gate = Gate::reference().known_violation("no.such_rule", "a typo");
        let trials = gate.trials();
        let first = &trials[0];
        assert_eq!(first.id(), "gate.configuration");
        assert!(first.checks_the_declaration());
        let no_pin = |_: &Gate| Ok(());
        match first.run(&gate, &no_pin) {
            TrialOutcome::Failed { report, .. } => {
                assert!(
                    report.contains("\"no.such_rule\", which is not a rule id"),
                    "{report}"
                );
            }
            other => panic!("a wrong declaration must fail, not {other:?}"),
        }
    }
}
