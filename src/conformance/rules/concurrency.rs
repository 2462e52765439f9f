//! `concurrency.*`: concurrent calls lose nothing and never see half a replace.

use proptest::prelude::*;

use super::{Requirement, always, exactly, per_search};
use crate::MemoryKey;
use crate::conformance::generate::scenario::{Scenario, Step, search};
use crate::conformance::generate::values::{WORDS, content, key, session_of, stored_apart};
use crate::profile::{Profile, QueryTerms, Readd};

rule! {
    pub fn concurrency_adds_land -> ADDS_LAND {
        id: "concurrency.adds_land",
        since: "0.1",
        statement: "Concurrent adds of distinct sessions all land.",
        requirement: Requirement::Required,
        weight: 8,
        applies: always,
        scenarios: |profile| {
            let profile = profile.clone();
            (key(), 2..=16usize, 1..=3usize)
                .prop_map(move |(key, sessions, keys)| {
                    let keys: Vec<MemoryKey> = (0..keys)
                        .map(|k| {
                            MemoryKey::new(
                                key.app_name.clone(),
                                format!("{}{}", key.user_id, ["", "-b", "-c"][k]),
                            )
                        })
                        .collect();
                    // Under substring terms no word may hold another (`coffee` is in `coffeex`),
                    // so every word takes a suffix of one letter there.
                    let suffixes = match profile.query_terms {
                        QueryTerms::Substrings { .. } => ["q", "x", "y"],
                        _ => ["", "x", "y"],
                    };
                    let word = |s: usize| {
                        format!(
                            "{}{}",
                            WORDS[s % WORDS.len()],
                            suffixes[s / WORDS.len() % 3]
                        )
                    };
                    let adds: Vec<_> = (0..sessions)
                        .map(|s| {
                            let session =
                                session_of(&keys[s % keys.len()], &format!("s-{s}"), &[word(s)]);
                            stored_apart(&profile, session)
                        })
                        .collect();
                    let mut steps = vec![Step::ConcurrentAdds(adds)];
                    for s in 0..sessions {
                        steps.push(search(
                            &keys[s % keys.len()],
                            word(s),
                            exactly(&profile, vec![content(&word(s))]),
                        ));
                    }
                    Scenario { steps }
                })
                .boxed()
        },
    }
}

rule! {
    pub fn concurrency_atomic_replace -> ATOMIC_REPLACE {
        id: "concurrency.atomic_replace",
        since: "0.1",
        statement: "A search concurrent with a re-add sees the old version or the new one, never a mix.",
        requirement: Requirement::Required,
        weight: 8,
        applies: |profile: &Profile| match profile.readd {
            Readd::Append => {
                Err("the profile declares append on re-add, so there is no replace to tear".into())
            }
            _ => Ok(()),
        },
        scenarios: |profile| {
            let events = per_search(profile, 6).max(2);
            (key(), 2..=events, 2..=3usize)
                .prop_map(|(key, events, versions)| {
                    let versions = (0..versions)
                        .map(|v| {
                            let texts: Vec<String> = (0..events)
                                .map(|e| format!("shared {} {e}", WORDS[v]))
                                .collect();
                            session_of(&key, "s-1", &texts)
                        })
                        .collect();
                    Scenario {
                        steps: vec![Step::RacingReplace {
                            versions,
                            query: "shared".into(),
                            rounds: 40,
                        }],
                    }
                })
                .boxed()
        },
    }
}
