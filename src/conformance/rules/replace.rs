//! `replace.*`: re-adding a session id replaces what it held, and only that.

use proptest::prelude::*;
use proptest::sample::select;

use super::{Requirement, always, computable, exactly, none_of, per_search};
use crate::conformance::generate::scenario::{Expect, Scenario, Step, search};
use crate::conformance::generate::values::{
    ABSENT, SESSION_IDS, WORDS, content, distinct_words, event_at, key, key_and_near_miss,
    session_id_and_near_miss, session_of, stored_apart, text_event, textless_event,
};
use crate::{MemoryKey, Session};

rule! {
    pub fn replace_readd_replaces -> READD_REPLACES {
        id: "replace.readd_replaces",
        since: "0.1",
        statement: "Re-adding a session id replaces what it held: words only in the old version stop \
                    matching, the new ones match, and nothing is returned twice.",
        requirement: Requirement::Required,
        weight: 1,
        applies: always,
        scenarios: |profile| {
            let profile = profile.clone();
            let per_version = per_search(&profile, 3);
            (
                key(),
                select(SESSION_IDS.to_vec()),
                distinct_words(4),
                2..=3usize,
                // Each version's number of events, and whether its events get ids no earlier
                // version used (a backend that writes by event id then keeps the old ones).
                proptest::collection::vec((1..=per_version, any::<bool>()), 3),
            )
                .prop_map(move |(key, id, words, versions, shapes)| {
                    let shared = words[3];
                    let version = |v: usize| -> Vec<String> {
                        (0..shapes[v].0)
                            .map(|e| {
                                if e == 0 {
                                    format!("{} {shared}", words[v])
                                } else {
                                    format!("{shared} {e}")
                                }
                            })
                            .collect()
                    };
                    let mut steps: Vec<Step> = (0..versions)
                        .map(|v| {
                            let mut session = session_of(&key, id, &version(v));
                            if shapes[v].1 {
                                for event in &mut session.events {
                                    event.id = format!("{}-v{v}", event.id);
                                }
                            }
                            Step::Add(session)
                        })
                        .collect();
                    let last = version(versions - 1);
                    for (old, word) in words.iter().enumerate().take(versions - 1) {
                        let gone = content(&version(old)[0]);
                        steps.push(search(&key, *word, none_of(&profile, vec![gone])));
                    }
                    let now: Vec<_> = last.iter().map(|t| content(t)).collect();
                    steps.push(search(
                        &key,
                        words[versions - 1],
                        exactly(&profile, now[..1].to_vec()),
                    ));
                    steps.push(search(&key, shared, exactly(&profile, now)));
                    Scenario { steps }
                })
                .boxed()
        },
    }
}

rule! {
    pub fn replace_readd_with_nothing -> READD_WITH_NOTHING {
        id: "replace.readd_with_nothing",
        since: "0.1",
        statement: "A re-add whose events carry no text (none at all, no content, no parts, only tool \
                    data or inline data) removes the old text.",
        requirement: Requirement::Required,
        weight: 1,
        applies: always,
        scenarios: |profile| {
            let profile = profile.clone();
            (
                key(),
                select(SESSION_IDS.to_vec()),
                select(WORDS.to_vec()),
                proptest::collection::vec(textless_event(), 0..3),
            )
                .prop_map(move |(key, id, word, textless)| {
                    let old = session_of(&key, id, &[word.to_owned()]);
                    let readd = Session::new(key.app_name.clone(), key.user_id.clone(), id)
                        .with_events(textless);
                    Scenario {
                        steps: vec![
                            Step::Add(old),
                            Step::Add(readd),
                            search(&key, word, none_of(&profile, vec![content(word)])),
                        ],
                    }
                })
                .boxed()
        },
    }
}

rule! {
    pub fn replace_other_sessions_untouched -> OTHER_SESSIONS_UNTOUCHED {
        id: "replace.other_sessions_untouched",
        since: "0.1",
        statement: "Re-adding a session never changes another session: neither other sessions of the \
                    same key (however nearly equal their ids) nor a session with the same id under \
                    another key.",
        requirement: Requirement::Required,
        weight: 1,
        applies: always,
        scenarios: |profile| {
            let profile = profile.clone();
            (
                key_and_near_miss(),
                distinct_words(6),
                2..=4usize,
                any::<bool>(),
                session_id_and_near_miss(),
            )
                .prop_map(move |((key, other_key), words, sessions, empty_readd, (id, near_id))| {
                    let ids = [id, "s-2", "s-3", "s-4"];
                    let apart = |session| Step::Add(stored_apart(&profile, session));
                    let mut steps: Vec<Step> = (0..sessions)
                        .map(|s| apart(session_of(&key, ids[s], &[words[s].to_owned()])))
                        .collect();
                    let near = words[5];
                    steps.push(apart(session_of(&key, near_id, &[near.to_owned()])));
                    let twin = MemoryKey::clone(&other_key);
                    steps.push(Step::Add(session_of(&twin, ids[0], &[words[4].to_owned()])));
                    let readd = if empty_readd {
                        Session::new(key.app_name.clone(), key.user_id.clone(), ids[0])
                    } else {
                        Session::new(key.app_name.clone(), key.user_id.clone(), ids[0])
                            .with_event(text_event(&format!("{} again", words[0]), 9_000))
                    };
                    steps.push(Step::Add(readd));
                    for word in &words[1..sessions] {
                        steps.push(search(&key, *word, exactly(&profile, vec![content(word)])));
                    }
                    steps.push(search(
                        &twin,
                        words[4],
                        exactly(&profile, vec![content(words[4])]),
                    ));
                    steps.push(search(&key, near, exactly(&profile, vec![content(near)])));
                    Scenario { steps }
                })
                .boxed()
        },
    }
}

rule! {
    pub fn replace_readd_as_declared -> READD_AS_DECLARED {
        id: "replace.readd_as_declared",
        since: "0.1",
        statement: "Versions of one session whose events keep, change, lose or gain event ids, with \
                    text, blank text, punctuation only or no text, leave what the profile's re-add \
                    rule computes: each word ever written is found where the oracle says and nowhere \
                    else, and another session's events with the same ids are untouched.",
        requirement: Requirement::Profile,
        weight: 1,
        applies: computable,
        scenarios: |_| {
            // A version: which of three event ids it holds, in which order, and what each holds.
            let version = (
                proptest::sample::subsequence(vec![0usize, 1, 2], 0..=3).prop_shuffle(),
                proptest::collection::vec(0..6usize, 3),
            );
            (
                key(),
                select(SESSION_IDS.to_vec()),
                proptest::collection::vec(version, 2..=3),
            )
                .prop_map(|(key, id, versions)| {
                    // Another session of the key, with the same event ids, added first.
                    let twin_id = if id == "s-1" { "s-2" } else { "s-1" };
                    let twin_word = WORDS[9];
                    let twin = Session::new(key.app_name.clone(), key.user_id.clone(), twin_id)
                        .with_event(text_event(twin_word, 0).with_id("e-0"));
                    let mut steps = vec![Step::Add(twin)];
                    let mut written = Vec::new();
                    for (v, (slots, kinds)) in versions.iter().enumerate() {
                        let events = slots.iter().map(|&slot| {
                            let word = WORDS[v * 3 + slot];
                            let content = match kinds[slot] {
                                0 | 1 => {
                                    written.push(word);
                                    Some(content(word))
                                }
                                2 => Some(content(" \t ")),
                                3 => Some(content("?!")),
                                4 => Some(crate::Content::new(vec![crate::Part::function_call(
                                    "lookup",
                                    serde_json::json!({ "note": ABSENT }),
                                )])),
                                _ => None,
                            };
                            let millis = (v * 1_000 + slot) as i64;
                            event_at("user", content, millis).with_id(format!("e-{slot}"))
                        });
                        steps.push(Step::Add(
                            Session::new(key.app_name.clone(), key.user_id.clone(), id)
                                .with_events(events),
                        ));
                    }
                    for word in written.into_iter().chain([twin_word]) {
                        steps.push(search(&key, word, vec![Expect::Oracle]));
                    }
                    Scenario { steps }
                })
                .boxed()
        },
    }
}
