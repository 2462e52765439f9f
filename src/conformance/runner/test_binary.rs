//! The gate as a test binary: one test per rule, named `backend::rule.id`, run under
//! `cargo test` and `cargo nextest`, then a closing summary whose counts are libtest's.

use std::io::{IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;
use std::sync::{Arc, Mutex, Once, PoisonError};

use super::arguments::{Arguments, Color, USAGE};
use super::conclusion::Conclusion;
use super::outcome_output::OutcomeOutput;
use super::recall_pin::{PIN_THREAD, TestTarget, pin_recall};
use super::test_case::{Outcome, TestCase};
use super::test_run;
use super::trial::TrialOutcome;
use crate::conformance::declare::gate::Gate;
use crate::conformance::rules;
use crate::conformance::verdict::rule_verdict::Verdict;

/// The test kind that marks a rule with a known violation, so the test list shows it
/// (`[known-violation] backend::rule.id`) under every runner.
const KNOWN_VIOLATION_KIND: &str = "known-violation";

type Verdicts = Arc<Mutex<Vec<(&'static str, Verdict)>>>;

/// Asserts one recall snapshot, by name and text, in the calling crate.
type Pin = dyn Fn(&str, &str) + Send + Sync;

/// Runs `gate` as the `main` of a `harness = false` test target; `pin` asserts one recall
/// snapshot in the calling crate. This is what `conformance_main!` expands to. A wrong
/// command line prints what is wrong and the usage, and exits with 101, as libtest does.
#[doc(hidden)]
pub fn main(
    gate: Gate,
    target: TestTarget,
    pin: impl Fn(&str, &str) + Send + Sync + 'static,
) -> ExitCode {
    let arguments = match Arguments::from_env() {
        Ok(arguments) => arguments,
        Err(usage) if usage == USAGE => {
            println!("{usage}");
            return ExitCode::SUCCESS;
        }
        Err(problem) => {
            eprintln!("error: {problem}");
            return ExitCode::from(101);
        }
    };
    let colored = match arguments.color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
    };
    let verdicts: Verdicts = Arc::default();
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
    // Standard output locked per write, never for the run: a test thread that prints (a known
    // violation's note) while the runner waits for its outcome would otherwise wait forever.
    let mut output = OutcomeOutput::new(std::io::stdout(), arguments.format, colored);
    let conclusion = run_gate(
        &gate,
        target,
        Arc::new(pin),
        &arguments,
        &verdicts,
        &mut output,
    );
    let conclusion = match conclusion {
        Ok(conclusion) => conclusion,
        Err(problem) => {
            eprintln!("error: the test output could not be written: {problem}");
            return ExitCode::from(101);
        }
    };
    if !arguments.list {
        let verdicts = verdicts.lock().unwrap_or_else(PoisonError::into_inner);
        print_summary(&gate, &conclusion, &verdicts);
    }
    conclusion.exit_code()
}

/// Lists or runs the tests of `gate` that `arguments` select, writing libtest's output to
/// `output`; a gate whose rules must run one at a time runs on one thread.
fn run_gate<W: Write>(
    gate: &Gate,
    target: TestTarget,
    pin: Arc<Pin>,
    arguments: &Arguments,
    verdicts: &Verdicts,
    output: &mut OutcomeOutput<W>,
) -> std::io::Result<Conclusion> {
    quiet_pin_panics();
    let mut arguments = arguments.clone();
    if gate.one_rule_at_a_time_reason().is_some() {
        arguments.test_threads = std::num::NonZero::new(1);
    }
    gate.run_in_lanes(
        arguments
            .test_threads
            .or_else(|| std::thread::available_parallelism().ok())
            .map_or(1, std::num::NonZero::get),
    );
    let tests = tests(gate, target, pin, verdicts);
    test_run::run(&arguments, tests, output)
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

/// The gate's trials ([`Gate::trials`]) as the runner's tests; each rule's verdict is kept for
/// the closing summary.
fn tests(gate: &Gate, target: TestTarget, pin: Arc<Pin>, verdicts: &Verdicts) -> Vec<TestCase> {
    gate.trials()
        .into_iter()
        .map(|test| {
            let name = gate.subject().test_name(test.id());
            let (known, ignored) = (test.is_known_violation(), test.is_ignored());
            let (gate, pin, verdicts) = (gate.clone(), Arc::clone(&pin), Arc::clone(verdicts));
            let trial = TestCase::new(name, move || {
                let pin = |gate: &Gate| pin_recall(gate, &target, pin.as_ref());
                let outcome = test.run(&gate, &pin);
                let verdict = match &outcome {
                    TrialOutcome::Passed { verdict } | TrialOutcome::Failed { verdict, .. } => {
                        verdict.as_ref()
                    }
                    TrialOutcome::Ignored(_) => None,
                };
                if let Some(verdict) = verdict {
                    if outcome.known_violation_note().is_some()
                        || outcome.new_rule_report().is_some()
                    {
                        println!("{}: {verdict}", test.id());
                    }
                    verdicts
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .push((test.id(), verdict.clone()));
                }
                match outcome {
                    TrialOutcome::Passed { .. } => Outcome::Passed,
                    TrialOutcome::Ignored(reason) => Outcome::Ignored(Some(reason)),
                    TrialOutcome::Failed { report, .. } => Outcome::Failed(Some(report)),
                }
            });
            let trial = if known {
                trial.with_kind(KNOWN_VIOLATION_KIND)
            } else {
                trial
            };
            trial.with_ignored_flag(ignored)
        })
        .collect()
}

fn print_summary(gate: &Gate, conclusion: &Conclusion, verdicts: &[(&'static str, Verdict)]) {
    let subject = gate.subject();
    let filtered = if conclusion.filtered_out > 0 {
        format!(", {} filtered out", conclusion.filtered_out)
    } else {
        String::new()
    };
    println!(
        "memory-conformance: backend {:?} against profile {:?}, rules {}: {} passed, {} failed, {} ignored{filtered}",
        subject.backend(),
        subject.profile().name,
        gate.rule_set(),
        conclusion.passed,
        conclusion.failed,
        conclusion.ignored,
    );
    if let Some(reason) = gate.unavailable_reason() {
        println!("  not run here: {reason}");
        return;
    }
    for (id, verdict) in verdicts {
        if let Some(note) = verdict.known_violation_note() {
            println!("  {id}: {note}");
        }
        if let Some(note) = verdict.new_rule_note() {
            println!("  new              {id}: {note}");
        }
        if let Some(mix) = verdict.operation_mix() {
            println!("  operation mix    {id}, {mix}");
        }
    }
    for line in gate.spent().to_string().lines() {
        println!("  {line}");
    }
    let draws = gate.lexicon_draws().to_string();
    if !draws.is_empty() {
        println!("  {draws}");
    }
    for (clause, reason) in
        crate::conformance::declare::known_violation::departures(subject.profile())
    {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::Profile;

    /// The gate's test binary from its command line to its output, as `cargo test` and
    /// `cargo nextest` call it (nextest lists with `--list --format terse`, then runs each
    /// test with `--exact NAME --nocapture`).
    fn run_words(gate: &Gate, words: &[&str]) -> (Conclusion, String) {
        let target = TestTarget {
            manifest_dir: env!("CARGO_MANIFEST_DIR"),
            package: env!("CARGO_PKG_NAME"),
            file: file!(),
            module: module_path!(),
        };
        let arguments = Arguments::parse(words.iter().copied()).unwrap();
        let pin: Arc<Pin> = Arc::new(|_: &str, _: &str| {});
        let mut bytes = Vec::new();
        let conclusion = {
            let mut output = OutcomeOutput::new(&mut bytes, arguments.format, false);
            run_gate(
                gate,
                target,
                pin,
                &arguments,
                &Verdicts::default(),
                &mut output,
            )
            .unwrap()
        };
        (conclusion, String::from_utf8(bytes).unwrap())
    }

    #[test]
    fn nextests_list_names_every_trial_as_a_test() {
        let gate = Gate::reference();
        let (conclusion, text) = run_words(&gate, &["--list", "--format", "terse"]);
        let expected: String = gate
            .trials()
            .iter()
            .map(|trial| format!("reference::{}: test\n", trial.id()))
            .collect();
        assert_eq!(text, expected);
        assert_eq!(conclusion, Conclusion::default());
    }

    #[test]
    fn an_exact_name_runs_that_test_alone_and_counts_the_rest_filtered_out() {
        let gate = Gate::reference().cases(4).seed(7);
        let total = gate.trials().len();
        let (conclusion, text) = run_words(
            &gate,
            &["--exact", "reference::key.isolation", "--nocapture"],
        );
        let expected = format!(
            "\nrunning 1 test\ntest reference::key.isolation ... ok\n\ntest result: ok. 1 passed; \
             0 failed; 0 ignored; 0 measured; {} filtered out; finished in ",
            total - 1
        );
        assert!(text.starts_with(&expected), "{text}");
        assert_eq!(conclusion.passed, 1);
    }

    #[test]
    fn a_known_violation_is_listed_with_its_kind_and_selected_by_either_name() {
        let gate = Gate::new(
            Gate::reference()
                .subject()
                .clone()
                .with_profile(Profile::adk_js()),
        );
        let listed = "[known-violation] reference::key.no_separator_collision";
        let (_, text) = run_words(&gate, &["--list", "--format", "terse"]);
        assert!(text.contains(&format!("\n{listed}: test\n")), "{text}");
        for name in [listed, "reference::key.no_separator_collision"] {
            let (_, text) = run_words(&gate, &["--list", "--format", "terse", "--exact", name]);
            assert_eq!(text, format!("{listed}: test\n"));
        }
    }
}
