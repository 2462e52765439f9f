//! `recall.across_sessions`: the debugging guide's end-to-end check.

use proptest::prelude::*;
use proptest::sample::select;

use super::{Requirement, always};
use crate::conformance::generate::scenario::{Expect, Scenario, Step};
use crate::conformance::generate::values::{SESSION_IDS, content, distinct_words, key, session_of};

rule! {
    pub fn recall_across_sessions -> ACROSS_SESSIONS {
        id: "recall.across_sessions",
        since: "0.1",
        statement: "A fact written in one session is in the load_memory result of a later session of \
                    the same user, through the tool-side context.",
        requirement: Requirement::Required,
        weight: 1,
        applies: always,
        scenarios: |_| {
            (
                key(),
                distinct_words(3),
                select(SESSION_IDS.to_vec()),
                select(SESSION_IDS.to_vec()),
            )
                .prop_map(|(key, words, first, later)| {
                    let later = if later == first {
                        format!("{first}-later")
                    } else {
                        later.to_owned()
                    };
                    let fact = format!("my favourite is {}", words[0]);
                    Scenario {
                        steps: vec![
                            Step::Add(session_of(
                                &key,
                                first,
                                &[fact.clone(), words[1].to_owned()],
                            )),
                            Step::Add(session_of(&key, &later, &[words[2].to_owned()])),
                            Step::LoadMemory {
                                session: key.clone(),
                                query: words[0].to_owned(),
                                expect: vec![Expect::Includes(vec![content(&fact)])],
                            },
                        ],
                    }
                })
                .boxed()
        },
    }
}
