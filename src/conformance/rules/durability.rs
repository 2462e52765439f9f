//! `durability.reopen`: memories survive a reopen of the storage.

use proptest::prelude::*;

use super::Requirement;
use crate::conformance::generate::scenario::{Expect, Scenario, Step, search};
use crate::conformance::generate::values::{
    content, distinct_words, key, session_of, stored_apart,
};
use crate::profile::{Profile, Readd};

rule! {
    pub fn durability_reopen -> REOPEN {
        id: "durability.reopen",
        since: "0.1",
        statement: "Memories survive closing the service and opening it again on the same storage.",
        requirement: Requirement::Capability,
        weight: 4,
        applies: |profile: &Profile| {
            if profile.capabilities.durable {
                Ok(())
            } else {
                Err("the profile does not declare durable storage".into())
            }
        },
        scenarios: |profile| {
            let profile = profile.clone();
            (key(), distinct_words(2))
                .prop_map(move |(key, words)| {
                    let again = format!("{} again", words[1]);
                    // After the reopen, each search returns what it returned before: the oracle's
                    // answer (whatever the profile declares for the re-add), or for a semantic
                    // backend at least the memories kept (under keep-first, the first version of
                    // the re-added event).
                    let kept = match profile.readd {
                        Readd::KeepFirst => words[1].to_owned(),
                        _ => again.clone(),
                    };
                    let expect = |found: &str| {
                        if profile.is_lexical() {
                            vec![Expect::Oracle]
                        } else {
                            vec![Expect::Includes(vec![content(found)])]
                        }
                    };
                    let add = |id, text: &str| {
                        Step::Add(stored_apart(&profile, session_of(&key, id, &[text.to_owned()])))
                    };
                    Scenario {
                        steps: vec![
                            add("s-1", words[0]),
                            add("s-2", words[1]),
                            add("s-2", &again),
                            Step::Reopen,
                            search(&key, words[0], expect(words[0])),
                            search(&key, words[1], expect(&kept)),
                        ],
                    }
                })
                .boxed()
        },
    }
}
