//! Deliberately deviant backends: small wrappers or variants of the reference, each breaking
//! exactly one behaviour, for the harness to catch.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use memory_conformance::profile::{
    Capabilities, Limit, Order, Profile, Readd, Timestamps, Visibility,
};
use memory_conformance::tokenize::{can_match, event_words, query_tokens};
use memory_conformance::{
    Content, Event, InMemoryMemoryService, MemoryEntry, MemoryError, MemoryService, Part,
    SearchMemoryResponse, SearchOptions, Session, async_trait,
};

/// How long a write of the delayed deviant takes to show.
pub const WRITE_DELAY: std::time::Duration = std::time::Duration::from_millis(30);

/// How long a write of the slow deviant takes to show: far beyond any scheduling delay, so a
/// profile that declares much less is caught however busy the machine is.
pub const SLOW_WRITE_DELAY: std::time::Duration = std::time::Duration::from_secs(3);

/// One way of deviating from the reference.
#[derive(Clone, Copy, Debug)]
pub enum Deviation {
    SlashJoinedKey,
    CaseInsensitiveUser,
    AppendOnReadd,
    IgnoreReaddWithoutText,
    IndexToolResponses,
    IndexState,
    StripQueryPunctuation,
    IndexDigits,
    UnicodeWords,
    LimitTen,
    AllWords,
    DropAuthor,
    TimestampFromSeconds,
    WhitespaceEventWords,
    TornReplace,
    LostWrites,
    ErrorOnNonTextPart,
    Hang,
    PanicOnSearch,
    BlockThread,
    ColonJoinedKey,
    ConcatenatedKey,
    CaseInsensitiveSessionId,
    IndexAuthor,
    DropRole,
    TruncateBeforeRank,
    CaseSensitiveQuery,
    UnicodeWhitespaceQuery,
    LimitHundred,
    Deduplicate,
    ReverseOrder,
    ErrorOnUnknownKey,
    BlankQueryMatchesAll,
    RejectEmptyUser,
    OnlyLatestSession,
    ReturnTextlessEvents,
    UpsertWritesTextless,
    /// Not a deviant: writes timestamps as naive isoformat, as its profile declares.
    NaiveTimestamps,
    NaiveTimestampsDropRole,
    /// A delta replaces the whole session.
    DeltaReplaces,
    /// `add_memory` answers but stores nothing.
    MemoriesDropped,
    /// Deletes by rewriting the session without the memory, so a re-add brings it back.
    DeleteForgetsOnReadd,
    /// Deletes the id under every key.
    DeleteUnderEveryKey,
    /// A fresh id on every entry of every search.
    UnstableIds,
    /// Ignores a search's limit.
    LimitIgnored,
    /// Not a deviant when its profile declares the delay: every write shows after
    /// [`WRITE_DELAY`].
    DelayedWrites,
    /// As [`DelayedWrites`](Self::DelayedWrites), each write showing after
    /// [`SLOW_WRITE_DELAY`].
    SlowWrites,
    /// Writes never show.
    NeverVisible,
    /// Claims a shared store, but each instance keeps its own: the guide's in-process store
    /// on each of several replicas.
    OwnStorePerInstance,
}

impl Deviation {
    /// The profile the deviant claims: the reference's, except for the ranked deviant, which
    /// claims ADK Python's ranking (most query words matched first) and its limit of ten, and
    /// the upserting deviant, which claims `readd = upsert-by-event-id`.
    ///
    /// The deviants of the calls beyond the two claim the reference's capabilities, as the
    /// reference does; every other deviant implements the two calls only, and claims no more.
    pub fn profile(self) -> Profile {
        let two_calls = |mut profile: Profile| {
            profile.capabilities = Capabilities::default();
            profile
        };
        match self {
            Self::UpsertWritesTextless => {
                let mut profile = two_calls(Profile::reference().named("upsert"));
                profile.readd = Readd::UpsertByEventId;
                profile
            }
            Self::NaiveTimestamps | Self::NaiveTimestampsDropRole => {
                let mut profile = two_calls(Profile::reference().named("naive-timestamps"));
                profile.timestamps = Timestamps::NaiveIsoformat;
                profile
            }
            Self::TruncateBeforeRank => {
                let mut profile = two_calls(Profile::reference().named("ranked"));
                profile.order = Order::MatchedTerms;
                profile.limit = Limit::AtMost(10);
                profile
            }
            Self::DelayedWrites | Self::NeverVisible => {
                let mut profile = Profile::reference().named("delayed");
                profile.visibility = Visibility::Within {
                    millis: 8 * WRITE_DELAY.as_millis() as u64,
                };
                profile
            }
            Self::SlowWrites => {
                let mut profile = Profile::reference().named("slow");
                profile.visibility = Visibility::Within {
                    millis: 2 * SLOW_WRITE_DELAY.as_millis() as u64,
                };
                profile
            }
            Self::OwnStorePerInstance => {
                let mut profile = two_calls(Profile::reference().named("shared"));
                profile.capabilities.shared = true;
                profile
            }
            Self::DeltaReplaces
            | Self::MemoriesDropped
            | Self::DeleteForgetsOnReadd
            | Self::DeleteUnderEveryKey
            | Self::UnstableIds
            | Self::LimitIgnored => Profile::reference(),
            _ => two_calls(Profile::reference()),
        }
    }
}

/// A write the delayed deviant applies later.
enum DelayedWrite {
    Session(Session),
    Events {
        app: String,
        user: String,
        session_id: Option<String>,
        events: Vec<Event>,
    },
    Memories {
        app: String,
        user: String,
        memories: Vec<MemoryEntry>,
    },
    Delete {
        app: String,
        user: String,
        id: String,
    },
}

/// The reference, bent by `deviation`.
pub struct Deviant {
    deviation: Deviation,
    inner: Arc<InMemoryMemoryService>,
    /// For unstable ids: a counter that numbers every entry returned.
    counter: std::sync::atomic::AtomicU64,
    /// For delayed writes: the queue of writes a background task applies in order, each
    /// [`WRITE_DELAY`] after it was made.
    delayed: Mutex<Option<tokio::sync::mpsc::UnboundedSender<(std::time::Instant, DelayedWrite)>>>,
    /// Contents as stored after rewriting -> contents as added, for rewriting deviations.
    originals: Mutex<HashMap<String, Content>>,
    /// Sessions as last added, for append and the lost-writes store.
    sessions: Mutex<Vec<Session>>,
    /// For lost writes: the reference rebuilt from `sessions` after every write.
    rebuilt: Mutex<Arc<InMemoryMemoryService>>,
}

impl Deviant {
    pub fn new(deviation: Deviation) -> Self {
        Self {
            deviation,
            inner: Arc::new(InMemoryMemoryService::new()),
            counter: std::sync::atomic::AtomicU64::new(0),
            delayed: Mutex::default(),
            originals: Mutex::default(),
            sessions: Mutex::default(),
            rebuilt: Mutex::new(Arc::new(InMemoryMemoryService::new())),
        }
    }

    fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
        mutex.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Queues `write` to be applied [`WRITE_DELAY`] from now, after every write queued before.
    fn delay(&self, write: DelayedWrite) {
        let mut queue = Self::lock(&self.delayed);
        let sender = queue.get_or_insert_with(|| {
            let (sender, mut writes) =
                tokio::sync::mpsc::unbounded_channel::<(std::time::Instant, DelayedWrite)>();
            let inner = Arc::clone(&self.inner);
            tokio::spawn(async move {
                while let Some((due, write)) = writes.recv().await {
                    tokio::time::sleep_until(due.into()).await;
                    let _ = match write {
                        DelayedWrite::Session(session) => {
                            inner.add_session_to_memory(&session).await
                        }
                        DelayedWrite::Events {
                            app,
                            user,
                            session_id,
                            events,
                        } => {
                            inner
                                .add_events_to_memory(&app, &user, session_id.as_deref(), &events)
                                .await
                        }
                        DelayedWrite::Memories {
                            app,
                            user,
                            memories,
                        } => inner.add_memory(&app, &user, &memories).await,
                        DelayedWrite::Delete { app, user, id } => {
                            inner.delete_memory(&app, &user, &id).await
                        }
                    };
                }
            });
            sender
        });
        let delay = match self.deviation {
            Deviation::SlowWrites => SLOW_WRITE_DELAY,
            _ => WRITE_DELAY,
        };
        let _ = sender.send((std::time::Instant::now() + delay, write));
    }

    /// Stores `session` with each text part rewritten by `rewrite`, remembering the original.
    async fn add_rewritten(
        &self,
        session: &Session,
        rewrite: fn(&str) -> String,
    ) -> Result<(), MemoryError> {
        let mut stored = session.clone();
        for event in &mut stored.events {
            if let Some(content) = &mut event.content {
                let original = content.clone();
                for part in &mut content.parts {
                    if let Part::Text(text) = part {
                        *text = rewrite(text);
                    }
                }
                let key = serde_json::to_string(content).unwrap_or_default();
                Self::lock(&self.originals).insert(key, original);
            }
        }
        self.inner.add_session_to_memory(&stored).await
    }

    fn restore(&self, mut response: SearchMemoryResponse) -> SearchMemoryResponse {
        let originals = Self::lock(&self.originals);
        for entry in &mut response.memories {
            let key = serde_json::to_string(&entry.content).unwrap_or_default();
            if let Some(original) = originals.get(&key) {
                entry.content = original.clone();
            }
        }
        response
    }

    /// The session plus one text event holding `extra` words, as a backend that indexes them.
    fn with_shadow_text(session: &Session, extra: Vec<String>) -> Session {
        let mut shadowed = session.clone();
        if !extra.is_empty() {
            shadowed.events.push(Event::text("shadow", extra.join(" ")));
        }
        shadowed
    }
}

fn string_values(value: &serde_json::Value, out: &mut Vec<String>) {
    match value {
        serde_json::Value::String(s) => out.push(s.clone()),
        serde_json::Value::Array(items) => items.iter().for_each(|v| string_values(v, out)),
        serde_json::Value::Object(map) => map.values().for_each(|v| string_values(v, out)),
        other => out.push(other.to_string()),
    }
}

/// Every character that is not an ASCII letter or whitespace, spelt out in letters.
fn spell(c: char) -> String {
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

fn spell_digits(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_ascii_digit() {
                spell(c)
            } else {
                c.to_string()
            }
        })
        .collect()
}

fn spell_non_ascii_letters(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_alphanumeric() && !c.is_ascii() {
                spell(c)
            } else {
                c.to_string()
            }
        })
        .collect()
}

fn spell_punctuation(text: &str) -> String {
    text.chars()
        .map(|c| {
            if !c.is_whitespace() && !c.is_ascii_alphabetic() {
                spell(c)
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// Java's released defect: epoch milliseconds formatted as epoch seconds.
fn millis_as_seconds(timestamp: &str) -> String {
    let Ok(at) = timestamp.parse::<memory_conformance::Timestamp>() else {
        return timestamp.to_owned();
    };
    let seconds = at.as_millisecond();
    let (days, rest) = (seconds.div_euclid(86_400), seconds.rem_euclid(86_400));
    // Howard Hinnant's civil-from-days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "+{year}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

#[async_trait]
impl MemoryService for Deviant {
    async fn add_session_to_memory(&self, session: &Session) -> Result<(), MemoryError> {
        match self.deviation {
            Deviation::RejectEmptyUser if session.user_id.is_empty() => {
                return Err(MemoryError::backend("user_id must not be empty"));
            }
            Deviation::ErrorOnUnknownKey
            | Deviation::BlankQueryMatchesAll
            | Deviation::ReturnTextlessEvents
            | Deviation::NaiveTimestamps
            | Deviation::NaiveTimestampsDropRole => {
                Self::lock(&self.sessions).push(session.clone());
                self.inner.add_session_to_memory(session).await
            }
            Deviation::DeleteForgetsOnReadd | Deviation::DeleteUnderEveryKey => {
                {
                    let mut sessions = Self::lock(&self.sessions);
                    sessions.retain(|s| !(s.key() == session.key() && s.id == session.id));
                    sessions.push(session.clone());
                }
                self.inner.add_session_to_memory(session).await
            }
            Deviation::DelayedWrites | Deviation::SlowWrites => {
                self.delay(DelayedWrite::Session(session.clone()));
                Ok(())
            }
            Deviation::NeverVisible => Ok(()),
            Deviation::OnlyLatestSession => {
                let older: Vec<Session> = {
                    let mut sessions = Self::lock(&self.sessions);
                    let older = sessions
                        .iter()
                        .filter(|s| s.key() == session.key() && s.id != session.id)
                        .cloned()
                        .collect();
                    sessions.retain(|s| s.key() != session.key());
                    sessions.push(session.clone());
                    older
                };
                for old in older {
                    let emptied = Session::new(old.app_name, old.user_id, old.id);
                    self.inner.add_session_to_memory(&emptied).await?;
                }
                self.inner.add_session_to_memory(session).await
            }
            Deviation::ColonJoinedKey | Deviation::ConcatenatedKey => {
                let mut joined = session.clone();
                joined.app_name = self.joined(&session.app_name, &session.user_id);
                joined.user_id = String::new();
                self.inner.add_session_to_memory(&joined).await
            }
            Deviation::CaseInsensitiveSessionId => {
                let mut folded = session.clone();
                folded.id = session.id.to_lowercase().trim().replace('_', "-");
                self.inner.add_session_to_memory(&folded).await
            }
            Deviation::IndexAuthor => {
                let authors = session.events.iter().map(|e| e.author.clone()).collect();
                self.inner
                    .add_session_to_memory(&Self::with_shadow_text(session, authors))
                    .await
            }
            Deviation::SlashJoinedKey => {
                let mut joined = session.clone();
                joined.app_name = format!("{}/{}", session.app_name, session.user_id);
                joined.user_id = String::new();
                self.inner.add_session_to_memory(&joined).await
            }
            Deviation::CaseInsensitiveUser => {
                let mut folded = session.clone();
                folded.user_id = session.user_id.to_lowercase();
                self.inner.add_session_to_memory(&folded).await
            }
            Deviation::AppendOnReadd => {
                let merged = {
                    let mut sessions = Self::lock(&self.sessions);
                    let previous = sessions
                        .iter()
                        .position(|s| s.key() == session.key() && s.id == session.id);
                    let mut merged = session.clone();
                    if let Some(i) = previous {
                        let mut events = sessions[i].events.clone();
                        events.extend(session.events.iter().cloned());
                        merged.events = events;
                        sessions[i] = merged.clone();
                    } else {
                        sessions.push(merged.clone());
                    }
                    merged
                };
                self.inner.add_session_to_memory(&merged).await
            }
            Deviation::UpsertWritesTextless => {
                // Writes every event by its id, also those without text, which then erase the
                // text stored under their id.
                let merged = {
                    let mut sessions = Self::lock(&self.sessions);
                    let previous = sessions
                        .iter()
                        .position(|s| s.key() == session.key() && s.id == session.id);
                    let mut merged = match previous {
                        Some(i) => sessions[i].clone(),
                        None => Session::new(
                            session.app_name.clone(),
                            session.user_id.clone(),
                            session.id.clone(),
                        ),
                    };
                    for event in &session.events {
                        match merged.events.iter_mut().find(|old| old.id == event.id) {
                            Some(old) => *old = event.clone(),
                            None => merged.events.push(event.clone()),
                        }
                    }
                    match previous {
                        Some(i) => sessions[i] = merged.clone(),
                        None => sessions.push(merged.clone()),
                    }
                    merged
                };
                self.inner.add_session_to_memory(&merged).await
            }
            Deviation::IgnoreReaddWithoutText => {
                let seen = {
                    let mut sessions = Self::lock(&self.sessions);
                    let seen = sessions
                        .iter()
                        .any(|s| s.key() == session.key() && s.id == session.id);
                    sessions.push(session.clone());
                    seen
                };
                if seen && !session.events.iter().any(Event::has_text) {
                    return Ok(());
                }
                self.inner.add_session_to_memory(session).await
            }
            Deviation::IndexToolResponses => {
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
                self.inner
                    .add_session_to_memory(&Self::with_shadow_text(session, extra))
                    .await
            }
            Deviation::IndexState => {
                let mut extra: Vec<String> = session.state.keys().cloned().collect();
                session
                    .state
                    .values()
                    .for_each(|v| string_values(v, &mut extra));
                self.inner
                    .add_session_to_memory(&Self::with_shadow_text(session, extra))
                    .await
            }
            Deviation::IndexDigits => self.add_rewritten(session, spell_digits).await,
            Deviation::UnicodeWords => self.add_rewritten(session, spell_non_ascii_letters).await,
            Deviation::WhitespaceEventWords => self.add_rewritten(session, spell_punctuation).await,
            Deviation::TornReplace => {
                let empty = Session::new(
                    session.app_name.clone(),
                    session.user_id.clone(),
                    session.id.clone(),
                );
                self.inner.add_session_to_memory(&empty).await?;
                for n in 1..=session.events.len() {
                    tokio::task::yield_now().await;
                    let prefix = empty
                        .clone()
                        .with_events(session.events[..n].iter().cloned());
                    self.inner.add_session_to_memory(&prefix).await?;
                }
                Ok(())
            }
            Deviation::LostWrites => {
                let mut snapshot = Self::lock(&self.sessions).clone();
                tokio::task::yield_now().await;
                snapshot.retain(|s| !(s.key() == session.key() && s.id == session.id));
                snapshot.push(session.clone());
                let rebuilt = InMemoryMemoryService::new();
                for stored in &snapshot {
                    rebuilt.add_session_to_memory(stored).await?;
                }
                *Self::lock(&self.sessions) = snapshot;
                *Self::lock(&self.rebuilt) = Arc::new(rebuilt);
                Ok(())
            }
            Deviation::ErrorOnNonTextPart => {
                {
                    let mut sessions = Self::lock(&self.sessions);
                    sessions.retain(|s| !(s.key() == session.key() && s.id == session.id));
                    sessions.push(session.clone());
                }
                self.inner.add_session_to_memory(session).await
            }
            _ => self.inner.add_session_to_memory(session).await,
        }
    }

    async fn search_memory(
        &self,
        app: &str,
        user: &str,
        query: &str,
    ) -> Result<SearchMemoryResponse, MemoryError> {
        let found = match self.deviation {
            Deviation::RejectEmptyUser if user.is_empty() => {
                return Err(MemoryError::backend("user_id must not be empty"));
            }
            Deviation::ErrorOnUnknownKey => {
                let known = Self::lock(&self.sessions)
                    .iter()
                    .any(|s| s.app_name == app && s.user_id == user);
                if !known {
                    return Err(MemoryError::backend(format!("no memory for {app}/{user}")));
                }
                self.inner.search_memory(app, user, query).await?
            }
            Deviation::ReturnTextlessEvents => {
                // Events without a word come back with every search that finds something.
                let mut found = self.inner.search_memory(app, user, query).await?;
                if !found.memories.is_empty() {
                    let textless: Vec<MemoryEntry> = Self::lock(&self.sessions)
                        .iter()
                        .filter(|s| s.app_name == app && s.user_id == user)
                        .flat_map(|s| &s.events)
                        .filter(|e| !e.has_text())
                        .filter_map(MemoryEntry::from_event)
                        .collect();
                    found.memories.extend(textless);
                }
                found
            }
            Deviation::BlankQueryMatchesAll if query.trim().is_empty() => {
                let memories = Self::lock(&self.sessions)
                    .iter()
                    .filter(|s| s.app_name == app && s.user_id == user)
                    .flat_map(|s| s.events.iter().filter_map(MemoryEntry::from_event))
                    .collect();
                SearchMemoryResponse::new(memories)
            }
            Deviation::CaseSensitiveQuery => {
                // Tokens with an upper-case letter match nothing: they are never stored so.
                let cased: Vec<String> = query
                    .split(|c: char| c.is_ascii_whitespace())
                    .map(|t| {
                        if t.chars().any(char::is_uppercase) {
                            format!("{t}\u{0}")
                        } else {
                            t.to_owned()
                        }
                    })
                    .collect();
                self.inner
                    .search_memory(app, user, &cased.join(" "))
                    .await?
            }
            Deviation::UnicodeWhitespaceQuery => {
                let split: String = query
                    .chars()
                    .map(|c| if c.is_whitespace() { ' ' } else { c })
                    .collect();
                self.inner.search_memory(app, user, &split).await?
            }
            Deviation::LimitHundred => {
                let mut found = self.inner.search_memory(app, user, query).await?;
                found.memories.truncate(100);
                found
            }
            Deviation::Deduplicate => {
                let mut found = self.inner.search_memory(app, user, query).await?;
                let mut seen = Vec::new();
                found.memories.retain(|e| {
                    let fresh = !seen.contains(&e.content);
                    seen.push(e.content.clone());
                    fresh
                });
                found
            }
            Deviation::ReverseOrder => {
                let mut found = self.inner.search_memory(app, user, query).await?;
                found.memories.reverse();
                found
            }
            Deviation::ColonJoinedKey | Deviation::ConcatenatedKey => {
                self.inner
                    .search_memory(&self.joined(app, user), "", query)
                    .await?
            }
            Deviation::NaiveTimestamps | Deviation::NaiveTimestampsDropRole => {
                let mut found = self.inner.search_memory(app, user, query).await?;
                let sessions = Self::lock(&self.sessions);
                for entry in &mut found.memories {
                    // The event's own instant, from the latest version that holds the content.
                    let at = sessions
                        .iter()
                        .rev()
                        .filter(|s| s.app_name == app && s.user_id == user)
                        .flat_map(|s| &s.events)
                        .find(|e| e.content.as_ref() == Some(&entry.content))
                        .map(|e| e.timestamp);
                    if let Some(at) = at {
                        entry.timestamp = Some(naive_isoformat(at));
                    }
                    if matches!(self.deviation, Deviation::NaiveTimestampsDropRole) {
                        entry.content.role = None;
                    }
                }
                drop(sessions);
                found
            }
            Deviation::DropRole => {
                let mut found = self.inner.search_memory(app, user, query).await?;
                found
                    .memories
                    .iter_mut()
                    .for_each(|e| e.content.role = None);
                found
            }
            Deviation::TruncateBeforeRank => {
                let live: Vec<String> = query_tokens(query)
                    .into_iter()
                    .filter(|t| can_match(t))
                    .collect();
                let mut found = self.inner.search_memory(app, user, query).await?;
                found.memories.truncate(10);
                let matched = |entry: &MemoryEntry| {
                    let words: Vec<String> = entry.content.texts().flat_map(event_words).collect();
                    live.iter().filter(|t| words.contains(t)).count()
                };
                found
                    .memories
                    .sort_by_key(|e| std::cmp::Reverse(matched(e)));
                found
            }
            Deviation::SlashJoinedKey => {
                self.inner
                    .search_memory(&format!("{app}/{user}"), "", query)
                    .await?
            }
            Deviation::CaseInsensitiveUser => {
                self.inner
                    .search_memory(app, &user.to_lowercase(), query)
                    .await?
            }
            Deviation::StripQueryPunctuation => {
                let stripped: String = query
                    .chars()
                    .filter(|c| !c.is_ascii_punctuation() && !"’«»…".contains(*c))
                    .collect();
                self.inner.search_memory(app, user, &stripped).await?
            }
            Deviation::IndexDigits => self.restore(
                self.inner
                    .search_memory(app, user, &spell_digits(query))
                    .await?,
            ),
            Deviation::UnicodeWords => self.restore(
                self.inner
                    .search_memory(app, user, &spell_non_ascii_letters(query))
                    .await?,
            ),
            Deviation::WhitespaceEventWords => {
                self.restore(self.inner.search_memory(app, user, query).await?)
            }
            Deviation::LimitTen => {
                let mut found = self.inner.search_memory(app, user, query).await?;
                found.memories.truncate(10);
                found
            }
            Deviation::AllWords => {
                let live: Vec<String> = query_tokens(query)
                    .into_iter()
                    .filter(|t| can_match(t))
                    .collect();
                let mut found = self.inner.search_memory(app, user, query).await?;
                found.memories.retain(|entry| {
                    let words: Vec<String> = entry.content.texts().flat_map(event_words).collect();
                    live.iter().all(|t| words.contains(t))
                });
                found
            }
            Deviation::DropAuthor => {
                let mut found = self.inner.search_memory(app, user, query).await?;
                found
                    .memories
                    .iter_mut()
                    .for_each(|e: &mut MemoryEntry| e.author = None);
                found
            }
            Deviation::TimestampFromSeconds => {
                let mut found = self.inner.search_memory(app, user, query).await?;
                for entry in &mut found.memories {
                    entry.timestamp = entry.timestamp.as_deref().map(millis_as_seconds);
                }
                found
            }
            Deviation::LostWrites => {
                let rebuilt = Arc::clone(&Self::lock(&self.rebuilt));
                rebuilt.search_memory(app, user, query).await?
            }
            Deviation::ErrorOnNonTextPart => {
                if self.stored_non_text(app, user) {
                    return Err(MemoryError::backend(
                        "part.text() is empty: cannot read a non-text part",
                    ));
                }
                self.inner.search_memory(app, user, query).await?
            }
            Deviation::Hang => std::future::pending().await,
            Deviation::PanicOnSearch => {
                panic!("index out of bounds: the len is 0 but the index is 0")
            }
            Deviation::BlockThread => {
                std::thread::sleep(std::time::Duration::from_secs(3));
                self.inner.search_memory(app, user, query).await?
            }
            Deviation::UnstableIds => {
                let mut found = self.inner.search_memory(app, user, query).await?;
                for entry in &mut found.memories {
                    let n = self
                        .counter
                        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    entry.id = Some(format!("m-{n}"));
                }
                found
            }
            _ => self.inner.search_memory(app, user, query).await?,
        };
        Ok(found)
    }

    async fn search_memory_with(
        &self,
        app: &str,
        user: &str,
        query: &str,
        options: &SearchOptions,
    ) -> Result<SearchMemoryResponse, MemoryError> {
        let mut found = self.search_memory(app, user, query).await?;
        if let (Some(limit), false) = (
            options.limit,
            matches!(self.deviation, Deviation::LimitIgnored),
        ) {
            found.memories.truncate(limit);
        }
        Ok(found)
    }

    async fn add_events_to_memory(
        &self,
        app: &str,
        user: &str,
        session_id: Option<&str>,
        events: &[Event],
    ) -> Result<(), MemoryError> {
        match self.deviation {
            Deviation::DeltaReplaces => {
                let session =
                    Session::new(app, user, session_id.unwrap_or("__unknown_session_id__"))
                        .with_events(events.iter().cloned());
                self.inner.add_session_to_memory(&session).await
            }
            Deviation::DelayedWrites | Deviation::SlowWrites => {
                self.delay(DelayedWrite::Events {
                    app: app.to_owned(),
                    user: user.to_owned(),
                    session_id: session_id.map(str::to_owned),
                    events: events.to_vec(),
                });
                Ok(())
            }
            Deviation::NeverVisible => Ok(()),
            _ => {
                self.inner
                    .add_events_to_memory(app, user, session_id, events)
                    .await
            }
        }
    }

    async fn add_memory(
        &self,
        app: &str,
        user: &str,
        memories: &[MemoryEntry],
    ) -> Result<(), MemoryError> {
        match self.deviation {
            Deviation::MemoriesDropped | Deviation::NeverVisible => Ok(()),
            Deviation::DelayedWrites | Deviation::SlowWrites => {
                self.delay(DelayedWrite::Memories {
                    app: app.to_owned(),
                    user: user.to_owned(),
                    memories: memories.to_vec(),
                });
                Ok(())
            }
            _ => self.inner.add_memory(app, user, memories).await,
        }
    }

    async fn delete_memory(&self, app: &str, user: &str, id: &str) -> Result<(), MemoryError> {
        match self.deviation {
            Deviation::DeleteForgetsOnReadd => {
                // Rewrites each session without the memory: nothing remembers the deletion.
                let sessions: Vec<Session> = Self::lock(&self.sessions)
                    .iter()
                    .filter(|s| s.app_name == app && s.user_id == user)
                    .cloned()
                    .collect();
                for mut session in sessions {
                    session.events.retain(|e| e.id != id);
                    self.inner.add_session_to_memory(&session).await?;
                }
                Ok(())
            }
            Deviation::DeleteUnderEveryKey => {
                let keys: Vec<(String, String)> = Self::lock(&self.sessions)
                    .iter()
                    .map(|s| (s.app_name.clone(), s.user_id.clone()))
                    .collect();
                for (app, user) in keys {
                    self.inner.delete_memory(&app, &user, id).await?;
                }
                Ok(())
            }
            Deviation::NeverVisible => Ok(()),
            Deviation::DelayedWrites | Deviation::SlowWrites => {
                self.delay(DelayedWrite::Delete {
                    app: app.to_owned(),
                    user: user.to_owned(),
                    id: id.to_owned(),
                });
                Ok(())
            }
            _ => self.inner.delete_memory(app, user, id).await,
        }
    }
}

impl Deviant {
    /// The one string a joining deviant keys its store by.
    fn joined(&self, app: &str, user: &str) -> String {
        match self.deviation {
            Deviation::ColonJoinedKey => format!("{app}:{user}"),
            _ => format!("{app}{user}"),
        }
    }

    fn stored_non_text(&self, app: &str, user: &str) -> bool {
        Self::lock(&self.sessions)
            .iter()
            .filter(|s| s.app_name == app && s.user_id == user)
            .flat_map(|s| &s.events)
            .filter_map(|e| e.content.as_ref())
            .any(|c| c.parts.iter().any(|p| p.as_text().is_none()))
    }
}

/// `at` as Python's `datetime.fromtimestamp(t).isoformat()` writes it in UTC: the wall clock,
/// no offset, microseconds (rounded half to even) only when not zero.
fn naive_isoformat(at: memory_conformance::Timestamp) -> String {
    let nanos = at.as_nanosecond();
    let (micros, rest) = (nanos.div_euclid(1_000), nanos.rem_euclid(1_000));
    let micros = if rest > 500 || (rest == 500 && micros % 2 != 0) {
        micros + 1
    } else {
        micros
    };
    let rounded = memory_conformance::Timestamp::from_microsecond(micros as i64).unwrap_or(at);
    let civil = jiff::tz::Offset::UTC.to_datetime(rounded);
    let whole = civil.strftime("%Y-%m-%dT%H:%M:%S").to_string();
    match civil.subsec_nanosecond() / 1_000 {
        0 => whole,
        fraction => format!("{whole}.{fraction:06}"),
    }
}

/// How replicas over one storage go wrong. Each instance is a [`Replica`] on the
/// [`SharedStorage`] of its namespace; a replica searches what the storage held when it last
/// loaded it, with the reference's rules.
#[derive(Clone, Copy, Debug)]
pub enum ReplicaFault {
    /// Each instance keeps a copy of the stored sessions, loaded when it opens and again by
    /// every search, and saves its whole copy on every write: a write through an instance that
    /// has not searched since another instance wrote saves over that write.
    StaleCopyWriteBack,
    /// Each instance loads the stored sessions before a write and saves them after it, under
    /// its own lock only: writes through one instance never race, but writes through two at
    /// once each save without the other's.
    UncoordinatedWrites,
}

impl ReplicaFault {
    /// The profile the replicas claim: the reference's two calls, on a shared store.
    pub fn profile(self) -> Profile {
        let mut profile = Profile::reference().named("shared");
        profile.capabilities = Capabilities::default();
        profile.capabilities.shared = true;
        profile
    }
}

/// The storage every instance opened on one namespace shares: the sessions as last saved, in
/// the order first added.
#[derive(Clone, Default)]
pub struct SharedStorage(Arc<Mutex<Vec<Session>>>);

type Storages = Mutex<HashMap<memory_conformance::conformance::Namespace, SharedStorage>>;

impl SharedStorage {
    fn storages() -> &'static Storages {
        static STORAGES: std::sync::OnceLock<Storages> = std::sync::OnceLock::new();
        STORAGES.get_or_init(Storages::default)
    }

    /// The storage of `namespace`, empty when first asked for.
    pub fn of(namespace: &memory_conformance::conformance::Namespace) -> Self {
        Deviant::lock(Self::storages())
            .entry(namespace.clone())
            .or_default()
            .clone()
    }

    /// Removes the storage of `namespace` (the subject's cleanup).
    pub fn remove(namespace: &memory_conformance::conformance::Namespace) {
        Deviant::lock(Self::storages()).remove(namespace);
    }

    fn load(&self) -> Vec<Session> {
        Deviant::lock(&self.0).clone()
    }

    fn save(&self, sessions: Vec<Session>) {
        *Deviant::lock(&self.0) = sessions;
    }
}

/// One instance of a replicated backend with a [`ReplicaFault`].
pub struct Replica {
    fault: ReplicaFault,
    storage: SharedStorage,
    /// The sessions as this instance last loaded or wrote them.
    copy: tokio::sync::Mutex<Vec<Session>>,
}

impl Replica {
    /// An instance on `storage`, with its copy loaded.
    pub fn open(fault: ReplicaFault, storage: SharedStorage) -> Self {
        let copy = tokio::sync::Mutex::new(storage.load());
        Self {
            fault,
            storage,
            copy,
        }
    }
}

#[async_trait]
impl MemoryService for Replica {
    async fn add_session_to_memory(&self, session: &Session) -> Result<(), MemoryError> {
        let mut copy = self.copy.lock().await;
        if let ReplicaFault::UncoordinatedWrites = self.fault {
            *copy = self.storage.load();
            // The round trip to the storage, during which another instance may load too.
            tokio::time::sleep(std::time::Duration::from_millis(1)).await;
        }
        match copy
            .iter()
            .position(|s| s.key() == session.key() && s.id == session.id)
        {
            Some(i) => copy[i] = session.clone(),
            None => copy.push(session.clone()),
        }
        self.storage.save(copy.clone());
        Ok(())
    }

    async fn search_memory(
        &self,
        app: &str,
        user: &str,
        query: &str,
    ) -> Result<SearchMemoryResponse, MemoryError> {
        let sessions = {
            let mut copy = self.copy.lock().await;
            *copy = self.storage.load();
            copy.clone()
        };
        let loaded = InMemoryMemoryService::new();
        for session in &sessions {
            loaded.add_session_to_memory(session).await?;
        }
        loaded.search_memory(app, user, query).await
    }
}
