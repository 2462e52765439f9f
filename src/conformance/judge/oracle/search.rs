//! The oracle's searches: what a search should return under the profile, lexical (matched
//! terms, order, limit, merged duplicates) or vector (nearest first), as an [`Expected`].

use std::collections::HashSet;

use crate::Content;
use crate::embed::{Embedder, cosine};
use crate::profile::words::{IndexedEvent, Term, query_terms};
use crate::profile::{Limit, MultiWord, Order, QueryTerms, VectorIndex};

use super::{ModelEvent, ModelSession, Oracle};

impl Oracle {
    /// The most entries a search may return that asks for `limit`, or for none.
    pub(crate) fn limit(&self, limit: Option<usize>) -> Limit {
        // The profile's limit is what a search without options returns at most; a search that
        // asks for a limit gets that one instead (adk-rust's `SearchRequest.limit`).
        limit.map_or(self.profile.limit, Limit::AtMost)
    }

    /// What `search_memory(app_name, user_id, query)` should return.
    pub(crate) fn search(&self, app_name: &str, user_id: &str, query: &str) -> Expected {
        self.search_limited(app_name, user_id, query, None)
    }

    /// What `search_memory_with(app_name, user_id, query, limit)` should return: the profile's
    /// answer, cut to `limit` instead of the profile's limit when one is given.
    pub(crate) fn search_limited(
        &self,
        app_name: &str,
        user_id: &str,
        query: &str,
        limit: Option<usize>,
    ) -> Expected {
        let limit = self.limit(limit);
        let mut sessions: Vec<&ModelSession> = self
            .stores
            .get(&self.store_key(app_name, user_id))
            .map(|s| s.sessions.iter().collect())
            .unwrap_or_default();
        if let (Some(embedder), Some(vector)) = (&self.embedder, self.profile.vector()) {
            return nearest(embedder.as_ref(), vector.index, &sessions, query, limit);
        }
        let terms = query_terms(&self.profile, query);
        if let Order::Insertion {
            integer_ids_first: true,
        } = self.profile.order
        {
            sessions.sort_by_key(|s| {
                array_index(&s.id)
                    .filter(|_| !s.memories)
                    .map_or((1, 0), |n| (0, n))
            });
        }
        let mut matches: Vec<(usize, &ModelEvent)> = Vec::new();
        for session in sessions {
            for event in &session.events {
                let matched = self.matched_terms(&terms, &event.indexed);
                if matched > 0 {
                    matches.push((matched, event));
                }
            }
        }
        if self.profile.order == Order::MatchedTerms {
            matches.sort_by_key(|(matched, _)| std::cmp::Reverse(*matched));
        }
        // Merged duplicates: the first of the entries that look alike stays.
        let mut seen = HashSet::new();
        matches.retain(|(_, event)| event.look.as_ref().is_none_or(|look| seen.insert(look)));
        Expected {
            contents: matches
                .into_iter()
                .map(|(_, event)| event.content.clone())
                .collect(),
            limit,
            ranking: None,
            ordered: matches!(
                self.profile.order,
                Order::Insertion { .. } | Order::MatchedTerms
            ),
        }
    }

    /// How many distinct terms match `event` (0 when the event does not match the query).
    fn matched_terms(&self, terms: &[Term], event: &IndexedEvent) -> usize {
        // An event without a word matches no word; a substring may still occur in its text.
        let substrings = matches!(self.profile.query_terms, QueryTerms::Substrings { .. });
        if !event.has_words() && !substrings {
            return 0;
        }
        let matched = terms.iter().filter(|t| event.matches(t)).count();
        match self.profile.multi_word {
            MultiWord::AnyWord => matched,
            MultiWord::AllWords => {
                if !terms.is_empty() && matched == terms.len() {
                    matched
                } else {
                    0
                }
            }
        }
    }
}

/// The canonical array index a JavaScript object key is (`"0"`, `"10"`, not `"01"`), if any.
fn array_index(id: &str) -> Option<u64> {
    let n: u64 = id.parse().ok()?;
    (n < u64::from(u32::MAX) && n.to_string() == id).then_some(n)
}

/// The similarity a blank event ranked last is given: below any cosine similarity.
pub(super) const BLANK_SIMILARITY: f64 = -2.0;

/// The stored events of `sessions` that have a vector, nearest to `query` first (ties in
/// insertion order), then the blank events the profile ranks, as a vector search with `index`
/// returns them.
fn nearest(
    embedder: &dyn Embedder,
    index: VectorIndex,
    sessions: &[&ModelSession],
    query: &str,
    limit: Limit,
) -> Expected {
    let mut scored: Vec<(f64, &ModelEvent)> = Vec::new();
    // A query with no word finds nothing (R7).
    if crate::embed::has_word(query) {
        let [query] = embedder.embed(&[query]).try_into().unwrap_or_default();
        for event in sessions.iter().flat_map(|s| &s.events) {
            if let Some(vector) = &event.vector {
                scored.push((cosine(&query, vector), event));
            }
        }
    }
    scored.sort_by(|a, b| b.0.total_cmp(&a.0));
    // Blank events the profile ranks come after every event with a word, as ties.
    if crate::embed::has_word(query) {
        scored.extend(
            sessions
                .iter()
                .flat_map(|s| &s.events)
                .filter(|event| event.blank)
                .map(|event| (BLANK_SIMILARITY, event)),
        );
    }
    // Merged duplicates: the nearest of the entries that look alike stays.
    let mut seen = HashSet::new();
    scored.retain(|(_, event)| event.look.as_ref().is_none_or(|look| seen.insert(look)));
    Expected {
        contents: scored.iter().map(|(_, e)| e.content.clone()).collect(),
        limit,
        ordered: true,
        ranking: Some(Ranking {
            scores: scored.iter().map(|(score, _)| *score).collect(),
            index,
            embedder: embedder.name().to_owned(),
        }),
    }
}

/// The expected answer to one search.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Expected {
    /// Every matching event's content, in the profile's order (under vector search, every
    /// event with a vector, nearest first).
    pub(crate) contents: Vec<Content>,
    /// The profile's limit.
    pub(crate) limit: Limit,
    /// Whether the profile promises an order the kit can compute.
    pub(crate) ordered: bool,
    /// Under vector search: each content's similarity to the query.
    pub(crate) ranking: Option<Ranking>,
}

/// The similarities of a vector search's candidates.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Ranking {
    /// Aligned with [`Expected::contents`]: each candidate's cosine similarity to the query.
    pub(crate) scores: Vec<f64>,
    /// How exact the index is.
    pub(crate) index: VectorIndex,
    /// The embedder's name, for failure reports.
    pub(crate) embedder: String,
}
