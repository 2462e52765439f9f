//! A scenario: the short script of adds and searches a rule runs against a backend, and what
//! each search must return. Failure reports print it as the reproduction.

use std::fmt;

use crate::conformance::display::{
    ContentDisplay, ContentsDisplay, EntriesDisplay, SessionDisplay, count,
};
use crate::{Content, Event, MemoryEntry, MemoryKey, Session};

/// A script of steps run in order against fresh backend instances of one namespace.
#[derive(Clone, Debug, Default)]
pub(crate) struct Scenario {
    pub(crate) steps: Vec<Step>,
}

/// One step of a [`Scenario`].
#[derive(Clone, Debug)]
pub(crate) enum Step {
    /// `add_session_to_memory` on the current instance.
    Add(Session),
    /// `search_memory` on the current instance, with what it must return.
    Search(Search),
    /// The `load_memory` tool, from a later session of the same user.
    LoadMemory {
        /// The session the tool runs in.
        session: MemoryKey,
        /// The tool's query.
        query: String,
        /// What the tool must return.
        expect: Vec<Expect>,
    },
    /// All these adds at once, from concurrent tasks.
    ConcurrentAdds(Vec<Session>),
    /// One task re-adds the versions in turn, `rounds` times, while another searches `query`:
    /// every search must see exactly one version's matches, never a mix.
    RacingReplace {
        versions: Vec<Session>,
        query: String,
        rounds: usize,
    },
    /// Opens another instance on the same storage; it becomes the current one.
    Open,
    /// Makes the instance opened `n`-th (from 0) the current one.
    Use(usize),
    /// Opens instances on the same storage until there are `n`, behind a round-robin load
    /// balancer: from the next step on, each step goes to the next instance in turn, the first
    /// to instance 0, and each add of a concurrent batch to the next (see
    /// [`routes`](super::round_robin::routes)). `Open`, `Use` and `Reopen` end it.
    Replicas(usize),
    /// Closes every instance, then opens a new one on the same storage.
    Reopen,
    /// `add_events_to_memory`: a delta of `events` for `session_id` (or none) under `key`.
    AddEvents {
        key: MemoryKey,
        session_id: Option<String>,
        events: Vec<Event>,
    },
    /// `add_memory`: explicit memories under `key`.
    AddMemories {
        key: MemoryKey,
        memories: Vec<MemoryEntry>,
    },
    /// Searches `find_with` under `key`, takes the id of the entry holding `content` and
    /// deletes it with `delete_memory`. Where the profile says the search must return that
    /// entry, not finding it fails the step; where the memory is gone already, the step
    /// deletes nothing.
    Delete {
        key: MemoryKey,
        find_with: String,
        content: Content,
    },
    /// `delete_memory(key, id)` with an id given outright (one no memory under `key` has).
    DeleteId { key: MemoryKey, id: String },
    /// Waits until every write so far must be visible under the profile's visibility bound
    /// (at once where writes show at once).
    Settle,
}

/// A search and its expectations.
#[derive(Clone, Debug)]
pub(crate) struct Search {
    pub(crate) key: MemoryKey,
    pub(crate) query: String,
    pub(crate) expect: Vec<Expect>,
    /// The result limit the search asks for (`search_memory_with`), if any.
    pub(crate) limit: Option<usize>,
}

/// A search step: `query` under `key`, with what it must return.
pub(crate) fn search(key: &MemoryKey, query: impl Into<String>, expect: Vec<Expect>) -> Step {
    Step::Search(Search {
        key: key.clone(),
        query: query.into(),
        expect,
        limit: None,
    })
}

/// A search step asking for at most `limit` entries.
pub(crate) fn search_limited(
    key: &MemoryKey,
    query: impl Into<String>,
    limit: usize,
    expect: Vec<Expect>,
) -> Step {
    Step::Search(Search {
        key: key.clone(),
        query: query.into(),
        expect,
        limit: Some(limit),
    })
}

/// What a search must return.
#[derive(Clone, Debug)]
pub(crate) enum Expect {
    /// What the oracle computes for the profile.
    Oracle,
    /// No entry at all.
    Nothing,
    /// Exactly these contents, in any order, each as often as listed.
    Contents(Vec<Content>),
    /// At least these contents.
    Includes(Vec<Content>),
    /// None of these contents.
    Excludes(Vec<Content>),
    /// No content more than once.
    NoDuplicates,
    /// Exactly these entries (content, author and timestamp), in any order.
    Entries(Vec<MemoryEntry>),
    /// Exactly this many entries.
    Count(usize),
    /// This content first.
    First(Content),
    /// Only entries stored under the key, none more often than it is stored, and no more than
    /// the limit: what can be checked where the profile computes no answer (semantic
    /// retrieval).
    Stored,
    /// Every entry carries an id; entries of different contents carry different ids; an entry
    /// carries the id the same content carried in every earlier search of the scenario.
    StableIds,
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Add(session) => write!(f, "add    {}", SessionDisplay(session)),
            Self::Search(search) => {
                write!(f, "search {} {:?}", search.key, search.query)?;
                if let Some(limit) = search.limit {
                    write!(f, " with limit {limit}")?;
                }
                write!(f, "  -> {}", ExpectDisplay(&search.expect))
            }
            Self::LoadMemory {
                session,
                query,
                expect,
            } => write!(
                f,
                "load_memory from a later session of {session} {query:?}  -> {}",
                ExpectDisplay(expect)
            ),
            Self::ConcurrentAdds(sessions) => {
                write!(f, "concurrently add {} sessions:", sessions.len())?;
                for session in sessions {
                    write!(f, "\n          {}", SessionDisplay(session))?;
                }
                Ok(())
            }
            Self::RacingReplace {
                versions,
                query,
                rounds,
            } => {
                write!(
                    f,
                    "re-add {} versions in turn {rounds} times while searching {query:?}:",
                    versions.len()
                )?;
                for session in versions {
                    write!(f, "\n          {}", SessionDisplay(session))?;
                }
                Ok(())
            }
            Self::Open => f.write_str("open another instance on the same storage"),
            Self::Use(n) => write!(f, "use instance {n}"),
            Self::Replicas(n) => write!(
                f,
                "open {n} instances on the same storage behind a round-robin load balancer"
            ),
            Self::Reopen => {
                f.write_str("close every instance and open a new one on the same storage")
            }
            Self::AddEvents {
                key,
                session_id,
                events,
            } => {
                let session = Session::new(
                    key.app_name.clone(),
                    key.user_id.clone(),
                    session_id.clone().unwrap_or_default(),
                )
                .with_events(events.iter().cloned());
                match session_id {
                    Some(_) => write!(f, "add events {}", SessionDisplay(&session)),
                    None => write!(
                        f,
                        "add events without a session id {}",
                        SessionDisplay(&session)
                    ),
                }
            }
            Self::AddMemories { key, memories } => {
                write!(
                    f,
                    "add memories {key} {}",
                    EntriesDisplay {
                        entries: memories,
                        with_metadata: true,
                    }
                )
            }
            Self::Delete {
                key,
                find_with,
                content,
            } => write!(
                f,
                "delete the memory {} found by {key} {find_with:?}",
                ContentDisplay(content)
            ),
            Self::DeleteId { key, id } => write!(f, "delete memory id {id:?} under {key}"),
            Self::Settle => f.write_str("wait until every write so far must show"),
        }
    }
}

struct ExpectDisplay<'a>(&'a [Expect]);

impl fmt::Display for ExpectDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, expect) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            match expect {
                Expect::Oracle => f.write_str("as the profile computes")?,
                Expect::Nothing => f.write_str("nothing")?,
                Expect::Contents(c) => write!(f, "exactly {}", ContentsDisplay(c))?,
                Expect::Includes(c) => write!(f, "includes {}", ContentsDisplay(c))?,
                Expect::Excludes(c) => write!(f, "none of {}", ContentsDisplay(c))?,
                Expect::NoDuplicates => f.write_str("no entry twice")?,
                Expect::Entries(e) => {
                    write!(f, "exactly {} with author and timestamp", count(e.len()))?
                }
                Expect::Count(n) => write!(f, "{}", count(*n))?,
                Expect::First(c) => write!(f, "{} first", ContentDisplay(c))?,
                Expect::StableIds => f.write_str("an id on every entry, stable and distinct")?,
                Expect::Stored => f.write_str("only entries stored under the key")?,
            }
        }
        Ok(())
    }
}
