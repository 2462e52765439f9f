//! What the harness checks: a named backend, the profile it declares, and how to make fresh
//! instances of it.

use std::fmt;
use std::future::Future;
#[cfg(feature = "harness")]
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::Arc;
#[cfg(feature = "harness")]
use std::time::Duration;

use super::namespace::Namespace;
use super::options::RunOptions;
use crate::MemoryService;
use crate::embed::{Embedder, HashedEmbedder};
use crate::profile::Profile;

/// The command a failure report says reruns a rule when the runner set none
/// ([`Subject::reproduce_with`]): a test target of `conformance_main!`, under `cargo test`.
#[cfg(feature = "harness")]
const DEFAULT_REPRODUCE: &str = "PROPTEST_RNG_SEED={seed} cargo test -- --exact '{rule}'";

type Instance = Pin<Box<dyn Future<Output = Arc<dyn MemoryService>> + Send>>;
type Factory = dyn Fn(Namespace) -> Instance + Send + Sync;
type Cleanup = dyn Fn(&Namespace) + Send + Sync;

/// A backend under test: its name, the [`Profile`] it declares, and a factory of instances.
///
/// Every generated case gets a fresh [`Namespace`] and a fresh instance from the factory, so
/// cases never see each other's writes. A backend whose instances share one store (a
/// database) uses [`Subject::namespaced`] and keeps each namespace apart (a file, a schema, a
/// key prefix); a second instance opened with the same namespace must see the same storage
/// (rules `durability.reopen`, `scope.shared` and `scope.replicas`).
///
/// ```
/// use memory_conformance::InMemoryMemoryService;
/// use memory_conformance::conformance::Subject;
/// use memory_conformance::profile::Profile;
/// let subject = Subject::new("reference", Profile::reference(), || async { InMemoryMemoryService::new() });
/// assert_eq!(subject.backend(), "reference");
/// ```
#[derive(Clone)]
pub struct Subject {
    backend: String,
    profile: Profile,
    factory: Arc<Factory>,
    cleanup: Option<Arc<Cleanup>>,
    embedder: Option<Arc<dyn Embedder>>,
    pub(crate) options: RunOptions,
}

impl Subject {
    /// A subject whose factory makes an isolated instance on every call.
    pub fn new<F, Fut, B>(backend: impl Into<String>, profile: Profile, factory: F) -> Self
    where
        F: Fn() -> Fut + Send + Sync + 'static,
        Fut: Future<Output = B> + Send + 'static,
        B: MemoryService + 'static,
    {
        Self::namespaced(backend, profile, move |_namespace| factory())
    }

    /// A subject whose factory opens an instance on the storage of a namespace: calls with
    /// the same namespace reach the same storage, calls with different ones never do.
    pub fn namespaced<F, Fut, B>(backend: impl Into<String>, profile: Profile, factory: F) -> Self
    where
        F: Fn(Namespace) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = B> + Send + 'static,
        B: MemoryService + 'static,
    {
        let factory = Arc::new(factory);
        let erased: Arc<Factory> = Arc::new(move |namespace| {
            let factory = Arc::clone(&factory);
            Box::pin(async move { Arc::new(factory(namespace).await) as Arc<dyn MemoryService> })
        });
        Self {
            backend: backend.into(),
            profile,
            factory: erased,
            cleanup: None,
            embedder: None,
            options: RunOptions::default(),
        }
    }

    /// The embedder the backend embeds with, for a vector profile whose embedder is not the
    /// kit's own (`hashed-N`): the rules embed with it to compute the nearest events.
    #[must_use]
    pub fn with_embedder(mut self, embedder: Arc<dyn Embedder>) -> Self {
        self.embedder = Some(embedder);
        self
    }

    /// The embedder the rules compute a vector profile's answers with: the one given with
    /// [`with_embedder`](Self::with_embedder), else the kit's [`HashedEmbedder`] the profile
    /// names, else none.
    pub fn embedder(&self) -> Option<Arc<dyn Embedder>> {
        if let Some(embedder) = &self.embedder {
            return Some(Arc::clone(embedder));
        }
        let name = &self.profile.vector()?.embedder;
        HashedEmbedder::named(name).map(|e| Arc::new(e) as Arc<dyn Embedder>)
    }

    /// Runs `cleanup` on a case's namespace once the case is over and every instance it
    /// opened is dropped (delete the case's database file, drop its schema). Cases never
    /// reuse a namespace.
    #[must_use]
    pub fn cleanup_with(mut self, cleanup: impl Fn(&Namespace) + Send + Sync + 'static) -> Self {
        self.cleanup = Some(Arc::new(cleanup));
        self
    }

    /// The backend's name, shown in test names and reports.
    pub fn backend(&self) -> &str {
        &self.backend
    }

    /// The profile the backend declares.
    pub fn profile(&self) -> &Profile {
        &self.profile
    }

    /// The same backend and factory, declaring `profile` instead.
    #[must_use]
    pub fn with_profile(mut self, profile: Profile) -> Self {
        self.profile = profile;
        self
    }

    /// The subject whose harness waits `timeout` for one backend call: a bridged subject
    /// waits longer than its child's own timeout, so a hung child is reported by the bridge.
    #[cfg(feature = "harness")]
    pub(crate) fn op_timeout(mut self, timeout: Duration) -> Self {
        self.options.op_timeout = timeout;
        self
    }

    /// The name a rule's test carries: `backend::rule.id`.
    pub fn test_name(&self, rule_id: &str) -> String {
        format!("{}::{rule_id}", self.backend)
    }

    /// A new instance of the backend on the storage of `namespace`.
    pub async fn open(&self, namespace: &Namespace) -> Arc<dyn MemoryService> {
        let started = std::time::Instant::now();
        let instance = (self.factory)(namespace.clone()).await;
        self.options.spending.opened(started.elapsed());
        instance
    }

    /// Removes what was left on the storage of `namespace`, if the subject has a cleanup. The
    /// harness calls it after every case; a caller that [opens](Subject::open) instances
    /// itself calls it once they are dropped.
    pub fn clean(&self, namespace: &Namespace) {
        if let Some(cleanup) = &self.cleanup {
            cleanup(namespace);
        }
    }

    /// The backend's name as one file-name component (`[A-Za-z0-9._-]`, others as `_`): the
    /// stem of its recall snapshots and failure records.
    ///
    /// ```
    /// use memory_conformance::conformance::Subject;
    /// use memory_conformance::profile::Profile;
    /// let subject = Subject::new("adk python/sqlite", Profile::reference(), || async {
    ///     memory_conformance::InMemoryMemoryService::new()
    /// });
    /// assert_eq!(subject.file_stem(), "adk_python_sqlite");
    /// ```
    pub fn file_stem(&self) -> String {
        self.backend
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                    c
                } else {
                    '_'
                }
            })
            .collect()
    }

    /// The subject whose failure reports say `command` reruns a rule, in the terms of the
    /// runner that runs the gate for the user: `{id}` stands for the rule's id
    /// (`key.isolation`), `{rule}` for its test name (`backend::key.isolation`) and `{seed}`
    /// for the run's seed. Without it, the line is the one for a test target of
    /// [`conformance_main!`](crate::conformance_main), run with `cargo test`.
    ///
    /// ```
    /// use memory_conformance::conformance::Subject;
    /// use memory_conformance::profile::Profile;
    /// let subject = Subject::new("mine", Profile::reference(), || async {
    ///     memory_conformance::InMemoryMemoryService::new()
    /// })
    /// .reproduce_with("memory-conformance gate --profile reference --rules {id} --seed {seed} -- python3 bridge.py");
    /// # let _ = subject;
    /// ```
    #[must_use]
    pub fn reproduce_with(mut self, command: impl Into<String>) -> Self {
        self.options.reproduce = Some(command.into());
        self
    }

    /// The command that reruns `rule_id` from `seed`: the runner's ([`reproduce_with`](Self::reproduce_with)),
    /// else [`DEFAULT_REPRODUCE`].
    #[cfg(feature = "harness")]
    pub(crate) fn reproduce_command(&self, rule_id: &str, seed: u64) -> String {
        let template = self
            .options
            .reproduce
            .as_deref()
            .unwrap_or(DEFAULT_REPRODUCE);
        template
            .replace("{rule}", &self.test_name(rule_id))
            .replace("{id}", rule_id)
            .replace("{seed}", &seed.to_string())
    }

    /// The file failing cases of `rule_id` are recorded in, if recording is on.
    #[cfg(feature = "harness")]
    pub(crate) fn record_path(&self, rule_id: &str) -> Option<PathBuf> {
        let dir = self.options.failure_records.as_ref()?;
        Some(dir.join(self.file_stem()).join(format!("{rule_id}.txt")))
    }
}

impl fmt::Debug for Subject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Subject")
            .field("backend", &self.backend)
            .field("profile", &self.profile.name)
            .field(
                "embedder",
                &self.embedder.as_ref().map(|e| e.name().to_owned()),
            )
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}
