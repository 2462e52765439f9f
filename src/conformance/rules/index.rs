//! `index.*`: what is searchable at all.

use proptest::prelude::*;
use proptest::sample::select;
use serde_json::json;

use super::{Requirement, always, computable, exactly};
use crate::conformance::generate::scenario::{Expect, Scenario, Step, search};
use crate::conformance::generate::values::{
    WORDS, content, distinct_words, event_at, key, text_event, textless_event,
};
use crate::{Content, Part, Session};

rule! {
    pub fn index_text_only -> TEXT_ONLY {
        id: "index.text_only",
        since: "0.1",
        statement: "Words that appear only in function calls, function responses, inline data, \
                    session state or an event's author are never found, except tool data in a \
                    profile that indexes it.",
        requirement: Requirement::Profile,
        weight: 1,
        applies: computable,
        scenarios: |_| {
            (key(), distinct_words(2), 0..7usize, any::<bool>())
                .prop_map(|(key, words, place, with_text)| {
                    let (fact, text) = (words[0], words[1]);
                    let mut session = Session::new(key.app_name.clone(), key.user_id.clone(), "s-1");
                    let hidden = match place {
                        0 => Some(Part::function_response("lookup", json!({"status": fact}))),
                        1 => Some(Part::function_call(
                            "lookup",
                            json!({"query": {"words": [fact]}}),
                        )),
                        2 => Some(Part::inline_data("text/plain", fact.as_bytes().to_vec())),
                        3 => Some(Part::function_response(
                            "lookup",
                            json!({"note": format!("the {fact} order")}),
                        )),
                        _ => None,
                    };
                    match hidden {
                        // The fact is only the author's name, in any case.
                        None if place == 6 => {
                            let author = if with_text { fact.to_uppercase() } else { fact.to_owned() };
                            session = session.with_event(event_at(&author, Some(Content::text(text)), 0));
                        }
                        Some(part) => {
                            let parts = if with_text {
                                vec![Part::text(text), part]
                            } else {
                                vec![part]
                            };
                            session =
                                session.with_event(event_at("model", Some(Content::new(parts)), 0));
                        }
                        None => {
                            session = session
                                .with_state("fact", json!(fact))
                                .with_state(fact, json!(true));
                            if with_text {
                                session = session.with_event(text_event(text, 0));
                            }
                        }
                    }
                    Scenario {
                        steps: vec![
                            Step::Add(session),
                            search(&key, fact, vec![Expect::Oracle]),
                            search(&key, text, vec![Expect::Oracle]),
                        ],
                    }
                })
                .boxed()
        },
    }
}

rule! {
    pub fn index_empty_events -> EMPTY_EVENTS {
        id: "index.empty_events",
        since: "0.1",
        statement: "Events without content, without parts or without text are never returned.",
        requirement: Requirement::Required,
        weight: 1,
        applies: always,
        scenarios: |profile| {
            let profile = profile.clone();
            (
                key(),
                select(WORDS.to_vec()),
                proptest::collection::vec(textless_event(), 1..4),
                0..4usize,
            )
                .prop_map(move |(key, word, textless, at)| {
                    let mut events = textless;
                    let position = at.min(events.len());
                    events.insert(position, text_event(word, 50));
                    let session = Session::new(key.app_name.clone(), key.user_id.clone(), "s-1")
                        .with_events(events);
                    let mut expect = exactly(&profile, vec![content(word)]);
                    expect.push(Expect::Excludes(vec![
                        Content::new(vec![]),
                        Content::text(""),
                    ]));
                    Scenario {
                        steps: vec![Step::Add(session), search(&key, word, expect)],
                    }
                })
                .boxed()
        },
    }
}
