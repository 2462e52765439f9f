//! The events that hold one word of the reference's index, without an allocation for a word
//! held by a single event.

/// One event holding a word: its session's slot, its place in the session, and the session's
/// generation when it was indexed (stale once the session is re-added).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Posting {
    pub(super) slot: u32,
    pub(super) event: u32,
    pub(super) generation: u64,
}

/// Postings in the order they were pushed. Most words of a new store are held by one event,
/// so the first posting is kept inline and a heap list starts with the second.
#[derive(Debug, Default)]
pub(super) enum PostingList {
    #[default]
    Empty,
    One(Posting),
    Many(Vec<Posting>),
}

impl PostingList {
    pub(super) fn push(&mut self, posting: Posting) {
        match self {
            Self::Empty => *self = Self::One(posting),
            Self::One(first) => {
                let mut list = Vec::with_capacity(4);
                list.extend([*first, posting]);
                *self = Self::Many(list);
            }
            Self::Many(list) => list.push(posting),
        }
    }

    pub(super) fn as_slice(&self) -> &[Posting] {
        match self {
            Self::Empty => &[],
            Self::One(posting) => std::slice::from_ref(posting),
            Self::Many(list) => list,
        }
    }

    pub(super) fn len(&self) -> usize {
        self.as_slice().len()
    }

    pub(super) fn is_empty(&self) -> bool {
        self.as_slice().is_empty()
    }

    /// Keeps the postings for which `keep` holds, in order.
    pub(super) fn retain(&mut self, mut keep: impl FnMut(&Posting) -> bool) {
        match self {
            Self::Empty => {}
            Self::One(posting) => {
                if !keep(posting) {
                    *self = Self::Empty;
                }
            }
            Self::Many(list) => list.retain(keep),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn posting(event: u32) -> Posting {
        Posting {
            slot: 0,
            event,
            generation: 0,
        }
    }

    #[test]
    fn pushes_keep_their_order_and_retain_drops_in_place() {
        let mut list = PostingList::default();
        assert!(list.is_empty());
        for event in 0..6 {
            list.push(posting(event));
            let events: Vec<u32> = list.as_slice().iter().map(|p| p.event).collect();
            assert_eq!(events, (0..=event).collect::<Vec<_>>());
        }
        list.retain(|p| p.event % 2 == 1);
        let events: Vec<u32> = list.as_slice().iter().map(|p| p.event).collect();
        assert_eq!(events, [1, 3, 5]);
        let mut one = PostingList::default();
        one.push(posting(7));
        one.retain(|p| p.event == 7);
        assert_eq!(one.len(), 1);
        one.retain(|_| false);
        assert!(one.is_empty());
    }
}
