//! `scope.shared`: two instances on one storage see each other's writes.

use proptest::prelude::*;

use super::{Requirement, exactly};
use crate::conformance::generate::{content, distinct_words, key, session_of};
use crate::conformance::scenario::{Scenario, Step, search};
use crate::profile::Profile;

rule! {
    pub fn scope_shared -> SHARED {
        id: "scope.shared",
        statement: "Two service instances on the same storage see each other's writes.",
        requirement: Requirement::Capability,
        weight: 4,
        applies: |profile: &Profile| {
            if profile.capabilities.shared {
                Ok(())
            } else {
                Err("the profile does not declare a shared store".into())
            }
        },
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
