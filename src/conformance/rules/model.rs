//! `model.random_ops`: random operation sequences, step by step against the oracle.

use proptest::prelude::*;
use proptest::sample::select;

use super::{Requirement, computable};
use crate::conformance::generate::{
    SEPARATORS, join_with_separators, mixed_words, text_event, textless_event,
};
use crate::conformance::scenario::{Expect, Scenario, Step, search};
use crate::{Content, MemoryEntry, MemoryKey, Session};

rule! {
    pub fn model_random_ops -> RANDOM_OPS {
        id: "model.random_ops",
        statement: "Any sequence of adds, re-adds and searches over mixed keys (and of the deltas, \
                    explicit memories and deletions the profile declares) gives, at every search, \
                    what the oracle computes for the profile.",
        requirement: Requirement::Profile,
        weight: 2,
        applies: computable,
        scenarios: |profile| {
            let capabilities = profile.capabilities;
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
                3 => (text.clone(), select(vec!["user", "model"])).prop_map(|(t, author)| {
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
            // The same events stored in a second session of the same key: two equal entries
            // that a search must return both of.
            let add_twice = (add.clone(), select(vec!["s-1", "s-2", "10"])).prop_map(|(first, other)| {
                let Step::Add(session) = &first else {
                    unreachable!("`add` makes adds")
                };
                let mut copy = session.clone();
                copy.id = if session.id == other { format!("{other}-copy") } else { other.to_owned() };
                vec![first, Step::Add(copy)]
            });
            let add = add.prop_map(|step| vec![step]);
            let query = (
                proptest::collection::vec(select(words), 1..3),
                proptest::collection::vec(select(SEPARATORS.to_vec()), 2),
            );
            let search = (select(keys.to_vec()), query).prop_map(|(key, (q, s))| {
                vec![search(&key, join_with_separators(q, s), vec![Expect::Oracle])]
            });
            let mut ops = vec![(3, add.boxed()), (1, add_twice.boxed()), (3, search.boxed())];
            if capabilities.events_delta.is_some() {
                let delta = (
                    select(keys.to_vec()),
                    select(vec![Some("s-1"), Some("10"), None]),
                    proptest::collection::vec((text.clone(), 0..4usize), 0..3),
                )
                    .prop_map(|(key, session_id, events)| vec![Step::AddEvents {
                        key,
                        session_id: session_id.map(str::to_owned),
                        events: events
                            .into_iter()
                            .map(|(t, id)| {
                                text_event(&t, 0)
                                    .at(crate::conformance::generate::base_time())
                                    .with_id(format!("e-{id}"))
                            })
                            .collect(),
                    }]);
                ops.push((1, delta.boxed()));
            }
            if capabilities.explicit_memories {
                let memory = (select(keys.to_vec()), proptest::collection::vec(text.clone(), 1..3))
                    .prop_map(|(key, texts)| vec![Step::AddMemories {
                        key,
                        memories: texts
                            .iter()
                            .map(|t| MemoryEntry::new(Content::text(t.clone())).with_author("user"))
                            .collect(),
                    }]);
                ops.push((1, memory.boxed()));
            }
            if capabilities.delete {
                // Deletes what an earlier step wrote where it is still stored and found.
                let delete = (select(keys.to_vec()), text)
                    .prop_map(|(key, t)| vec![Step::Delete { key, find_with: t.clone(), content: Content::text(t) }]);
                ops.push((1, delete.boxed()));
            }
            let op = proptest::strategy::Union::new_weighted(ops);
            proptest::collection::vec(op, 1..25)
                .prop_map(|steps| Scenario { steps: steps.into_iter().flatten().collect() })
                .boxed()
        },
    }
}
