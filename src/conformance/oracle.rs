//! The oracle: a lexical backend as its [`Profile`] says it behaves, computing what every
//! search should return after a sequence of adds.

use std::collections::HashMap;

use crate::profile::Profile;
use crate::profile::words::{IndexedEvent, Term, query_terms};
use crate::profile::{KeyScheme, Limit, MultiWord, Order, Readd};
use crate::{Content, Session};

/// A store as the profile says it behaves.
#[derive(Clone, Debug)]
pub(crate) struct Oracle {
    profile: Profile,
    stores: HashMap<StoreKey, Vec<ModelSession>>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum StoreKey {
    Pair(String, String),
    Joined(String),
}

#[derive(Clone, Debug)]
struct ModelSession {
    id: String,
    events: Vec<ModelEvent>,
}

#[derive(Clone, Debug)]
struct ModelEvent {
    content: Content,
    indexed: IndexedEvent,
}

impl Oracle {
    pub(crate) fn new(profile: &Profile) -> Self {
        Self {
            profile: profile.clone(),
            stores: HashMap::new(),
        }
    }

    fn store_key(&self, app_name: &str, user_id: &str) -> StoreKey {
        match self.profile.key {
            KeyScheme::Structured => StoreKey::Pair(app_name.to_owned(), user_id.to_owned()),
            KeyScheme::JoinedWithSlash => StoreKey::Joined(format!("{app_name}/{user_id}")),
        }
    }

    /// Applies `add_session_to_memory(session)`.
    pub(crate) fn add(&mut self, session: &Session) {
        let events: Vec<ModelEvent> = session
            .events
            .iter()
            .filter_map(|event| event.content.as_ref())
            .filter(|content| !content.parts.is_empty())
            .map(|content| ModelEvent {
                indexed: IndexedEvent::new(&self.profile, content),
                content: content.clone(),
            })
            .collect();
        let carries_words = events.iter().any(|e| e.indexed.has_words());
        let readd = self.profile.readd;
        let key = self.store_key(&session.app_name, &session.user_id);
        let sessions = self.stores.entry(key).or_default();
        match sessions.iter_mut().find(|s| s.id == session.id) {
            None => sessions.push(ModelSession {
                id: session.id.clone(),
                events,
            }),
            Some(existing) => match readd {
                Readd::Replace => existing.events = events,
                Readd::Append => existing.events.extend(events),
                Readd::ReplaceUnlessNoText if !carries_words => {}
                Readd::ReplaceUnlessNoText => existing.events = events,
            },
        }
    }

    /// What `search_memory(app_name, user_id, query)` should return.
    pub(crate) fn search(&self, app_name: &str, user_id: &str, query: &str) -> Expected {
        let terms = query_terms(&self.profile, query);
        let mut sessions: Vec<&ModelSession> = self
            .stores
            .get(&self.store_key(app_name, user_id))
            .map(|s| s.iter().collect())
            .unwrap_or_default();
        if let Order::Insertion {
            integer_ids_first: true,
        } = self.profile.order
        {
            sessions.sort_by_key(|s| array_index(&s.id).map_or((1, 0), |n| (0, n)));
        }
        let mut matches: Vec<(usize, &Content)> = Vec::new();
        for session in sessions {
            for event in &session.events {
                let matched = self.matched_terms(&terms, &event.indexed);
                if matched > 0 {
                    matches.push((matched, &event.content));
                }
            }
        }
        if self.profile.order == Order::MatchedTerms {
            matches.sort_by_key(|(matched, _)| std::cmp::Reverse(*matched));
        }
        Expected {
            contents: matches.into_iter().map(|(_, c)| c.clone()).collect(),
            limit: self.profile.limit,
            ordered: matches!(
                self.profile.order,
                Order::Insertion { .. } | Order::MatchedTerms
            ),
        }
    }

    /// How many distinct terms match `event` (0 when the event does not match the query).
    fn matched_terms(&self, terms: &[Term], event: &IndexedEvent) -> usize {
        if !event.has_words() {
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

/// The expected answer to one search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Expected {
    /// Every matching event's content, in the profile's order.
    pub(crate) contents: Vec<Content>,
    /// The profile's limit.
    pub(crate) limit: Limit,
    /// Whether the profile promises an order the kit can compute.
    pub(crate) ordered: bool,
}
