//! A rule's failure, reported so a reviewer can act on it without reading the kit.

use std::fmt;

use super::at_fault::AtFault;
use crate::conformance::run::property::Counterexample;

/// Why a rule did not pass for a backend: the rule, the backend, the minimal scenario,
/// expected versus actual entries, and the command that reproduces it; or why the rule could
/// not finish.
#[derive(Clone, Debug)]
pub struct RuleFailure {
    pub(crate) rule_id: &'static str,
    pub(crate) statement: &'static str,
    pub(crate) backend: String,
    pub(crate) profile: String,
    pub(crate) kind: FailureKind,
}

#[derive(Clone, Debug)]
pub(crate) enum FailureKind {
    /// A generated (or replayed) case failed.
    Counterexample {
        found: Box<Counterexample>,
        reproduce: String,
        record: Option<String>,
        /// The declared value the minimal scenario contradicts and the one that fits, where
        /// its recorded answers show it.
        at_fault: Option<AtFault>,
    },
    /// The rule did not finish: the backend blocked its thread, or the harness could not run.
    Unfinished(String),
    /// The gate's declaration is wrong for this rule.
    Misdeclared(String),
}

impl RuleFailure {
    /// The id of the rule that failed.
    pub fn rule_id(&self) -> &'static str {
        self.rule_id
    }

    /// The backend it failed for.
    pub fn backend(&self) -> &str {
        &self.backend
    }

    /// Whether a case failed (rather than the rule not finishing, or a wrong declaration).
    pub fn is_counterexample(&self) -> bool {
        matches!(self.kind, FailureKind::Counterexample { .. })
    }

    /// What went wrong: at the failing step, expected versus actual; else why the rule did
    /// not finish.
    pub fn mismatch(&self) -> String {
        match &self.kind {
            FailureKind::Counterexample { found, .. } => found.mismatch.to_string(),
            FailureKind::Unfinished(problem) | FailureKind::Misdeclared(problem) => problem.clone(),
        }
    }

    /// What the minimal scenario says is at fault, where its answers show it.
    pub(crate) fn at_fault(&self) -> Option<&AtFault> {
        match &self.kind {
            FailureKind::Counterexample { at_fault, .. } => at_fault.as_ref(),
            _ => None,
        }
    }

    /// The minimal scenario, as the report prints it (empty when no case failed).
    pub fn scenario(&self) -> String {
        match &self.kind {
            FailureKind::Counterexample { found, .. } => found.scenario.to_string(),
            _ => String::new(),
        }
    }
}

impl fmt::Display for RuleFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "rule {} failed for backend {:?} (profile {:?})",
            self.rule_id, self.backend, self.profile
        )?;
        let (found, reproduce, record, at_fault) = match &self.kind {
            FailureKind::Unfinished(problem) => {
                return write!(f, ": the rule {problem}");
            }
            FailureKind::Misdeclared(problem) => return write!(f, ": {problem}"),
            FailureKind::Counterexample {
                found,
                reproduce,
                record,
                at_fault,
            } => (found, reproduce, record, at_fault),
        };
        writeln!(f)?;
        writeln!(f, "  rule: {}", self.statement)?;
        let shrunk = match found.unshrunk_because {
            None => format!("shrunk in {} runs", found.shrink_runs),
            Some(why) => format!("not fully shrunk: {why}"),
        };
        let case = if found.case == 0 {
            "a recorded case".to_owned()
        } else {
            format!("case {}", found.case)
        };
        writeln!(f, "  minimal scenario ({case}, {shrunk}):")?;
        write!(f, "{}", found.scenario)?;
        for line in found.mismatch.to_string().lines() {
            writeln!(f, "  {line}")?;
        }
        if let Some(at_fault) = at_fault {
            for line in at_fault.to_string().lines() {
                writeln!(f, "  at fault: {line}")?;
            }
        }
        write!(f, "  reproduce: {reproduce}")?;
        if let Some(record) = record {
            write!(
                f,
                "\n  recorded in {record} (case seed {:016x}), replayed first on the next run",
                found.case_seed
            )?;
        }
        Ok(())
    }
}

impl std::error::Error for RuleFailure {}
