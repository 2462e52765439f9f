//! `forget.*`: deleting a memory by its id is the right to be forgotten.

use proptest::prelude::*;
use proptest::sample::select;

use super::{Requirement, computable};
use crate::conformance::generate::scenario::{Expect, Scenario, Step, search};
use crate::conformance::generate::values::{
    content, distinct_words, key, key_and_near_miss, separator_split_keys, session_of,
};
use crate::profile::Profile;
use crate::{Content, MemoryKey};

/// Applies where the profile declares deletion and the kit can compute results.
fn deletes(profile: &Profile) -> Result<(), String> {
    if !profile.capabilities.delete {
        return Err("the profile does not declare the delete capability".into());
    }
    computable(profile)
}

/// Where a scenario searches after the delete: the instance that deleted, another instance on
/// the same storage, or a new one after a reopen.
#[derive(Clone, Copy, Debug)]
enum Afterwards {
    Same,
    Other,
    Reopened,
}

rule! {
    pub fn forget_never_returned -> NEVER_RETURNED {
        id: "forget.never_returned",
        since: "0.1",
        statement: "A deleted memory is never returned again: by no search, under no query, from \
                    no instance, not after a reopen, and not after its session is added again; an \
                    unknown id deletes nothing, and nothing else is deleted.",
        requirement: Requirement::Capability,
        weight: 2,
        applies: deletes,
        scenarios: |profile| {
            let mut afterwards = vec![Afterwards::Same];
            if profile.capabilities.shared {
                afterwards.push(Afterwards::Other);
            }
            if profile.capabilities.durable {
                afterwards.push(Afterwards::Reopened);
            }
            // Each extra is a flag, so a failing case shrinks to the steps that matter.
            let extras = (any::<bool>(), any::<bool>(), any::<bool>(), any::<bool>());
            (key(), distinct_words(5), 2..=4usize, any::<prop::sample::Index>(), select(afterwards), extras)
                .prop_map(|(key, words, events, victim, afterwards, (readd, other_session, unknown_id, by_word))| {
                    let shared = words[0];
                    let texts: Vec<String> = (1..=events).map(|i| format!("{shared} {}", words[i])).collect();
                    let session = session_of(&key, "s-1", &texts);
                    let victim = victim.index(events);
                    let gone = content(&texts[victim]);
                    let never = |query: &str| search(&key, query, vec![Expect::Oracle, Expect::Excludes(vec![gone.clone()])]);
                    let mut steps = vec![Step::Add(session.clone())];
                    if other_session {
                        steps.push(Step::Add(session_of(&key, "s-2", &[format!("{shared} again")])));
                    }
                    if unknown_id {
                        steps.push(Step::DeleteId { key: key.clone(), id: "no-such-memory".into() });
                        steps.push(search(&key, shared, vec![Expect::Oracle]));
                    }
                    steps.push(Step::Delete { key: key.clone(), find_with: words[victim + 1].to_owned(), content: gone.clone() });
                    match afterwards {
                        Afterwards::Same => {}
                        Afterwards::Other => steps.push(Step::Open),
                        Afterwards::Reopened => steps.push(Step::Reopen),
                    }
                    steps.push(never(shared));
                    if by_word {
                        steps.push(never(words[victim + 1]));
                        steps.push(never(&texts[victim]));
                    }
                    if readd {
                        // The application adds the whole session again after the next turn.
                        steps.push(Step::Add(session));
                        steps.push(never(shared));
                    }
                    Scenario { steps }
                })
                .boxed()
        },
    }
}

rule! {
    pub fn forget_other_keys_untouched -> OTHER_KEYS_UNTOUCHED {
        id: "forget.other_keys_untouched",
        since: "0.1",
        statement: "Deleting a memory under one (app name, user id) never touches another key's \
                    memories, however nearly equal the keys, or however they would join into one \
                    string.",
        requirement: Requirement::Capability,
        weight: 2,
        applies: deletes,
        scenarios: |_| {
            let keys = prop_oneof![key_and_near_miss(), separator_split_keys()];
            (keys, distinct_words(3), any::<bool>())
                .prop_map(|((mine, other), words, other_first): ((MemoryKey, MemoryKey), _, _)| {
                    let texts = vec![format!("{} {}", words[0], words[1]), format!("{} {}", words[0], words[2])];
                    let gone: Content = content(&texts[0]);
                    let (first, second) = if other_first { (&other, &mine) } else { (&mine, &other) };
                    Scenario {
                        steps: vec![
                            Step::Add(session_of(first, "s-1", &texts)),
                            Step::Add(session_of(second, "s-1", &texts)),
                            Step::Delete { key: mine.clone(), find_with: words[1].to_owned(), content: gone },
                            search(&other, words[0], vec![Expect::Oracle]),
                            search(&other, words[1], vec![Expect::Oracle]),
                            search(&mine, words[0], vec![Expect::Oracle]),
                        ],
                    }
                })
                .boxed()
        },
    }
}
