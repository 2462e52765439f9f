//! Deviants that key their store otherwise than the reference: by a joined or folded key
//! (R1), or refusing a key it takes (R7.any-string).

use memory_conformance::{MemoryError, Session, async_trait};

use super::{Answer, Deviation, Done, Search, Store, lock};

/// Keys its store by app name and user id joined with `/` (ADK JS's key): `a/b` + `c` and
/// `a` + `b/c` share a store. Breaks R1.no-join.
#[derive(Debug)]
pub struct SlashJoinedKey;

#[async_trait]
impl Deviation for SlashJoinedKey {
    async fn add_session(&self, store: &Store, session: &Session) -> Done {
        add_joined(store, session, "/").await
    }

    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        search_joined(store, search, "/").await
    }
}

/// Keys its store by app name and user id joined with `:`. Breaks R1.no-join.
#[derive(Debug)]
pub struct ColonJoinedKey;

#[async_trait]
impl Deviation for ColonJoinedKey {
    async fn add_session(&self, store: &Store, session: &Session) -> Done {
        add_joined(store, session, ":").await
    }

    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        search_joined(store, search, ":").await
    }
}

/// Keys its store by app name and user id run together: `ab` + `c` and `a` + `bc` share a
/// store. Breaks R1.no-join.
#[derive(Debug)]
pub struct ConcatenatedKey;

#[async_trait]
impl Deviation for ConcatenatedKey {
    async fn add_session(&self, store: &Store, session: &Session) -> Done {
        add_joined(store, session, "").await
    }

    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        search_joined(store, search, "").await
    }
}

/// Stores `session` under one key: its app name and user id joined with `separator`.
async fn add_joined(store: &Store, session: &Session, separator: &str) -> Done {
    let mut joined = session.clone();
    joined.app_name = format!("{}{separator}{}", session.app_name, session.user_id);
    joined.user_id = String::new();
    store.add(&joined).await
}

/// Searches under the key [`add_joined`] stores under.
async fn search_joined(store: &Store, search: Search<'_>, separator: &str) -> Answer {
    let app = format!("{}{separator}{}", search.app, search.user);
    store
        .search(Search {
            app: &app,
            user: "",
            ..search
        })
        .await
}

/// Skips an event whose app name, user id and event id, joined with `/`, it has seen under
/// another key, a defect of a published service (adk-inspeximus 0.1.0,
/// `docs/findings/adk-inspeximus-joined-event-key.md`): the second of `a` + `b/c` and `a/b` +
/// `c` loses its events. Searches keep the keys apart. Breaks R1.no-join.
#[derive(Debug)]
pub struct JoinedEventIds;

#[async_trait]
impl Deviation for JoinedEventIds {
    async fn add_session(&self, store: &Store, session: &Session) -> Done {
        let joined =
            |s: &Session, event_id: &str| format!("{}/{}/{event_id}", s.app_name, s.user_id);
        let seen: Vec<String> = lock(&store.sessions)
            .iter()
            .filter(|s| s.key() != session.key())
            .flat_map(|s| s.events.iter().map(move |e| joined(s, &e.id)))
            .collect();
        store.log(session);
        let mut kept = session.clone();
        kept.events
            .retain(|e| !seen.contains(&joined(session, &e.id)));
        store.add(&kept).await
    }
}

/// Answers the matches of every user of the app, not the caller's only, a defect reported of a
/// published memory backend (OpenMemory, <https://github.com/CaviraOSS/LongMemory/issues/97>:
/// a query with a `user_id` returns the memories of all users). Breaks R1.two-level.
#[derive(Debug)]
pub struct UserFilterIgnored;

#[async_trait]
impl Deviation for UserFilterIgnored {
    async fn add_session(&self, store: &Store, session: &Session) -> Done {
        store.log(session);
        store.add(session).await
    }

    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        search_keys(store, search, |s| s.app_name == search.app).await
    }
}

/// Answers the matches stored under every key, not the caller's only, as ADK Python's
/// `VertexAiRagMemoryService` did with its check of the app name and user id commented out
/// (<https://github.com/google/adk-python/issues/1019>: memory leaks across users). Breaks
/// R1.two-level.
#[derive(Debug)]
pub struct KeyFilterIgnored;

#[async_trait]
impl Deviation for KeyFilterIgnored {
    async fn add_session(&self, store: &Store, session: &Session) -> Done {
        store.log(session);
        store.add(session).await
    }

    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        search_keys(store, search, |_| true).await
    }
}

/// The reference's answer to `search` under its own key, then under every other key of a
/// remembered session that `also` picks, in the order first remembered.
async fn search_keys(store: &Store, search: Search<'_>, also: impl Fn(&Session) -> bool) -> Answer {
    let mut keys = vec![(search.app.to_owned(), search.user.to_owned())];
    for session in lock(&store.sessions).iter().filter(|s| also(s)) {
        let key = (session.app_name.clone(), session.user_id.clone());
        if !keys.contains(&key) {
            keys.push(key);
        }
    }
    let mut found = store.search(search).await?;
    for (app, user) in &keys[1..] {
        let theirs = store
            .search(Search {
                app,
                user,
                ..search
            })
            .await?;
        found.memories.extend(theirs.memories);
    }
    Ok(found)
}

/// Keys its store by user id alone, on writes and searches, as ADK Go's Vertex AI Memory Bank
/// service scopes its memories (<https://github.com/google/adk-go/pull/1175>: two apps that
/// share a Memory Bank read each other's memories of the same user). Breaks R1.two-level.
#[derive(Debug)]
pub struct AppNameIgnored;

#[async_trait]
impl Deviation for AppNameIgnored {
    async fn add_session(&self, store: &Store, session: &Session) -> Done {
        let mut unscoped = session.clone();
        unscoped.app_name = String::new();
        store.add(&unscoped).await
    }

    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        store.search(Search { app: "", ..search }).await
    }
}

/// Answers an error to a search whose app name or user id is not plain ASCII (its writes
/// answer), a defect of a published service (adk-milvus 0.1.0,
/// `docs/findings/adk-milvus-non-ascii-key.md`: the filter quotes the key with `json.dumps`,
/// whose `\uXXXX` escapes Milvus cannot parse). Breaks R7.any-string.
#[derive(Debug)]
pub struct NonAsciiKeyRefused;

#[async_trait]
impl Deviation for NonAsciiKeyRefused {
    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        if !search.app.is_ascii() || !search.user.is_ascii() {
            return Err(MemoryError::backend(
                "MilvusException: unknown escape sequence \\u",
            ));
        }
        store.search(search).await
    }
}

/// Lowercases the user id, on writes and searches. Breaks R1.byte-for-byte.
#[derive(Debug)]
pub struct CaseInsensitiveUser;

#[async_trait]
impl Deviation for CaseInsensitiveUser {
    async fn add_session(&self, store: &Store, session: &Session) -> Done {
        let mut folded = session.clone();
        folded.user_id = session.user_id.to_lowercase();
        store.add(&folded).await
    }

    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        let user = search.user.to_lowercase();
        store
            .search(Search {
                user: &user,
                ..search
            })
            .await
    }
}

/// Folds the session id (lowercased, trimmed, `_` read as `-`), so near-miss session ids
/// replace each other. Breaks R1.two-level and R2.others-untouched.
#[derive(Debug)]
pub struct CaseInsensitiveSessionId;

#[async_trait]
impl Deviation for CaseInsensitiveSessionId {
    async fn add_session(&self, store: &Store, session: &Session) -> Done {
        let mut folded = session.clone();
        folded.id = session.id.to_lowercase().trim().replace('_', "-");
        store.add(&folded).await
    }
}

/// Answers an error to a write or search with an empty user id. Breaks R7.any-string.
#[derive(Debug)]
pub struct RejectEmptyUser;

#[async_trait]
impl Deviation for RejectEmptyUser {
    async fn add_session(&self, store: &Store, session: &Session) -> Done {
        if session.user_id.is_empty() {
            return Err(empty_user());
        }
        store.add(session).await
    }

    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        if search.user.is_empty() {
            return Err(empty_user());
        }
        store.search(search).await
    }
}

fn empty_user() -> MemoryError {
    MemoryError::backend("user_id must not be empty")
}

/// Reads an app name or user id shaped like a number as the integer it spells, as a store
/// with an integer id column or a JSON layer that parses ids does: `042`, `+42` and `42` are
/// one key. Breaks R1.byte-for-byte.
#[derive(Debug)]
pub struct NumberShapedIdsAsIntegers;

#[async_trait]
impl Deviation for NumberShapedIdsAsIntegers {
    async fn add_session(&self, store: &Store, session: &Session) -> Done {
        add_normalised(store, session, as_integer).await
    }

    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        search_normalised(store, search, as_integer).await
    }
}

/// Percent-decodes app names and user ids, as a route that takes them from a URL path does:
/// `a%2Fb` is `a/b`, `%41` is `A`. Breaks R1.byte-for-byte.
#[derive(Debug)]
pub struct PercentDecodedIds;

#[async_trait]
impl Deviation for PercentDecodedIds {
    async fn add_session(&self, store: &Store, session: &Session) -> Done {
        add_normalised(store, session, percent_decoded).await
    }

    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        search_normalised(store, search, percent_decoded).await
    }
}

/// Keeps the first 64 characters of app names and user ids, as a `VARCHAR(64)` column that
/// truncates does. Breaks R1.byte-for-byte.
#[derive(Debug)]
pub struct IdsCutAt64;

#[async_trait]
impl Deviation for IdsCutAt64 {
    async fn add_session(&self, store: &Store, session: &Session) -> Done {
        add_normalised(store, session, cut_at_64).await
    }

    async fn search(&self, store: &Store, search: Search<'_>) -> Answer {
        search_normalised(store, search, cut_at_64).await
    }
}

/// Adds `session` under its app name and user id rewritten by `normalise`.
async fn add_normalised(store: &Store, session: &Session, normalise: fn(&str) -> String) -> Done {
    let mut session = session.clone();
    session.app_name = normalise(&session.app_name);
    session.user_id = normalise(&session.user_id);
    store.add(&session).await
}

/// Searches under the app name and user id rewritten by `normalise`.
async fn search_normalised(
    store: &Store,
    search: Search<'_>,
    normalise: fn(&str) -> String,
) -> Answer {
    let (app, user) = (normalise(search.app), normalise(search.user));
    store
        .search(Search {
            app: &app,
            user: &user,
            ..search
        })
        .await
}

/// `id` as the integer it spells, if it spells one.
fn as_integer(id: &str) -> String {
    id.parse::<i64>()
        .map_or_else(|_| id.to_owned(), |n| n.to_string())
}

/// `id` with its `%XX` escapes decoded, where they make UTF-8.
fn percent_decoded(id: &str) -> String {
    let bytes = id.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8(out).unwrap_or_else(|_| id.to_owned())
}

/// The first 64 characters of `id`.
fn cut_at_64(id: &str) -> String {
    id.chars().take(64).collect()
}
