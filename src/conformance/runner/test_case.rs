//! One test of the test binary: its name, its kind, whether it is ignored, and the closure that
//! runs it to an [`Outcome`], a panic caught as a failure.

use std::panic::{AssertUnwindSafe, catch_unwind};

/// How a test came out, as libtest counts it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// It passed.
    Passed,
    /// It failed; the text is printed under `failures:`.
    Failed(Option<String>),
    /// It was not run (marked ignored), or it checked nothing, for the reason given.
    Ignored(Option<String>),
}

/// A test the runner selects, lists and runs.
pub(crate) struct TestCase {
    name: String,
    kind: Option<&'static str>,
    ignored: bool,
    run: Box<dyn FnOnce() -> Outcome + Send>,
}

impl TestCase {
    /// A test named `name` that `run` runs.
    pub fn new(name: impl Into<String>, run: impl FnOnce() -> Outcome + Send + 'static) -> Self {
        Self {
            name: name.into(),
            kind: None,
            ignored: false,
            run: Box::new(run),
        }
    }

    /// Marks the test with a kind, listed and reported as `[kind] name`.
    pub fn with_kind(self, kind: &'static str) -> Self {
        Self {
            kind: Some(kind),
            ..self
        }
    }

    /// Marks the test ignored: run only under `--ignored` or `--include-ignored`.
    pub fn with_ignored_flag(self, ignored: bool) -> Self {
        Self { ignored, ..self }
    }

    /// The test's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The name as it is listed and reported: `[kind] name` where it has a kind.
    pub fn listed_name(&self) -> String {
        match self.kind {
            Some(kind) => format!("[{kind}] {}", self.name),
            None => self.name.clone(),
        }
    }

    /// Whether it is marked ignored.
    pub fn is_ignored(&self) -> bool {
        self.ignored
    }

    /// Runs the test; a panic is a failure that carries the panic's message.
    pub fn run(self) -> Outcome {
        catch_unwind(AssertUnwindSafe(self.run)).unwrap_or_else(|payload| {
            let message = payload
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| payload.downcast_ref::<&str>().copied());
            Outcome::Failed(Some(match message {
                Some(message) => format!("test panicked: {message}"),
                None => "test panicked".to_owned(),
            }))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kind_is_listed_before_the_name() {
        let test = TestCase::new("b::key.isolation", || Outcome::Passed);
        assert_eq!(test.listed_name(), "b::key.isolation");
        let known = test.with_kind("known-violation");
        assert_eq!(known.listed_name(), "[known-violation] b::key.isolation");
        assert_eq!(known.name(), "b::key.isolation");
    }

    #[test]
    fn a_panic_is_a_failure_with_its_message() {
        let test = TestCase::new("b::panics", || panic!("the backend fell over"));
        assert_eq!(
            test.run(),
            Outcome::Failed(Some("test panicked: the backend fell over".to_owned()))
        );
    }
}
