//! Failure records: the seeds of cases that failed a rule, kept in the calling crate and
//! replayed first on the next run.

use std::fs;
use std::io::Write as _;
use std::path::PathBuf;

use crate::conformance::declare::subject::Subject;
use crate::conformance::judge::mismatch::Mismatch;

/// The failure records of one rule and backend: one `cc <case seed>` line per failing case.
pub(crate) struct FailureRecord {
    path: Option<PathBuf>,
}

impl FailureRecord {
    pub(crate) fn of(subject: &Subject, rule_id: &str) -> Self {
        Self {
            path: subject.record_path(rule_id),
        }
    }

    /// The recorded case seeds, oldest first (none when the file is missing or unreadable).
    pub(crate) fn load(&self) -> Vec<u64> {
        let Some(text) = self.path.as_ref().and_then(|p| fs::read_to_string(p).ok()) else {
            return Vec::new();
        };
        text.lines()
            .filter_map(|line| line.strip_prefix("cc "))
            .filter_map(|rest| u64::from_str_radix(rest.split_whitespace().next()?, 16).ok())
            .collect()
    }

    /// Appends the case unless it is recorded already. Recording is best effort: a read-only
    /// checkout must not turn a rule's failure into a different one.
    pub(crate) fn save(&self, case_seed: u64, mismatch: &Mismatch) {
        let Some(path) = &self.path else {
            return;
        };
        if self.load().contains(&case_seed) {
            return;
        }
        let header = "# Cases that failed a memory-conformance rule, replayed first on every run.\n\
                      # Commit this file; delete a line once the case passes for good.\n";
        let first_line = mismatch
            .to_string()
            .lines()
            .next()
            .unwrap_or_default()
            .to_owned();
        let write = || -> std::io::Result<()> {
            if let Some(dir) = path.parent() {
                fs::create_dir_all(dir)?;
            }
            let fresh = !path.exists();
            let mut file = fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)?;
            if fresh {
                file.write_all(header.as_bytes())?;
            }
            writeln!(file, "cc {case_seed:016x} # {first_line}")
        };
        if let Err(err) = write() {
            eprintln!(
                "memory-conformance: could not record the failing case in {}: {err}",
                path.display()
            );
        }
    }

    /// Where the records are, for failure reports.
    pub(crate) fn path(&self) -> Option<String> {
        self.path.as_ref().map(|p| p.display().to_string())
    }
}
