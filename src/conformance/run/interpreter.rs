//! The interpreter: runs a [`Scenario`] against fresh instances of a [`Subject`], step by
//! step. It only calls the backend (every call through the [call guard](super::call_guard))
//! and hands each answer to the [comparison](crate::conformance::judge::comparison) with the
//! oracle's state.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::call_guard::{guarded, panic_message};
use super::field_watch::FieldWatch;
use super::settling::{Overdue, POLL_INTERVAL, Settling};
use super::transcript::Transcript;
use crate::conformance::declare::namespace::Namespace;
use crate::conformance::declare::subject::Subject;
use crate::conformance::display::{ContentDisplay, ContentsDisplay};
use crate::conformance::generate::round_robin;
use crate::conformance::generate::scenario::{Expect, Scenario, Search, Step};
use crate::conformance::judge::comparison::{check_search, is_one_version, must_find};
use crate::conformance::judge::identity::same_entry;
use crate::conformance::judge::mismatch::{Mismatch, Problem};
use crate::conformance::judge::oracle::Oracle;
use crate::profile::Strings;
use crate::{
    Content, MemoryEntry, MemoryKey, MemoryService, SearchOptions, Session, ToolContext,
    load_memory,
};

/// What a scenario run measured besides passing.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct RunStats {
    /// Where the profile declares delayed visibility: the longest a search waited after a
    /// write before it saw what the write added.
    pub(crate) slowest_write: Option<Duration>,
    /// Where the profile declares delayed visibility: the longest the harness's own timers
    /// ran late while it waited (the machine's scheduling delay, allowed on top of the bound).
    pub(crate) scheduling_delay: Option<Duration>,
}

/// A failed run: where it went wrong, and what the backend answered before.
pub(crate) type Failed = (Mismatch, Transcript);

/// Runs `scenario` on a fresh namespace of `subject`, then lets the subject clean it up.
pub(crate) async fn run(subject: &Subject, scenario: &Scenario) -> Result<RunStats, Failed> {
    let namespace = Namespace::fresh();
    let result = run_in(subject, scenario, namespace.clone()).await;
    subject.clean(&namespace);
    result
}

async fn run_in(
    subject: &Subject,
    scenario: &Scenario,
    namespace: Namespace,
) -> Result<RunStats, Failed> {
    let mut run = Run {
        subject,
        namespace,
        instances: Vec::new(),
        current: 0,
        oracle: Oracle::with_embedder(subject.profile(), subject.embedder()),
        ids: Vec::new(),
        settling: Settling::new(subject.profile().visibility.bound()),
        stats: RunStats::default(),
        transcript: Transcript::default(),
        at: 0,
        fields: FieldWatch::default(),
    };
    let first = run.open().await.map_err(|problem| {
        let step = 0;
        (Mismatch { step, problem }, Transcript::default())
    })?;
    run.instances.push(first);
    let routes = round_robin::routes(&scenario.steps);
    let strings = subject.profile().strings;
    for (i, (step, route)) in scenario.steps.iter().zip(routes).enumerate() {
        if let Some(&instance) = route.as_ref().and_then(|r| r.first()) {
            run.current = instance.min(run.instances.len() - 1);
        }
        let mismatch = |problem| Mismatch {
            step: i + 1,
            problem,
        };
        run.at = i + 1;
        run.fields.before(i + 1, step);
        match run.step(step, route.as_deref()).await {
            Ok(()) => {}
            // A stated departure from R7.any-string: a call carrying a string the profile
            // says the store refuses may fail with an error (never panic or hang), which ends
            // the case.
            Err(Problem::Failed { .. }) if may_refuse(strings, step) => {
                return Ok(run.stats());
            }
            Err(problem) => return Err((mismatch(problem), run.transcript)),
        }
    }
    Ok(run.stats())
}

/// Whether the store may refuse `step` with an error under `strings`.
pub(crate) fn may_refuse(strings: Strings, step: &Step) -> bool {
    match strings {
        Strings::WithoutNul => carries_nul(step),
        Strings::WithoutNulOrEmptyKey => carries_nul(step) || has_empty_key(step),
        _ => false,
    }
}

/// Whether `step` is a call under an empty app name or user id.
fn has_empty_key(step: &Step) -> bool {
    let empty = |app: &str, user: &str| app.is_empty() || user.is_empty();
    let key = |key: &MemoryKey| empty(&key.app_name, &key.user_id);
    let sessions = |sessions: &[Session]| sessions.iter().any(|s| empty(&s.app_name, &s.user_id));
    match step {
        Step::Add(session) => sessions(std::slice::from_ref(session)),
        Step::ConcurrentAdds(all) | Step::RacingReplace { versions: all, .. } => sessions(all),
        Step::Search(search) => key(&search.key),
        Step::LoadMemory { session, .. } => key(session),
        Step::AddEvents { key: k, .. }
        | Step::AddMemories { key: k, .. }
        | Step::Delete { key: k, .. }
        | Step::DeleteId { key: k, .. } => key(k),
        Step::Open | Step::Use(_) | Step::Reopen | Step::Replicas(_) | Step::Settle => false,
    }
}

/// Whether any string of `step` (a key, a session or event id, an author, a text, a query, a
/// tool's name or data) holds U+0000.
fn carries_nul(step: &Step) -> bool {
    fn any_nul(value: &serde_json::Value) -> bool {
        match value {
            serde_json::Value::String(s) => s.contains('\0'),
            serde_json::Value::Array(items) => items.iter().any(any_nul),
            serde_json::Value::Object(fields) => {
                fields.iter().any(|(k, v)| k.contains('\0') || any_nul(v))
            }
            _ => false,
        }
    }
    let nul = |value: serde_json::Result<serde_json::Value>| value.is_ok_and(|v| any_nul(&v));
    let key = |key: &MemoryKey| key.app_name.contains('\0') || key.user_id.contains('\0');
    match step {
        Step::Add(session) => nul(serde_json::to_value(session)),
        Step::Search(search) => key(&search.key) || search.query.contains('\0'),
        Step::LoadMemory { session, query, .. } => key(session) || query.contains('\0'),
        Step::ConcurrentAdds(sessions) => nul(serde_json::to_value(sessions)),
        Step::RacingReplace {
            versions, query, ..
        } => nul(serde_json::to_value(versions)) || query.contains('\0'),
        Step::Open | Step::Use(_) | Step::Reopen | Step::Replicas(_) | Step::Settle => false,
        Step::AddEvents {
            key: k,
            session_id,
            events,
        } => {
            key(k)
                || session_id.as_deref().is_some_and(|id| id.contains('\0'))
                || nul(serde_json::to_value(events))
        }
        Step::AddMemories { key: k, memories } => key(k) || nul(serde_json::to_value(memories)),
        Step::Delete {
            key: k,
            find_with,
            content,
        } => key(k) || find_with.contains('\0') || nul(serde_json::to_value(content)),
        Step::DeleteId { key: k, id } => key(k) || id.contains('\0'),
    }
}

/// How a search step reaches the backend.
#[derive(Clone, Copy, Debug)]
enum Through {
    /// `search_memory`, or `search_memory_with` with the step's limit.
    Search,
    /// The `load_memory` tool, from a later session of the key's user.
    Tool,
}

struct Run<'a> {
    subject: &'a Subject,
    namespace: Namespace,
    instances: Vec<Arc<dyn MemoryService>>,
    current: usize,
    oracle: Oracle,
    /// The id each content carried under each key when first returned.
    ids: Vec<(MemoryKey, Content, String)>,
    /// When the writes so far must show, where the profile declares delayed visibility.
    settling: Settling,
    stats: RunStats,
    /// What the searches answered, and the step running (1-based).
    transcript: Transcript,
    at: usize,
    /// Every field of every entry, after the steps that can change one.
    fields: FieldWatch,
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

    fn compare(&mut self, search: &Search, actual: &[MemoryEntry]) -> Result<(), Problem> {
        check_search(search, actual, &self.oracle, &self.subject.profile().name)?;
        if search.expect.iter().any(|e| matches!(e, Expect::StableIds)) {
            self.check_ids(&search.key, actual)?;
        }
        Ok(())
    }

    /// Every entry carries an id, distinct contents distinct ids, and each content the id it
    /// carried before under the same key.
    fn check_ids(&mut self, key: &MemoryKey, actual: &[MemoryEntry]) -> Result<(), Problem> {
        let unexpected = |why: String| Problem::Unexpected {
            expected: "an id on every entry, the same for the same memory in every search, \
                       different for different memories"
                .into(),
            why,
            actual: actual.to_vec(),
            with_metadata: true,
        };
        let mut seen: HashMap<&str, &Content> = HashMap::new();
        for entry in actual {
            let Some(id) = entry.id.as_deref() else {
                return Err(unexpected(format!(
                    "the entry {} carries no id",
                    ContentDisplay(&entry.content)
                )));
            };
            if let Some(other) = seen.insert(id, &entry.content)
                && !same_entry(other, &entry.content)
            {
                return Err(unexpected(format!(
                    "two different memories carry the id {id:?}"
                )));
            }
            let before = self
                .ids
                .iter()
                .find(|(k, c, _)| k == key && same_entry(c, &entry.content))
                .map(|(_, _, before)| before);
            match before {
                Some(before) if before != id => {
                    return Err(unexpected(format!(
                        "the entry {} carried the id {before:?} in an earlier search, now {id:?}",
                        ContentDisplay(&entry.content)
                    )));
                }
                Some(_) => {}
                None => {
                    self.ids
                        .push((key.clone(), entry.content.clone(), id.to_owned()));
                }
            }
        }
        Ok(())
    }

    /// Notes that a write returned, for the visibility bound.
    fn wrote(&mut self) {
        self.settling.wrote();
    }

    fn stats(&self) -> RunStats {
        RunStats {
            scheduling_delay: self.settling.scheduling_delay(),
            ..self.stats
        }
    }

    /// Whether `search` can only check that something is absent: a backend that indexes
    /// later would pass it too early, so it waits out the visibility bound first.
    fn checks_absence_only(&self, search: &Search) -> bool {
        search.expect.iter().all(|expect| match expect {
            Expect::Nothing | Expect::Excludes(_) | Expect::NoDuplicates | Expect::Stored => true,
            Expect::Count(n) => *n == 0,
            Expect::Oracle => self
                .oracle
                .search(&search.key.app_name, &search.key.user_id, &search.query)
                .contents
                .is_empty(),
            _ => false,
        })
    }

    /// Runs a search step: at once, or under delayed visibility by waiting out the bound
    /// before a search that checks absence, and by repeating any other until it holds. Under
    /// delayed visibility a search fails only when it and the one repeated after it were both
    /// sent after the bound ([`Settling`]).
    async fn observe(&mut self, search: &Search, through: Through) -> Result<(), Problem> {
        let absence_only = self.settling.is_delayed() && self.checks_absence_only(search);
        if absence_only {
            self.settling.wait_out().await;
        }
        let waiting = self.settling.settled_at().is_some();
        let mut first_overdue = None;
        loop {
            let sent = Instant::now();
            let actual = self.fetch(search, through).await?;
            let problem = match self.compare(search, &actual) {
                Ok(()) => {
                    let (subject, oracle) = (self.subject, &self.oracle);
                    (self.fields.check(subject, oracle, search, &actual, self.at)).await?;
                    if waiting && let Some(waited) = self.settling.since_write() {
                        let slowest = self.stats.slowest_write.get_or_insert(waited);
                        *slowest = (*slowest).max(waited);
                    }
                    self.transcript.answered(self.at, actual);
                    return Ok(());
                }
                Err(problem) => problem,
            };
            if let Some(late) = self.settled_late(sent, &mut first_overdue) {
                return Err(late.annotate(problem));
            }
            self.settling.pause(POLL_INTERVAL).await;
        }
    }

    /// Under delayed visibility, `Some` when a search sent at `sent` missed what it should
    /// have seen for the second time in a row after the bound: a first such miss is kept in
    /// `first` and the caller asks again. Without delayed visibility, or before any write,
    /// every miss is final.
    fn settled_late(&self, sent: Instant, first: &mut Option<Overdue>) -> Option<Late> {
        if !self.settling.is_delayed() || self.settling.since_write().is_none() {
            return Some(Late(None));
        }
        let now = self.settling.overdue(sent)?;
        first
            .replace(now)
            .map(|earlier| Late(Some(self.settling.describe(earlier, now))))
    }

    /// Runs `step` on the current instance; the adds of a concurrent batch behind a load
    /// balancer go to the instances `route` names, one an add.
    async fn step(&mut self, step: &Step, route: Option<&[usize]>) -> Result<(), Problem> {
        match step {
            Step::Add(session) => {
                add(self.backend(), session, self.timeout()).await?;
                self.oracle.add(session);
                self.wrote();
            }
            Step::Search(search) => self.observe(search, Through::Search).await?,
            Step::AddEvents {
                key,
                session_id,
                events,
            } => {
                let op = || {
                    format!(
                        "add_events_to_memory({key}, {session_id:?}, {} events)",
                        events.len()
                    )
                };
                let backend = self.backend();
                let call = backend.add_events_to_memory(
                    &key.app_name,
                    &key.user_id,
                    session_id.as_deref(),
                    events,
                );
                guarded(self.timeout(), op, call).await?;
                self.oracle
                    .add_events(&key.app_name, &key.user_id, session_id.as_deref(), events);
                self.wrote();
            }
            Step::AddMemories { key, memories } => {
                let op = || format!("add_memory({key}, {} memories)", memories.len());
                let backend = self.backend();
                let call = backend.add_memory(&key.app_name, &key.user_id, memories);
                guarded(self.timeout(), op, call).await?;
                self.oracle
                    .add_memories(&key.app_name, &key.user_id, memories);
                self.wrote();
            }
            Step::Delete {
                key,
                find_with,
                content,
            } => self.delete(key, find_with, content).await?,
            Step::DeleteId { key, id } => {
                self.delete_id(key, id).await?;
            }
            Step::LoadMemory {
                session,
                query,
                expect,
            } => {
                let search = Search {
                    key: session.clone(),
                    query: query.clone(),
                    expect: expect.clone(),
                    limit: None,
                };
                self.observe(&search, Through::Tool).await?;
            }
            Step::ConcurrentAdds(sessions) => {
                let mut tasks = tokio::task::JoinSet::new();
                for (i, session) in sessions.iter().enumerate() {
                    let backend = match route.and_then(|r| r.get(i)) {
                        Some(&n) => Arc::clone(&self.instances[n.min(self.instances.len() - 1)]),
                        None => self.backend(),
                    };
                    let (session, timeout) = (session.clone(), self.timeout());
                    tasks.spawn(async move { add(backend, &session, timeout).await });
                }
                while let Some(joined) = tasks.join_next().await {
                    joined.map_err(|err| Problem::Panicked {
                        op: "a concurrent add".into(),
                        message: panic_message(err.into_panic()),
                    })??;
                }
                sessions.iter().for_each(|session| self.oracle.add(session));
                self.wrote();
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
            Step::Replicas(n) => {
                while self.instances.len() < *n {
                    let instance = self.open().await?;
                    self.instances.push(instance);
                }
            }
            Step::Reopen => {
                self.instances.clear();
                let instance = self.open().await?;
                self.instances.push(instance);
                self.current = 0;
            }
            Step::Settle => self.settling.wait_out().await,
        }
        Ok(())
    }

    /// The entries `search` returns, through the memory service or the `load_memory` tool.
    async fn fetch(&self, search: &Search, through: Through) -> Result<Vec<MemoryEntry>, Problem> {
        match through {
            Through::Search => self.search(search).await,
            Through::Tool => {
                let (key, query) = (&search.key, &search.query);
                let context = ToolContext::new(key.app_name.clone(), key.user_id.clone())
                    .with_memory(self.backend());
                let op = || format!("load_memory({query:?}) in a session of {key}");
                let loaded = guarded(self.timeout(), op, load_memory(query, &context)).await?;
                Ok(loaded.memories)
            }
        }
    }

    async fn search(&self, search: &Search) -> Result<Vec<MemoryEntry>, Problem> {
        match search.limit {
            None => self.search_plain(&search.key, &search.query).await,
            Some(limit) => {
                let (key, query) = (&search.key, &search.query);
                let op = || format!("search_memory_with({key}, {query:?}, limit {limit})");
                let backend = self.backend();
                let options = SearchOptions::with_limit(limit);
                let call = backend.search_memory_with(&key.app_name, &key.user_id, query, &options);
                Ok(guarded(self.timeout(), op, call).await?.memories)
            }
        }
    }

    async fn search_plain(
        &self,
        key: &MemoryKey,
        query: &str,
    ) -> Result<Vec<MemoryEntry>, Problem> {
        let op = || format!("search_memory({key}, {query:?})");
        let backend = self.backend();
        let found = guarded(
            self.timeout(),
            op,
            backend.search_memory(&key.app_name, &key.user_id, query),
        );
        Ok(found.await?.memories)
    }

    /// Finds the memory holding `content` with `find_with` and deletes it by its id. The
    /// search must return it where the profile says so (with delayed visibility, once it
    /// shows); where the profile says it is gone already, nothing is deleted.
    async fn delete(
        &mut self,
        key: &MemoryKey,
        find_with: &str,
        content: &Content,
    ) -> Result<(), Problem> {
        let must_find = must_find(
            self.subject.profile(),
            &self.oracle,
            key,
            find_with,
            content,
        );
        let mut first_overdue = None;
        let mut late = Late(None);
        let found = loop {
            let sent = Instant::now();
            let found = self.search_plain(key, find_with).await?;
            let hit = found
                .iter()
                .find(|e| same_entry(&e.content, content))
                .cloned();
            if hit.is_some() || !must_find {
                break (hit, found);
            }
            if let Some(missed) = self.settled_late(sent, &mut first_overdue) {
                late = missed;
                break (hit, found);
            }
            self.settling.pause(POLL_INTERVAL).await;
        };
        let (hit, actual) = found;
        match hit {
            Some(entry) => {
                let Some(id) = entry.id.clone() else {
                    return Err(Problem::Unexpected {
                        expected: "an id on the entry to delete".into(),
                        why: format!(
                            "the entry {} carries no id, so it cannot be deleted",
                            ContentDisplay(content)
                        ),
                        actual: vec![entry],
                        with_metadata: true,
                    });
                };
                self.delete_id(key, &id).await?;
                self.oracle
                    .forget(&key.app_name, &key.user_id, &id, content);
            }
            None if must_find => {
                return Err(late.annotate(Problem::Unexpected {
                    expected: format!(
                        "the memory to delete, {}, among the entries",
                        ContentDisplay(content)
                    ),
                    why: format!("searching {find_with:?} did not return the memory to delete"),
                    actual,
                    with_metadata: true,
                }));
            }
            None => {}
        }
        self.transcript.answered(self.at, actual);
        Ok(())
    }

    async fn delete_id(&mut self, key: &MemoryKey, id: &str) -> Result<(), Problem> {
        let op = || format!("delete_memory({key}, {id:?})");
        let backend = self.backend();
        let call = backend.delete_memory(&key.app_name, &key.user_id, id);
        guarded(self.timeout(), op, call).await?;
        self.wrote();
        Ok(())
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
        add(self.backend(), first, self.timeout()).await?;
        // Under delayed visibility the first version must show before the race: until then a
        // search sees nothing, which is no version, and no fault.
        self.wrote();
        self.settling.wait_out().await;
        let key = first.key();
        let expected: Vec<Vec<Content>> = versions
            .iter()
            .map(|v| {
                let mut oracle =
                    Oracle::with_embedder(self.subject.profile(), self.subject.embedder());
                oracle.add(v);
                oracle.search(&key.app_name, &key.user_id, query).contents
            })
            .collect();
        // The writer says before each re-add that it starts one; the searcher answers each with
        // two searches, while the re-add is in flight. Both run on this task, so they meet at
        // the backend's own await points: a seed so sends the same calls in every build and on
        // every machine, busy or not, and every re-add is searched across.
        let (started, mut starts) = tokio::sync::mpsc::unbounded_channel();
        let writer = {
            let (backend, timeout) = (self.backend(), self.timeout());
            async move {
                for round in 0..rounds {
                    let _ = started.send(round);
                    let version = &versions[(round + 1) % versions.len()];
                    add(Arc::clone(&backend), version, timeout).await?;
                }
                Ok::<(), Problem>(())
            }
        };
        let searcher = async {
            let mut search = 0;
            while starts.recv().await.is_some() {
                for _ in 0..2 {
                    search += 1;
                    let actual = self.search_plain(&key, query).await?;
                    if !is_one_version(&expected, &actual) {
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
            Ok(())
        };
        tokio::try_join!(writer, searcher)?;
        self.oracle.add(&versions[rounds % versions.len()]);
        self.wrote();
        Ok(())
    }
}

async fn add(
    backend: Arc<dyn MemoryService>,
    session: &Session,
    timeout: Duration,
) -> Result<(), Problem> {
    let op = || {
        format!(
            "add_session_to_memory({} session {:?})",
            session.key(),
            session.id
        )
    };
    guarded(timeout, op, backend.add_session_to_memory(session)).await
}

/// A final miss: under delayed visibility, what the overdue searches measured.
struct Late(Option<String>);

impl Late {
    /// `problem`, saying when the searches that showed it were sent, where that matters.
    fn annotate(self, problem: Problem) -> Problem {
        match (problem, self.0) {
            (
                Problem::Unexpected {
                    expected,
                    why,
                    actual,
                    with_metadata,
                },
                Some(when),
            ) => Problem::Unexpected {
                expected,
                why: format!("{why}, {when}"),
                actual,
                with_metadata,
            },
            (problem, _) => problem,
        }
    }
}
