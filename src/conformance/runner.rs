//! The gate as a test binary: one libtest trial per rule, named `backend::rule.id`, run under
//! `cargo test` and `cargo nextest`, then a closing summary whose counts are libtest's.

use std::path::Path;
use std::process::ExitCode;
use std::sync::{Arc, Mutex, Once, PoisonError};

use libtest_mimic::{Arguments, Completion, Conclusion, Failed, Trial};

use super::Gate;
use super::REQUIRE_ALL_BACKENDS;
use super::recall_pin::{PIN_THREAD, TestTarget, pin_recall};
use super::rules::{self, Rule};
use super::verdict::Verdict;

/// The trial kind that marks a rule with a known violation, so the test list shows it
/// (`[known-violation] backend::rule.id`) under every runner.
const KNOWN_VIOLATION_KIND: &str = "known-violation";

type Verdicts = Arc<Mutex<Vec<(&'static str, Verdict)>>>;

/// Asserts one recall snapshot, by name and text, in the calling crate.
type Pin = dyn Fn(&str, &str) + Send + Sync;

/// Runs `gate` as the `main` of a `harness = false` test target; `pin` asserts one recall
/// snapshot in the calling crate. This is what `conformance_main!` expands to.
#[doc(hidden)]
pub fn main(
    gate: Gate,
    target: TestTarget,
    pin: impl Fn(&str, &str) + Send + Sync + 'static,
) -> ExitCode {
    let gate = gate
        .failure_records(
            Path::new(target.manifest_dir)
                .join("proptest-regressions")
                .join("conformance"),
        )
        .reproduce_with(format!(
            "PROPTEST_RNG_SEED={{seed}} cargo test -p {} --test {} -- --exact '{{rule}}'",
            target.package,
            target.name()
        ));
    quiet_pin_panics();
    let mut arguments = Arguments::from_args();
    if gate.one_rule_at_a_time_reason().is_some() {
        arguments.test_threads = Some(1);
    }
    let verdicts: Verdicts = Arc::default();
    let trials = trials(&gate, target, Arc::new(pin), &verdicts);
    let conclusion = libtest_mimic::run(&arguments, trials);
    if !arguments.list {
        let verdicts = verdicts.lock().unwrap_or_else(PoisonError::into_inner);
        print_summary(&gate, &conclusion, &verdicts);
    }
    conclusion.exit_code()
}

/// Snapshot assertions panic by design; their message is part of the trial's failure, so the
/// panic hook stays silent on the pinning thread (no backtrace in the test list).
fn quiet_pin_panics() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if std::thread::current().name() != Some(PIN_THREAD) {
                previous(info);
            }
        }));
    });
}

fn trials(gate: &Gate, target: TestTarget, pin: Arc<Pin>, verdicts: &Verdicts) -> Vec<Trial> {
    let subject = gate.subject();
    if let Some(reason) = gate.unavailable_reason() {
        // CI sets this so that a backend that failed to install fails instead of hiding.
        let required = std::env::var_os(REQUIRE_ALL_BACKENDS).is_some();
        let names = rules::catalogue()
            .iter()
            .map(Rule::id)
            .chain(["snapshot.recall"])
            .chain(gate.declared_recall_floor().map(|_| "recall.floor"));
        return names
            .map(|id| {
                let reason = reason.to_owned();
                Trial::ignorable_test(subject.test_name(id), move || {
                    if required {
                        Err(Failed::from(format!(
                            "{REQUIRE_ALL_BACKENDS} is set, but the backend cannot run: {reason}"
                        )))
                    } else {
                        Ok(Completion::ignored_with(reason))
                    }
                })
                .with_ignored_flag(!required)
            })
            .collect();
    }
    let mut trials = Vec::new();
    if let Err(problem) = gate.validate() {
        trials.push(Trial::test(
            subject.test_name("gate.configuration"),
            move || Err(problem.into()),
        ));
    }
    let applicable = rules::catalogue()
        .iter()
        .filter(|rule| rule.applies_to(subject.profile()).is_ok())
        .count();
    if applicable == 0 {
        let problem = format!(
            "no rule of the kit applies to profile {:?}: a gate that verifies nothing must not pass",
            subject.profile().name
        );
        trials.push(Trial::test(subject.test_name("gate.no_rules"), move || {
            Err(problem.into())
        }));
    }
    let recall = gate.clone();
    trials.push(Trial::test(
        subject.test_name("snapshot.recall"),
        move || pin_recall(&recall, &target, pin.as_ref()).map_err(Failed::from),
    ));
    if let Some(floor) = gate.declared_recall_floor() {
        let (gate, floor) = (gate.clone(), floor.clone());
        trials.push(Trial::test(subject.test_name("recall.floor"), move || {
            let run = gate.benchmark().map_err(Failed::from)?;
            floor.check(&run).map_err(Failed::from)
        }));
    }
    for rule in rules::catalogue() {
        let known = gate.known_violation_of(rule.id()).is_some();
        let ignored = rule.applies_to(subject.profile()).is_err() && !known;
        let (gate, verdicts) = (gate.clone(), Arc::clone(verdicts));
        let trial = Trial::ignorable_test(subject.test_name(rule.id()), move || {
            let verdict = gate.check(rule);
            let result = match &verdict {
                Verdict::Passed { .. } => Ok(Completion::Completed),
                Verdict::NotApplicable { reason } => Ok(Completion::ignored_with(reason)),
                Verdict::KnownViolationShown { .. } | Verdict::KnownViolationNotShown { .. } => {
                    println!("{}: {verdict}", rule.id());
                    Ok(Completion::Completed)
                }
                red => Err(Failed::from(red.to_string())),
            };
            verdicts
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push((rule.id(), verdict));
            result
        });
        let trial = if known {
            trial.with_kind(KNOWN_VIOLATION_KIND)
        } else {
            trial
        };
        trials.push(trial.with_ignored_flag(ignored));
    }
    trials
}

fn print_summary(gate: &Gate, conclusion: &Conclusion, verdicts: &[(&'static str, Verdict)]) {
    let subject = gate.subject();
    let filtered = if conclusion.num_filtered_out > 0 {
        format!(", {} filtered out", conclusion.num_filtered_out)
    } else {
        String::new()
    };
    println!(
        "memory-conformance: backend {:?} against profile {:?}: {} passed, {} failed, {} ignored{filtered}",
        subject.backend(),
        subject.profile().name,
        conclusion.num_passed,
        conclusion.num_failed,
        conclusion.num_ignored,
    );
    if let Some(reason) = gate.unavailable_reason() {
        println!("  not run here: {reason}");
        return;
    }
    for (id, verdict) in verdicts {
        if let Some(note) = verdict.known_violation_note() {
            println!("  {id}: {note}");
        }
    }
    for (clause, reason) in super::departures(subject.profile()) {
        println!("  departure        {clause}: {reason}");
    }
    if let Some(reason) = gate.one_rule_at_a_time_reason() {
        println!("  one at a time    the rules ran one after the other: {reason}");
    }
    for rule in rules::catalogue() {
        if let Err(reason) = rule.applies_to(subject.profile()) {
            println!("  not applicable   {}: {reason}", rule.id());
        }
    }
}
