//! What the harness checks: a named backend, the profile it declares, and how to make fresh
//! instances of it.

use std::fmt;
use std::future::Future;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use crate::{MemoryService, Profile};

/// A future that yields a fresh backend instance.
pub type BackendFuture = Pin<Box<dyn Future<Output = Arc<dyn MemoryService>> + Send>>;

pub(crate) type Factory = dyn Fn(Namespace) -> BackendFuture + Send + Sync;

/// Removes what a case left on the storage of a namespace.
pub(crate) type Cleanup = dyn Fn(&Namespace) + Send + Sync;

/// A namespaced factory of any backend type, as one object-safe factory.
pub(crate) fn erase<F, Fut, B>(factory: F) -> Arc<Factory>
where
    F: Fn(Namespace) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = B> + Send + 'static,
    B: MemoryService + 'static,
{
    let factory = Arc::new(factory);
    Arc::new(move |namespace| {
        let factory = Arc::clone(&factory);
        Box::pin(async move { Arc::new(factory(namespace).await) as Arc<dyn MemoryService> })
    })
}

/// A backend under test: its name, the [`Profile`] it declares, and a factory of instances.
///
/// Every generated case gets a fresh [`Namespace`] and a fresh instance from the factory, so
/// cases never see each other's writes. A backend whose instances share one store (a
/// database) uses [`Subject::namespaced`] and keeps each namespace apart (a file, a schema, a
/// key prefix); a second instance opened with the same namespace must see the same storage
/// (rules `durability.reopen` and `scope.shared`).
///
/// ```
/// use memory_conformance::{InMemoryMemoryService, Profile, Subject};
/// let subject = Subject::new("reference", Profile::reference(), || async { InMemoryMemoryService::new() })
///     .cases(32);
/// assert_eq!(subject.backend(), "reference");
/// ```
#[derive(Clone)]
pub struct Subject {
    backend: String,
    profile: Profile,
    factory: Arc<Factory>,
    cleanup: Option<Arc<Cleanup>>,
    pub(crate) options: Options,
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
        Self::from_parts(backend.into(), profile, erase(factory))
    }

    pub(crate) fn from_parts(backend: String, profile: Profile, factory: Arc<Factory>) -> Self {
        Self {
            backend,
            profile,
            factory,
            cleanup: None,
            options: Options::default(),
        }
    }

    /// Runs `cleanup` on a case's namespace once the case is over and every instance it
    /// opened is dropped (delete the case's database file, drop its schema). Cases never
    /// reuse a namespace.
    #[must_use]
    pub fn cleanup_with(mut self, cleanup: impl Fn(&Namespace) + Send + Sync + 'static) -> Self {
        self.cleanup = Some(Arc::new(cleanup));
        self
    }

    pub(crate) fn clean(&self, namespace: &Namespace) {
        if let Some(cleanup) = &self.cleanup {
            cleanup(namespace);
        }
    }

    /// The backend's name, shown in test names and reports.
    pub fn backend(&self) -> &str {
        &self.backend
    }

    /// The profile the backend declares.
    pub fn profile(&self) -> &Profile {
        &self.profile
    }

    /// How long one backend call may take before its rule fails (default 10 s).
    #[must_use]
    pub fn op_timeout(mut self, timeout: Duration) -> Self {
        self.options.op_timeout = timeout;
        self
    }

    /// How long one whole rule may take when run on its own thread by the gate (default: six
    /// per-call timeouts, at least 60 s). It catches backends that block their thread, where
    /// the per-call timeout cannot fire.
    #[must_use]
    pub fn rule_timeout(mut self, timeout: Duration) -> Self {
        self.options.rule_timeout = Some(timeout);
        self
    }

    /// Generated cases per rule (default: `PROPTEST_CASES`, else 256; heavy rules run fewer).
    #[must_use]
    pub fn cases(mut self, cases: u32) -> Self {
        self.options.cases = Some(cases.max(1));
        self
    }

    /// The seed cases are generated from (default: `PROPTEST_RNG_SEED`, else random).
    #[must_use]
    pub fn seed(mut self, seed: u64) -> Self {
        self.options.seed = Some(seed);
        self
    }

    /// Where failing cases are recorded and replayed first on the next run (one file per
    /// rule). The one-file gate sets it to `proptest-regressions/conformance/` of the calling
    /// crate.
    #[must_use]
    pub fn failure_records(mut self, dir: impl Into<PathBuf>) -> Self {
        self.options.failure_records = Some(dir.into());
        self
    }

    /// The command that reruns one rule, printed in failure reports; `{rule}` stands for the
    /// rule's test name and `{seed}` for the seed.
    #[must_use]
    pub fn reproduce_with(mut self, command: impl Into<String>) -> Self {
        self.options.reproduce = Some(command.into());
        self
    }

    /// The name a rule's test carries: `backend::rule.id`.
    pub fn test_name(&self, rule_id: &str) -> String {
        format!("{}::{rule_id}", self.backend)
    }

    pub(crate) fn reproduce_command(&self, rule_id: &str, seed: u64) -> String {
        let template = self
            .options
            .reproduce
            .as_deref()
            .unwrap_or("PROPTEST_RNG_SEED={seed} cargo test -- --exact '{rule}'");
        template
            .replace("{rule}", &self.test_name(rule_id))
            .replace("{seed}", &seed.to_string())
    }

    /// The file failing cases of `rule_id` are recorded in, if recording is on.
    pub(crate) fn record_path(&self, rule_id: &str) -> Option<String> {
        let dir = self.options.failure_records.as_ref()?;
        let backend: String = self
            .backend
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        Some(
            dir.join(backend)
                .join(format!("{rule_id}.txt"))
                .display()
                .to_string(),
        )
    }

    /// A new instance of the backend on the storage of `namespace`.
    pub async fn open(&self, namespace: &Namespace) -> Arc<dyn MemoryService> {
        (self.factory)(namespace.clone()).await
    }
}

impl fmt::Debug for Subject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Subject")
            .field("backend", &self.backend)
            .field("profile", &self.profile.name)
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

#[derive(Clone, Debug)]
pub(crate) struct Options {
    pub(crate) op_timeout: Duration,
    pub(crate) rule_timeout: Option<Duration>,
    pub(crate) cases: Option<u32>,
    pub(crate) seed: Option<u64>,
    pub(crate) failure_records: Option<PathBuf>,
    pub(crate) reproduce: Option<String>,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            op_timeout: Duration::from_secs(10),
            rule_timeout: None,
            cases: None,
            seed: None,
            failure_records: None,
            reproduce: None,
        }
    }
}

/// The default number of cases per rule when neither the subject nor `PROPTEST_CASES` says.
pub(crate) const DEFAULT_CASES: u32 = 256;

impl Options {
    pub(crate) fn cases(&self) -> u32 {
        self.cases
            .or_else(|| std::env::var("PROPTEST_CASES").ok()?.parse().ok())
            .unwrap_or(DEFAULT_CASES)
            .max(1)
    }

    pub(crate) fn rule_timeout(&self) -> Duration {
        self.rule_timeout
            .unwrap_or_else(|| (self.op_timeout * 6).max(Duration::from_secs(60)))
    }

    pub(crate) fn seed(&self) -> u64 {
        self.seed
            .or_else(|| std::env::var("PROPTEST_RNG_SEED").ok()?.parse().ok())
            .unwrap_or_else(random_seed)
    }
}

fn random_seed() -> u64 {
    let nanos = jiff::Timestamp::now().as_nanosecond() as u64;
    splitmix(
        nanos ^ u64::from(std::process::id()).rotate_left(32) ^ NAMESPACES.load(Ordering::Relaxed),
    )
}

/// SplitMix64: a good 64-bit mix, used to derive one case's seed from the run's seed.
pub(crate) fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

static NAMESPACES: AtomicU64 = AtomicU64::new(0);

/// A storage namespace, unique within the process: ASCII letters, digits and `_`, so it can
/// name a file, a table prefix or a schema.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Namespace(String);

impl Namespace {
    /// A namespace no other call in this process returns.
    pub fn fresh() -> Self {
        static PROCESS: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
        let n = NAMESPACES.fetch_add(1, Ordering::Relaxed);
        Self(format!("mc_{}_{n}", PROCESS.get_or_init(std::process::id)))
    }

    /// The namespace as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// A path for a storage file of this namespace, `<scratch>/<namespace>.<extension>`, for
    /// backends that keep memories in files. The scratch folder is created on demand:
    /// `/dev/shm/memory-conformance` where a memory-backed `/dev/shm` exists (commits and
    /// fsyncs still happen, they are just cheap), else `memory-conformance` in the temporary
    /// folder. Pair it with [`Namespace::remove_scratch_files`] as the subject's cleanup.
    ///
    /// ```
    /// use memory_conformance::conformance::Namespace;
    /// let namespace = Namespace::fresh();
    /// let path = namespace.scratch_file("db").unwrap();
    /// std::fs::write(&path, b"x").unwrap();
    /// namespace.remove_scratch_files();
    /// assert!(!path.exists());
    /// ```
    pub fn scratch_file(&self, extension: &str) -> std::io::Result<std::path::PathBuf> {
        let dir = scratch_dir();
        std::fs::create_dir_all(&dir)?;
        Ok(dir.join(format!("{}.{extension}", self.0)))
    }

    /// Removes every scratch file of this namespace (`<namespace>.*`, which includes SQLite's
    /// `-wal` and `-shm` companions). Errors are ignored: cleanup is best effort.
    pub fn remove_scratch_files(&self) {
        let prefix = format!("{}.", self.0);
        let Ok(entries) = std::fs::read_dir(scratch_dir()) else {
            return;
        };
        for entry in entries.flatten() {
            if entry.file_name().to_string_lossy().starts_with(&prefix) {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
}

fn scratch_dir() -> std::path::PathBuf {
    let shm = std::path::Path::new("/dev/shm");
    let root = if shm.is_dir() {
        shm.to_path_buf()
    } else {
        std::env::temp_dir()
    };
    root.join("memory-conformance")
}

impl fmt::Display for Namespace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
