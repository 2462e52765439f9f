//! One user's store: sessions in the order their ids were first added, and bm25 over their
//! events' words.

use std::collections::HashMap;

use memory_conformance::MemoryEntry;

/// bm25's term-frequency saturation.
const K1: f64 = 1.2;
/// bm25's length normalisation.
const B: f64 = 0.75;

/// A stored event: the entry a search returns and the words it is found by.
#[derive(Debug)]
pub(crate) struct Indexed {
    pub(crate) entry: MemoryEntry,
    pub(crate) words: Vec<String>,
}

/// The sessions of one (app name, user id) pair.
#[derive(Debug, Default)]
pub(crate) struct UserStore {
    sessions: Vec<(String, Vec<Indexed>)>,
}

impl UserStore {
    /// Replaces what session `id` held with `events` (also with none).
    pub(crate) fn replace(&mut self, id: &str, events: Vec<Indexed>) {
        match self.sessions.iter_mut().find(|(session, _)| session == id) {
            Some((_, held)) => *held = events,
            None => self.sessions.push((id.to_owned(), events)),
        }
    }

    /// The entries that hold at least one of `terms`, best bm25 score first (ties in insertion
    /// order), at most `limit`.
    pub(crate) fn search(&self, terms: &[String], limit: usize) -> Vec<MemoryEntry> {
        let events: Vec<&Indexed> = self
            .sessions
            .iter()
            .flat_map(|(_, events)| events)
            .filter(|event| !event.words.is_empty())
            .collect();
        if events.is_empty() || terms.is_empty() {
            return Vec::new();
        }
        let count = events.len() as f64;
        let average = events.iter().map(|e| e.words.len()).sum::<usize>() as f64 / count;
        let documents = |term: &String| events.iter().filter(|e| e.words.contains(term)).count();
        let idf: HashMap<&String, f64> = terms
            .iter()
            .map(|term| {
                let n = documents(term) as f64;
                (term, ((count - n + 0.5) / (n + 0.5) + 1.0).ln())
            })
            .collect();
        let mut scored: Vec<(f64, &Indexed)> = events
            .into_iter()
            .filter_map(|event| {
                let length = event.words.len() as f64;
                let mut score = 0.0;
                let mut matched = false;
                for term in terms {
                    let tf = event.words.iter().filter(|w| *w == term).count() as f64;
                    if tf > 0.0 {
                        matched = true;
                        score += idf[term] * tf * (K1 + 1.0)
                            / (tf + K1 * (1.0 - B + B * length / average));
                    }
                }
                matched.then_some((score, event))
            })
            .collect();
        // A stable sort keeps insertion order among equal scores.
        scored.sort_by(|a, b| b.0.total_cmp(&a.0));
        scored
            .into_iter()
            .take(limit)
            .map(|(_, event)| event.entry.clone())
            .collect()
    }
}
