//! memory-conformance's backends side by side with adk-memory 2.3.0's on the same corpus, in
//! one process: the reference `InMemoryMemoryService` next to adk-memory's
//! `InMemoryMemoryService`, and `memory-sqlite-fts5` next to adk-memory's
//! `SqliteMemoryService`, at 1k, 10k and 100k stored events.
//!
//! The corpus is the kit's benchmarks' (`benches/corpus/`, as in `reference_search`): sessions of
//! 10 events of 8 words drawn from a 5,000-word ASCII vocabulary; `needle` is in exactly 10
//! events whatever the size, `common` in 1% of events, and `absent coffee?` matches nothing.
//!
//! - **search**: `needle`, `common` and `absent coffee?`, each service called as an
//!   application calls it: the reference returns every match, adk-memory's services and
//!   sqlite-fts5 their default of at most 10 (adk-memory's in-memory service still copies every
//!   match before it cuts).
//! - **re-add**: a 10-event session written again under the same id into the store
//!   (adk-memory's SQLite service appends the 10 events again instead of replacing them).
//! - **add**: a new 10-event session into an empty store (a fresh store for each call of an
//!   in-memory service; one file growing from empty for a SQLite service).
//! - **bulk load**: every session of the corpus, one add per session, into an empty store.
//!   SQLite commits every add (adk-memory every event), so the SQLite services are bulk loaded
//!   at 1k events (sqlite-fts5 also at 10k) only; their stores for searches are filled in
//!   setup, one commit per session for both (adk-memory's with the statement its
//!   `add_session` runs, without fsync).
//!
//! adk-memory's calls get their entries ready-made, built outside the timed loop; the kit's
//! services take a `&Session`, so their copy of it is timed. SQLite files are in WAL mode
//! (sqlite-fts5) or rollback-journal mode (adk-memory, sqlx's default), with SQLite's default
//! `synchronous = FULL`, under Cargo's target directory.
//!
//! At the end the benchmark prints the ratios: adk-memory's median time over the kit's (above
//! 1 means the kit's service is faster), from the samples criterion took.
//!
//! Run with `cargo bench -p memory-conformance-adk-rust --bench side_by_side`.

use std::collections::BTreeMap;
use std::hint::black_box;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use adk_memory::MemoryService as _;
use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId, Criterion, SamplingMode};
use memory_conformance::{InMemoryMemoryService, MemoryService, Session};
use memory_sqlite_fts5::SqliteFts5MemoryService;
use tempfile::TempDir;
use tokio::runtime::Runtime;

use corpus::{APP, EVENTS_PER_SESSION, USER};

#[allow(dead_code)] // each bench uses its part of the shared corpus
#[path = "../../../benches/corpus/mod.rs"]
mod corpus;

const SIZES: [usize; 3] = [1_000, 10_000, 100_000];

/// A search: its name, its query, and how many events hold a word of it (out of `total`).
type Query = (&'static str, &'static str, fn(usize) -> usize);

const QUERIES: [Query; 3] = [
    ("needle_10_hits", "needle", |_| 10),
    ("common_1pct_hits", "common", |total| total / 100),
    ("miss_0_hits", "absent coffee?", |_| 0),
];

/// One session of the corpus in both models.
struct Prepared {
    session: Session,
    entries: Vec<adk_memory::MemoryEntry>,
}

impl Prepared {
    fn new(id: String, texts: impl IntoIterator<Item = String>) -> Self {
        let texts: Vec<String> = texts.into_iter().collect();
        let session = corpus::session(id, texts.iter().cloned());
        let entries = texts
            .into_iter()
            .map(|text| adk_memory::MemoryEntry {
                content: adk_core::Content {
                    role: String::new(),
                    parts: vec![adk_core::Part::Text { text }],
                },
                author: "user".to_owned(),
                timestamp: chrono::Utc::now(),
            })
            .collect();
        Self { session, entries }
    }
}

/// The corpus of `total` events, as sessions of 10.
fn prepared_corpus(total: usize) -> Vec<Prepared> {
    (0..total / EVENTS_PER_SESSION)
        .map(|s| Prepared::new(format!("s-{s}"), corpus::session_texts(s, total)))
        .collect()
}

/// The session that re-add and add write: the corpus's first 10 texts under another id.
fn extra_session(id: &str, total: usize) -> Prepared {
    Prepared::new(id.to_owned(), corpus::session_texts(0, total))
}

/// The four services.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Backend {
    Reference,
    AdkInMemory,
    SqliteFts5,
    AdkSqlite,
}

impl Backend {
    const ALL: [Self; 4] = [
        Self::Reference,
        Self::AdkInMemory,
        Self::SqliteFts5,
        Self::AdkSqlite,
    ];

    fn name(self) -> &'static str {
        match self {
            Self::Reference => "reference",
            Self::AdkInMemory => "adk_in_memory",
            Self::SqliteFts5 => "sqlite_fts5",
            Self::AdkSqlite => "adk_sqlite",
        }
    }

    fn is_sqlite(self) -> bool {
        matches!(self, Self::SqliteFts5 | Self::AdkSqlite)
    }

    /// The adk-memory service this kit service is compared with, for the kit's two.
    fn rival(self) -> Option<Self> {
        match self {
            Self::Reference => Some(Self::AdkInMemory),
            Self::SqliteFts5 => Some(Self::AdkSqlite),
            Self::AdkInMemory | Self::AdkSqlite => None,
        }
    }
}

/// A store of one of the four services, with the directory of its file (removed on drop).
enum Store {
    Reference(InMemoryMemoryService),
    AdkInMemory(adk_memory::InMemoryMemoryService),
    SqliteFts5(SqliteFts5MemoryService, #[allow(dead_code)] TempDir),
    AdkSqlite(adk_memory::SqliteMemoryService, TempDir),
}

fn temp_dir() -> TempDir {
    tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("temp dir")
}

fn adk_sqlite_url(dir: &TempDir) -> String {
    let path = dir.path().join("memory.db");
    let path = path.to_str().expect("a UTF-8 target directory");
    assert!(!path.contains(['?', '#', '%']), "{path}");
    format!("sqlite:{path}")
}

impl Store {
    fn empty(runtime: &Runtime, backend: Backend) -> Self {
        match backend {
            Backend::Reference => Self::Reference(InMemoryMemoryService::new()),
            Backend::AdkInMemory => Self::AdkInMemory(adk_memory::InMemoryMemoryService::new()),
            Backend::SqliteFts5 => {
                let dir = temp_dir();
                let memory = SqliteFts5MemoryService::open(dir.path().join("memory.db"))
                    .expect("open sqlite-fts5");
                Self::SqliteFts5(memory, dir)
            }
            Backend::AdkSqlite => {
                let dir = temp_dir();
                let memory = runtime.block_on(async {
                    let memory = adk_memory::SqliteMemoryService::new(&adk_sqlite_url(&dir))
                        .await
                        .expect("open adk-memory SQLite");
                    memory.migrate().await.expect("migrate adk-memory SQLite");
                    memory
                });
                Self::AdkSqlite(memory, dir)
            }
        }
    }

    /// A store holding `corpus`: added session by session, except adk-memory's SQLite file,
    /// written in one transaction with the statement of its `add_session`.
    fn filled(runtime: &Runtime, backend: Backend, corpus: &[Prepared]) -> Self {
        let store = Self::empty(runtime, backend);
        if let Self::AdkSqlite(_, dir) = &store {
            insert_adk_rows(dir, corpus);
        } else {
            for prepared in corpus {
                store.add(runtime, prepared.session.clone(), prepared.entries.clone());
            }
        }
        store
    }

    fn add(&self, runtime: &Runtime, session: Session, entries: Vec<adk_memory::MemoryEntry>) {
        runtime.block_on(async {
            match self {
                Self::Reference(memory) => memory.add_session_to_memory(&session).await,
                Self::SqliteFts5(memory, _) => memory.add_session_to_memory(&session).await,
                Self::AdkInMemory(memory) => {
                    memory
                        .add_session(APP, USER, &session.id, entries)
                        .await
                        .expect("adk add");
                    Ok(())
                }
                Self::AdkSqlite(memory, _) => {
                    memory
                        .add_session(APP, USER, &session.id, entries)
                        .await
                        .expect("adk add");
                    Ok(())
                }
            }
            .expect("add");
        });
    }

    /// `prepared` added: the kit's services copy the session, adk-memory's take the entries.
    fn add_prepared(
        &self,
        runtime: &Runtime,
        prepared: &Prepared,
        entries: Vec<adk_memory::MemoryEntry>,
    ) {
        runtime.block_on(async {
            match self {
                Self::Reference(memory) => memory
                    .add_session_to_memory(black_box(&prepared.session))
                    .await
                    .expect("add"),
                Self::SqliteFts5(memory, _) => memory
                    .add_session_to_memory(black_box(&prepared.session))
                    .await
                    .expect("add"),
                Self::AdkInMemory(memory) => memory
                    .add_session(APP, USER, &prepared.session.id, black_box(entries))
                    .await
                    .expect("adk add"),
                Self::AdkSqlite(memory, _) => memory
                    .add_session(APP, USER, &prepared.session.id, black_box(entries))
                    .await
                    .expect("adk add"),
            }
        });
    }

    fn search(&self, runtime: &Runtime, query: &str) -> usize {
        runtime.block_on(async {
            let adk_request = || adk_memory::SearchRequest {
                query: black_box(query).to_owned(),
                user_id: USER.to_owned(),
                app_name: APP.to_owned(),
                limit: None,
                min_score: None,
                project_id: None,
            };
            match self {
                Self::Reference(memory) => {
                    let found = memory.search_memory(APP, USER, black_box(query)).await;
                    found.expect("search").memories.len()
                }
                Self::SqliteFts5(memory, _) => {
                    let found = memory.search_memory(APP, USER, black_box(query)).await;
                    found.expect("search").memories.len()
                }
                Self::AdkInMemory(memory) => {
                    let found = memory.search(adk_request()).await;
                    found.expect("adk search").memories.len()
                }
                Self::AdkSqlite(memory, _) => {
                    let found = memory.search(adk_request()).await;
                    found.expect("adk search").memories.len()
                }
            }
        })
    }
}

/// Writes `corpus` into adk-memory's SQLite file in `dir` as `SqliteMemoryService::add_session`
/// writes it, row by row (its triggers fill the FTS5 table), with one commit per session as
/// sqlite-fts5's fill has, so both FTS5 indexes are built from as many commits; the commits
/// skip fsync (`synchronous = OFF` on this connection only), which changes nothing stored.
fn insert_adk_rows(dir: &TempDir, corpus: &[Prepared]) {
    let mut conn = rusqlite::Connection::open(dir.path().join("memory.db")).expect("open");
    conn.busy_timeout(Duration::from_secs(10)).expect("busy");
    conn.execute_batch("PRAGMA synchronous = OFF")
        .expect("synchronous");
    for prepared in corpus {
        let tx = conn.transaction().expect("transaction");
        {
            let mut insert = tx
                .prepare_cached(
                    "INSERT INTO memory_entries \
                     (app_name, user_id, session_id, content, content_text, author, timestamp, project_id) \
                     VALUES (?, ?, ?, ?, ?, ?, ?, NULL)",
                )
                .expect("prepare");
            for entry in &prepared.entries {
                let content = serde_json::to_string(&entry.content).expect("content json");
                let text = adk_memory::text::extract_text(&entry.content);
                insert
                    .execute(rusqlite::params![
                        APP,
                        USER,
                        prepared.session.id,
                        content,
                        text,
                        entry.author,
                        entry.timestamp.to_rfc3339(),
                    ])
                    .expect("insert");
            }
        }
        tx.commit().expect("commit");
    }
}

/// Nanoseconds per iteration of every sample each benchmark took, warm-up first.
static SAMPLES: Mutex<Samples> = Mutex::new(BTreeMap::new());

/// (operation, stored events, backend) -> nanoseconds per iteration of each sample.
type Samples = BTreeMap<(&'static str, usize, Backend), Vec<f64>>;

fn record(operation: &'static str, size: usize, backend: Backend, iters: u64, took: Duration) {
    let per_iteration = took.as_nanos() as f64 / iters.max(1) as f64;
    SAMPLES
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .entry((operation, size, backend))
        .or_default()
        .push(per_iteration);
}

/// Benchmarks `operation` of `backend` at `size` under `group`; `run(iters)` does the timed
/// work and returns its duration. Every sample is kept for the ratios.
fn bench(
    group: &mut BenchmarkGroup<'_, WallTime>,
    operation: &'static str,
    size: usize,
    backend: Backend,
    mut run: impl FnMut(u64) -> Duration,
) {
    let id = BenchmarkId::new(format!("{}/{operation}", backend.name()), size);
    group.bench_function(id, |b| {
        b.iter_custom(|iters| {
            let took = run(iters);
            record(operation, size, backend, iters, took);
            took
        })
    });
}

fn runtime() -> Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime")
}

fn fast(group: &mut BenchmarkGroup<'_, WallTime>) {
    group
        .sample_size(30)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
}

fn slow(group: &mut BenchmarkGroup<'_, WallTime>) {
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
}

fn searches_and_readds(c: &mut Criterion, runtime: &Runtime) {
    for total in SIZES {
        let corpus = prepared_corpus(total);
        let readd = extra_session("s-readd", total);
        for backend in Backend::ALL {
            let store = Store::filled(runtime, backend, &corpus);
            store.add(runtime, readd.session.clone(), readd.entries.clone());
            let mut group = c.benchmark_group("search");
            if backend.is_sqlite() {
                slow(&mut group);
            } else {
                fast(&mut group);
            }
            for (operation, query, hits) in QUERIES {
                let limit = if backend == Backend::Reference {
                    usize::MAX
                } else {
                    10
                };
                // The re-add session repeats the corpus's first event, which holds `needle`
                // and `common`.
                let extra = usize::from(hits(total) > 0);
                assert_eq!(
                    store.search(runtime, query),
                    (hits(total) + extra).min(limit),
                    "{} {query} at {total}",
                    backend.name()
                );
                bench(&mut group, operation, total, backend, |iters| {
                    let start = Instant::now();
                    for _ in 0..iters {
                        black_box(store.search(runtime, query));
                    }
                    start.elapsed()
                });
            }
            group.finish();

            let mut group = c.benchmark_group("readd");
            if backend.is_sqlite() {
                slow(&mut group);
            } else {
                fast(&mut group);
            }
            bench(&mut group, "readd_session_of_10", total, backend, |iters| {
                let batch: Vec<_> = (0..iters).map(|_| readd.entries.clone()).collect();
                let start = Instant::now();
                for entries in batch {
                    store.add_prepared(runtime, &readd, entries);
                }
                start.elapsed()
            });
            group.finish();
        }
    }
}

fn adds(c: &mut Criterion, runtime: &Runtime) {
    let mut group = c.benchmark_group("add");
    let session = extra_session("s-new", 1_000);
    for backend in Backend::ALL {
        if backend.is_sqlite() {
            slow(&mut group);
            let store = Store::empty(runtime, backend);
            let mut n = 0_u64;
            bench(&mut group, "new_session_of_10", 0, backend, |iters| {
                let batch: Vec<_> = (0..iters)
                    .map(|_| {
                        n += 1;
                        extra_session(&format!("s-new-{n}"), 1_000)
                    })
                    .collect();
                let start = Instant::now();
                for prepared in &batch {
                    store.add_prepared(runtime, prepared, prepared.entries.clone());
                }
                start.elapsed()
            });
        } else {
            fast(&mut group);
            bench(&mut group, "new_session_of_10", 0, backend, |iters| {
                let batch: Vec<_> = (0..iters)
                    .map(|_| (Store::empty(runtime, backend), session.entries.clone()))
                    .collect();
                let start = Instant::now();
                for (store, entries) in &batch {
                    store.add_prepared(runtime, &session, entries.clone());
                }
                let took = start.elapsed();
                drop(batch);
                took
            });
        }
    }
    group.finish();
}

fn bulk_loads(c: &mut Criterion, runtime: &Runtime) {
    let mut group = c.benchmark_group("bulk_load");
    slow(&mut group);
    for total in SIZES {
        let corpus = prepared_corpus(total);
        for backend in Backend::ALL {
            let affordable = match backend {
                Backend::Reference | Backend::AdkInMemory => true,
                Backend::SqliteFts5 => total <= 10_000,
                Backend::AdkSqlite => total <= 1_000,
            };
            if !affordable {
                continue;
            }
            bench(&mut group, "bulk_load", total, backend, |iters| {
                let mut took = Duration::ZERO;
                for _ in 0..iters {
                    let store = Store::empty(runtime, backend);
                    let entries: Vec<_> = corpus.iter().map(|p| p.entries.clone()).collect();
                    let start = Instant::now();
                    for (prepared, entries) in corpus.iter().zip(entries) {
                        store.add_prepared(runtime, prepared, entries);
                    }
                    took += start.elapsed();
                    drop(store);
                }
                took
            });
        }
    }
    group.finish();
}

/// Prints each kit service's median time next to its adk-memory rival's, and their ratio.
fn print_ratios(samples_per_benchmark: impl Fn(&str, Backend) -> usize) {
    let samples = SAMPLES.lock().unwrap_or_else(PoisonError::into_inner);
    let median = |operation: &'static str, size: usize, backend: Backend| {
        let all = samples.get(&(operation, size, backend))?;
        let keep = samples_per_benchmark(operation, backend).min(all.len());
        let mut taken: Vec<f64> = all[all.len() - keep..].to_vec();
        taken.sort_by(f64::total_cmp);
        Some(taken[taken.len() / 2])
    };
    println!("\nside by side: median time per call, adk-memory 2.3.0 over memory-conformance");
    println!(
        "{:<13} {:<20} {:>7} {:>12} {:>12} {:>8}",
        "kit service", "operation", "events", "kit", "adk-memory", "ratio"
    );
    let mut keys: Vec<_> = samples
        .keys()
        .filter(|(_, _, backend)| backend.rival().is_some())
        .copied()
        .collect();
    keys.sort_by_key(|&(operation, size, backend)| (backend, operation, size));
    for (operation, size, backend) in keys {
        let rival = backend.rival().expect("a kit service");
        let (Some(kit), Some(adk)) = (
            median(operation, size, backend),
            median(operation, size, rival),
        ) else {
            continue;
        };
        let size = if size == 0 {
            "empty".to_owned()
        } else {
            size.to_string()
        };
        println!(
            "{:<13} {:<20} {:>7} {:>12} {:>12} {:>7.1}x",
            backend.name(),
            operation,
            size,
            duration(kit),
            duration(adk),
            adk / kit
        );
    }
}

fn duration(nanos: f64) -> String {
    match nanos {
        n if n < 1e3 => format!("{n:.0} ns"),
        n if n < 1e6 => format!("{:.2} µs", n / 1e3),
        n if n < 1e9 => format!("{:.2} ms", n / 1e6),
        n => format!("{:.2} s", n / 1e9),
    }
}

fn main() {
    let runtime = runtime();
    let mut criterion = Criterion::default().configure_from_args();
    searches_and_readds(&mut criterion, &runtime);
    adds(&mut criterion, &runtime);
    bulk_loads(&mut criterion, &runtime);
    criterion.final_summary();
    print_ratios(|operation, backend| {
        if operation == "bulk_load" || backend.is_sqlite() {
            10
        } else {
            30
        }
    });
}
