//! `key.*`: what is written under one (app name, user id) stays there.

use proptest::prelude::*;
use proptest::sample::select;

use super::{Requirement, always, exactly, none_of};
use crate::MemoryKey;
use crate::conformance::generate::scenario::{Scenario, Step, search};
use crate::conformance::generate::values::{
    SESSION_IDS, content, distinct_words, key_and_odd_twin, separator_split_keys, session_of,
};
use crate::profile::Profile;

rule! {
    pub fn key_isolation -> ISOLATION {
        id: "key.isolation",
        since: "0.1",
        statement: "Nothing written under one (app name, user id) is ever returned under another, \
                    however nearly equal (case, separators, whitespace, prefixes, numeric ids).",
        requirement: Requirement::Required,
        weight: 1,
        applies: always,
        scenarios: |profile| {
            let profile = profile.clone();
            (
                key_and_odd_twin(),
                distinct_words(2),
                select(SESSION_IDS.to_vec()),
            )
                .prop_map(move |((key, near), words, id)| two_keys(&profile, &key, &near, &words, id))
                .boxed()
        },
    }
}

rule! {
    pub fn key_no_separator_collision -> NO_SEPARATOR_COLLISION {
        id: "key.no_separator_collision",
        since: "0.1",
        statement: "Keys that join to the same \"app/user\" string, such as (\"a/b\", \"c\") and \
                    (\"a\", \"b/c\"), stay apart.",
        requirement: Requirement::Required,
        weight: 1,
        applies: always,
        scenarios: |profile| {
            let profile = profile.clone();
            (
                separator_split_keys(),
                distinct_words(2),
                select(SESSION_IDS.to_vec()),
            )
                .prop_map(move |((first, second), words, id)| {
                    two_keys(&profile, &first, &second, &words, id)
                })
                .boxed()
        },
    }
}

/// The same session id under two keys, each with its own word: each key finds its own word
/// and never the other's.
fn two_keys(
    profile: &Profile,
    first: &MemoryKey,
    second: &MemoryKey,
    words: &[&str],
    id: &str,
) -> Scenario {
    let (a, b) = (words[0], words[1]);
    Scenario {
        steps: vec![
            Step::Add(session_of(first, id, &[a.to_owned()])),
            Step::Add(session_of(second, id, &[b.to_owned()])),
            search(second, a, none_of(profile, vec![content(a)])),
            search(first, b, none_of(profile, vec![content(b)])),
            search(first, a, exactly(profile, vec![content(a)])),
            search(second, b, exactly(profile, vec![content(b)])),
        ],
    }
}
