//! Where and how a scenario went wrong: the failing step and its problem.

use std::fmt;
use std::time::Duration;

use crate::MemoryEntry;
use crate::conformance::display::{EntriesDisplay, count};
use crate::conformance::late_timer::Overrun;

/// The failing step of a scenario and what went wrong there.
#[derive(Clone, Debug)]
pub(crate) struct Mismatch {
    /// The 1-based step number (0: opening the first instance).
    pub(crate) step: usize,
    pub(crate) problem: Problem,
}

#[derive(Clone, Debug)]
pub(crate) enum Problem {
    /// A search returned the wrong entries.
    Unexpected {
        expected: String,
        why: String,
        actual: Vec<MemoryEntry>,
        with_metadata: bool,
    },
    /// The backend returned an error.
    Failed { op: String, error: String },
    /// The backend did not answer in time: `after` is the per-call timeout, `overrun` what
    /// was measured when the call was given up.
    TimedOut {
        op: String,
        after: Duration,
        overrun: Overrun,
    },
    /// The backend panicked.
    Panicked { op: String, message: String },
}

impl Problem {
    /// Whether re-running smaller cases could take as long again (not worth shrinking).
    pub(crate) fn is_hang(&self) -> bool {
        matches!(self, Self::TimedOut { .. })
    }
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "step {}: ", self.step)?;
        match &self.problem {
            Problem::Unexpected {
                expected,
                why,
                actual,
                with_metadata,
            } => {
                writeln!(f, "{why}")?;
                writeln!(f, "    expected: {expected}")?;
                write!(
                    f,
                    "    actual:   {} {}",
                    count(actual.len()),
                    EntriesDisplay {
                        entries: actual,
                        with_metadata: *with_metadata
                    }
                )
            }
            Problem::Failed { op, error } => write!(f, "{op} failed: {error}"),
            Problem::TimedOut { op, after, overrun } => {
                write!(
                    f,
                    "{op} did not answer within {after:?} (the per-call timeout); {overrun}"
                )
            }
            Problem::Panicked { op, message } => write!(f, "{op} panicked: {message}"),
        }
    }
}
