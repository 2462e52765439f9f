//! Everything the reference stores under one (app name, user id): sessions by slot and the
//! inverted index of their words, compacted as re-adds leave stale postings behind.

use std::borrow::Cow;
use std::collections::HashSet;

use super::posting_list::{Posting, PostingList};
use super::word_key::WordKey;
use crate::MemoryEntry;
use crate::tokenize::raw_event_words;

/// Everything stored under one (app name, user id).
#[derive(Debug, Default)]
pub(super) struct UserStore {
    /// Sessions by slot; a slot is the order in which a session id was first added.
    slots: Vec<Slot>,
    slot_of: foldhash::HashMap<String, u32>,
    /// Each distinct word's id: its index in `postings`. Hashed with foldhash: seeded at
    /// random like the standard hasher, and several times faster on short words.
    word_ids: foldhash::HashMap<WordKey, u32>,
    /// Word id -> the events that hold the word, current and stale.
    postings: Vec<Postings>,
    /// Word ids free for reuse: their words are gone from `word_ids`.
    free_ids: Vec<u32>,
    /// Words whose postings became empty since `word_ids` was last swept.
    emptied: usize,
    /// The slot of the explicit memories, once there are any.
    memories: Option<u32>,
    /// The memory ids deleted under this key: never stored again.
    deleted: HashSet<String>,
}

/// One session as stored.
#[derive(Debug, Default)]
struct Slot {
    entries: Vec<MemoryEntry>,
    /// The word id of each of this generation's postings, one per (word, event).
    words: Vec<u32>,
    /// Bumped by every re-add: a posting of an older generation is stale.
    generation: u64,
}

/// The events that hold one word, in the order they were added.
#[derive(Debug, Default)]
struct Postings {
    list: PostingList,
    /// How many of `list` are stale (at least; compaction resets it).
    stale: usize,
}

impl UserStore {
    /// What `slot` holds.
    pub(super) fn entries(&self, slot: u32) -> &[MemoryEntry] {
        &self.slots[slot as usize].entries
    }

    /// The slot of `session_id`, a new one at the end if the session is new.
    pub(super) fn slot_of_session(&mut self, session_id: &str) -> u32 {
        if let Some(&slot) = self.slot_of.get(session_id) {
            return slot;
        }
        let slot = self.new_slot();
        self.slot_of.insert(session_id.to_owned(), slot);
        slot
    }

    /// The slot of the explicit memories, a new one at the end if there are none yet.
    pub(super) fn slot_of_memories(&mut self) -> u32 {
        match self.memories {
            Some(slot) => slot,
            None => {
                let slot = self.new_slot();
                self.memories = Some(slot);
                slot
            }
        }
    }

    fn new_slot(&mut self) -> u32 {
        let slot = u32::try_from(self.slots.len()).expect("fewer than 2^32 sessions");
        self.slots.push(Slot::default());
        slot
    }

    /// `entries` without those whose id was deleted.
    pub(super) fn not_deleted(&self, mut entries: Vec<MemoryEntry>) -> Vec<MemoryEntry> {
        if !self.deleted.is_empty() {
            entries.retain(|e| e.id.as_ref().is_none_or(|id| !self.deleted.contains(id)));
        }
        entries
    }

    /// Forgets every entry whose id is `memory_id`, now and in later writes.
    pub(super) fn delete(&mut self, memory_id: &str) {
        self.deleted.insert(memory_id.to_owned());
        for slot in 0..self.slots.len() {
            let entries = &self.slots[slot].entries;
            if entries.iter().any(|e| e.id.as_deref() == Some(memory_id)) {
                let kept = self.not_deleted(entries.clone());
                self.replace(slot as u32, kept);
            }
        }
    }

    /// Replaces what `slot` holds with `entries`.
    pub(super) fn replace(&mut self, slot: u32, entries: Vec<MemoryEntry>) {
        self.retire(slot);
        let generation = self.slots[slot as usize].generation;
        let mut words = Vec::new();
        if self.word_ids.is_empty() {
            // A first add sizes the word index for all its words at once.
            let count = entries
                .iter()
                .flat_map(|entry| entry.content.texts())
                .map(|text| raw_event_words(text).count())
                .sum();
            self.word_ids.reserve(count);
            self.postings.reserve(count);
            words.reserve(count);
        }
        let mut lowered = String::new();
        for (event, entry) in entries.iter().enumerate() {
            let event = u32::try_from(event).expect("fewer than 2^32 events in a session");
            let first = words.len();
            for text in entry.content.texts() {
                for word in raw_event_words(text) {
                    let word = if word.bytes().any(|b| b.is_ascii_uppercase()) {
                        lowered.clear();
                        lowered.push_str(word);
                        lowered.make_ascii_lowercase();
                        lowered.as_str()
                    } else {
                        word
                    };
                    words.push(self.word_id(word));
                }
            }
            // Each word once per event, decided here rather than by reading the end of each
            // word's postings: those are scattered in memory, this event's ids are not.
            let event_words = &mut words[first..];
            event_words.sort_unstable();
            let mut kept = first;
            for at in first..words.len() {
                if at == first || words[at] != words[kept - 1] {
                    words[kept] = words[at];
                    kept += 1;
                }
            }
            words.truncate(kept);
            let posting = Posting {
                slot,
                event,
                generation,
            };
            for &id in &words[first..] {
                self.postings[id as usize].list.push(posting);
            }
        }
        let stored = &mut self.slots[slot as usize];
        stored.entries = entries;
        stored.words = words;
        self.sweep();
    }

    /// Marks every posting of `slot` stale, compacting the words where stale ones are now the
    /// majority.
    fn retire(&mut self, slot: u32) {
        let Self {
            slots,
            postings,
            emptied,
            ..
        } = self;
        let old = &mut slots[slot as usize];
        old.generation += 1;
        old.entries = Vec::new();
        let words = std::mem::take(&mut old.words);
        for &id in &words {
            postings[id as usize].stale += 1;
        }
        for &id in &words {
            let word = &mut postings[id as usize];
            if word.stale * 2 > word.list.len() {
                word.list
                    .retain(|p| slots[p.slot as usize].generation == p.generation);
                word.stale = 0;
                if word.list.is_empty() {
                    *emptied += 1;
                }
            }
        }
    }

    /// The id of `word`, interning it if new.
    fn word_id(&mut self, word: &str) -> u32 {
        if let Some(&id) = self.word_ids.get(word.as_bytes()) {
            return id;
        }
        let id = match self.free_ids.pop() {
            Some(id) => id,
            None => {
                let id = u32::try_from(self.postings.len()).expect("fewer than 2^32 words");
                self.postings.push(Postings::default());
                id
            }
        };
        self.word_ids.insert(WordKey::new(word), id);
        id
    }

    /// Forgets the words left without postings once they are many, so that re-adds with
    /// ever new words do not grow the store.
    fn sweep(&mut self) {
        if self.emptied < 1024 || self.emptied * 4 < self.word_ids.len() {
            return;
        }
        let Self {
            word_ids,
            postings,
            free_ids,
            ..
        } = self;
        word_ids.retain(|_, &mut id| {
            let empty = postings[id as usize].list.is_empty();
            if empty {
                free_ids.push(id);
            }
            !empty
        });
        self.emptied = 0;
    }

    /// Every event that holds at least one of `tokens`, in slot then event order.
    pub(super) fn search(&self, tokens: &[Cow<'_, str>]) -> Vec<MemoryEntry> {
        let mut hits: Vec<(u32, u32)> = Vec::new();
        for token in tokens {
            if let Some(&id) = self.word_ids.get(token.as_bytes()) {
                hits.extend(
                    self.postings[id as usize]
                        .list
                        .as_slice()
                        .iter()
                        .filter(|p| self.slots[p.slot as usize].generation == p.generation)
                        .map(|p| (p.slot, p.event)),
                );
            }
        }
        hits.sort_unstable();
        if tokens.len() > 1 {
            hits.dedup();
        }
        hits.into_iter()
            .map(|(slot, event)| self.slots[slot as usize].entries[event as usize].clone())
            .collect()
    }
}

/// Re-adds leave stale postings behind: results stay exact and the store stays bounded.
#[cfg(test)]
mod tests {
    use crate::{Event, InMemoryMemoryService, MemoryService, Session};

    fn found(memory: &InMemoryMemoryService, runtime: &tokio::runtime::Runtime, q: &str) -> usize {
        runtime
            .block_on(memory.search_memory("a", "u", q))
            .expect("search")
            .memories
            .len()
    }

    #[test]
    fn re_adds_with_ever_new_words_keep_results_exact_and_the_store_bounded() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("runtime");
        let memory = InMemoryMemoryService::new();
        let stable = Session::new("a", "u", "stable")
            .with_event(Event::text("user", "Stable common words"))
            .with_event(Event::text("user", "common again"));
        runtime
            .block_on(memory.add_session_to_memory(&stable))
            .unwrap();
        for round in 0..5_000_usize {
            // A word of letters only, new in every round: the round's hex digits as g..v.
            let fresh: String = format!("{round:x}")
                .chars()
                .map(|digit| char::from(b'g' + digit.to_digit(16).map_or(0, |d| d as u8)))
                .collect();
            let session = Session::new("a", "u", "moving").with_events([
                Event::text("user", format!("Common {fresh} round")),
                Event::text("user", format!("{fresh} COMMON {fresh}")),
                Event::text("user", "nothing to see"),
            ]);
            runtime
                .block_on(memory.add_session_to_memory(&session))
                .unwrap();
            assert_eq!(found(&memory, &runtime, "common"), 4, "round {round}");
            assert_eq!(found(&memory, &runtime, "round Common"), 4, "round {round}");
            assert_eq!(found(&memory, &runtime, "stable"), 1, "round {round}");
        }
        let store = memory.user_store("a", "u").unwrap();
        let store = store.read().unwrap();
        assert!(
            store.word_ids.len() < 3_000,
            "{} words",
            store.word_ids.len()
        );
        let postings: usize = store.postings.iter().map(|p| p.list.len()).sum();
        assert!(postings < 100, "{postings} postings");
        drop(store);
        runtime
            .block_on(memory.add_session_to_memory(&Session::new("a", "u", "moving")))
            .unwrap();
        assert_eq!(found(&memory, &runtime, "common"), 2);
        assert_eq!(found(&memory, &runtime, "nothing"), 0);
    }
}
