//! The operation mix of a rule's cases: in how many cases each operation, and each ordered
//! pair of operations, occurred. It shows whether a random rule reached what it was meant to
//! combine, so a gap shows as a rare or missing operation rather than as a silent pass.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::fmt;

use super::scenario::{Scenario, Step};

/// In how many of a rule's cases each operation, and each ordered pair of operations (one
/// somewhere before the other), occurred.
///
/// A gate reports it for `model.random_ops`, the rule that combines every operation the
/// profile declares:
///
/// ```
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// use memory_conformance::InMemoryMemoryService;
/// use memory_conformance::conformance::{Subject, rules};
/// use memory_conformance::profile::Profile;
/// let subject = Subject::new("reference", Profile::reference(), || async { InMemoryMemoryService::new() });
/// let verdict = rules::model_random_ops(&subject).await;
/// let mix = verdict.operation_mix().expect("the rule reports its operation mix");
/// assert_eq!(mix.cases(), 128); // the default 256 cases, halved for this heavy rule
/// // The reference declares deletes: the rule's sequences combine them with the rest.
/// assert!(mix.share("delete") > 0.0 && mix.rarest_pair().is_some());
/// println!("{mix}"); // "add 97%, search 99%, ...; every ordered pair of them in at least ..."
/// # }
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OperationMix {
    cases: u32,
    operations: BTreeMap<&'static str, u32>,
    pairs: BTreeMap<(&'static str, &'static str), u32>,
}

impl OperationMix {
    /// Counts the operations of one case.
    pub(crate) fn tally(&mut self, scenario: &Scenario) {
        self.cases += 1;
        let mut sessions = HashSet::new();
        let mut seen: Vec<&'static str> = Vec::new();
        let mut pairs = BTreeSet::new();
        for step in &scenario.steps {
            let operation = match step {
                Step::Add(session) if !sessions.insert((session.key(), session.id.clone())) => {
                    "re-add"
                }
                other => operation(other),
            };
            for &before in &seen {
                if before != operation {
                    pairs.insert((before, operation));
                }
            }
            if !seen.contains(&operation) {
                seen.push(operation);
            }
        }
        for operation in seen {
            *self.operations.entry(operation).or_default() += 1;
        }
        for pair in pairs {
            *self.pairs.entry(pair).or_default() += 1;
        }
    }

    /// The cases counted.
    pub fn cases(&self) -> u32 {
        self.cases
    }

    /// The share of cases (0 to 1) in which `operation` occurred.
    pub fn share(&self, operation: &str) -> f64 {
        self.of(self.operations.get(operation).copied().unwrap_or(0))
    }

    /// The operations that occurred, each with the share of cases it occurred in.
    pub fn operations(&self) -> impl Iterator<Item = (&'static str, f64)> + '_ {
        self.operations
            .iter()
            .map(|(&operation, &n)| (operation, self.of(n)))
    }

    /// The ordered pair of distinct operations that occurred in the fewest cases with the
    /// first before the second, and its share of cases; `None` with fewer than two
    /// operations. Pairs that never occurred count, at 0.
    pub fn rarest_pair(&self) -> Option<((&'static str, &'static str), f64)> {
        let operations: Vec<&'static str> = self.operations.keys().copied().collect();
        operations
            .iter()
            .flat_map(|&a| operations.iter().map(move |&b| (a, b)))
            .filter(|(a, b)| a != b)
            .map(|pair| (pair, self.of(self.pairs.get(&pair).copied().unwrap_or(0))))
            .min_by(|(_, x), (_, y)| x.total_cmp(y))
    }

    fn of(&self, n: u32) -> f64 {
        if self.cases == 0 {
            0.0
        } else {
            f64::from(n) / f64::from(self.cases)
        }
    }
}

/// The name an operation goes by in the mix.
fn operation(step: &Step) -> &'static str {
    match step {
        Step::Add(_) => "add",
        Step::Search(search) if search.limit.is_some() => "search with a limit",
        Step::Search(_) => "search",
        Step::LoadMemory { .. } => "load_memory",
        Step::ConcurrentAdds(_) => "concurrent adds",
        Step::RacingReplace { .. } => "racing re-adds",
        Step::Open | Step::Use(_) => "another instance",
        Step::Replicas(_) => "replicas",
        Step::Reopen => "reopen",
        Step::AddEvents { .. } => "add events",
        Step::AddMemories { .. } => "add memories",
        Step::Delete { .. } | Step::DeleteId { .. } => "delete",
        Step::Settle => "wait out the bound",
    }
}

impl fmt::Display for OperationMix {
    /// `add 97%, search 99%, ...; every ordered pair of them in at least 12% of cases (the
    /// rarest: delete before reopen)`, over the cases counted.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let percent = |share: f64| (share * 100.0).round();
        write!(f, "{} cases: ", self.cases)?;
        for (i, (operation, share)) in self.operations().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{operation} {}%", percent(share))?;
        }
        if let Some(((a, b), share)) = self.rarest_pair() {
            write!(
                f,
                "; every ordered pair of them in at least {}% of cases (the rarest: {a} before {b})",
                percent(share)
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Session;
    use crate::conformance::generate::scenario::search;

    #[test]
    fn counts_cases_not_steps_and_orders_pairs() {
        let key = crate::MemoryKey::new("a", "u");
        let add = |id: &str| Step::Add(Session::new("a", "u", id));
        let mut mix = OperationMix::default();
        mix.tally(&Scenario {
            steps: vec![add("s"), add("s"), search(&key, "q", vec![]), Step::Reopen],
        });
        mix.tally(&Scenario {
            steps: vec![
                search(&key, "q", vec![]),
                search(&key, "q", vec![]),
                add("s"),
            ],
        });
        assert_eq!(mix.cases(), 2);
        assert_eq!(mix.share("add"), 1.0);
        assert_eq!(mix.share("re-add"), 0.5);
        assert_eq!(mix.share("search"), 1.0);
        assert_eq!(mix.share("delete"), 0.0);
        // reopen never comes before anything.
        assert_eq!(mix.rarest_pair(), Some((("re-add", "add"), 0.0)));
        assert_eq!(mix.pairs.get(&("add", "search")), Some(&1));
        assert_eq!(mix.pairs.get(&("search", "add")), Some(&1));
        assert_eq!(
            mix.to_string(),
            "2 cases: add 100%, re-add 50%, reopen 50%, search 100%; every ordered pair of them \
             in at least 0% of cases (the rarest: re-add before add)"
        );
    }
}
