//! `memories.*`: explicit memories (`add_memory`).

use proptest::prelude::*;
use proptest::sample::select;

use super::{Requirement, computable};
use crate::conformance::generate::scenario::{Expect, Scenario, Step, search};
use crate::conformance::generate::values::{
    AUTHORS, base_time, content, distinct_words, key, session_of,
};
use crate::profile::Profile;
use crate::{Content, MemoryEntry, MemoryKey, Part};

/// The word only explicit memories hold in this rule's scenarios.
const MARKER: &str = "remember";

rule! {
    pub fn memories_searchable -> SEARCHABLE {
        id: "memories.searchable",
        since: "0.1",
        statement: "Explicit memories (add_memory) are searchable like events under their key and \
                    no other, each returned with its content, author and timestamp as given; a \
                    memory with no parts is not stored.",
        requirement: Requirement::Capability,
        weight: 2,
        applies: |profile: &Profile| {
            if !profile.capabilities.explicit_memories {
                return Err("the profile does not declare the explicit_memories capability".into());
            }
            computable(profile)
        },
        scenarios: |profile| {
            let lexical = profile.is_lexical();
            let memory = (select(AUTHORS.to_vec()), 0..3usize, 0i64..1_000_000);
            (key(), distinct_words(2), proptest::collection::vec(memory, 1..4), any::<bool>())
                .prop_map(move |(key, words, specs, with_session)| {
                    let mut steps = Vec::new();
                    if with_session {
                        let text = format!("{} {}", words[0], words[1]);
                        steps.push(Step::Add(session_of(&key, "s-1", &[text])));
                    }
                    let mut memories = Vec::new();
                    let mut stored = Vec::new();
                    for (i, (author, kind, millis)) in specs.into_iter().enumerate() {
                        let at = base_time()
                            .checked_add(jiff::SignedDuration::from_millis(millis))
                            .unwrap_or(base_time());
                        let memory = match kind {
                            // A memory without parts is never stored.
                            2 => MemoryEntry::new(Content::new(Vec::<Part>::new())),
                            _ => MemoryEntry::new(content(&format!("{MARKER} {} {i}", words[0])))
                                .with_author(author)
                                .with_timestamp(MemoryEntry::format_timestamp(at)),
                        };
                        let memory = if kind == 1 { memory.with_id(format!("m-{i}")) } else { memory };
                        if kind != 2 {
                            let mut entry = memory.clone();
                            entry.id = None;
                            stored.push(entry);
                        }
                        memories.push(memory);
                    }
                    steps.push(Step::AddMemories { key: key.clone(), memories });
                    let exact = if lexical { Expect::Entries(stored) } else { Expect::Oracle };
                    steps.push(search(&key, MARKER, vec![exact]));
                    steps.push(search(&key, words[0], vec![Expect::Oracle]));
                    let other = MemoryKey::new(format!("{}x", key.app_name), key.user_id.clone());
                    steps.push(search(&other, MARKER, vec![Expect::Nothing]));
                    Scenario { steps }
                })
                .boxed()
        },
    }
}
