//! Deviants that read a query otherwise than the reference: its case, separators and
//! punctuation (R3), which tokens match (R5), and the queries that find nothing (R7).

use memory_conformance::tokenize::{can_match, event_words, query_tokens};
use memory_conformance::{
    Content, MemoryEntry, MemoryError, SearchMemoryResponse, Session, async_trait,
};

use super::{Answer, Deviation, Done, Search, Store};

/// Strips punctuation from the query before searching. Breaks R3.punctuation-stays (and
/// R5.dead-tokens: a token with punctuation matches).
#[derive(Debug)]
pub struct StripQueryPunctuation;

#[async_trait]
impl Deviation for StripQueryPunctuation {
    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        let stripped: String = search
            .query
            .chars()
            .filter(|c| !c.is_ascii_punctuation() && !"’«»…".contains(*c))
            .collect();
        store.search(search.with_query(&stripped)).await
    }
}

/// Does not lowercase the query: a token with an upper-case letter matches nothing.
/// Breaks R3.lowercase.
#[derive(Debug)]
pub struct CaseSensitiveQuery;

#[async_trait]
impl Deviation for CaseSensitiveQuery {
    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        // Tokens with an upper-case letter match nothing: they are never stored so.
        let cased: Vec<String> = search
            .query
            .split(|c: char| c.is_ascii_whitespace())
            .map(|t| {
                if t.chars().any(char::is_uppercase) {
                    format!("{t}\u{0}")
                } else {
                    t.to_owned()
                }
            })
            .collect();
        store.search(search.with_query(&cased.join(" "))).await
    }
}

/// Splits the query on any Unicode whitespace, not ASCII whitespace only.
/// Breaks R3.ascii-whitespace.
#[derive(Debug)]
pub struct UnicodeWhitespaceQuery;

#[async_trait]
impl Deviation for UnicodeWhitespaceQuery {
    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        let split: String = search
            .query
            .chars()
            .map(|c| if c.is_whitespace() { ' ' } else { c })
            .collect();
        store.search(search.with_query(&split)).await
    }
}

/// Returns only the events that hold every live token of the query. Breaks R5.any-token.
#[derive(Debug)]
pub struct AllWords;

#[async_trait]
impl Deviation for AllWords {
    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        let live = live_tokens(search.query);
        let mut found = store.search(search).await?;
        found.memories.retain(|entry| {
            let words = words(entry);
            live.iter().all(|t| words.contains(t))
        });
        Ok(found)
    }
}

/// The tokens of `query` that can match a word, as the reference reads them.
pub(super) fn live_tokens(query: &str) -> Vec<String> {
    query_tokens(query)
        .into_iter()
        .filter(|t| can_match(t))
        .collect()
}

/// The words of `entry`'s text, as the reference reads them.
pub(super) fn words(entry: &MemoryEntry) -> Vec<String> {
    entry.content.texts().flat_map(event_words).collect()
}

/// Answers an error to a search of a key nothing was added under. Breaks R7.unknown-key.
#[derive(Debug)]
pub struct ErrorOnUnknownKey;

#[async_trait]
impl Deviation for ErrorOnUnknownKey {
    async fn add_session(&self, store: &Store, session: &Session) -> Done {
        store.log(session);
        store.add(session).await
    }

    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        if store.sessions_of(search.app, search.user).is_empty() {
            let (app, user) = (search.app, search.user);
            return Err(MemoryError::backend(format!("no memory for {app}/{user}")));
        }
        store.search(search).await
    }
}

/// Answers a blank query with every event of the key (of every version added).
/// Breaks R7.blank-query.
#[derive(Debug)]
pub struct BlankQueryMatchesAll;

#[async_trait]
impl Deviation for BlankQueryMatchesAll {
    async fn add_session(&self, store: &Store, session: &Session) -> Done {
        store.log(session);
        store.add(session).await
    }

    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        if !search.query.trim().is_empty() {
            return store.search(search).await;
        }
        let memories = store
            .sessions_of(search.app, search.user)
            .iter()
            .flat_map(|s| s.events.iter().filter_map(MemoryEntry::from_event))
            .collect();
        Ok(SearchMemoryResponse::new(memories))
    }
}

/// Answers every event of the key, whatever the query, a defect reported of a published memory
/// backend (Open WebUI 0.8.12, <https://github.com/open-webui/open-webui/issues/23816>:
/// `search_memories` returns all results regardless of the query string). Breaks
/// R5.any-token and R7.blank-query.
#[derive(Debug)]
pub struct QueryIgnored;

#[async_trait]
impl Deviation for QueryIgnored {
    async fn add_session(&self, store: &Store, session: &Session) -> Done {
        store.log(session);
        store.add(session).await
    }

    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        Ok(matching(store, search, |_| true))
    }
}

/// Answers the events whose text, lowercased and its parts joined with a newline, contains the
/// lowercased query as a substring, a defect of a published service (adk-rs 0.6.0,
/// `docs/findings/adk-rs-blank-query.md`): every text contains the empty query. Breaks
/// R7.blank-query.
#[derive(Debug)]
pub struct SubstringQuery;

#[async_trait]
impl Deviation for SubstringQuery {
    async fn add_session(&self, store: &Store, session: &Session) -> Done {
        store.log(session);
        store.add(session).await
    }

    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        let query = search.query.to_lowercase();
        Ok(matching(store, search, |content| {
            let text: Vec<&str> = content.texts().collect();
            text.join("\n").to_lowercase().contains(&query)
        }))
    }
}

/// Answers the events whose text, lowercased and its parts joined with a space, contains a
/// word of the lowercased query (split on ASCII whitespace) anywhere, also inside a word, as a
/// service that runs `LIKE '%word%'` per query word does. Its profile declares `query_terms`
/// `substrings`, under which it passes; claiming the reference's tokens, it finds `off` in
/// "coffee". Breaks R5.any-token.
#[derive(Debug)]
pub struct SubstringTerms;

#[async_trait]
impl Deviation for SubstringTerms {
    async fn add_session(&self, store: &Store, session: &Session) -> Done {
        store.log(session);
        store.add(session).await
    }

    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        let query = search.query.to_lowercase();
        let terms: Vec<&str> = query
            .split(|c: char| c.is_ascii_whitespace() || c == '\u{B}')
            .filter(|t| !t.is_empty())
            .collect();
        Ok(matching(store, search, |content| {
            let texts: Vec<&str> = content.texts().filter(|t| !t.is_empty()).collect();
            let text = texts.join(" ").to_lowercase();
            terms.iter().any(|term| text.contains(term))
        }))
    }
}

/// The entries of the events the reference keeps (content present, with a part) under the
/// search's key whose content `matches`: each session as last added, sessions in the order
/// their ids were first added, events in session order.
pub(super) fn matching(
    store: &Store,
    search: Search<'_>,
    matches: impl Fn(&Content) -> bool,
) -> SearchMemoryResponse {
    let logged = store.sessions_of(search.app, search.user);
    let mut ids: Vec<&str> = Vec::new();
    for session in &logged {
        if !ids.contains(&session.id.as_str()) {
            ids.push(&session.id);
        }
    }
    let memories = ids
        .iter()
        .filter_map(|id| logged.iter().rev().find(|s| s.id == *id))
        .flat_map(|s| &s.events)
        .filter(|e| {
            e.content
                .as_ref()
                .is_some_and(|c| !c.parts.is_empty() && matches(c))
        })
        .filter_map(MemoryEntry::from_event)
        .collect();
    SearchMemoryResponse::new(memories)
}

/// How many of the latest stored events a search of [`LatestThousandOnly`] reads.
const WINDOW: usize = 1_000;

/// Searches the thousand latest events of the key only, a defect reported of a published
/// agent's memory (LifeOS, <https://github.com/nbramia/LifeOS/issues/534>: memory search only
/// ever considers the thousand most recently saved memories). Breaks R6.every-match on a key
/// holding more than a thousand events, which no rule stores: out of the catalogue, a known
/// blind spot (`tests/deviant_backends.rs`).
#[derive(Debug)]
pub struct LatestThousandOnly;

#[async_trait]
impl Deviation for LatestThousandOnly {
    async fn add_session(&self, store: &Store, session: &Session) -> Done {
        store.log(session);
        store.add(session).await
    }

    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        let live = live_tokens(search.query);
        let all = matching(store, search, |_| true).memories;
        let recent = all.len().saturating_sub(WINDOW);
        let memories = all
            .into_iter()
            .skip(recent)
            .filter(|e| {
                let words = words(e);
                live.iter().any(|t| words.contains(t))
            })
            .collect();
        Ok(SearchMemoryResponse::new(memories))
    }
}
