//! What the backend answered in one scenario run: the entries each search step returned, kept
//! so a failure's minimal scenario can be judged again under another profile without calling
//! the backend again (`verdict/at_fault.rs`).

use crate::MemoryEntry;

/// The answers of a run's search steps, by step; a step searched more than once (under
/// delayed visibility, until it held) keeps its last answer. The failing step's answer is in
/// the failure's mismatch, not here. A transcript is filled by moving each answer in once the
/// judge is done with it, so a passing run pays no copy.
#[derive(Clone, Debug, Default)]
pub(crate) struct Transcript {
    answers: Vec<(usize, Vec<MemoryEntry>)>,
}

impl Transcript {
    /// Keeps `entries` as what step `step` (1-based) returned, replacing an earlier answer.
    pub(crate) fn answered(&mut self, step: usize, entries: Vec<MemoryEntry>) {
        match self.answers.last_mut() {
            Some((last, kept)) if *last == step => *kept = entries,
            _ => self.answers.push((step, entries)),
        }
    }

    /// What step `step` returned, if it searched and its answer was kept.
    pub(crate) fn answer(&self, step: usize) -> Option<&[MemoryEntry]> {
        self.answers
            .iter()
            .find(|(at, _)| *at == step)
            .map(|(_, entries)| entries.as_slice())
    }
}
