//! [`SegmentedBm25`]: the [`MemoryService`].

use std::collections::HashMap;
use std::sync::{PoisonError, RwLock};

use memory_conformance::{
    MemoryEntry, MemoryError, MemoryService, Part, SearchMemoryResponse, Session, async_trait,
};

use crate::index::{Indexed, UserStore};
use crate::words;

/// How many entries a search returns at most.
pub(crate) const LIMIT: usize = 10;

/// Whether text and queries are put in NFC before they are cut into words.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Normalisation {
    /// NFC first, so `café` typed precomposed or decomposed is one word (what the profile
    /// declares).
    #[default]
    Nfc,
    /// No normalisation: a deliberate regression, for the gate to catch.
    None,
}

/// An in-memory store per (app name, user id) pair, exactly as given: a re-add replaces the
/// session, only text parts are searched, a query matches an event holding any of its words,
/// and at most ten entries come back, best bm25 score first.
#[derive(Debug, Default)]
pub struct SegmentedBm25 {
    stores: RwLock<HashMap<(String, String), UserStore>>,
    normalisation: Normalisation,
}

impl SegmentedBm25 {
    /// An empty store that puts text in NFC.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty store with the given normalisation.
    pub fn with_normalisation(normalisation: Normalisation) -> Self {
        Self {
            normalisation,
            ..Self::default()
        }
    }
}

#[async_trait]
impl MemoryService for SegmentedBm25 {
    async fn add_session_to_memory(&self, session: &Session) -> Result<(), MemoryError> {
        let events = session
            .events
            .iter()
            .filter(|event| event.content.as_ref().is_some_and(|c| !c.parts.is_empty()))
            .filter_map(|event| {
                let entry = MemoryEntry::from_event(event)?;
                let text: Vec<&str> = entry
                    .content
                    .parts
                    .iter()
                    .filter_map(|part| match part {
                        Part::Text(text) => Some(text.as_str()),
                        _ => None,
                    })
                    .collect();
                let words = words(&text.join(" "), self.normalisation);
                Some(Indexed { entry, words })
            })
            .collect();
        let key = (session.app_name.clone(), session.user_id.clone());
        self.stores
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .entry(key)
            .or_default()
            .replace(&session.id, events);
        Ok(())
    }

    async fn search_memory(
        &self,
        app_name: &str,
        user_id: &str,
        query: &str,
    ) -> Result<SearchMemoryResponse, MemoryError> {
        let mut terms = words(query, self.normalisation);
        let mut seen = std::collections::HashSet::new();
        terms.retain(|term| seen.insert(term.clone()));
        let stores = self.stores.read().unwrap_or_else(PoisonError::into_inner);
        let key = (app_name.to_owned(), user_id.to_owned());
        let found = stores
            .get(&key)
            .map(|store| store.search(&terms, LIMIT))
            .unwrap_or_default();
        Ok(SearchMemoryResponse::new(found))
    }
}
