//! The verdict of one rule run.

use std::fmt;

use super::failure::RuleFailure;
use crate::conformance::declare::known_violation::KnownViolation;
use crate::conformance::declare::rule_set::RuleSetVersion;
use crate::conformance::generate::operation_mix::OperationMix;

/// What one rule came to for a backend.
///
/// A plain rule function ([`rules::key_isolation`](crate::conformance::rules::key_isolation))
/// answers [`Passed`](Verdict::Passed), [`NotApplicable`](Verdict::NotApplicable) or
/// [`Failed`](Verdict::Failed); a [`Gate`](crate::conformance::Gate) also weighs the answer
/// against the backend's known violations.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum Verdict {
    /// The rule held on every case.
    Passed {
        /// Cases run (generated and replayed).
        cases: u32,
        /// Where the profile declares delayed visibility: the longest a search waited to see
        /// a write.
        slowest_write: Option<std::time::Duration>,
        /// Where the profile declares delayed visibility: the longest the harness's own
        /// timers ran late while it waited for writes (the machine's scheduling delay, which
        /// the bound was widened by before any search counted as late).
        scheduling_delay: Option<std::time::Duration>,
        /// For the rule that combines every operation the profile declares
        /// (`model.random_ops`): in how many cases each operation, and each ordered pair,
        /// occurred.
        operations: Option<Box<OperationMix>>,
    },
    /// The rule does not apply to the profile, so nothing was checked.
    NotApplicable {
        /// Why not.
        reason: String,
    },
    /// The rule failed: the counterexample, or why the rule could not finish.
    Failed(Box<RuleFailure>),
    /// The rule failed, as a known violation says it does.
    KnownViolationShown {
        /// The known violation.
        violation: KnownViolation,
        /// How it failed this time.
        failure: Box<RuleFailure>,
    },
    /// The rule held in this run, and its known violation is
    /// [intermittent](KnownViolation::is_intermittent): a race this run did not hit.
    KnownViolationNotShown {
        /// The known violation.
        violation: KnownViolation,
        /// Cases run.
        cases: u32,
    },
    /// The rule held although a known violation says it fails: the declaration must go.
    KnownViolationGone {
        /// The known violation.
        violation: KnownViolation,
        /// Cases run.
        cases: u32,
    },
    /// The rule came with a rule set later than the one the gate
    /// [pins](crate::conformance::Gate::rules_as_of): it ran and its verdict is reported, but
    /// it does not fail the gate until the pin moves.
    New {
        /// The rule set that brought the rule.
        since: RuleSetVersion,
        /// The rule set the gate pins.
        pinned: RuleSetVersion,
        /// What the rule came to, as an unpinned gate weighs it.
        verdict: Box<Verdict>,
    },
}

impl Verdict {
    /// Whether this verdict lets the gate pass.
    pub fn is_green(&self) -> bool {
        matches!(
            self,
            Self::Passed { .. }
                | Self::NotApplicable { .. }
                | Self::KnownViolationShown { .. }
                | Self::KnownViolationNotShown { .. }
                | Self::New { .. }
        )
    }

    /// A short label: `pass`, `FAIL`, `ignored` (not applicable), `known violation`,
    /// `violation gone`, `intermittent violation` for the rule of an
    /// [intermittent](KnownViolation::is_intermittent) violation, shown in this run or not, or
    /// `new, pass` and `new, FAIL` for a rule later than the gate's pin.
    pub fn label(&self) -> &'static str {
        match self {
            Self::New { verdict, .. } if verdict.is_green() => "new, pass",
            Self::New { .. } => "new, FAIL",
            Self::Passed { .. } => "pass",
            Self::Failed(_) => "FAIL",
            Self::NotApplicable { .. } => "ignored",
            Self::KnownViolationShown { violation, .. } if violation.is_intermittent() => {
                "intermittent violation"
            }
            Self::KnownViolationNotShown { .. } => "intermittent violation",
            Self::KnownViolationShown { .. } => "known violation",
            Self::KnownViolationGone { .. } => "violation gone",
        }
    }

    /// For a rule whose known violation let the gate pass, how it came out, in one line:
    /// `known violation: REASON`, or `intermittent violation, shown in this run: REASON` (or
    /// `not shown`) for an [intermittent](KnownViolation::is_intermittent) one.
    pub fn known_violation_note(&self) -> Option<String> {
        let (what, violation) = match self {
            Self::KnownViolationShown { violation, .. } if violation.is_intermittent() => {
                ("intermittent violation, shown in this run", violation)
            }
            Self::KnownViolationNotShown { violation, .. } => {
                ("intermittent violation, not shown in this run", violation)
            }
            Self::KnownViolationShown { violation, .. } => ("known violation", violation),
            _ => return None,
        };
        Some(format!("{what}: {}", violation.reason()))
    }

    /// For a rule later than the rule set the gate pins, what it came to, in one line
    /// (`new in rules 0.2, after the pinned 0.1: FAIL, not counted until the pin moves`); its
    /// whole report is the verdict's text.
    pub fn new_rule_note(&self) -> Option<String> {
        let Self::New {
            since,
            pinned,
            verdict,
        } = self
        else {
            return None;
        };
        let came = if verdict.is_green() { "held" } else { "FAIL" };
        Some(format!(
            "new in rules {since}, after the pinned {pinned}: {came}, not counted until the pin moves"
        ))
    }

    /// For a passing rule that reports one (`model.random_ops`), the operation mix of its
    /// cases.
    pub fn operation_mix(&self) -> Option<&OperationMix> {
        match self {
            Self::Passed {
                operations: Some(mix),
                ..
            } => Some(mix),
            _ => None,
        }
    }

    /// The failure, when the rule failed (as declared or not).
    pub fn failure(&self) -> Option<&RuleFailure> {
        match self {
            Self::Failed(failure) | Self::KnownViolationShown { failure, .. } => Some(failure),
            _ => None,
        }
    }

    /// For a hand-written test: panics with the failure report unless the verdict is green;
    /// says on standard error why a rule that does not apply checked nothing.
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() {
    /// use memory_conformance::InMemoryMemoryService;
    /// use memory_conformance::conformance::{Subject, rules};
    /// use memory_conformance::profile::Profile;
    /// let subject = Subject::new("reference", Profile::reference(), || async { InMemoryMemoryService::new() });
    /// rules::key_isolation(&subject).await.assert_green();
    /// rules::durability_reopen(&subject).await.assert_green(); // not applicable: says why
    /// # }
    /// ```
    #[track_caller]
    pub fn assert_green(&self) {
        match self {
            Self::NotApplicable { reason } => {
                eprintln!("not applicable, nothing checked: {reason}")
            }
            green if green.is_green() => {}
            red => panic!("{red}"),
        }
    }

    /// Weighs a rule's own verdict against the known violation of the rule, if any.
    /// `misdeclared` makes the failure of a violation that names a rule that does not apply,
    /// from the reason it does not.
    pub(crate) fn against(
        self,
        known: Option<KnownViolation>,
        misdeclared: impl FnOnce(String) -> RuleFailure,
    ) -> Self {
        let Some(violation) = known else {
            return self;
        };
        match self {
            Self::Passed { cases, .. } if violation.is_intermittent() => {
                Self::KnownViolationNotShown { violation, cases }
            }
            Self::Passed { cases, .. } => Self::KnownViolationGone { violation, cases },
            Self::Failed(failure) if failure.is_counterexample() => {
                Self::KnownViolationShown { violation, failure }
            }
            Self::NotApplicable { reason } => Self::Failed(Box::new(misdeclared(reason))),
            other => other,
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Passed {
                cases,
                slowest_write: None,
                ..
            } => write!(f, "passed ({cases} cases)"),
            Self::Passed {
                cases,
                slowest_write: Some(slowest),
                scheduling_delay,
                ..
            } => {
                write!(
                    f,
                    "passed ({cases} cases; the slowest write was seen after {} ms",
                    slowest.as_millis()
                )?;
                if let Some(lag) = scheduling_delay {
                    write!(
                        f,
                        ", while the harness's own timers ran up to {} ms late",
                        lag.as_millis()
                    )?;
                }
                write!(f, ")")
            }
            Self::NotApplicable { reason } => write!(f, "not applicable: {reason}"),
            Self::Failed(failure) => write!(f, "{failure}"),
            Self::KnownViolationShown { violation, failure } => write!(
                f,
                "{} ({}):\n{failure}",
                if violation.is_intermittent() {
                    "intermittent violation shown in this run"
                } else {
                    "known violation still present"
                },
                violation.reason()
            ),
            Self::KnownViolationNotShown { violation, cases } => write!(
                f,
                "held in this run ({cases} cases); the known violation is intermittent, a race this run did not hit ({})",
                violation.reason()
            ),
            Self::New { verdict, .. } => {
                let note = self.new_rule_note().unwrap_or_default();
                write!(f, "{note}:\n{verdict}")
            }
            Self::KnownViolationGone { violation, cases } => write!(
                f,
                "the rule now holds ({cases} cases), but it is a known violation ({:?}): {}",
                violation.reason(),
                match violation.implied_by() {
                    None => "remove the declaration so the rule is enforced".to_owned(),
                    Some(dimension) => format!(
                        "the profile's {dimension} no longer describes the backend; correct the profile"
                    ),
                }
            ),
        }
    }
}
