//! `delta.*`: `add_events_to_memory`, an incremental update of a session.

use proptest::prelude::*;
use proptest::sample::select;

use super::{Requirement, computable};
use crate::conformance::generate::scenario::{Expect, Scenario, Step, search};
use crate::conformance::generate::values::{WORDS, base_time, key, textless_event};
use crate::profile::Profile;
use crate::{Content, Event, Part, Session};

rule! {
    pub fn delta_as_declared -> AS_DECLARED {
        id: "delta.as_declared",
        since: "0.1",
        statement: "A delta of events (add_events_to_memory) updates its session as the profile \
                    declares, never as a replacement of the whole session, and a delta without a \
                    session id is kept apart from every session; full adds and deltas mixed give, \
                    at every search, what the oracle computes.",
        requirement: Requirement::Capability,
        weight: 2,
        applies: |profile: &Profile| {
            if profile.capabilities.events_delta.is_none() {
                return Err("the profile does not declare the events_delta capability".into());
            }
            computable(profile)
        },
        scenarios: |_| {
            // Event ids from a small pool, so deltas meet ids the session already holds.
            let event = prop_oneof![
                4 => (select(vec!["e-1", "e-2", "e-3"]), select(WORDS.to_vec()), select(WORDS.to_vec()))
                    .prop_map(|(id, a, b)| text_event(format!("{a} {b}"), id).with_id(id)),
                1 => (select(vec!["e-1", "e-4"]), textless_event()).prop_map(|(id, e)| e.with_id(id)),
            ]
            .prop_map(|e| e.at(base_time()));
            let session_id = select(vec![Some("s-1"), Some("s-2"), None]);
            let op = prop_oneof![
                2 => (session_id.clone(), proptest::collection::vec(event.clone(), 0..4))
                    .prop_map(|(id, events)| (true, id, events)),
                1 => (select(vec!["s-1", "s-2"]), proptest::collection::vec(event, 0..4))
                    .prop_map(|(id, events)| (false, Some(id), events)),
            ];
            let query = (select(WORDS.to_vec()), select(WORDS.to_vec()))
                .prop_map(|(a, b)| format!("{a} {b}"));
            (key(), proptest::collection::vec((op, query), 1..8))
                .prop_map(|(key, ops)| {
                    let mut steps = Vec::new();
                    for ((delta, session_id, events), query) in ops {
                        steps.push(if delta {
                            Step::AddEvents {
                                key: key.clone(),
                                session_id: session_id.map(str::to_owned),
                                events,
                            }
                        } else {
                            Step::Add(
                                Session::new(
                                    key.app_name.clone(),
                                    key.user_id.clone(),
                                    session_id.unwrap_or("s-1"),
                                )
                                .with_events(events),
                            )
                        });
                        steps.push(search(&key, query, vec![Expect::Oracle]));
                    }
                    Scenario { steps }
                })
                .boxed()
        },
    }
}

/// A text event of the user's, with a role (`e-2`) or a function call beside the text (`e-3`,
/// its arguments without a string, so no profile's tool data reads a word in them): what a
/// delta must keep field for field. Chosen by the event id, so the cases drawn stay those
/// drawn before the fields were compared.
fn text_event(text: String, id: &str) -> Event {
    let content = match id {
        "e-2" => Content::text(text).with_role("user"),
        "e-3" => Content::new(vec![
            Part::text(text),
            Part::function_call("lookup", serde_json::json!({"n": 1})),
        ]),
        _ => Content::text(text),
    };
    Event::new("user", Some(content))
}
