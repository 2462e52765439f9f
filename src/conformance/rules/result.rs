//! `result.*`: what comes back for each match, how many, in which order.

use proptest::prelude::*;
use proptest::sample::{Index, select};
use serde_json::json;

use super::{Requirement, always, per_search};
use crate::conformance::generate::lexicon::{long_text, maybe_long};
use crate::conformance::generate::scenario::{Expect, Scenario, Step, search, search_limited};
use crate::conformance::generate::values::{
    AUTHORS, MIME_TYPES, TEXT_ENDINGS, WORDS, base_time, big_numbers, content, distinct_words, key,
    session_of, stored_apart,
};
use crate::profile::Profile;
use crate::profile::{Limit, Order, Timestamps};
use crate::{Content, Event, MemoryEntry, Part, Session};

rule! {
    pub fn result_fidelity -> FIDELITY {
        id: "result.fidelity",
        since: "0.1",
        statement: "Each entry carries the event's content (all parts, role included), author and \
                    timestamp unchanged; the timestamp is RFC 3339 UTC with milliseconds and a Z.",
        requirement: Requirement::Required,
        weight: 1,
        applies: always,
        scenarios: |profile| {
            let events = per_search(profile, 3);
            let timestamps = profile.timestamps;
            // Now and then the first event's text is tens of kilobytes, the word asked for at
            // its end; not under vector retrieval, where a long text's embedding says nothing
            // of its last words.
            let long = if profile.is_lexical() {
                maybe_long().boxed()
            } else {
                Just(None).boxed()
            };
            let event = (
                select(AUTHORS.to_vec()),
                0..6usize,
                any::<bool>(),
                0i64..400_000_000_000_000,
                any::<Index>(),
            );
            (
                key(),
                select(WORDS.to_vec()),
                proptest::collection::vec(event, 1..=events),
                long,
            )
                .prop_map(move |(key, word, specs, long)| {
                    let mut session = Session::new(key.app_name.clone(), key.user_id.clone(), "s-1");
                    let mut expected = Vec::new();
                    for (i, (author, extra, role, nanos, pick)) in specs.into_iter().enumerate() {
                        let text = match long {
                            Some((bytes, start)) if i == 0 => {
                                long_text(bytes, start, &[word], &format!("{word} {i}"))
                            }
                            _ => format!("{word} {i}"),
                        };
                        let mut parts = vec![Part::text(text)];
                        let big = || pick.get(big_numbers().as_slice()).clone();
                        match extra {
                            1 => parts.push(Part::function_call("lookup", json!({"id": i}))),
                            2 => parts.push(Part::inline_data(
                                *pick.get(MIME_TYPES.as_slice()),
                                vec![0, 159, 146, 150],
                            )),
                            3 => parts.insert(0, Part::text("")),
                            4 => {
                                if let Part::Text(text) = &mut parts[0] {
                                    text.push(' ');
                                    text.push_str(pick.get::<&str>(&TEXT_ENDINGS));
                                }
                            }
                            5 => {
                                parts.push(Part::function_call("lookup", json!({"order": big()})));
                                parts.push(Part::function_response("lookup", json!({"total": [big()]})));
                            }
                            _ => {}
                        }
                        let mut content = Content::new(parts);
                        if role {
                            content =
                                content.with_role(if author == "user" { "user" } else { "model" });
                        }
                        let at = base_time()
                            .checked_add(jiff::SignedDuration::from_nanos(nanos))
                            .unwrap_or(base_time());
                        let event = Event::new(author, Some(content))
                            .at(at)
                            .with_id(format!("e-{i}"));
                        // The kit's own string, or under a declared naive format the exact
                        // instant, which the comparison reads the backend's string against.
                        expected.extend(MemoryEntry::from_event(&event).map(|entry| match timestamps {
                            Timestamps::Rfc3339Utc => entry,
                            Timestamps::NaiveIsoformat => entry.with_timestamp(at.to_string()),
                        }));
                        session = session.with_event(event);
                    }
                    Scenario {
                        steps: vec![
                            Step::Add(session),
                            search(&key, word, vec![Expect::Entries(expected)]),
                        ],
                    }
                })
                .boxed()
        },
    }
}

rule! {
    pub fn result_limit -> LIMIT {
        id: "result.limit",
        since: "0.1",
        statement: "A search returns every match, or at most the profile's limit.",
        requirement: Requirement::Profile,
        weight: 1,
        applies: always,
        scenarios: |profile| {
            let limit = profile.limit;
            let profile = profile.clone();
            // Now and then far more matches than any plausible hidden cap, and rarely a key of
            // thousands of events (a search that reads only the latest thousand, LifeOS#534).
            let matches = match limit {
                Limit::AtMost(n) => (1..=n + 12).boxed(),
                Limit::Unlimited => {
                    prop_oneof![60 => 1..=30usize, 4 => 101..=160usize, 1 => 1_001..=1_050usize]
                        .boxed()
                }
            };
            (key(), select(WORDS.to_vec()), matches, 1..=3usize)
                .prop_map(move |(key, word, matches, sessions)| {
                    let mut steps = Vec::new();
                    for s in 0..sessions {
                        let texts: Vec<String> = (0..matches)
                            .filter(|m| m % sessions == s)
                            .map(|m| format!("{word} {m}"))
                            .collect();
                        let session = session_of(&key, &format!("s-{s}"), &texts);
                        steps.push(Step::Add(stored_apart(&profile, session)));
                    }
                    let count = match limit {
                        Limit::AtMost(n) => matches.min(n),
                        Limit::Unlimited => matches,
                    };
                    steps.push(search(
                        &key,
                        word,
                        vec![Expect::Count(count), Expect::NoDuplicates],
                    ));
                    Scenario { steps }
                })
                .boxed()
        },
    }
}

rule! {
    pub fn result_order -> ORDER {
        id: "result.order",
        since: "0.1",
        statement: "Entries come back in the order the profile declares: insertion (sessions by first \
                    add, events in session order), most query words matched first, or by relevance.",
        requirement: Requirement::Profile,
        weight: 1,
        applies: |profile: &Profile| match profile.order {
            Order::Unordered => Err("the profile promises no order".into()),
            Order::Relevance | Order::Insertion { .. } | Order::MatchedTerms
                if profile.is_lexical() =>
            {
                Ok(())
            }
            Order::Relevance => Ok(()),
            _ => Err(
                "an ordered profile needs lexical retrieval for the kit to compute the order".into(),
            ),
        },
        scenarios: |profile| {
            let ranked = match profile.order {
                Order::Relevance => relevance_scenario(),
                _ => sequence_scenario(per_search(profile, 10)),
            };
            match (profile.limit, profile.order) {
                (Limit::AtMost(limit), Order::Relevance | Order::MatchedTerms) => {
                    prop_oneof![3 => ranked, 1 => best_after_the_limit(limit, profile)].boxed()
                }
                _ => ranked,
            }
        },
    }
}

/// Several sessions, one re-added, then multi-word searches whose order the oracle computes.
fn sequence_scenario(most: usize) -> BoxedStrategy<Scenario> {
    let ids = ["s-b", "s-a", "10", "2", "s-c"];
    let texts = proptest::collection::vec(
        proptest::collection::vec(select(WORDS[..4].to_vec()), 1..4).prop_map(|w| w.join(" ")),
        1..4,
    );
    (
        key(),
        proptest::collection::vec(texts, 2..5),
        0..5usize,
        proptest::collection::vec(select(WORDS[..4].to_vec()), 1..4),
    )
        .prop_map(move |(key, sessions, readd, query)| {
            let mut steps: Vec<Step> = Vec::new();
            let mut total = 0;
            for (s, texts) in sessions.iter().enumerate() {
                let texts: Vec<String> = texts
                    .iter()
                    .take(most.saturating_sub(total).max(1))
                    .cloned()
                    .collect();
                total += texts.len();
                steps.push(Step::Add(session_of(&key, ids[s], &texts)));
            }
            let again = readd % sessions.len();
            steps.push(Step::Add(session_of(
                &key,
                ids[again],
                &sessions[again][..1],
            )));
            steps.push(search(&key, query.join(" "), vec![Expect::Oracle]));
            Scenario { steps }
        })
        .boxed()
}

/// More events than the limit hold one query word, added first; a few hold both, added last.
/// Relevance is unambiguous, so the best `limit` are the ones holding both: a backend that cuts
/// to its limit before ranking returns only the first, weaker ones.
fn best_after_the_limit(limit: usize, profile: &Profile) -> BoxedStrategy<Scenario> {
    // The oracle orders by matched terms; a relevance score it cannot compute, so there the
    // stronger events must be among the results.
    let (model, includes) = (profile.is_lexical(), profile.order == Order::Relevance);
    (key(), distinct_words(3), 1..=limit.clamp(1, 3), 1..=3usize)
        .prop_map(move |(key, words, strong, beyond)| {
            let (x, y, z) = (words[0], words[1], words[2]);
            let mut texts: Vec<String> = (0..limit + beyond).map(|_| format!("{x} {z}")).collect();
            let stronger = format!("{x} {y}");
            texts.extend((0..strong).map(|_| stronger.clone()));
            let mut expect = Vec::new();
            if model {
                expect.push(Expect::Oracle);
            }
            if includes || !model {
                expect.push(Expect::Includes(vec![content(&stronger); strong]));
            }
            Scenario {
                steps: vec![
                    Step::Add(session_of(&key, "s-1", &texts)),
                    search(&key, format!("{x} {y}"), expect),
                ],
            }
        })
        .boxed()
}

/// An event holding both query words ranks above one holding only one, whatever the order
/// they were added in.
fn relevance_scenario() -> BoxedStrategy<Scenario> {
    (key(), distinct_words(3))
        .prop_map(|(key, words)| {
            let (x, y, z) = (words[0], words[1], words[2]);
            let weaker = format!("{x} {z}");
            let stronger = format!("{x} {y}");
            Scenario {
                steps: vec![
                    Step::Add(session_of(&key, "s-1", &[weaker, stronger.clone()])),
                    search(
                        &key,
                        format!("{x} {y}"),
                        vec![Expect::First(content(&stronger))],
                    ),
                ],
            }
        })
        .boxed()
}

rule! {
    pub fn result_entry_ids -> ENTRY_IDS {
        id: "result.entry_ids",
        since: "0.1",
        statement: "Every entry carries an id; the same stored memory carries the same id in every \
                    search, and memories of events with different ids carry different ids.",
        requirement: Requirement::Capability,
        weight: 2,
        applies: |profile: &Profile| {
            if profile.capabilities.entry_ids {
                Ok(())
            } else {
                Err("the profile does not declare the entry_ids capability".into())
            }
        },
        scenarios: |profile| {
            let events = per_search(profile, 4);
            (key(), distinct_words(5), 1..=events, 1..=events)
                .prop_map(move |(key, words, first, second)| {
                    let shared = words[0];
                    // Each event its own id, as ADK gives every event a fresh one.
                    let session = |id: &str, n: usize, from: usize| {
                        let texts: Vec<String> = (0..n)
                            .map(|i| format!("{shared} {} {}", words[1 + (from + i) % 4], from + i))
                            .collect();
                        let mut session = session_of(&key, id, &texts);
                        for (i, event) in session.events.iter_mut().enumerate() {
                            event.id = format!("{id}-e-{i}");
                        }
                        session
                    };
                    Scenario {
                        steps: vec![
                            Step::Add(session("s-1", first, 0)),
                            search(&key, shared, vec![Expect::StableIds]),
                            Step::Add(session("s-2", second, first)),
                            search(&key, shared, vec![Expect::StableIds]),
                            search(&key, format!("{shared} {}", words[1]), vec![Expect::StableIds]),
                        ],
                    }
                })
                .boxed()
        },
    }
}

rule! {
    pub fn result_limit_option -> LIMIT_OPTION {
        id: "result.limit_option",
        since: "0.1",
        statement: "A search that asks for at most n entries returns the first n of what the \
                    profile computes (its best n where it ranks), n instead of the profile's own \
                    limit, never more, never a duplicate.",
        requirement: Requirement::Capability,
        weight: 1,
        applies: |profile: &Profile| {
            if profile.capabilities.search_limit {
                Ok(())
            } else {
                Err("the profile does not declare the search_limit capability".into())
            }
        },
        scenarios: |profile| {
            let cap = match profile.limit {
                Limit::AtMost(n) => n + 5,
                Limit::Unlimited => 40,
            };
            let lexical = profile.is_lexical();
            // Where the profile computes the matches, events that do not match come before,
            // between and after the matches, so a limit cut before matching shows; the same
            // query is asked with two limits, so a limit ignored or remembered shows.
            let others = if lexical { 0..=2usize } else { 0..=0usize };
            (
                key(),
                distinct_words(2),
                1..=cap,
                (1..=cap + 3, 1..=cap + 3),
                1..=3usize,
                (others.clone(), others),
            )
                .prop_map(move |(key, words, matches, limits, sessions, (before, after))| {
                    let (word, other) = (words[0], words[1]);
                    let mut steps = Vec::new();
                    for s in 0..sessions {
                        let mut texts: Vec<String> =
                            (0..before).map(|i| format!("{other} {s} {i}")).collect();
                        for m in (0..matches).filter(|m| m % sessions == s) {
                            texts.push(format!("{word} {m}"));
                            if before == 2 && m % 2 == 0 {
                                texts.push(format!("{other} {m}"));
                            }
                        }
                        texts.extend((0..after).map(|i| format!("{other} {s} after {i}")));
                        steps.push(Step::Add(session_of(&key, &format!("s-{s}"), &texts)));
                    }
                    for limit in [limits.0, limits.1] {
                        let expect = if lexical {
                            vec![Expect::Oracle, Expect::NoDuplicates]
                        } else {
                            vec![Expect::Count(matches.min(limit)), Expect::NoDuplicates]
                        };
                        steps.push(search_limited(&key, word, limit, expect));
                    }
                    Scenario { steps }
                })
                .boxed()
        },
    }
}
