//! Known violations: required rules a backend breaks, declared with a reason or implied by a
//! dimension of its profile.

use serde::Serialize;

use crate::profile::Profile;
use crate::profile::dimension::{self, value_id};

/// A required rule the backend is known to break, and why. Its trial passes while the
/// violation shows and fails as soon as it disappears, so an upstream fix is noticed.
///
/// A violation is either declared on the [`Gate`](super::gate::Gate) (a departure no profile
/// dimension describes, such as a timestamp format) or implied by the profile: a backend whose
/// profile declares `readd = append` cannot hold `replace.readd_replaces`, and the gate says so
/// itself, so the fact is stated once.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct KnownViolation {
    rule_id: String,
    reason: String,
    implied_by: Option<String>,
    intermittent: bool,
}

impl KnownViolation {
    /// A violation the gate declares, with the reason (what
    /// [`Gate::known_violation`](super::gate::Gate::known_violation) adds).
    pub fn declared(rule_id: impl Into<String>, reason: impl Into<String>) -> Self {
        Self {
            rule_id: rule_id.into(),
            reason: reason.into(),
            implied_by: None,
            intermittent: false,
        }
    }

    /// A declared violation that is a race (what [`Gate::known_intermittent_violation`]
    /// adds).
    ///
    /// [`Gate::known_intermittent_violation`]: super::gate::Gate::known_intermittent_violation
    pub fn intermittent(rule_id: impl Into<String>, reason: impl Into<String>) -> Self {
        Self {
            intermittent: true,
            ..Self::declared(rule_id, reason)
        }
    }

    fn implied(rule_id: &str, value: String, reason: &str) -> Self {
        Self {
            rule_id: rule_id.to_owned(),
            reason: format!("the profile declares {value}: {reason}"),
            implied_by: Some(value),
            intermittent: false,
        }
    }

    /// The id of the rule broken.
    pub fn rule_id(&self) -> &str {
        &self.rule_id
    }

    /// Why the backend breaks it, in one line.
    pub fn reason(&self) -> &str {
        &self.reason
    }

    /// The profile dimension that implies the violation (`readd = append`), if it was not
    /// declared by hand.
    pub fn implied_by(&self) -> Option<&str> {
        self.implied_by.as_deref()
    }

    /// Whether the violation is a race that shows in some runs and not in others
    /// ([`Gate::known_intermittent_violation`](super::gate::Gate::known_intermittent_violation)):
    /// its rule is never enforced, and a run where it does not show is no sign of a fix.
    pub fn is_intermittent(&self) -> bool {
        self.intermittent
    }
}

/// The required rules that `profile` itself says cannot hold, each with the dimension that
/// says so.
///
/// ```
/// use memory_conformance::conformance::implied_violations;
/// use memory_conformance::profile::Profile;
/// assert!(implied_violations(&Profile::reference()).is_empty());
/// let adk_js: Vec<_> = implied_violations(&Profile::adk_js()).iter().map(|v| v.rule_id().to_owned()).collect();
/// assert_eq!(adk_js, ["key.no_separator_collision"]);
/// ```
pub fn implied_violations(profile: &Profile) -> Vec<KnownViolation> {
    let mut implied = Vec::new();
    for row in dimension::table() {
        let Some(entry) = (row.entry)(profile) else {
            continue;
        };
        for (rule_id, reason) in entry.implies {
            implied.push(KnownViolation::implied(
                rule_id,
                value_id(row.key, entry),
                reason,
            ));
        }
    }
    implied
}

/// A clause of the contract that `profile` says the backend departs from, with the dimension
/// that says so. Unlike a known violation it exempts no rule: the rules check the behaviour the
/// dimension declares instead of the clause, and everything else as before.
///
/// ```
/// use memory_conformance::conformance::departures;
/// use memory_conformance::profile::Profile;
/// assert!(departures(&Profile::reference()).is_empty());
/// let python = departures(&Profile::adk_python());
/// assert_eq!(python[0].0, "R6.entries");
/// ```
pub fn departures(profile: &Profile) -> Vec<(&'static str, String)> {
    dimension::table()
        .into_iter()
        .filter_map(|row| {
            let entry = (row.entry)(profile)?;
            let clause = entry.departs?;
            let declared = value_id(row.key, entry);
            Some((
                clause,
                format!("the profile declares {declared}: {}", entry.says),
            ))
        })
        .collect()
}
