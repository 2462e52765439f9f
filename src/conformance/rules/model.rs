//! `model.random_ops`: random sequences of every operation the profile declares, step by step
//! against the oracle.

use proptest::prelude::*;
use proptest::sample::{Index, select};

use super::{Requirement, always};
use crate::conformance::generate::scenario::{Expect, Scenario, Step, search, search_limited};
use crate::conformance::generate::values::{
    SEPARATORS, base_time, join_with_separators, mixed_words, text_event, textless_event,
};
use crate::profile::Profile;
use crate::{Content, MemoryEntry, MemoryKey, Session};

rule! {
    pub fn model_random_ops -> RANDOM_OPS {
        id: "model.random_ops",
        since: "0.1",
        statement: "Any sequence of the operations the profile declares (adds, re-adds and \
                    searches over mixed keys; deltas, explicit memories, deletions, searches with \
                    a limit, reopens, a second instance and waits for delayed writes) gives, at \
                    every search, what the oracle computes for the profile (under semantic \
                    retrieval, which it cannot compute: only entries stored under the key, \
                    within the limit).",
        requirement: Requirement::Profile,
        weight: 2,
        applies: always,
        scenarios: |profile| {
            proptest::collection::vec(operation(profile), 1..40)
                .prop_map(resolve)
                .boxed()
        },
    }
}

/// The keys a sequence writes and searches under: two users of one app whose ids differ only
/// by a prefix, and two keys that join to the same string.
fn keys() -> [MemoryKey; 4] {
    [
        MemoryKey::new("support", "u-42"),
        MemoryKey::new("support", "42"),
        MemoryKey::new("a/b", "c"),
        MemoryKey::new("a", "b/c"),
    ]
}

/// One operation of a sequence, before the steps that depend on what came before it are
/// chosen.
#[derive(Clone, Debug)]
enum Draft {
    /// Steps that stand on their own.
    Steps(Vec<Step>),
    /// A search of `query`, with a limit or not; with an `Index`, one of the texts written so
    /// far (the `Index`-th) is searched for instead, under its key, by one of its words put
    /// before the query.
    Search {
        key: MemoryKey,
        query: String,
        limit: Option<usize>,
        about: Option<Index>,
        /// What the search must return: the oracle's answer, or only what is stored.
        expect: Expect,
    },
    /// Adds a new version of one of the sessions added so far, the `Index`-th (an add of a
    /// new session where none was).
    Readd(Index, Session),
    /// Deletes one of the texts written so far, the `Index`-th.
    Delete(Index),
    /// Goes to another instance on the same storage: opens a second one, or switches to one
    /// already open, the `Index`-th of the others.
    OtherInstance(Index),
}

/// A text of 1 to 3 mixed words joined by one separator.
fn text() -> impl Strategy<Value = String> + Clone {
    (
        proptest::collection::vec(select(mixed_words()), 1..4),
        select(SEPARATORS.to_vec()),
    )
        .prop_map(|(words, separator)| words.join(separator))
}

/// A weighted choice of every operation `profile` declares.
fn operation(profile: &Profile) -> BoxedStrategy<Draft> {
    let capabilities = profile.capabilities;
    // Where the profile computes no answer (semantic retrieval), a search can only be checked
    // for returning what is stored under its key.
    let expect = if profile.is_lexical() || profile.vector().is_some() {
        Expect::Oracle
    } else {
        Expect::Stored
    };
    let key = || select(keys().to_vec());
    let session_id = || select(vec!["s-1", "s-2", "10"]);
    let event = prop_oneof![
        3 => (text(), select(vec!["user", "model"])).prop_map(|(t, author)| {
            let mut e = text_event(&t, 0);
            e.author = author.into();
            e
        }),
        1 => textless_event(),
    ];
    let add = (key(), session_id(), proptest::collection::vec(event, 0..4)).prop_map(
        |(key, id, events)| {
            let events = events
                .into_iter()
                .enumerate()
                .map(|(i, e)| e.at(base_time()).with_id(format!("e-{i}")));
            Session::new(key.app_name.clone(), key.user_id.clone(), id).with_events(events)
        },
    );
    // The same events stored in a second session of the same key: two equal entries that a
    // search must return both of.
    let add_twice = (add.clone(), session_id()).prop_map(|(first, other)| {
        let mut copy = first.clone();
        copy.id = if first.id == other {
            format!("{other}-copy")
        } else {
            other.to_owned()
        };
        Draft::Steps(vec![Step::Add(first), Step::Add(copy)])
    });
    let readd =
        (any::<Index>(), add.clone()).prop_map(|(pick, session)| Draft::Readd(pick, session));
    let add = add.prop_map(|session| Draft::Steps(vec![Step::Add(session)]));
    let query = || {
        (
            proptest::collection::vec(select(mixed_words()), 1..3),
            proptest::collection::vec(select(SEPARATORS.to_vec()), 2),
        )
            .prop_map(|(words, separators)| join_with_separators(words, separators))
    };
    let search = (key(), query(), proptest::option::of(any::<Index>())).prop_map({
        let expect = expect.clone();
        move |(key, query, about)| Draft::Search {
            key,
            query,
            limit: None,
            about,
            expect: expect.clone(),
        }
    });
    let mut ops = vec![
        (3, add.boxed()),
        (1, add_twice.boxed()),
        (2, readd.boxed()),
        (3, search.boxed()),
    ];
    if capabilities.search_limit {
        let limited = (
            key(),
            query(),
            1..4usize,
            proptest::option::of(any::<Index>()),
        )
            .prop_map(move |(key, query, limit, about)| Draft::Search {
                key,
                query,
                limit: Some(limit),
                about,
                expect: expect.clone(),
            });
        ops.push((2, limited.boxed()));
    }
    if capabilities.events_delta.is_some() {
        let delta = (
            key(),
            select(vec![Some("s-1"), Some("10"), None]),
            proptest::collection::vec((text(), 0..4usize), 0..3),
        )
            .prop_map(|(key, session_id, events)| {
                Draft::Steps(vec![Step::AddEvents {
                    key,
                    session_id: session_id.map(str::to_owned),
                    events: events
                        .into_iter()
                        .map(|(t, id)| text_event(&t, 0).at(base_time()).with_id(format!("e-{id}")))
                        .collect(),
                }])
            });
        ops.push((2, delta.boxed()));
    }
    if capabilities.explicit_memories {
        let memory = (key(), proptest::collection::vec(text(), 1..3)).prop_map(|(key, texts)| {
            Draft::Steps(vec![Step::AddMemories {
                key,
                memories: texts
                    .into_iter()
                    .map(|t| MemoryEntry::new(Content::text(t)).with_author("user"))
                    .collect(),
            }])
        });
        ops.push((2, memory.boxed()));
    }
    if capabilities.delete {
        ops.push((2, any::<Index>().prop_map(Draft::Delete).boxed()));
    }
    if capabilities.durable {
        ops.push((1, Just(Draft::Steps(vec![Step::Reopen])).boxed()));
    }
    if capabilities.shared {
        ops.push((2, any::<Index>().prop_map(Draft::OtherInstance).boxed()));
    }
    if !profile.visibility.bound().is_zero() {
        ops.push((1, Just(Draft::Steps(vec![Step::Settle])).boxed()));
    }
    proptest::strategy::Union::new_weighted(ops).boxed()
}

/// The scenario of `drafts`: each delete takes a text written before it (and is left out
/// where none was), each move to another instance opens a second one or switches to one open.
fn resolve(drafts: Vec<Draft>) -> Scenario {
    let mut steps = Vec::new();
    let mut written: Vec<(MemoryKey, String)> = Vec::new();
    let mut sessions: Vec<Session> = Vec::new();
    let (mut instances, mut current) = (1usize, 0usize);
    for draft in drafts {
        let new = match draft {
            Draft::Steps(new) => new,
            Draft::Search {
                mut key,
                mut query,
                limit,
                about,
                expect,
            } => {
                if let Some(pick) = about.filter(|_| !written.is_empty()) {
                    let (written_key, text) = &written[pick.index(written.len())];
                    let word = mixed_words()
                        .into_iter()
                        .find(|word| text.contains(word.as_str()))
                        .unwrap_or_default();
                    key = written_key.clone();
                    query = format!("{word} {query}");
                }
                vec![match limit {
                    None => search(&key, query, vec![expect]),
                    Some(limit) => search_limited(&key, query, limit, vec![expect]),
                }]
            }
            Draft::Readd(pick, mut session) => {
                if let Some(added) = sessions.get(pick.index(sessions.len().max(1))) {
                    session.app_name.clone_from(&added.app_name);
                    session.user_id.clone_from(&added.user_id);
                    session.id.clone_from(&added.id);
                }
                vec![Step::Add(session)]
            }
            Draft::Delete(pick) if !written.is_empty() => {
                let (key, text) = written[pick.index(written.len())].clone();
                vec![Step::Delete {
                    key,
                    find_with: text.clone(),
                    content: Content::text(text),
                }]
            }
            Draft::Delete(_) => Vec::new(),
            Draft::OtherInstance(_) if instances < 2 => vec![Step::Open],
            Draft::OtherInstance(pick) => {
                let other = (current + 1 + pick.index(instances - 1)) % instances;
                vec![Step::Use(other)]
            }
        };
        for step in &new {
            match step {
                Step::Add(session) => {
                    written.extend(texts_of(&session.key(), &session.events));
                    sessions.push(session.clone());
                }
                Step::AddEvents { key, events, .. } => written.extend(texts_of(key, events)),
                Step::AddMemories { key, memories } => written.extend(
                    memories
                        .iter()
                        .filter_map(|m| single_text(&m.content))
                        .map(|text| (key.clone(), text)),
                ),
                Step::Open => {
                    instances += 1;
                    current = instances - 1;
                }
                Step::Use(n) => current = *n,
                Step::Reopen => (instances, current) = (1, 0),
                _ => {}
            }
        }
        steps.extend(new);
    }
    Scenario { steps }
}

/// The texts of the text events of `events`, under `key`.
fn texts_of<'a>(
    key: &'a MemoryKey,
    events: &'a [crate::Event],
) -> impl Iterator<Item = (MemoryKey, String)> + 'a {
    events
        .iter()
        .filter_map(|e| single_text(e.content.as_ref()?))
        .map(|text| (key.clone(), text))
}

/// The text of a content of one non-empty text part, the only contents a delete step names.
fn single_text(content: &Content) -> Option<String> {
    let mut texts = content.texts();
    let text = texts.next().filter(|t| !t.is_empty())?;
    texts.next().is_none().then(|| text.to_owned())
}

#[cfg(test)]
mod tests {
    use proptest::strategy::{Strategy, ValueTree};
    use proptest::test_runner::TestRunner;

    use super::RANDOM_OPS;
    use crate::conformance::generate::operation_mix::OperationMix;
    use crate::conformance::generate::seeding::{case_seed, rng_for};
    use crate::profile::{Capabilities, EventsDelta, Profile, Visibility};

    /// The mix of `cases` cases of the rule for `profile`, generated as a gate does.
    fn mix(profile: &Profile, cases: u32) -> OperationMix {
        let strategy = (RANDOM_OPS.scenarios)(profile);
        let mut mix = OperationMix::default();
        for case in 1..=cases {
            let mut runner =
                TestRunner::new_with_rng(Default::default(), rng_for(case_seed(7, case)));
            mix.tally(&strategy.new_tree(&mut runner).unwrap().current());
        }
        mix
    }

    /// For a profile that declares every operation, each occurs in a useful share of the cases
    /// a gate runs by default (128 of this rule), and so does each ordered pair of them.
    #[test]
    fn every_operation_and_every_pair_of_them_occurs_in_a_useful_share_of_cases() {
        let mut profile = Profile::reference();
        profile.capabilities = Capabilities {
            durable: true,
            shared: true,
            events_delta: Some(EventsDelta::AppendNewIds),
            explicit_memories: true,
            delete: true,
            entry_ids: true,
            search_limit: true,
        };
        profile.visibility = Visibility::Within { millis: 10 };
        let mix = mix(&profile, 128);
        let operations: Vec<&str> = mix.operations().map(|(op, _)| op).collect();
        assert_eq!(
            operations,
            [
                "add",
                "add events",
                "add memories",
                "another instance",
                "delete",
                "re-add",
                "reopen",
                "search",
                "search with a limit",
                "wait out the bound",
            ],
            "{mix}"
        );
        for (operation, share) in mix.operations() {
            assert!(share >= 0.5, "{operation} in {share} of cases: {mix}");
        }
        let (pair, share) = mix.rarest_pair().unwrap();
        assert!(share >= 0.2, "{pair:?} in {share} of cases: {mix}");
        eprintln!("{mix}");
    }

    /// A profile of the two calls gets adds, re-adds and searches only.
    #[test]
    fn the_two_calls_get_adds_re_adds_and_searches() {
        let mut profile = Profile::reference();
        profile.capabilities = Capabilities::default();
        let mix = mix(&profile, 64);
        let operations: Vec<&str> = mix.operations().map(|(op, _)| op).collect();
        assert_eq!(operations, ["add", "re-add", "search"], "{mix}");
    }
}
