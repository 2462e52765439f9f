//! `query.*`: how queries are cut into terms and matched, checked against the oracle.

use proptest::prelude::*;
use proptest::sample::select;

use super::{Requirement, always, lexical_only};
use crate::conformance::generate::lexicon::{
    Words, any_words, followed_by_lexicon, lexicon_scenario,
};
use crate::conformance::generate::scenario::{Expect, Scenario, Step, search};
use crate::conformance::generate::values::{
    DIGIT_WORDS, NON_ASCII_WORDS, SEPARATORS, WORDS, blank_query, distinct_words,
    join_with_separators, key, key_and_near_miss, session_of,
};
use crate::profile::BlankQuery;

rule! {
    pub fn query_blank -> BLANK {
        id: "query.blank",
        since: "0.1",
        statement: "An empty or whitespace-only query (ASCII or Unicode whitespace) returns nothing \
                    (where the profile declares blank_query = nearest, a stated departure: only \
                    entries stored under its key, within the limit).",
        requirement: Requirement::Required,
        weight: 1,
        applies: always,
        scenarios: |profile| {
            let expect = match profile.blank_query {
                BlankQuery::Nothing => Expect::Nothing,
                BlankQuery::Nearest => Expect::Stored,
            };
            (key(), distinct_words(2), blank_query())
                .prop_map(move |(key, words, query)| Scenario {
                    steps: vec![
                        Step::Add(session_of(&key, "s-1", &[words.join(" ")])),
                        search(&key, query, vec![expect.clone()]),
                    ],
                })
                .boxed()
        },
    }
}

rule! {
    pub fn query_unknown_key -> UNKNOWN_KEY {
        id: "query.unknown_key",
        since: "0.1",
        statement: "A search under a key nothing was written under returns nothing, without an error.",
        requirement: Requirement::Required,
        weight: 1,
        applies: always,
        scenarios: |_| {
            (key_and_near_miss(), select(WORDS.to_vec()))
                .prop_map(|((key, unknown), word)| Scenario {
                    steps: vec![
                        search(&key, word, vec![Expect::Nothing]),
                        Step::Add(session_of(&key, "s-1", &[word.to_owned()])),
                        search(&unknown, word, vec![Expect::Nothing]),
                    ],
                })
                .boxed()
        },
    }
}

rule! {
    pub fn query_case_insensitive -> CASE_INSENSITIVE {
        id: "query.case_insensitive",
        since: "0.1",
        statement: "Letter case in the query and in stored text matches as the profile's word rules \
                    say (every shipped rule folds case).",
        requirement: Requirement::Profile,
        weight: 1,
        applies: lexical_only,
        scenarios: |_| {
            let cased = |words: &[&'static str]| {
                (select(words.to_vec()), 0..4usize).prop_map(|(word, case)| match case {
                    0 => word.to_lowercase(),
                    1 => word.to_uppercase(),
                    2 => capitalised(word),
                    _ => word
                        .chars()
                        .enumerate()
                        .map(|(i, c)| {
                            if i % 2 == 0 {
                                c.to_ascii_uppercase()
                            } else {
                                c
                            }
                        })
                        .collect(),
                })
            };
            let pool = ["coffee", "tea", "latte", "café", "straße", "éclair"];
            prop_oneof![
                model_scenario(
                    proptest::collection::vec(cased(&pool), 1..4).prop_map(|w| w.join(" ")),
                    cased(&pool),
                ),
                lexicon_scenario(Just(Words::Case)),
            ]
            .boxed()
        },
    }
}

rule! {
    pub fn query_digits -> DIGITS {
        id: "query.digits",
        since: "0.1",
        statement: "Digits in queries and stored text match as the profile says (never indexed by \
                    the reference).",
        requirement: Requirement::Profile,
        weight: 1,
        applies: lexical_only,
        scenarios: |_| {
            let queries = [
                "4417", "4417?", "order", "abc123", "abc", "123", "12", "3.14", "v2", "2026",
            ];
            prop_oneof![
                model_scenario(
                    proptest::collection::vec(
                        select(
                            DIGIT_WORDS
                                .iter()
                                .chain(&WORDS[..2])
                                .copied()
                                .collect::<Vec<_>>(),
                        ),
                        1..4,
                    )
                    .prop_map(|w| w.join(" ")),
                    select(queries.to_vec()).prop_map(String::from),
                ),
                lexicon_scenario(Just(Words::Numbers)),
            ]
            .boxed()
        },
    }
}

rule! {
    pub fn query_non_ascii -> NON_ASCII {
        id: "query.non_ascii",
        since: "0.1",
        statement: "Accented words (NFC and NFD), German and CJK text match as the profile says.",
        requirement: Requirement::Profile,
        weight: 1,
        applies: lexical_only,
        scenarios: |_| {
            let queries = [
                "café",
                "cafe\u{301}",
                "cafe",
                "caf",
                "CAFÉ",
                "naïve",
                "naive",
                "strasse",
                "straße",
                "咖啡",
                "咖",
                "我喜欢咖啡",
                "東京",
                "python",
                "crème",
                "creme",
                "brûlée",
                "viet",
                "việt",
            ];
            prop_oneof![
                model_scenario(
                    proptest::collection::vec(select(NON_ASCII_WORDS.to_vec()), 1..3)
                        .prop_map(|w| w.join(" ")),
                    select(queries.to_vec()).prop_map(String::from),
                ),
                lexicon_scenario(Just(Words::Normalisation)),
            ]
            .boxed()
        },
    }
}

rule! {
    pub fn query_multi_word -> MULTI_WORD {
        id: "query.multi_word",
        since: "0.1",
        statement: "A query of several words matches an event holding any of them or all of them, as \
                    the profile says.",
        requirement: Requirement::Profile,
        weight: 1,
        applies: lexical_only,
        scenarios: |_| {
            let few = WORDS[..4].to_vec();
            let words = proptest::collection::vec(select(few.clone()).prop_map(String::from), 2..4);
            let separators = proptest::collection::vec(select(SEPARATORS.to_vec()), 3);
            // Then a question as people ask it, for a word stored in other forms, inside
            // longer words or among stop words: only what the profile's word rules match is
            // found, so a backend that stems, matches inside words or drops stop words answers
            // otherwise.
            followed_by_lexicon(
                model_scenario(
                    proptest::collection::vec(select(few), 1..4).prop_map(|w| w.join(" ")),
                    (words, separators).prop_map(|(w, s)| join_with_separators(w, s)),
                ),
                "s-2",
                any_words(),
            )
        },
    }
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// One session of texts, then searches, each compared with the oracle.
fn model_scenario(
    text: impl Strategy<Value = String> + 'static,
    query: impl Strategy<Value = String> + 'static,
) -> BoxedStrategy<Scenario> {
    (
        key(),
        proptest::collection::vec(text, 1..4),
        proptest::collection::vec(query, 1..4),
    )
        .prop_map(|(key, texts, queries)| {
            let mut steps = vec![Step::Add(session_of(&key, "s-1", &texts))];
            steps.extend(
                queries
                    .into_iter()
                    .map(|q| search(&key, q, vec![Expect::Oracle])),
            );
            Scenario { steps }
        })
        .boxed()
}
