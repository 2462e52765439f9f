//! The round-robin load balancer of [`Step::Replicas`]: which instance each step of a scenario
//! goes to. The interpreter routes calls by it and a scenario is printed with it (the
//! scenario's `Display`, here), from one function.

use std::fmt;

use super::scenario::{Scenario, Step};
use crate::conformance::display::SessionDisplay;

/// The instances each step of `steps` goes to, one entry a step: `None` where the step goes
/// to the current instance as usual, else the instance of each of its calls.
///
/// From a [`Step::Replicas`] on, each step that calls the backend goes to the next instance
/// in turn, the first to instance 0; every call of a step goes to one instance (a search
/// repeated while a write becomes visible too), except the adds of [`Step::ConcurrentAdds`],
/// each of which goes to the next instance. [`Step::Open`], [`Step::Use`] and
/// [`Step::Reopen`] end the balancing.
pub(crate) fn routes(steps: &[Step]) -> Vec<Option<Vec<usize>>> {
    let mut balancer: Option<(usize, usize)> = None;
    steps
        .iter()
        .map(|step| match step {
            Step::Replicas(n) => {
                balancer = Some(((*n).max(1), 0));
                None
            }
            Step::Open | Step::Use(_) | Step::Reopen => {
                balancer = None;
                None
            }
            // It calls no backend.
            Step::Settle => None,
            _ => {
                let (replicas, turn) = balancer.as_mut()?;
                let calls = match step {
                    Step::ConcurrentAdds(sessions) => sessions.len(),
                    _ => 1,
                };
                let instances = (0..calls).map(|i| (*turn + i) % *replicas).collect();
                *turn += calls;
                Some(instances)
            }
        })
        .collect()
}

impl fmt::Display for Scenario {
    /// One numbered line a step; behind a load balancer, each call says the instance it goes to.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let routes = routes(&self.steps);
        for (i, (step, route)) in self.steps.iter().zip(routes).enumerate() {
            match (step, route) {
                (Step::ConcurrentAdds(sessions), Some(instances)) => {
                    write!(
                        f,
                        "  {:>2}. concurrently add {} sessions:",
                        i + 1,
                        sessions.len()
                    )?;
                    for (session, instance) in sessions.iter().zip(instances) {
                        write!(
                            f,
                            "\n          via instance {instance}: {}",
                            SessionDisplay(session)
                        )?;
                    }
                    writeln!(f)?;
                }
                (step, Some(instances)) => {
                    writeln!(f, "  {:>2}. via instance {}: {step}", i + 1, instances[0])?
                }
                (step, None) => writeln!(f, "  {:>2}. {step}", i + 1)?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::routes;
    use crate::MemoryKey;
    use crate::Session;
    use crate::conformance::generate::scenario::{Expect, Step, search};

    #[test]
    fn each_call_goes_to_the_next_instance_and_open_use_and_reopen_end_the_balancing() {
        let key = MemoryKey::new("a", "u");
        let add = |id: &str| Step::Add(Session::new("a", "u", id));
        let find = || search(&key, "apple", vec![Expect::Nothing]);
        let steps = [
            add("before"),
            Step::Replicas(3),
            add("s-1"),
            find(),
            Step::ConcurrentAdds(vec![
                Session::new("a", "u", "s-2"),
                Session::new("a", "u", "s-3"),
            ]),
            find(),
            find(),
            Step::Use(0),
            find(),
        ];
        assert_eq!(
            routes(&steps),
            [
                None,
                None,
                Some(vec![0]),
                Some(vec![1]),
                Some(vec![2, 0]),
                Some(vec![1]),
                Some(vec![2]),
                None,
                None,
            ]
        );
    }
}
