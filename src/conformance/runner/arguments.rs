//! The test binary's command line: libtest's, as `cargo test` and `cargo nextest` pass it
//! (filters, `--exact`, `--skip`, `--ignored`, `--include-ignored`, `--list`,
//! `--format terse`, `--test-threads N`, ...), parsed without a dependency.

use std::num::NonZero;

/// How the outcomes are written: a line per test, or a character per test (`-q`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Format {
    /// `test NAME ... ok`, a line per test.
    #[default]
    Pretty,
    /// `.`, `F` or `i`, a character per test; a list is `NAME: test` lines either way.
    Terse,
}

/// Whether the outcomes are coloured.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Color {
    /// Where standard output is a terminal.
    #[default]
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// The test binary's command line, as libtest reads it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Arguments {
    /// Run the tests whose names contain one of these (all of them where there is none).
    pub filters: Vec<String>,
    /// Filters and skips match whole names, not substrings.
    pub exact: bool,
    /// Leave out the tests whose names contain one of these.
    pub skip: Vec<String>,
    /// Run only the ignored tests.
    pub ignored: bool,
    /// Run the ignored tests too.
    pub include_ignored: bool,
    /// Run benchmarks (there are none: every test is ignored), as `cargo bench` asks.
    pub bench: bool,
    /// List the tests instead of running them.
    pub list: bool,
    /// How many tests run at once; `None` for the machine's parallelism.
    pub test_threads: Option<NonZero<usize>>,
    /// How the outcomes are written.
    pub format: Format,
    /// Whether the outcomes are coloured.
    pub color: Color,
}

/// The usage `--help` prints, and every error of the command line ends with.
pub(crate) const USAGE: &str = "\
usage: TEST-BINARY [OPTIONS] [FILTERS...]

Runs the tests whose names contain one of the FILTERS (all of them where there is none).

    --exact                 filters and --skip match whole names
    --skip FILTER           leave out the tests whose names contain FILTER (repeatable)
    --ignored               run only the ignored tests
    --include-ignored       run the ignored tests too
    --list                  list the tests (`NAME: test` lines) instead of running them
    --test-threads N        run N tests at once (default: RUST_TEST_THREADS, or the
                            machine's parallelism)
    --format pretty|terse   a line per test, or a character per test
    -q, --quiet             the same as --format terse
    --color auto|always|never
    --nocapture, --show-output
                            accepted; the output of a test is never captured
    --test, --bench         run the tests (the default), or the benchmarks (there are none)
    -Z unstable-options     accepted
    -h, --help              print this";

impl Arguments {
    /// The arguments of this process (after the program's name), with `RUST_TEST_THREADS`
    /// as the default thread count, as libtest reads it.
    pub fn from_env() -> Result<Self, String> {
        let mut arguments = Self::parse(std::env::args().skip(1))?;
        if arguments.test_threads.is_none()
            && let Ok(threads) = std::env::var("RUST_TEST_THREADS")
        {
            arguments.test_threads = Some(
                thread_count(&threads)
                    .map_err(|problem| format!("RUST_TEST_THREADS: {problem}"))?,
            );
        }
        Ok(arguments)
    }

    /// Parses libtest's command line (without the program's name). An error says which word
    /// is wrong and ends with the usage; `--help` is an error whose text is the usage alone.
    pub fn parse<I, S>(words: I) -> Result<Self, String>
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let mut arguments = Self::default();
        let mut words = words.into_iter().map(Into::into);
        let mut only_filters = false;
        while let Some(word) = words.next() {
            if only_filters || !word.starts_with('-') || word == "-" {
                arguments.filters.push(word);
                continue;
            }
            let (flag, inline) = match word.split_once('=') {
                Some((flag, value)) if word.starts_with("--") => {
                    (flag.to_owned(), Some(value.to_owned()))
                }
                _ => (word.clone(), None),
            };
            let mut value = |name: &str| -> Result<String, String> {
                inline
                    .clone()
                    .or_else(|| words.next())
                    .ok_or_else(|| format!("{name} needs a value\n\n{USAGE}"))
            };
            match flag.as_str() {
                "--" => only_filters = true,
                "--exact" => arguments.exact = true,
                "--skip" => arguments.skip.push(value("--skip")?),
                "--ignored" => arguments.ignored = true,
                "--include-ignored" => arguments.include_ignored = true,
                "--list" => arguments.list = true,
                "--test" => arguments.bench = false,
                "--bench" => arguments.bench = true,
                "--nocapture" | "--show-output" => {}
                "-q" | "--quiet" => arguments.format = Format::Terse,
                "--test-threads" => {
                    let threads = value("--test-threads")?;
                    arguments.test_threads = Some(
                        thread_count(&threads)
                            .map_err(|problem| format!("--test-threads: {problem}\n\n{USAGE}"))?,
                    );
                }
                "--format" => {
                    arguments.format = match value("--format")?.as_str() {
                        "pretty" => Format::Pretty,
                        "terse" => Format::Terse,
                        other => {
                            return Err(format!(
                                "--format {other:?} is not a format of this runner: \
                                 give pretty or terse\n\n{USAGE}"
                            ));
                        }
                    };
                }
                "--color" => {
                    arguments.color = match value("--color")?.as_str() {
                        "auto" => Color::Auto,
                        "always" => Color::Always,
                        "never" => Color::Never,
                        other => {
                            return Err(format!(
                                "--color {other:?} is not a colour setting: give auto, \
                                 always or never\n\n{USAGE}"
                            ));
                        }
                    };
                }
                "-Z" => {
                    value("-Z")?;
                }
                "-h" | "--help" => return Err(USAGE.to_owned()),
                _ => {
                    return Err(format!(
                        "{word:?} is not an option of this test runner, which reads \
                         libtest's command line as cargo test and cargo nextest pass it\n\n{USAGE}"
                    ));
                }
            }
        }
        Ok(arguments)
    }

    /// Whether a test named `name` (listed as `listed`, with its kind: `[kind] name`) is
    /// left out by the filters, the skips or `--ignored`. Either spelling matches.
    pub fn filters_out(&self, name: &str, listed: &str, ignored: bool) -> bool {
        let matches = |filter: &String| {
            if self.exact {
                name == filter || listed == filter
            } else {
                listed.contains(filter.as_str())
            }
        };
        (!self.filters.is_empty() && !self.filters.iter().any(matches))
            || self.skip.iter().any(matches)
            || (self.ignored && !ignored)
    }

    /// Whether a selected test is reported ignored instead of run: it is marked ignored and
    /// neither `--ignored` nor `--include-ignored` is given, or benchmarks were asked for.
    pub fn leaves_ignored(&self, ignored: bool) -> bool {
        (ignored && !self.ignored && !self.include_ignored) || self.bench
    }
}

fn thread_count(text: &str) -> Result<NonZero<usize>, String> {
    text.parse::<NonZero<usize>>()
        .map_err(|_| format!("{text:?} is not a thread count: give a whole number above 0"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(words: &[&str]) -> Arguments {
        Arguments::parse(words.iter().copied()).unwrap()
    }

    #[test]
    fn no_word_runs_everything_on_the_machines_threads() {
        assert_eq!(parse(&[]), Arguments::default());
    }

    #[test]
    fn cargo_tests_words_are_read() {
        let arguments = parse(&[
            "key.",
            "replace.",
            "--exact",
            "--skip",
            "a",
            "--skip=b",
            "--include-ignored",
            "--test-threads",
            "3",
            "--color=never",
            "--nocapture",
            "--show-output",
            "-q",
        ]);
        assert_eq!(arguments.filters, ["key.", "replace."]);
        assert!(arguments.exact && arguments.include_ignored);
        assert_eq!(arguments.skip, ["a", "b"]);
        assert_eq!(arguments.test_threads, NonZero::new(3));
        assert_eq!(arguments.color, Color::Never);
        assert_eq!(arguments.format, Format::Terse);
    }

    #[test]
    fn nextests_list_and_run_words_are_read() {
        let list = parse(&["--list", "--format", "terse", "--ignored"]);
        assert!(list.list && list.ignored);
        assert_eq!(list.format, Format::Terse);
        let run = parse(&["--exact", "backend::key.isolation", "--nocapture"]);
        assert!(run.exact);
        assert_eq!(run.filters, ["backend::key.isolation"]);
        assert_eq!(
            parse(&["--format=pretty", "-Z", "unstable-options"]).format,
            Format::Pretty
        );
    }

    #[test]
    fn words_after_a_double_dash_are_filters() {
        assert_eq!(parse(&["--", "--list"]).filters, ["--list"]);
    }

    #[test]
    fn a_wrong_word_says_what_is_wrong_and_how_to_call() {
        let cases = [
            (&["--frobnicate"][..], "\"--frobnicate\" is not an option"),
            (&["--test-threads", "0"], "\"0\" is not a thread count"),
            (&["--test-threads"], "--test-threads needs a value"),
            (
                &["--format", "json"],
                "\"json\" is not a format of this runner",
            ),
            (&["--color", "blue"], "\"blue\" is not a colour setting"),
        ];
        for (words, expected) in cases {
            let problem = Arguments::parse(words.iter().copied()).unwrap_err();
            assert!(problem.contains(expected), "{words:?}: {problem}");
            assert!(problem.ends_with(USAGE), "{words:?}: {problem}");
        }
        assert_eq!(Arguments::parse(["--help"]).unwrap_err(), USAGE);
    }

    #[test]
    fn filters_match_substrings_or_whole_names_and_skips_win() {
        let (name, listed) = ("b::key.isolation", "[known-violation] b::key.isolation");
        assert!(!parse(&["key."]).filters_out(name, listed, false));
        assert!(!parse(&["nothing", "isolation"]).filters_out(name, listed, false));
        assert!(parse(&["nothing"]).filters_out(name, listed, false));
        assert!(parse(&["--exact", "key.isolation"]).filters_out(name, listed, false));
        assert!(!parse(&["--exact", name]).filters_out(name, listed, false));
        assert!(!parse(&["--exact", listed]).filters_out(name, listed, false));
        assert!(parse(&["key.", "--skip", "isolation"]).filters_out(name, listed, false));
        assert!(!parse(&["--exact", "--skip", "isolation"]).filters_out(name, listed, false));
    }

    #[test]
    fn ignored_tests_run_only_when_asked() {
        assert!(parse(&["--ignored"]).filters_out("a", "a", false));
        assert!(!parse(&["--ignored"]).filters_out("a", "a", true));
        assert!(parse(&[]).leaves_ignored(true));
        assert!(!parse(&[]).leaves_ignored(false));
        assert!(!parse(&["--ignored"]).leaves_ignored(true));
        assert!(!parse(&["--include-ignored"]).leaves_ignored(true));
        assert!(parse(&["--bench"]).leaves_ignored(false));
    }
}
