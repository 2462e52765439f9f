//! `query.*`, `punctuation.*` and `model.random_ops`: how queries and stored text are cut
//! into words and matched, checked against the profile's model.

use proptest::prelude::*;
use proptest::sample::select;

use super::{Requirement, Rule, always, lexical_only};
use crate::conformance::generate::{
    ABSENT, DIGIT_WORDS, NON_ASCII_WORDS, PUNCTUATION, SEPARATORS, WORDS, blank_query,
    distinct_words, join_with_separators, key, key_and_near_miss, mixed_words, session_of,
    text_event, textless_event,
};
use crate::conformance::scenario::{Expect, Scenario, Step, search};
use crate::{MemoryKey, Session};

pub(super) const QUERY_BLANK: Rule = Rule {
    id: "query.blank",
    statement: "An empty or whitespace-only query (ASCII or Unicode whitespace) returns nothing.",
    requirement: Requirement::Required,
    weight: 1,
    applies: always,
    scenarios: |_| {
        (key(), distinct_words(2), blank_query())
            .prop_map(|(key, words, query)| Scenario {
                steps: vec![
                    Step::Add(session_of(&key, "s-1", &[words.join(" ")])),
                    search(&key, query, vec![Expect::Nothing]),
                ],
            })
            .boxed()
    },
};

pub(super) const QUERY_UNKNOWN_KEY: Rule = Rule {
    id: "query.unknown_key",
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
};

pub(super) const QUERY_CASE_INSENSITIVE: Rule = Rule {
    id: "query.case_insensitive",
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
        model_scenario(
            proptest::collection::vec(cased(&pool), 1..4).prop_map(|w| w.join(" ")),
            cased(&pool),
        )
    },
};

pub(super) const PUNCTUATION_QUERY: Rule = Rule {
    id: "punctuation.query",
    statement: "A query word carrying punctuation (ASCII or Unicode) matches as the profile says: \
                dead when punctuation stays on the token, found when the profile separates it.",
    requirement: Requirement::Profile,
    weight: 1,
    applies: lexical_only,
    scenarios: |_| decorated_scenario(Side::Query),
};

pub(super) const PUNCTUATION_EVENT: Rule = Rule {
    id: "punctuation.event",
    statement: "Punctuation in stored text separates words or stays attached, as the profile says.",
    requirement: Requirement::Profile,
    weight: 1,
    applies: lexical_only,
    scenarios: |_| decorated_scenario(Side::Text),
};

pub(super) const QUERY_DIGITS: Rule = Rule {
    id: "query.digits",
    statement: "Digits in queries and stored text match as the profile says (never indexed by \
                the reference).",
    requirement: Requirement::Profile,
    weight: 1,
    applies: lexical_only,
    scenarios: |_| {
        let queries = [
            "4417", "4417?", "order", "abc123", "abc", "123", "12", "3.14", "v2", "2026",
        ];
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
        )
    },
};

pub(super) const QUERY_NON_ASCII: Rule = Rule {
    id: "query.non_ascii",
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
        ];
        model_scenario(
            proptest::collection::vec(select(NON_ASCII_WORDS.to_vec()), 1..3)
                .prop_map(|w| w.join(" ")),
            select(queries.to_vec()).prop_map(String::from),
        )
    },
};

pub(super) const QUERY_MULTI_WORD: Rule = Rule {
    id: "query.multi_word",
    statement: "A query of several words matches an event holding any of them or all of them, as \
                the profile says.",
    requirement: Requirement::Profile,
    weight: 1,
    applies: lexical_only,
    scenarios: |_| {
        let few = WORDS[..4].to_vec();
        let words = proptest::collection::vec(select(few.clone()).prop_map(String::from), 2..4);
        let separators = proptest::collection::vec(select(SEPARATORS.to_vec()), 3);
        model_scenario(
            proptest::collection::vec(select(few), 1..4).prop_map(|w| w.join(" ")),
            (words, separators).prop_map(|(w, s)| join_with_separators(w, s)),
        )
    },
};

pub(super) const MODEL_RANDOM_OPS: Rule = Rule {
    id: "model.random_ops",
    statement: "Any sequence of adds, re-adds and searches over mixed keys gives, at every search, \
                what the profile's model computes.",
    requirement: Requirement::Profile,
    weight: 2,
    applies: lexical_only,
    scenarios: |_| {
        let keys = [
            MemoryKey::new("support", "u-42"),
            MemoryKey::new("support", "42"),
            MemoryKey::new("a/b", "c"),
            MemoryKey::new("a", "b/c"),
        ];
        let words = mixed_words();
        let text = (
            proptest::collection::vec(select(words.clone()), 1..4),
            select(SEPARATORS.to_vec()),
        )
            .prop_map(|(w, separator)| w.join(separator));
        let event = prop_oneof![
            3 => (text, select(vec!["user", "model"])).prop_map(|(t, author)| {
                let mut e = text_event(&t, 0);
                e.author = author.into();
                e
            }),
            1 => textless_event(),
        ];
        let add = (
            select(keys.to_vec()),
            select(vec!["s-1", "s-2", "10"]),
            proptest::collection::vec(event, 0..4),
        )
            .prop_map(|(key, id, events)| {
                let events = events.into_iter().enumerate().map(|(i, e)| {
                    e.at(crate::conformance::generate::base_time())
                        .with_id(format!("e-{i}"))
                });
                Step::Add(
                    Session::new(key.app_name.clone(), key.user_id.clone(), id).with_events(events),
                )
            });
        let query = (
            proptest::collection::vec(select(words), 1..3),
            proptest::collection::vec(select(SEPARATORS.to_vec()), 2),
        );
        let search = (select(keys.to_vec()), query).prop_map(|(key, (q, s))| {
            search(&key, join_with_separators(q, s), vec![Expect::Model])
        });
        proptest::collection::vec(prop_oneof![add, search], 1..25)
            .prop_map(|steps| Scenario { steps })
            .boxed()
    },
};

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// One session of texts, then searches, each compared with the profile's model.
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
                    .map(|q| search(&key, q, vec![Expect::Model])),
            );
            Scenario { steps }
        })
        .boxed()
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
                    .map(|q| search(&key, q, vec![Expect::Model])),
            );
            Scenario { steps }
        })
        .boxed()
}
