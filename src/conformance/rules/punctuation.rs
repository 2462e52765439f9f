//! `punctuation.*`: punctuation on query words and in stored text, checked against the oracle.

use proptest::prelude::*;
use proptest::sample::select;

use super::{Requirement, lexical_only};
use crate::conformance::generate::lexicon::{Words, lexicon_scenario};
use crate::conformance::generate::scenario::{Expect, Scenario, Step, search};
use crate::conformance::generate::values::{
    ABSENT, PUNCTUATION, SEPARATORS, WORDS, distinct_words, join_with_separators, key, session_of,
};

rule! {
    pub fn punctuation_query -> QUERY {
        id: "punctuation.query",
        since: "0.1",
        statement: "A query word carrying punctuation (ASCII or Unicode) matches as the profile says: \
                    dead when punctuation stays on the token, found when the profile separates it.",
        requirement: Requirement::Profile,
        weight: 1,
        applies: lexical_only,
        scenarios: |_| {
            prop_oneof![decorated_scenario(Side::Query), lexicon_scenario(Just(Words::Joined))].boxed()
        },
    }
}

rule! {
    pub fn punctuation_event -> EVENT {
        id: "punctuation.event",
        since: "0.1",
        statement: "Punctuation in stored text separates words or stays attached, as the profile says.",
        requirement: Requirement::Profile,
        weight: 1,
        applies: lexical_only,
        scenarios: |_| {
            prop_oneof![decorated_scenario(Side::Text), lexicon_scenario(Just(Words::Joined))].boxed()
        },
    }
}

#[derive(Clone, Copy)]
enum Side {
    Query,
    Text,
}

/// Plain words on one side, the same words with punctuation on the other.
fn decorated_scenario(side: Side) -> BoxedStrategy<Scenario> {
    let decoration = (
        select(PUNCTUATION.to_vec()),
        0..4usize,
        select(WORDS.to_vec()),
    );
    (
        key(),
        distinct_words(3),
        proptest::collection::vec((0..3usize, decoration), 1..4),
        proptest::collection::vec(select(SEPARATORS.to_vec()), 3),
    )
        .prop_map(move |(key, words, picks, separators)| {
            let decorated: Vec<String> = picks
                .iter()
                .map(|(i, (mark, place, other))| match place {
                    0 => format!("{}{mark}", words[*i]),
                    1 => format!("{mark}{}", words[*i]),
                    2 => format!("{}{mark}{other}", words[*i]),
                    _ => format!("{mark}{}{mark}", words[*i]),
                })
                .collect();
            let plain: Vec<String> = picks.iter().map(|(i, _)| words[*i].to_owned()).collect();
            let (texts, queries) = match side {
                Side::Query => (plain, decorated),
                Side::Text => (decorated, plain),
            };
            let text = join_with_separators(texts, separators);
            let mut steps = vec![Step::Add(session_of(
                &key,
                "s-1",
                &[text, ABSENT.to_owned()],
            ))];
            steps.extend(
                queries
                    .into_iter()
                    .map(|q| search(&key, q, vec![Expect::Oracle])),
            );
            Scenario { steps }
        })
        .boxed()
}
