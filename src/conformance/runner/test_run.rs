//! A run of the test binary's tests: selected by the command line, then run on a pool of
//! `--test-threads` threads (each takes the next test when it is done with one), their
//! outcomes written as they come, in libtest's shape.

use std::io::{self, Write};
use std::num::NonZero;
use std::sync::{Mutex, PoisonError, mpsc};
use std::time::Instant;

use super::arguments::Arguments;
use super::conclusion::Conclusion;
use super::outcome_output::OutcomeOutput;
use super::test_case::{Outcome, TestCase};

/// Runs (or, under `--list`, lists) the tests `arguments` select, writing to `output`.
/// Tests run `arguments.test_threads` at a time (the machine's parallelism by default); with
/// one thread they run one after the other on this one, each announced before it runs.
pub(crate) fn run<W: Write>(
    arguments: &Arguments,
    tests: Vec<TestCase>,
    output: &mut OutcomeOutput<W>,
) -> io::Result<Conclusion> {
    let started = Instant::now();
    let before = tests.len();
    let tests: Vec<TestCase> = tests
        .into_iter()
        .filter(|test| !arguments.filters_out(test.name(), &test.listed_name(), test.is_ignored()))
        .collect();
    let mut conclusion = Conclusion {
        filtered_out: before - tests.len(),
        ..Conclusion::default()
    };
    if arguments.list {
        let names: Vec<String> = tests.iter().map(TestCase::listed_name).collect();
        output.list(names.iter().map(String::as_str))?;
        return Ok(Conclusion::default());
    }
    output.title(tests.len())?;
    let threads = arguments
        .test_threads
        .or_else(|| std::thread::available_parallelism().ok())
        .map_or(1, NonZero::get);
    let mut failures = Vec::new();
    let mut count = |name: String, outcome: Outcome| match outcome {
        Outcome::Passed => conclusion.passed += 1,
        Outcome::Ignored(_) => conclusion.ignored += 1,
        Outcome::Failed(text) => {
            conclusion.failed += 1;
            failures.push((name, text));
        }
    };
    let run_one = |test: TestCase| {
        if arguments.leaves_ignored(test.is_ignored()) {
            Outcome::Ignored(None)
        } else {
            test.run()
        }
    };
    if threads == 1 {
        for test in tests {
            let (name, listed) = (test.name().to_owned(), test.listed_name());
            output.started(&listed)?;
            let outcome = run_one(test);
            output.outcome(&listed, &outcome, true)?;
            count(name, outcome);
        }
    } else {
        let total = tests.len();
        let queue = Mutex::new(tests.into_iter());
        let (sender, receiver) = mpsc::channel();
        std::thread::scope(|scope| -> io::Result<()> {
            for _ in 0..threads.min(total) {
                let sender = sender.clone();
                let (queue, run_one) = (&queue, &run_one);
                scope.spawn(move || {
                    loop {
                        let next = queue.lock().unwrap_or_else(PoisonError::into_inner).next();
                        let Some(test) = next else { break };
                        let (name, listed) = (test.name().to_owned(), test.listed_name());
                        if sender.send((name, listed, run_one(test))).is_err() {
                            break;
                        }
                    }
                });
            }
            drop(sender);
            for (name, listed, outcome) in receiver.iter().take(total) {
                output.outcome(&listed, &outcome, false)?;
                count(name, outcome);
            }
            Ok(())
        })?;
    }
    output.failures(&failures)?;
    output.summary(&conclusion, started.elapsed())?;
    Ok(conclusion)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance::runner::arguments::Format;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn tests() -> Vec<TestCase> {
        vec![
            TestCase::new("b::key.isolation", || Outcome::Passed),
            TestCase::new("b::replace.readd", || {
                Outcome::Failed(Some("the report".into()))
            })
            .with_kind("known-violation"),
            TestCase::new("b::durability.reopen", || Outcome::Passed).with_ignored_flag(true),
        ]
    }

    fn run_with(words: &[&str], tests: Vec<TestCase>) -> (Conclusion, String) {
        let arguments = Arguments::parse(words.iter().copied()).unwrap();
        let mut bytes = Vec::new();
        let conclusion = {
            let mut output = OutcomeOutput::new(&mut bytes, arguments.format, false);
            run(&arguments, tests, &mut output).unwrap()
        };
        (conclusion, String::from_utf8(bytes).unwrap())
    }

    #[test]
    fn every_test_runs_and_is_counted_on_any_number_of_threads() {
        for threads in ["1", "4"] {
            let (conclusion, text) = run_with(&["--test-threads", threads], tests());
            let expected = Conclusion {
                passed: 1,
                failed: 1,
                ignored: 1,
                filtered_out: 0,
            };
            assert_eq!(conclusion, expected, "{text}");
            assert!(text.contains("test b::key.isolation ... ok\n"), "{text}");
            assert!(
                text.contains("test [known-violation] b::replace.readd ... FAILED\n"),
                "{text}"
            );
            assert!(
                text.contains("test b::durability.reopen ... ignored\n"),
                "{text}"
            );
            assert!(
                text.contains("---- b::replace.readd ----\nthe report\n"),
                "{text}"
            );
            assert_eq!(conclusion.exit_code(), std::process::ExitCode::from(101));
        }
    }

    #[test]
    fn filtered_tests_are_counted_and_not_run() {
        let (conclusion, text) = run_with(&["--exact", "b::key.isolation"], tests());
        assert_eq!(
            conclusion,
            Conclusion {
                passed: 1,
                filtered_out: 2,
                ..Conclusion::default()
            }
        );
        assert!(text.contains("running 1 test\n"), "{text}");
        let (conclusion, _) = run_with(&["--ignored"], tests());
        assert_eq!(
            conclusion,
            Conclusion {
                passed: 1,
                filtered_out: 2,
                ..Conclusion::default()
            }
        );
    }

    #[test]
    fn a_list_names_the_selected_tests_and_runs_none() {
        let ran = Arc::new(AtomicUsize::new(0));
        let counted = Arc::clone(&ran);
        let mut all = tests();
        all.push(TestCase::new("b::counted", move || {
            counted.fetch_add(1, Ordering::SeqCst);
            Outcome::Passed
        }));
        let (_, text) = run_with(&["--list", "--format", "terse"], all);
        assert_eq!(
            text,
            "b::key.isolation: test\n[known-violation] b::replace.readd: test\n\
             b::durability.reopen: test\nb::counted: test\n"
        );
        assert_eq!(ran.load(Ordering::SeqCst), 0);
        let (_, ignored) = run_with(&["--list", "--ignored"], tests());
        assert_eq!(ignored, "b::durability.reopen: test\n");
        assert_eq!(Format::default(), Format::Pretty);
    }

    #[test]
    fn tests_run_at_once_up_to_the_thread_count() {
        let (running, most) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
        let tests = (0..6)
            .map(|i| {
                let (running, most) = (Arc::clone(&running), Arc::clone(&most));
                TestCase::new(format!("b::t{i}"), move || {
                    let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                    most.fetch_max(now, Ordering::SeqCst);
                    std::thread::sleep(std::time::Duration::from_millis(50));
                    running.fetch_sub(1, Ordering::SeqCst);
                    Outcome::Passed
                })
            })
            .collect();
        let (conclusion, _) = run_with(&["--test-threads", "3"], tests);
        assert_eq!(conclusion.passed, 6);
        let most = most.load(Ordering::SeqCst);
        assert!((2..=3).contains(&most), "{most} tests ran at once");
    }
}
