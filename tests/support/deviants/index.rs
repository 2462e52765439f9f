//! Deviants that index otherwise than the reference's words of text parts: more than the text
//! (R4.text-parts, R2.no-state), other words (R4.ascii-letters), or a non-text part that breaks
//! the search (R4.fix-2).

use memory_conformance::{Event, MemoryError, Part, SearchMemoryResponse, Session, async_trait};

use super::{Answer, Deviation, Done, Search, Store, lock};

/// Indexes the string values of tool responses. Breaks R4.text-parts.
#[derive(Debug)]
pub struct IndexToolResponses;

#[async_trait]
impl Deviation for IndexToolResponses {
    async fn add_session(&self, store: &Store, session: &Session) -> Done {
        let mut extra = Vec::new();
        for part in session
            .events
            .iter()
            .filter_map(|e| e.content.as_ref())
            .flat_map(|c| &c.parts)
        {
            if let Part::FunctionResponse { response, .. } = part {
                string_values(response, &mut extra);
            }
        }
        store.add(&with_shadow_text(session, extra)).await
    }
}

/// Indexes the session state's keys and string values. Breaks R2.no-state.
#[derive(Debug)]
pub struct IndexState;

#[async_trait]
impl Deviation for IndexState {
    async fn add_session(&self, store: &Store, session: &Session) -> Done {
        let mut extra: Vec<String> = session.state.keys().cloned().collect();
        session
            .state
            .values()
            .for_each(|v| string_values(v, &mut extra));
        store.add(&with_shadow_text(session, extra)).await
    }
}

/// Indexes the events' authors. Breaks R4.text-parts.
#[derive(Debug)]
pub struct IndexAuthor;

#[async_trait]
impl Deviation for IndexAuthor {
    async fn add_session(&self, store: &Store, session: &Session) -> Done {
        let authors = session.events.iter().map(|e| e.author.clone()).collect();
        store.add(&with_shadow_text(session, authors)).await
    }
}

/// The session plus one text event holding `extra` words, as a backend that indexes them.
fn with_shadow_text(session: &Session, extra: Vec<String>) -> Session {
    let mut shadowed = session.clone();
    if !extra.is_empty() {
        shadowed.events.push(Event::text("shadow", extra.join(" ")));
    }
    shadowed
}

/// Pushes every string (and every other scalar, as JSON) inside `value` to `out`.
fn string_values(value: &serde_json::Value, out: &mut Vec<String>) {
    match value {
        serde_json::Value::String(s) => out.push(s.clone()),
        serde_json::Value::Array(items) => items.iter().for_each(|v| string_values(v, out)),
        serde_json::Value::Object(map) => map.values().for_each(|v| string_values(v, out)),
        other => out.push(other.to_string()),
    }
}

/// Answers an error to every search of a key that holds a non-text part (ADK Java's
/// `part.text()` on a tool part, <https://github.com/google/adk-java/pull/1465>). Breaks
/// R4.fix-2.
#[derive(Debug)]
pub struct ErrorOnNonTextPart;

#[async_trait]
impl Deviation for ErrorOnNonTextPart {
    async fn add_session(&self, store: &Store, session: &Session) -> Done {
        store.keep_latest(session);
        store.add(session).await
    }

    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        let non_text = store
            .sessions_of(search.app, search.user)
            .iter()
            .flat_map(|s| &s.events)
            .filter_map(|e| e.content.as_ref())
            .any(|c| c.parts.iter().any(|p| p.as_text().is_none()));
        if non_text {
            return Err(MemoryError::backend(
                "part.text() is empty: cannot read a non-text part",
            ));
        }
        store.search(search).await
    }
}

/// Answers an error to every search of a key that holds a non-empty text part, as ADK JS did
/// when it read an event's words with `text.matchAll(/[A-Za-z]+/)`, a regular expression
/// without the global flag (<https://github.com/google/adk-js/pull/201>): the load_memory tool
/// answered "I could not retrieve your memory" to every question. Breaks R5.any-token.
#[derive(Debug)]
pub struct ErrorOnStoredText;

#[async_trait]
impl Deviation for ErrorOnStoredText {
    async fn add_session(&self, store: &Store, session: &Session) -> Done {
        store.keep_latest(session);
        store.add(session).await
    }

    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        let text = store
            .sessions_of(search.app, search.user)
            .iter()
            .flat_map(|s| &s.events)
            .filter_map(|e| e.content.as_ref())
            .any(|c| c.texts().any(|t| !t.is_empty()));
        if text {
            return Err(MemoryError::backend(
                "TypeError: String.prototype.matchAll called with a non-global RegExp argument",
            ));
        }
        store.search(search).await
    }
}

/// Reads digits as letters, in events and queries. Breaks R4.ascii-letters (and R5.dead-tokens).
#[derive(Debug)]
pub struct IndexDigits;

#[async_trait]
impl Deviation for IndexDigits {
    async fn add_session(&self, store: &Store, session: &Session) -> Done {
        add_spelt(store, session, is_digit).await
    }

    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        search_spelt(store, search, is_digit).await
    }
}

fn is_digit(c: char) -> bool {
    c.is_ascii_digit()
}

/// Reads non-ASCII letters as letters, in events and queries. Breaks R4.ascii-letters.
#[derive(Debug)]
pub struct UnicodeWords;

#[async_trait]
impl Deviation for UnicodeWords {
    async fn add_session(&self, store: &Store, session: &Session) -> Done {
        add_spelt(store, session, is_non_ascii_letter).await
    }

    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        search_spelt(store, search, is_non_ascii_letter).await
    }
}

fn is_non_ascii_letter(c: char) -> bool {
    c.is_alphanumeric() && !c.is_ascii()
}

/// Reads an event's words as its whitespace-separated runs, punctuation, digits and all (the
/// query as the reference reads it). Breaks R4.ascii-letters.
#[derive(Debug)]
pub struct WhitespaceEventWords;

#[async_trait]
impl Deviation for WhitespaceEventWords {
    async fn add_session(&self, store: &Store, session: &Session) -> Done {
        add_spelt(store, session, |c| {
            !c.is_whitespace() && !c.is_ascii_alphabetic()
        })
        .await
    }

    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        Ok(restore(store, store.search(search).await?))
    }
}

/// Stores `session` with every character `spelt` picks in its text parts spelt out in letters
/// (so the reference reads it as part of a word), remembering the original contents.
async fn add_spelt(store: &Store, session: &Session, spelt: fn(char) -> bool) -> Done {
    let mut stored = session.clone();
    for event in &mut stored.events {
        if let Some(content) = &mut event.content {
            let original = content.clone();
            for part in &mut content.parts {
                if let Part::Text(text) = part {
                    *text = spell(text, spelt);
                }
            }
            let key = serde_json::to_string(content).unwrap_or_default();
            lock(&store.originals).insert(key, original);
        }
    }
    store.add(&stored).await
}

/// Searches for the query spelt as [`add_spelt`] stores, answering the original contents.
async fn search_spelt(store: &Store, search: Search<'_>, spelt: fn(char) -> bool) -> Answer {
    let query = spell(search.query, spelt);
    let found = store.search(search.with_query(&query)).await?;
    Ok(restore(store, found))
}

/// `found` with each content [`add_spelt`] rewrote as it was added.
fn restore(store: &Store, mut found: SearchMemoryResponse) -> SearchMemoryResponse {
    let originals = lock(&store.originals);
    for entry in &mut found.memories {
        let key = serde_json::to_string(&entry.content).unwrap_or_default();
        if let Some(original) = originals.get(&key) {
            entry.content = original.clone();
        }
    }
    found
}

/// `text` with each character `spelt` picks spelt out in ASCII letters.
fn spell(text: &str, spelt: fn(char) -> bool) -> String {
    text.chars()
        .map(|c| if spelt(c) { letters(c) } else { c.to_string() })
        .collect()
}

/// `c` as a word of ASCII letters, one of its own.
fn letters(c: char) -> String {
    let mut code = String::from("zq");
    let mut n = c as u32;
    loop {
        code.push(char::from(b'a' + (n % 26) as u8));
        n /= 26;
        if n == 0 {
            return code + "q";
        }
    }
}
