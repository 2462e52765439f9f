//! The gate: every rule of the kit against one [`Subject`], with known violations declared,
//! as a libtest-compatible test binary (`cargo test`, `cargo nextest`) or as a report.

use std::fmt;
use std::process::ExitCode;
use std::sync::{Arc, Mutex, PoisonError, mpsc};

use libtest_mimic::{Arguments, Completion, Failed, Trial};
use serde::Serialize;

use super::execute::panic_message;
use super::failure::RuleFailure;
use super::rules::{self, Requirement, Rule};
use super::subject::Subject;
use crate::probe::{Difference, Observation};

/// Every rule of the kit against one backend: known violations declared, outcomes collected.
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// use memory_conformance::{Gate, InMemoryMemoryService, Profile, Subject};
/// let subject = Subject::new("reference", Profile::reference(), || async { InMemoryMemoryService::new() }).cases(8);
/// let report = Gate::new(subject).run().await;
/// assert!(report.is_green(), "{report}");
/// # }
/// ```
#[derive(Clone)]
pub struct Gate {
    subject: Subject,
    known_violations: Vec<KnownViolation>,
    pin: Option<Arc<PinSnapshot>>,
    unavailable: Option<String>,
}

/// When this environment variable is set, a gate marked [unavailable](Gate::unavailable) fails
/// instead of showing its tests as ignored (CI sets it after installing every backend).
pub const REQUIRE_ALL_BACKENDS: &str = "MEMORY_CONFORMANCE_REQUIRE_ALL_BACKENDS";

/// Pins one snapshot: called with its name and text, it must expand insta's
/// `assert_snapshot!` in the calling crate, so the snapshot lands there.
pub type PinSnapshot = dyn Fn(&str, &str) + Send + Sync;

impl fmt::Debug for Gate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Gate")
            .field("subject", &self.subject)
            .field("known_violations", &self.known_violations)
            .field("pins_recall", &self.pin.is_some())
            .finish()
    }
}

/// A required or profile rule the backend is known to break, with the reason. Its trial
/// passes while the violation shows and fails as soon as it disappears.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct KnownViolation {
    /// The rule's id.
    pub rule_id: String,
    /// Why the backend breaks it (one line, ideally naming the upstream issue).
    pub reason: String,
}

/// What one rule came to for the backend.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum RuleOutcome {
    /// The rule held on every case.
    Passed {
        /// Cases run.
        cases: u32,
    },
    /// The rule failed.
    Failed(Box<RuleFailure>),
    /// The rule does not apply to the profile.
    Ignored {
        /// Why not.
        reason: String,
    },
    /// The rule failed, as declared.
    KnownViolation {
        /// The declared reason.
        reason: String,
        /// How it failed this time.
        failure: Box<RuleFailure>,
    },
    /// The rule was declared a known violation but held: the declaration must go.
    ViolationGone {
        /// The declared reason.
        reason: String,
        /// Cases run.
        cases: u32,
    },
    /// The gate is misconfigured for this rule (a known violation of a rule that does not
    /// apply, or the rule did not finish).
    Broken {
        /// What is wrong.
        problem: String,
    },
}

impl RuleOutcome {
    /// Whether this outcome lets the gate pass.
    pub fn is_green(&self) -> bool {
        matches!(
            self,
            Self::Passed { .. } | Self::Ignored { .. } | Self::KnownViolation { .. }
        )
    }

    /// A short label: `pass`, `FAIL`, `ignored`, `known violation`, `violation gone`, `broken`.
    pub fn label(&self) -> &'static str {
        match self {
            Self::Passed { .. } => "pass",
            Self::Failed(_) => "FAIL",
            Self::Ignored { .. } => "ignored",
            Self::KnownViolation { .. } => "known violation",
            Self::ViolationGone { .. } => "violation gone",
            Self::Broken { .. } => "broken",
        }
    }
}

impl fmt::Display for RuleOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Passed { cases } => write!(f, "passed ({cases} cases)"),
            Self::Failed(failure) => write!(f, "{failure}"),
            Self::Ignored { reason } => write!(f, "ignored: {reason}"),
            Self::KnownViolation { reason, failure } => {
                write!(f, "known violation still present ({reason}):\n{failure}")
            }
            Self::ViolationGone { reason, cases } => write!(
                f,
                "the rule now holds ({cases} cases), but it is declared a known violation ({reason:?}): \
                 remove the declaration so the rule is enforced"
            ),
            Self::Broken { problem } => f.write_str(problem),
        }
    }
}

/// The outcome of every rule for one backend.
#[derive(Clone, Debug)]
pub struct GateReport {
    /// The backend's name.
    pub backend: String,
    /// The profile's name.
    pub profile: String,
    /// Each rule's id, requirement and outcome, in catalogue order.
    pub outcomes: Vec<(&'static str, Requirement, RuleOutcome)>,
}

impl GateReport {
    /// Whether every outcome lets the gate pass and at least one rule ran.
    pub fn is_green(&self) -> bool {
        self.outcomes.iter().all(|(_, _, o)| o.is_green())
            && self
                .outcomes
                .iter()
                .any(|(_, _, o)| !matches!(o, RuleOutcome::Ignored { .. }))
    }

    /// The outcome of `rule_id`.
    pub fn outcome(&self, rule_id: &str) -> Option<&RuleOutcome> {
        self.outcomes
            .iter()
            .find(|(id, _, _)| *id == rule_id)
            .map(|(_, _, o)| o)
    }
}

impl fmt::Display for GateReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "gate of backend {:?} (profile {:?}):",
            self.backend, self.profile
        )?;
        for (id, requirement, outcome) in &self.outcomes {
            writeln!(f, "  {id:<34} {requirement:<10} {}", outcome.label())?;
        }
        for (id, _, outcome) in &self.outcomes {
            if !matches!(outcome, RuleOutcome::Passed { .. }) {
                writeln!(f, "\n{id}: {outcome}")?;
            }
        }
        Ok(())
    }
}

impl Gate {
    /// A gate of every rule against `subject`, with no known violation.
    pub fn new(subject: Subject) -> Self {
        Self {
            subject,
            known_violations: Vec::new(),
            pin: None,
            unavailable: None,
        }
    }

    /// Marks the backend as not runnable here (a missing interpreter, an uninstalled
    /// package): every trial shows as ignored with `reason`, which should say how to install
    /// what is missing.
    #[must_use]
    pub fn unavailable(mut self, reason: impl Into<String>) -> Self {
        self.unavailable = Some(reason.into());
        self
    }

    /// Why the backend cannot run here, if it cannot.
    pub fn unavailable_reason(&self) -> Option<&str> {
        self.unavailable.as_deref()
    }

    /// Also pins the backend's recall on the probe corpus, and its difference from the
    /// reference, as two snapshots (`<backend>_recall`, `<backend>_recall_vs_reference`), in
    /// a trial named `backend::snapshot.recall`. `conformance_main!` passes insta's
    /// `assert_snapshot!` expanded in the calling crate, so the snapshots live there.
    #[must_use]
    pub fn pin_recall_with(mut self, pin: impl Fn(&str, &str) + Send + Sync + 'static) -> Self {
        self.pin = Some(Arc::new(pin));
        self
    }

    /// The backend's recall on the probe corpus, observed on a fresh instance (whose
    /// namespace is cleaned up afterwards).
    pub async fn observe(&self) -> Observation {
        let namespace = super::subject::Namespace::fresh();
        let backend = self.subject.open(&namespace).await;
        let observed = Observation::of(
            self.subject.backend(),
            self.subject.profile(),
            backend.as_ref(),
        )
        .await;
        drop(backend);
        self.subject.clean(&namespace);
        observed
    }

    /// The backend's recall and its difference from the reference, as Markdown.
    pub async fn observe_recall(&self) -> (String, String) {
        let profile = self.subject.profile();
        let observed = self.observe().await;
        let reference_profile = crate::Profile::reference();
        let reference = Observation::of(
            "reference",
            &reference_profile,
            &crate::InMemoryMemoryService::new(),
        )
        .await;
        let difference = Difference::between(&observed, profile, &reference);
        (observed.to_markdown(), difference.to_markdown())
    }

    /// Declares that the backend breaks `rule_id`, because of `reason`.
    #[must_use]
    pub fn known_violation(
        mut self,
        rule_id: impl Into<String>,
        reason: impl Into<String>,
    ) -> Self {
        self.known_violations.push(KnownViolation {
            rule_id: rule_id.into(),
            reason: reason.into(),
        });
        self
    }

    /// The subject under test.
    pub fn subject(&self) -> &Subject {
        &self.subject
    }

    /// The declared known violations.
    pub fn known_violations(&self) -> &[KnownViolation] {
        &self.known_violations
    }

    /// Checks the declaration itself: every known violation names a rule of the kit, once,
    /// with a reason.
    pub fn validate(&self) -> Result<(), String> {
        let mut problems = Vec::new();
        for (i, known) in self.known_violations.iter().enumerate() {
            if rules::find(&known.rule_id).is_none() {
                let ids: Vec<&str> = rules::catalogue().iter().map(Rule::id).collect();
                problems.push(format!(
                    "known_violation names {:?}, which is not a rule id; the rule ids are: {}",
                    known.rule_id,
                    ids.join(", ")
                ));
            }
            if known.reason.trim().is_empty() {
                problems.push(format!(
                    "known_violation {:?} has no reason; say why in one line",
                    known.rule_id
                ));
            }
            if self.known_violations[..i]
                .iter()
                .any(|k| k.rule_id == known.rule_id)
            {
                problems.push(format!(
                    "known_violation {:?} is declared twice",
                    known.rule_id
                ));
            }
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(problems.join("\n"))
        }
    }

    /// Runs one rule and weighs the outcome against the declaration.
    pub async fn check(&self, rule: &Rule) -> RuleOutcome {
        let known = self
            .known_violations
            .iter()
            .find(|k| k.rule_id == rule.id());
        let applies = rule.applies_to(self.subject.profile());
        match (applies, known) {
            (Err(reason), None) => RuleOutcome::Ignored { reason },
            (Err(reason), Some(known)) => RuleOutcome::Broken {
                problem: format!(
                    "{:?} is declared a known violation ({:?}), but the rule does not apply to profile {:?}: {reason}",
                    rule.id(),
                    known.reason,
                    self.subject.profile().name
                ),
            },
            (Ok(()), known) => match (rule.check(&self.subject).await, known) {
                (Ok(pass), None) => RuleOutcome::Passed { cases: pass.cases },
                (Ok(pass), Some(known)) => RuleOutcome::ViolationGone {
                    reason: known.reason.clone(),
                    cases: pass.cases,
                },
                (Err(failure), None) => RuleOutcome::Failed(Box::new(failure)),
                (Err(failure), Some(known)) => RuleOutcome::KnownViolation {
                    reason: known.reason.clone(),
                    failure: Box::new(failure),
                },
            },
        }
    }

    /// Runs every rule, one after the other, and collects the outcomes.
    pub async fn run(&self) -> GateReport {
        let mut outcomes = Vec::new();
        if let Err(problem) = self.validate() {
            outcomes.push((
                "gate.configuration",
                Requirement::Required,
                RuleOutcome::Broken { problem },
            ));
        }
        for rule in rules::catalogue() {
            outcomes.push((rule.id(), rule.requirement(), self.check(rule).await));
        }
        GateReport {
            backend: self.subject.backend().to_owned(),
            profile: self.subject.profile().name.clone(),
            outcomes,
        }
    }

    /// Runs the gate as a test binary's `main`: one trial per rule named `backend::rule.id`,
    /// inapplicable rules ignored, then a closing summary. Reads libtest's arguments, so it
    /// works under `cargo test` and `cargo nextest`.
    pub fn main(self) -> ExitCode {
        let arguments = Arguments::from_args();
        let listing = arguments.list;
        let summary = Arc::new(Mutex::new(Vec::new()));
        let trials = self.trials(&summary);
        let conclusion = libtest_mimic::run(&arguments, trials);
        if let Some(reason) = &self.unavailable {
            println!(
                "memory-conformance: backend {:?} not run: {reason}",
                self.subject.backend()
            );
        } else if !listing {
            let mut outcomes = summary
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .clone();
            for rule in rules::catalogue() {
                if let Err(reason) = rule.applies_to(self.subject.profile())
                    && !outcomes.iter().any(|(id, _)| *id == rule.id())
                {
                    outcomes.push((rule.id(), RuleOutcome::Ignored { reason }));
                }
            }
            print_summary(&self, &outcomes);
        }
        conclusion.exit_code()
    }

    fn trials(&self, summary: &Arc<Mutex<Vec<(&'static str, RuleOutcome)>>>) -> Vec<Trial> {
        if let Some(reason) = &self.unavailable {
            // CI sets this so that a backend that failed to install fails instead of hiding.
            let required = std::env::var_os(REQUIRE_ALL_BACKENDS).is_some();
            return rules::catalogue()
                .iter()
                .map(|rule| {
                    let reason = reason.clone();
                    Trial::ignorable_test(self.subject.test_name(rule.id()), move || {
                        if required {
                            Err(Failed::from(format!("{REQUIRE_ALL_BACKENDS} is set, but the backend cannot run: {reason}")))
                        } else {
                            Ok(Completion::ignored_with(reason))
                        }
                    })
                    .with_ignored_flag(!required)
                })
                .collect();
        }
        let mut trials = Vec::new();
        if let Err(problem) = self.validate() {
            trials.push(Trial::test(
                self.subject.test_name("gate.configuration"),
                move || Err(problem.into()),
            ));
        }
        let applicable = rules::catalogue()
            .iter()
            .filter(|rule| rule.applies_to(self.subject.profile()).is_ok())
            .count();
        if applicable == 0 {
            let problem = format!(
                "no rule of the kit applies to profile {:?}: a gate that verifies nothing must not pass",
                self.subject.profile().name
            );
            trials.push(Trial::test(
                self.subject.test_name("gate.no_rules"),
                move || Err(problem.into()),
            ));
        }
        if let Some(pin) = &self.pin {
            let (gate, pin) = (self.clone(), Arc::clone(pin));
            trials.push(Trial::test(
                self.subject.test_name("snapshot.recall"),
                move || {
                    let runtime = tokio::runtime::Builder::new_multi_thread()
                        .worker_threads(2)
                        .enable_all()
                        .build()
                        .map_err(|err| {
                            Failed::from(format!("cannot start a tokio runtime: {err}"))
                        })?;
                    let (recall, difference) = runtime.block_on(gate.observe_recall());
                    let name: String = gate
                        .subject
                        .backend()
                        .chars()
                        .map(|c| {
                            if c.is_ascii_alphanumeric() || c == '-' {
                                c
                            } else {
                                '_'
                            }
                        })
                        .collect();
                    // Both snapshots are checked even when the first differs, so one review sees both.
                    let failed: Vec<String> = [
                        (format!("{name}_recall"), recall),
                        (format!("{name}_recall_vs_reference"), difference),
                    ]
                    .into_iter()
                    .filter_map(|(snapshot, text)| {
                        let pinned = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                            pin(&snapshot, &text)
                        }));
                        pinned
                            .err()
                            .map(|payload| format!("{snapshot}: {}", panic_message(payload)))
                    })
                    .collect();
                    if failed.is_empty() {
                        Ok(())
                    } else {
                        Err(Failed::from(format!(
                            "the recall snapshots changed ({}); review with `cargo insta review`",
                            failed.join("; ")
                        )))
                    }
                },
            ));
        }
        for rule in rules::catalogue() {
            let gate = self.clone();
            let summary = Arc::clone(summary);
            let ignored = rule.applies_to(self.subject.profile()).is_err()
                && !self.known_violations.iter().any(|k| k.rule_id == rule.id());
            let trial = Trial::ignorable_test(self.subject.test_name(rule.id()), move || {
                let outcome = gate.check_on_own_thread(rule);
                let result = match &outcome {
                    RuleOutcome::Ignored { reason } => Ok(Completion::ignored_with(reason)),
                    RuleOutcome::Passed { .. } => Ok(Completion::Completed),
                    RuleOutcome::KnownViolation { .. } => {
                        println!("{}: {outcome}", rule.id());
                        Ok(Completion::Completed)
                    }
                    failed => Err(Failed::from(failed.to_string())),
                };
                summary
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .push((rule.id(), outcome));
                result
            });
            trials.push(trial.with_ignored_flag(ignored));
        }
        trials
    }

    /// Runs one rule on its own runtime and thread, as the test binary does: a backend call
    /// that blocks its thread (where the per-call timeout cannot fire) fails the rule once the
    /// subject's [rule timeout](Subject::rule_timeout) passes, instead of hanging CI.
    pub fn check_on_own_thread(&self, rule: &'static Rule) -> RuleOutcome {
        let deadline = self.subject.options.rule_timeout();
        let (sender, receiver) = mpsc::channel();
        let gate = self.clone();
        let spawned = std::thread::Builder::new()
            .name(rule.id().into())
            .spawn(move || {
                let outcome = match tokio::runtime::Builder::new_multi_thread()
                    .worker_threads(2)
                    .enable_all()
                    .build()
                {
                    Ok(runtime) => {
                        let outcome =
                            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                                runtime.block_on(gate.check(rule))
                            }));
                        runtime.shutdown_background();
                        outcome.unwrap_or_else(|payload| RuleOutcome::Broken {
                            problem: format!(
                                "the harness panicked while checking {}: {}",
                                rule.id(),
                                panic_message(payload)
                            ),
                        })
                    }
                    Err(err) => RuleOutcome::Broken {
                        problem: format!("cannot start a tokio runtime for {}: {err}", rule.id()),
                    },
                };
                let _ = sender.send(outcome);
            });
        if let Err(err) = spawned {
            return RuleOutcome::Broken {
                problem: format!("cannot start a thread for {}: {err}", rule.id()),
            };
        }
        receiver.recv_timeout(deadline).unwrap_or_else(|_| RuleOutcome::Broken {
            problem: format!(
                "{} did not finish within {deadline:?}: a backend call blocked its thread, where the per-call \
                 timeout of {:?} cannot fire",
                rule.id(),
                self.subject.options.op_timeout
            ),
        })
    }
}

fn print_summary(gate: &Gate, outcomes: &[(&'static str, RuleOutcome)]) {
    if outcomes
        .iter()
        .all(|(_, o)| matches!(o, RuleOutcome::Ignored { .. }))
    {
        return;
    }
    let count = |label: &str| outcomes.iter().filter(|(_, o)| o.label() == label).count();
    println!(
        "memory-conformance: backend {:?} against profile {:?}: {} passed, {} failed, {} known violations, {} ignored",
        gate.subject.backend(),
        gate.subject.profile().name,
        count("pass"),
        outcomes.iter().filter(|(_, o)| !o.is_green()).count(),
        count("known violation"),
        count("ignored"),
    );
    for (id, outcome) in outcomes {
        match outcome {
            RuleOutcome::Ignored { reason } => println!("  ignored          {id}: {reason}"),
            RuleOutcome::KnownViolation { reason, .. } => {
                println!("  known violation  {id}: {reason}")
            }
            _ => {}
        }
    }
}
