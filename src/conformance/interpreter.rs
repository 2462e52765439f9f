//! The interpreter: runs a [`Scenario`] against fresh instances of a [`Subject`], step by
//! step. It only calls the backend (every call through the [call guard](super::call_guard))
//! and hands each answer to the [comparison](super::comparison) with the oracle's state.

use std::sync::Arc;
use std::time::Duration;

use super::call_guard::{guarded, panic_message};
use super::comparison::{check_search, is_one_version};
use super::mismatch::{Mismatch, Problem};
use super::namespace::Namespace;
use super::oracle::Oracle;
use super::scenario::{ContentsDisplay, Scenario, Search, Step};
use super::subject::Subject;
use crate::{Content, MemoryEntry, MemoryKey, MemoryService, Session, ToolContext, load_memory};

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
        oracle: Oracle::new(subject.profile()),
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
    oracle: Oracle,
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

    fn compare(&self, search: &Search, actual: &[MemoryEntry]) -> Result<(), Problem> {
        check_search(search, actual, &self.oracle, &self.subject.profile().name)
    }

    async fn step(&mut self, step: &Step) -> Result<(), Problem> {
        match step {
            Step::Add(session) => {
                add(self.backend(), session.clone(), self.timeout()).await?;
                self.oracle.add(session);
            }
            Step::Search(search) => {
                let actual = self.search(&search.key, &search.query).await?;
                self.compare(search, &actual)?;
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
                self.compare(&search, &loaded.memories)?;
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
                sessions.iter().for_each(|session| self.oracle.add(session));
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

    /// One task re-adds the versions in turn while this one searches twice during each re-add:
    /// every answer must be exactly one version's matching entries.
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
                let mut oracle = Oracle::new(self.subject.profile());
                oracle.add(v);
                oracle.search(&key.app_name, &key.user_id, query).contents
            })
            .collect();
        // The writer says before each re-add that it starts one; the searcher answers each with
        // two searches, while the re-add is in flight. A seed so sends the same calls in every
        // build and on every machine, and every re-add is searched across.
        let (started, mut starts) = tokio::sync::mpsc::unbounded_channel();
        let writer = {
            let (backend, versions, timeout) = (self.backend(), versions.to_vec(), self.timeout());
            tokio::spawn(async move {
                for round in 0..rounds {
                    let _ = started.send(round);
                    add(
                        Arc::clone(&backend),
                        versions[(round + 1) % versions.len()].clone(),
                        timeout,
                    )
                    .await?;
                }
                Ok::<(), Problem>(())
            })
        };
        let mut search = 0;
        while starts.recv().await.is_some() {
            for _ in 0..2 {
                search += 1;
                let actual = self.search(&key, query).await?;
                if !is_one_version(&expected, &actual) {
                    writer.abort();
                    let versions: Vec<String> = expected
                        .iter()
                        .map(|v| ContentsDisplay(v).to_string())
                        .collect();
                    return Err(Problem::Unexpected {
                        expected: format!(
                            "exactly one version's entries: {}",
                            versions.join(" or ")
                        ),
                        why: format!(
                            "a search during re-adds saw a mix of versions (search {search})"
                        ),
                        actual,
                        with_metadata: false,
                    });
                }
                tokio::task::yield_now().await;
            }
        }
        writer.await.map_err(|err| Problem::Panicked {
            op: "a re-add".into(),
            message: panic_message(err.into_panic()),
        })??;
        self.oracle.add(&versions[rounds % versions.len()]);
        Ok(())
    }
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
