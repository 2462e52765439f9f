//! `vector.*`: a vector backend returns the stored events nearest to the query.

use proptest::prelude::*;
use proptest::sample::select;

use super::Requirement;
use crate::conformance::generate::scenario::{Expect, Scenario, Step, search, search_limited};
use crate::conformance::generate::values::{key, session_of, textless_event};
use crate::profile::Profile;

/// Words for texts and queries: whole words, inflections of them, and punctuated and cased
/// forms, so events share words, share only trigrams, or share nothing with a query.
const VOCABULARY: [&str; 16] = [
    "coffee",
    "coffees",
    "tea",
    "teas",
    "flat",
    "white",
    "milk",
    "oat",
    "order",
    "orders",
    "shipped",
    "Coffee?",
    "flat-white",
    "4417",
    "café",
    "latte",
];

rule! {
    pub fn vector_nearest_first -> NEAREST_FIRST {
        id: "vector.nearest_first",
        since: "0.1",
        statement: "A search returns the stored events whose embedded text is nearest to the \
                    embedded query by cosine similarity, the nearest first, as many as the limit \
                    allows (an exact index exactly these, an approximate one at least its declared \
                    share); events without a word to embed are never returned.",
        requirement: Requirement::Profile,
        weight: 1,
        applies: |profile: &Profile| match profile.vector() {
            Some(_) => Ok(()),
            None => Err("the profile does not declare vector retrieval".into()),
        },
        scenarios: |profile| {
            let limited = profile.capabilities.search_limit;
            let text = proptest::collection::vec(select(VOCABULARY.to_vec()), 1..5)
                .prop_map(|words| words.join(" "));
            let sessions = proptest::collection::vec(proptest::collection::vec(text.clone(), 1..6), 1..4);
            let queries = proptest::collection::vec(text, 1..4);
            (key(), sessions, proptest::option::of(textless_event()), queries, 1..6usize)
                .prop_map(move |(key, sessions, textless, queries, limit)| {
                    let mut steps = Vec::new();
                    for (s, texts) in sessions.iter().enumerate() {
                        let mut session = session_of(&key, &format!("s-{s}"), texts);
                        if s == 0 {
                            session.events.extend(textless.clone());
                        }
                        steps.push(Step::Add(session));
                    }
                    for query in queries {
                        steps.push(search(&key, query.clone(), vec![Expect::Oracle]));
                        if limited {
                            steps.push(search_limited(&key, query, limit, vec![Expect::Oracle]));
                        }
                    }
                    Scenario { steps }
                })
                .boxed()
        },
    }
}
