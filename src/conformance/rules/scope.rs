//! `scope.*`: instances on one storage see each other's writes, two of them
//! (`scope.shared`) and three behind a load balancer (`scope.replicas`).

use proptest::prelude::*;

use super::{Requirement, exactly};
use crate::conformance::generate::scenario::{Scenario, Step, search};
use crate::conformance::generate::values::{content, distinct_words, key, session_of};
use crate::profile::Profile;

/// How many instances stand behind the load balancer of `scope.replicas`: the debugging
/// guide's three replicas.
const INSTANCES: usize = 3;

rule! {
    pub fn scope_shared -> SHARED {
        id: "scope.shared",
        since: "0.1",
        statement: "Two service instances on the same storage see each other's writes.",
        requirement: Requirement::Capability,
        weight: 4,
        applies: shared_store,
        scenarios: |profile| {
            let profile = profile.clone();
            (key(), distinct_words(2))
                .prop_map(move |(key, words)| Scenario {
                    steps: vec![
                        Step::Add(session_of(&key, "s-1", &[words[0].to_owned()])),
                        Step::Open,
                        search(&key, words[0], exactly(&profile, vec![content(words[0])])),
                        Step::Add(session_of(&key, "s-2", &[words[1].to_owned()])),
                        Step::Use(0),
                        search(&key, words[1], exactly(&profile, vec![content(words[1])])),
                    ],
                })
                .boxed()
        },
    }
}

rule! {
    /// The debugging guide's production setup: several replicas of the agent, each with its
    /// own service instance, behind a load balancer. Three instances are opened on one storage
    /// and each step goes to the next (`Step::Replicas`); up to three batches of one to three
    /// sessions are written, a batch of several concurrently, each session through another
    /// instance. Every session is then searched three times in a row, so once through each
    /// instance, and a batch may also be searched so right after it is written. A store kept
    /// per instance fails at the first search through another instance; replicas that write
    /// back a stale copy of the store, or that do not coordinate concurrent writes, lose a
    /// write and fail when it is searched.
    pub fn scope_replicas -> REPLICAS {
        id: "scope.replicas",
        since: "0.1",
        statement: "Behind a round-robin load balancer over three service instances on the same storage, every write, alone or concurrent with writes through the other instances, is found through every instance.",
        requirement: Requirement::Capability,
        weight: 4,
        applies: shared_store,
        scenarios: |profile| {
            let profile = profile.clone();
            let batches = proptest::collection::vec((1..=3usize, any::<bool>()), 1..=3);
            (key(), distinct_words(9), batches)
                .prop_map(move |(key, words, batches)| {
                    let everywhere = |steps: &mut Vec<Step>, word: &str| {
                        for _ in 0..INSTANCES {
                            steps.push(search(&key, word, exactly(&profile, vec![content(word)])));
                        }
                    };
                    let mut steps = vec![Step::Replicas(INSTANCES)];
                    let mut written = 0;
                    for (size, searched_at_once) in batches {
                        let batch = &words[written..written + size];
                        let mut sessions: Vec<_> = (written..written + size)
                            .map(|s| session_of(&key, &format!("s-{s}"), &[words[s].to_owned()]))
                            .collect();
                        written += size;
                        steps.push(match sessions.len() {
                            1 => Step::Add(sessions.remove(0)),
                            _ => Step::ConcurrentAdds(sessions),
                        });
                        if searched_at_once {
                            batch.iter().for_each(|word| everywhere(&mut steps, word));
                        }
                    }
                    words[..written].iter().for_each(|word| everywhere(&mut steps, word));
                    Scenario { steps }
                })
                .boxed()
        },
    }
}

/// Applies where the profile declares a shared store.
fn shared_store(profile: &Profile) -> Result<(), String> {
    if profile.capabilities.shared {
        Ok(())
    } else {
        Err("the profile does not declare a shared store".into())
    }
}
