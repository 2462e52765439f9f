//! The test binary's output, in libtest's shape, which CI and people read: `running N tests`,
//! `test NAME ... ok|FAILED|ignored` (or a character per test), the failures' text, and
//! `test result: ok. N passed; N failed; N ignored; 0 measured; N filtered out; finished in
//! Xs`; a list is `NAME: test` lines, as `cargo nextest` reads it.

use std::io::{self, Write};
use std::time::Duration;

use super::arguments::Format;
use super::conclusion::Conclusion;
use super::test_case::Outcome;

const GREEN: &str = "\x1b[32m";
const RED: &str = "\x1b[31m";
const YELLOW: &str = "\x1b[33m";
const RESET: &str = "\x1b[0m";

/// Writes a run's output to `out`, in `format`, coloured or not.
pub(crate) struct OutcomeOutput<W: Write> {
    out: W,
    format: Format,
    colored: bool,
}

impl<W: Write> OutcomeOutput<W> {
    /// Output to `out`.
    pub fn new(out: W, format: Format, colored: bool) -> Self {
        Self {
            out,
            format,
            colored,
        }
    }

    /// The list: a `NAME: test` line per test, names as listed (`[kind] name`).
    pub fn list<'a>(&mut self, names: impl IntoIterator<Item = &'a str>) -> io::Result<()> {
        for name in names {
            writeln!(self.out, "{name}: test")?;
        }
        self.out.flush()
    }

    /// `running N tests`, after an empty line.
    pub fn title(&mut self, tests: usize) -> io::Result<()> {
        let plural = if tests == 1 { "" } else { "s" };
        writeln!(self.out)?;
        writeln!(self.out, "running {tests} test{plural}")?;
        self.out.flush()
    }

    /// `test NAME ... `, before a test runs where tests run one at a time (its outcome
    /// follows with [`outcome`](Self::outcome), `started` true).
    pub fn started(&mut self, name: &str) -> io::Result<()> {
        if self.format == Format::Pretty {
            write!(self.out, "test {name} ... ")?;
        }
        self.out.flush()
    }

    /// A test's outcome: `test NAME ... ok` (its end only where it was
    /// [`started`](Self::started)), or its character.
    pub fn outcome(&mut self, name: &str, outcome: &Outcome, started: bool) -> io::Result<()> {
        let (word, character, color) = match outcome {
            Outcome::Passed => ("ok", '.', GREEN),
            Outcome::Failed(_) => ("FAILED", 'F', RED),
            Outcome::Ignored(_) => ("ignored", 'i', YELLOW),
        };
        let (color, reset) = if self.colored {
            (color, RESET)
        } else {
            ("", "")
        };
        match self.format {
            Format::Pretty => {
                if !started {
                    write!(self.out, "test {name} ... ")?;
                }
                match outcome {
                    Outcome::Ignored(Some(reason)) => {
                        writeln!(self.out, "{color}{word} ({reason}){reset}")?;
                    }
                    _ => writeln!(self.out, "{color}{word}{reset}")?,
                }
            }
            Format::Terse => write!(self.out, "{color}{character}{reset}")?,
        }
        self.out.flush()
    }

    /// The failures: each one's text under `---- NAME ----`, then their names.
    pub fn failures(&mut self, failures: &[(String, Option<String>)]) -> io::Result<()> {
        if failures.is_empty() {
            return Ok(());
        }
        writeln!(self.out)?;
        writeln!(self.out, "failures:")?;
        writeln!(self.out)?;
        for (name, text) in failures {
            writeln!(self.out, "---- {name} ----")?;
            if let Some(text) = text {
                writeln!(self.out, "{text}")?;
            }
            writeln!(self.out)?;
        }
        writeln!(self.out)?;
        writeln!(self.out, "failures:")?;
        for (name, _) in failures {
            writeln!(self.out, "    {name}")?;
        }
        self.out.flush()
    }

    /// `test result: ok. N passed; N failed; N ignored; 0 measured; N filtered out; finished
    /// in Xs`, between empty lines.
    pub fn summary(&mut self, conclusion: &Conclusion, elapsed: Duration) -> io::Result<()> {
        let (word, color) = if conclusion.failed > 0 {
            ("FAILED", RED)
        } else {
            ("ok", GREEN)
        };
        let (color, reset) = if self.colored {
            (color, RESET)
        } else {
            ("", "")
        };
        writeln!(self.out)?;
        writeln!(
            self.out,
            "test result: {color}{word}{reset}. {} passed; {} failed; {} ignored; 0 measured; \
             {} filtered out; finished in {:.2}s",
            conclusion.passed,
            conclusion.failed,
            conclusion.ignored,
            conclusion.filtered_out,
            elapsed.as_secs_f64()
        )?;
        writeln!(self.out)?;
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(
        format: Format,
        colored: bool,
        write: impl FnOnce(&mut OutcomeOutput<&mut Vec<u8>>),
    ) -> String {
        let mut bytes = Vec::new();
        write(&mut OutcomeOutput::new(&mut bytes, format, colored));
        String::from_utf8(bytes).unwrap()
    }

    #[test]
    fn a_run_reads_as_libtests() {
        let text = written(Format::Pretty, false, |output| {
            output.title(3).unwrap();
            output
                .outcome("b::key.isolation", &Outcome::Passed, false)
                .unwrap();
            output.started("b::durability.reopen").unwrap();
            output
                .outcome(
                    "b::durability.reopen",
                    &Outcome::Ignored(Some("not durable".into())),
                    true,
                )
                .unwrap();
            output
                .outcome(
                    "[known-violation] b::replace.readd",
                    &Outcome::Failed(Some("the report".into())),
                    false,
                )
                .unwrap();
            output
                .failures(&[(
                    "[known-violation] b::replace.readd".into(),
                    Some("the report".into()),
                )])
                .unwrap();
            let conclusion = Conclusion {
                passed: 1,
                failed: 1,
                ignored: 1,
                filtered_out: 2,
            };
            output
                .summary(&conclusion, Duration::from_millis(1234))
                .unwrap();
        });
        assert_eq!(
            text,
            "\nrunning 3 tests\n\
             test b::key.isolation ... ok\n\
             test b::durability.reopen ... ignored (not durable)\n\
             test [known-violation] b::replace.readd ... FAILED\n\
             \nfailures:\n\n---- [known-violation] b::replace.readd ----\nthe report\n\n\
             \nfailures:\n    [known-violation] b::replace.readd\n\
             \ntest result: FAILED. 1 passed; 1 failed; 1 ignored; 0 measured; 2 filtered out; finished in 1.23s\n\n"
        );
    }

    #[test]
    fn terse_output_is_a_character_per_test() {
        let text = written(Format::Terse, false, |output| {
            output.title(1).unwrap();
            output.started("b::a").unwrap();
            output.outcome("b::a", &Outcome::Passed, true).unwrap();
            output
                .outcome("b::b", &Outcome::Ignored(None), false)
                .unwrap();
            output
                .summary(
                    &Conclusion {
                        passed: 1,
                        ignored: 1,
                        ..Conclusion::default()
                    },
                    Duration::ZERO,
                )
                .unwrap();
        });
        assert_eq!(
            text,
            "\nrunning 1 test\n.i\ntest result: ok. 1 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.00s\n\n"
        );
    }

    #[test]
    fn a_list_is_name_colon_test_lines() {
        let text = written(Format::Terse, false, |output| {
            output.list(["b::a", "[known-violation] b::b"]).unwrap();
        });
        assert_eq!(text, "b::a: test\n[known-violation] b::b: test\n");
    }

    #[test]
    fn colour_wraps_the_outcome_word_only() {
        let text = written(Format::Pretty, true, |output| {
            output.outcome("b::a", &Outcome::Passed, false).unwrap();
        });
        assert_eq!(text, "test b::a ... \x1b[32mok\x1b[0m\n");
    }
}
