//! A rule's failure, reported so a reviewer can act on it without reading the kit.

use std::fmt;

use super::property::Counterexample;

/// Why a rule did not pass for a backend: the rule, the backend, the minimal scenario,
/// expected versus actual entries, and the command that reproduces it.
#[derive(Clone, Debug)]
pub struct RuleFailure {
    pub(crate) rule_id: &'static str,
    pub(crate) statement: String,
    pub(crate) backend: String,
    pub(crate) profile: String,
    pub(crate) kind: FailureKind,
    pub(crate) reproduce: String,
    pub(crate) record: Option<String>,
}

#[derive(Clone, Debug)]
pub(crate) enum FailureKind {
    Counterexample(Box<Counterexample>),
    NotApplicable(String),
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

    /// Whether the rule was not run because the profile makes it inapplicable.
    pub fn is_not_applicable(&self) -> bool {
        matches!(self.kind, FailureKind::NotApplicable(_))
    }

    /// What went wrong at the failing step: expected versus actual (empty when not applicable).
    pub fn mismatch(&self) -> String {
        match &self.kind {
            FailureKind::Counterexample(found) => found.mismatch.to_string(),
            FailureKind::NotApplicable(_) => String::new(),
        }
    }

    /// The minimal scenario, as the report prints it (empty when not applicable).
    pub fn scenario(&self) -> String {
        match &self.kind {
            FailureKind::Counterexample(found) => found.scenario.to_string(),
            FailureKind::NotApplicable(_) => String::new(),
        }
    }
}

impl fmt::Display for RuleFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            FailureKind::NotApplicable(reason) => write!(
                f,
                "rule {} does not apply to backend {:?} (profile {:?}): {reason}",
                self.rule_id, self.backend, self.profile
            ),
            FailureKind::Counterexample(found) => {
                writeln!(
                    f,
                    "rule {} failed for backend {:?} (profile {:?})",
                    self.rule_id, self.backend, self.profile
                )?;
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
                let mismatch = found.mismatch.to_string();
                for line in mismatch.lines() {
                    writeln!(f, "  {line}")?;
                }
                write!(f, "  reproduce: {}", self.reproduce)?;
                if let Some(record) = &self.record {
                    write!(
                        f,
                        "\n  recorded in {record} (case seed {:016x}), replayed first on the next run",
                        found.case_seed
                    )?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for RuleFailure {}
