//! Runs a [`Scenario`] against fresh instances of a [`Subject`], step by step, checking every
//! search; every backend call is bounded by the subject's timeout and shielded from panics.

use std::any::Any;
use std::fmt;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use super::profile_model::{ProfileModel, multiset_includes};
use super::scenario::{ContentsDisplay, EntriesDisplay, Expect, Scenario, Search, Step};
use super::subject::{Namespace, Subject};
use crate::{
    Content, MemoryEntry, MemoryError, MemoryKey, MemoryService, Session, ToolContext, load_memory,
};

/// Where and how a scenario went wrong.
#[derive(Clone, Debug)]
pub(crate) struct Mismatch {
    /// The 1-based step number.
    pub(crate) step: usize,
    pub(crate) problem: Problem,
}

#[derive(Clone, Debug)]
pub(crate) enum Problem {
    /// A search returned the wrong entries.
    Unexpected {
        expected: String,
        why: String,
        actual: Vec<MemoryEntry>,
        with_metadata: bool,
    },
    /// The backend returned an error.
    Failed { op: String, error: String },
    /// The backend did not answer in time.
    TimedOut { op: String, after: Duration },
    /// The backend panicked.
    Panicked { op: String, message: String },
}

impl Problem {
    /// Whether re-running smaller cases could take as long again (not worth shrinking).
    pub(crate) fn is_hang(&self) -> bool {
        matches!(self, Self::TimedOut { .. })
    }
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "step {}: ", self.step)?;
        match &self.problem {
            Problem::Unexpected {
                expected,
                why,
                actual,
                with_metadata,
            } => {
                writeln!(f, "{why}")?;
                writeln!(f, "    expected: {expected}")?;
                write!(
                    f,
                    "    actual:   {} {}",
                    count(actual.len()),
                    EntriesDisplay {
                        entries: actual,
                        with_metadata: *with_metadata
                    }
                )
            }
            Problem::Failed { op, error } => write!(f, "{op} failed: {error}"),
            Problem::TimedOut { op, after } => {
                write!(
                    f,
                    "{op} did not answer within {after:?} (the per-call timeout)"
                )
            }
            Problem::Panicked { op, message } => write!(f, "{op} panicked: {message}"),
        }
    }
}

pub(crate) fn count(n: usize) -> String {
    if n == 1 {
        "1 entry".into()
    } else {
        format!("{n} entries")
    }
}

/// Runs `scenario` on a fresh namespace of `subject`, then lets the subject clean it up.
pub(crate) async fn run(subject: &Subject, scenario: &Scenario) -> Result<(), Mismatch> {
    let namespace = Namespace::fresh();
    let result = run_in(subject, scenario, namespace.clone()).await;
    subject.clean(&namespace);
    result
}

async fn run_in(
    subject: &Subject,
    scenario: &Scenario,
    namespace: Namespace,
) -> Result<(), Mismatch> {
    let mut run = Run {
        subject,
        namespace,
        instances: Vec::new(),
        current: 0,
        model: ProfileModel::new(subject.profile()),
    };
    let first = run
        .open()
        .await
        .map_err(|problem| Mismatch { step: 0, problem })?;
    run.instances.push(first);
    for (i, step) in scenario.steps.iter().enumerate() {
        run.step(step).await.map_err(|problem| Mismatch {
            step: i + 1,
            problem,
        })?;
    }
    Ok(())
}

struct Run<'a> {
    subject: &'a Subject,
    namespace: Namespace,
    instances: Vec<Arc<dyn MemoryService>>,
    current: usize,
    model: ProfileModel,
}

impl Run<'_> {
    fn backend(&self) -> Arc<dyn MemoryService> {
        Arc::clone(&self.instances[self.current])
    }

    fn timeout(&self) -> Duration {
        self.subject.options.op_timeout
    }

    async fn open(&self) -> Result<Arc<dyn MemoryService>, Problem> {
        let opened = guarded(self.timeout(), || "opening an instance".into(), async {
            Ok(self.subject.open(&self.namespace).await)
        });
        opened.await
    }

    async fn step(&mut self, step: &Step) -> Result<(), Problem> {
        match step {
            Step::Add(session) => {
                add(self.backend(), session.clone(), self.timeout()).await?;
                self.model.add(session);
            }
            Step::Search(search) => {
                let actual = self.search(&search.key, &search.query).await?;
                self.check(search, &actual)?;
            }
            Step::LoadMemory {
                session,
                query,
                expect,
            } => {
                let context = ToolContext::new(session.app_name.clone(), session.user_id.clone())
                    .with_memory(self.backend());
                let op = || format!("load_memory({query:?}) in a session of {session}");
                let loaded = guarded(self.timeout(), op, load_memory(query, &context)).await?;
                let search = Search {
                    key: session.clone(),
                    query: query.clone(),
                    expect: expect.clone(),
                };
                self.check(&search, &loaded.memories)?;
            }
            Step::ConcurrentAdds(sessions) => {
                let mut tasks = tokio::task::JoinSet::new();
                for session in sessions {
                    tasks.spawn(add(self.backend(), session.clone(), self.timeout()));
                }
                while let Some(joined) = tasks.join_next().await {
                    joined.map_err(|err| Problem::Panicked {
                        op: "a concurrent add".into(),
                        message: panic_message(err.into_panic()),
                    })??;
                }
                sessions.iter().for_each(|session| self.model.add(session));
            }
            Step::RacingReplace {
                versions,
                query,
                rounds,
            } => self.race(versions, query, *rounds).await?,
            Step::Open => {
                let instance = self.open().await?;
                self.instances.push(instance);
                self.current = self.instances.len() - 1;
            }
            Step::Use(n) => self.current = (*n).min(self.instances.len() - 1),
            Step::Reopen => {
                self.instances.clear();
                let instance = self.open().await?;
                self.instances.push(instance);
                self.current = 0;
            }
        }
        Ok(())
    }

    async fn search(&self, key: &MemoryKey, query: &str) -> Result<Vec<MemoryEntry>, Problem> {
        let op = || format!("search_memory({key}, {query:?})");
        let backend = self.backend();
        let found = guarded(
            self.timeout(),
            op,
            backend.search_memory(&key.app_name, &key.user_id, query),
        );
        Ok(found.await?.memories)
    }

    fn check(&self, search: &Search, actual: &[MemoryEntry]) -> Result<(), Problem> {
        for expect in &search.expect {
            if let Err((expected, why)) = self.check_one(expect, search, actual) {
                return Err(Problem::Unexpected {
                    expected,
                    why,
                    actual: actual.to_vec(),
                    with_metadata: matches!(expect, Expect::Entries(_)),
                });
            }
        }
        Ok(())
    }

    fn check_one(
        &self,
        expect: &Expect,
        search: &Search,
        actual: &[MemoryEntry],
    ) -> Result<(), (String, String)> {
        let contents: Vec<&Content> = actual.iter().map(|e| &e.content).collect();
        let listed = |c: &[Content]| ContentsDisplay(c).to_string();
        match expect {
            Expect::Model => {
                let expected =
                    self.model
                        .search(&search.key.app_name, &search.key.user_id, &search.query);
                expected.check(actual).map_err(|why| {
                    let profile = &self.subject.profile().name;
                    let list = if expected.contents.is_empty() {
                        String::new()
                    } else {
                        format!(" {}", listed(&expected.contents))
                    };
                    (
                        format!(
                            "{}{list} (as profile {profile:?} computes)",
                            expected.describe()
                        ),
                        why,
                    )
                })
            }
            Expect::Nothing => ensure(actual.is_empty(), || {
                ("nothing".into(), "entries where none belong".into())
            }),
            Expect::Contents(expected) => {
                let expected_refs: Vec<&Content> = expected.iter().collect();
                let equal =
                    expected.len() == actual.len() && multiset_includes(&contents, &expected_refs);
                ensure(equal, || {
                    (
                        format!("exactly {}", listed(expected)),
                        "different entries".into(),
                    )
                })
            }
            Expect::Includes(expected) => {
                let expected_refs: Vec<&Content> = expected.iter().collect();
                ensure(multiset_includes(&contents, &expected_refs), || {
                    (
                        format!("at least {}", listed(expected)),
                        "missing entries".into(),
                    )
                })
            }
            Expect::Excludes(excluded) => {
                ensure(!contents.iter().any(|c| excluded.contains(c)), || {
                    (
                        format!("none of {}", listed(excluded)),
                        "entries that should be gone or elsewhere".into(),
                    )
                })
            }
            Expect::NoDuplicates => {
                let duplicated = contents
                    .iter()
                    .enumerate()
                    .any(|(i, c)| contents[..i].contains(c));
                ensure(!duplicated, || {
                    (
                        "no entry twice".into(),
                        "the same entry more than once".into(),
                    )
                })
            }
            Expect::Entries(expected) => {
                let mut remaining: Vec<&MemoryEntry> = expected.iter().collect();
                let all_found = actual.len() == expected.len()
                    && actual.iter().all(|entry| {
                        let slot = remaining.iter().position(|e| *e == entry);
                        slot.map(|i| remaining.swap_remove(i)).is_some()
                    });
                ensure(all_found, || {
                    let what = EntriesDisplay {
                        entries: expected,
                        with_metadata: true,
                    };
                    (
                        format!("exactly {what}"),
                        "entries whose content, author or timestamp differ".into(),
                    )
                })
            }
            Expect::Count(n) => ensure(actual.len() == *n, || {
                (count(*n), "a different number of entries".into())
            }),
            Expect::First(first) => ensure(contents.first() == Some(&first), || {
                (
                    format!("{} first", listed(std::slice::from_ref(first))),
                    "another entry ranked first".into(),
                )
            }),
        }
    }

    /// One task re-adds the versions in turn while this one searches: every answer must be
    /// exactly one version's matching entries.
    async fn race(
        &mut self,
        versions: &[Session],
        query: &str,
        rounds: usize,
    ) -> Result<(), Problem> {
        let Some(first) = versions.first() else {
            return Ok(());
        };
        add(self.backend(), first.clone(), self.timeout()).await?;
        let key = first.key();
        let expected: Vec<Vec<Content>> = versions
            .iter()
            .map(|v| {
                let mut model = ProfileModel::new(self.subject.profile());
                model.add(v);
                model.search(&key.app_name, &key.user_id, query).contents
            })
            .collect();
        let writer = {
            let (backend, versions, timeout) = (self.backend(), versions.to_vec(), self.timeout());
            tokio::spawn(async move {
                for round in 0..rounds {
                    add(
                        Arc::clone(&backend),
                        versions[(round + 1) % versions.len()].clone(),
                        timeout,
                    )
                    .await?;
                    tokio::task::yield_now().await;
                }
                Ok::<(), Problem>(())
            })
        };
        let mut searches = 0;
        while !writer.is_finished() || searches < rounds {
            let actual = self.search(&key, query).await?;
            let contents: Vec<&Content> = actual.iter().map(|e| &e.content).collect();
            let whole = expected.iter().any(|version| {
                let refs: Vec<&Content> = version.iter().collect();
                refs.len() == contents.len() && multiset_includes(&contents, &refs)
            });
            if !whole {
                writer.abort();
                let versions: Vec<String> = expected
                    .iter()
                    .map(|v| ContentsDisplay(v).to_string())
                    .collect();
                return Err(Problem::Unexpected {
                    expected: format!("exactly one version's entries: {}", versions.join(" or ")),
                    why: format!(
                        "a search during re-adds saw a mix of versions (search {})",
                        searches + 1
                    ),
                    actual,
                    with_metadata: false,
                });
            }
            searches += 1;
            tokio::task::yield_now().await;
        }
        writer.await.map_err(|err| Problem::Panicked {
            op: "a re-add".into(),
            message: panic_message(err.into_panic()),
        })??;
        self.model.add(&versions[rounds % versions.len()]);
        Ok(())
    }
}

fn ensure(ok: bool, otherwise: impl FnOnce() -> (String, String)) -> Result<(), (String, String)> {
    if ok { Ok(()) } else { Err(otherwise()) }
}

async fn add(
    backend: Arc<dyn MemoryService>,
    session: Session,
    timeout: Duration,
) -> Result<(), Problem> {
    let op = || {
        format!(
            "add_session_to_memory({} session {:?})",
            session.key(),
            session.id
        )
    };
    guarded(timeout, op, backend.add_session_to_memory(&session)).await
}

/// Runs a backend call with a timeout, turning errors and panics into [`Problem`]s.
/// `op` describes the call, and is only asked for when something went wrong.
async fn guarded<'f, T>(
    timeout: Duration,
    op: impl FnOnce() -> String,
    call: impl Future<Output = Result<T, MemoryError>> + Send + 'f,
) -> Result<T, Problem> {
    let caught = CatchUnwind(Box::pin(call));
    match tokio::time::timeout(timeout, caught).await {
        Err(_) => Err(Problem::TimedOut {
            op: op(),
            after: timeout,
        }),
        Ok(Err(payload)) => Err(Problem::Panicked {
            op: op(),
            message: panic_message(payload),
        }),
        Ok(Ok(Err(error))) => Err(Problem::Failed {
            op: op(),
            error: error_chain(&error),
        }),
        Ok(Ok(Ok(value))) => Ok(value),
    }
}

/// An error and its sources, joined with `: `.
fn error_chain(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

pub(crate) fn panic_message(payload: Box<dyn Any + Send>) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic with a non-text payload".into())
}

/// A future that turns a panic while polling into an `Err` holding the panic's payload.
struct CatchUnwind<'f, T>(Pin<Box<dyn Future<Output = T> + Send + 'f>>);

impl<T> Future for CatchUnwind<'_, T> {
    type Output = Result<T, Box<dyn Any + Send>>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let inner = self.0.as_mut();
        match std::panic::catch_unwind(AssertUnwindSafe(|| inner.poll(cx))) {
            Ok(Poll::Pending) => Poll::Pending,
            Ok(Poll::Ready(value)) => Poll::Ready(Ok(value)),
            Err(payload) => Poll::Ready(Err(payload)),
        }
    }
}
