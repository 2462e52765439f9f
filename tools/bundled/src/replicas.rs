//! The report's section on the debugging guide's replicas: each backend's write through
//! replica 1 of 3, and which searches spread across the three found it
//! ([`Gate::observe_replicas`]).

use std::fmt::Write as _;

use memory_conformance::conformance::Gate;
use memory_conformance::conformance::{REPLICAS, ReplicaSpread};

/// Searches after the write: one through each replica.
pub const SEARCHES: usize = REPLICAS;

/// The Markdown section `## Replicas behind a load balancer`: for each gate, in order, how
/// many of [`SEARCHES`] searches spread round-robin across three replicas found a write made
/// through replica 1, and which; a gate that cannot run here says why, a probe that fails
/// says how, and a gate whose `scope.replicas` is an intermittent known violation is not
/// probed, so that the section is the same from run to run.
pub fn replicas_section(gates: &[Gate]) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "\n## Replicas behind a load balancer\n");
    let _ = writeln!(
        out,
        "The debugging guide's production setup: three replicas, each with its own instance of \
         the memory service (opened like identically configured processes: on one storage where \
         the backend keeps one), behind a round-robin load balancer. One session (\"My favourite \
         coffee is a flat white.\") is written through replica 1, then {SEARCHES} searches for \
         \"coffee\" go to replicas {}. Rule `scope.replicas` checks the same for every backend \
         that declares a shared store.\n",
        replica_order()
    );
    let _ = writeln!(
        out,
        "| backend | shared store declared | found the write | searches (replica: found) |\n|---|---|---|---|"
    );
    for gate in gates {
        let name = gate.subject().backend();
        let intermittent = gate
            .known_violations()
            .into_iter()
            .any(|k| k.rule_id() == "scope.replicas" && k.is_intermittent());
        let row = match gate.unavailable_reason() {
            Some(why) => format!("| {name} | | not run: {} | |", why.replace('|', "\\|")),
            // A race decides what the probe would see: the row would change from run to run.
            None if intermittent => format!(
                "| {name} | {} | not probed: `scope.replicas` is an intermittent known violation, found by every replica in some runs and not in others (its reason is with the rules above) | |",
                if gate.subject().profile().capabilities.shared {
                    "yes"
                } else {
                    "no"
                },
            ),
            None => match gate.observe_replicas(SEARCHES) {
                Ok(spread) => format!(
                    "| {name} | {} | {} | {} |",
                    if spread.declared_shared { "yes" } else { "no" },
                    spread.summary(),
                    searches(&spread)
                ),
                Err(problem) => {
                    format!("| {name} | | the probe {} | |", problem.replace('|', "\\|"))
                }
            },
        };
        let _ = writeln!(out, "{}", row.replace('\n', " "));
    }
    out
}

/// `2, 3, 1`: the replica of each search in turn.
fn replica_order() -> String {
    let order: Vec<String> = (0..SEARCHES)
        .map(|search| ((search + 1) % REPLICAS + 1).to_string())
        .collect();
    order.join(", ")
}

/// `2: no, 3: no, 1: yes`.
fn searches(spread: &ReplicaSpread) -> String {
    let each: Vec<String> = spread
        .searches
        .iter()
        .map(|(replica, found)| format!("{replica}: {}", if *found { "yes" } else { "no" }))
        .collect();
    each.join(", ")
}

#[cfg(test)]
mod tests {
    use super::replicas_section;
    use memory_conformance::InMemoryMemoryService;
    use memory_conformance::conformance::{Gate, Subject};
    use memory_conformance::profile::Profile;

    #[test]
    fn an_in_process_store_is_found_only_through_its_replica_and_a_shared_one_through_every_one() {
        let unavailable = Gate::new(Subject::new("elsewhere", Profile::reference(), || async {
            InMemoryMemoryService::new()
        }))
        .unavailable("install it with `pip install elsewhere`");
        let shared = memory_sqlite_fts5::gate();
        let racy = memory_sqlite_fts5::gate()
            .known_intermittent_violation("scope.replicas", "a race in the pool");
        let section = replicas_section(&[Gate::reference(), shared, unavailable, racy]);
        assert!(
            section.contains("then 3 searches for \"coffee\" go to replicas 2, 3, 1."),
            "{section}"
        );
        assert!(
            section
                .contains("| reference | no | found by 1 of 3 searches | 2: no, 3: no, 1: yes |"),
            "{section}"
        );
        assert!(
            section.contains(
                "| sqlite-fts5 | yes | found by 3 of 3 searches | 2: yes, 3: yes, 1: yes |"
            ),
            "{section}"
        );
        assert!(
            section
                .contains("| elsewhere | | not run: install it with `pip install elsewhere` | |"),
            "{section}"
        );
        assert!(
            section.contains(
                "| sqlite-fts5 | yes | not probed: `scope.replicas` is an intermittent known violation,"
            ),
            "{section}"
        );
    }
}
