//! The harness's cost: the wall time of the whole rule suite against the reference at the
//! default case count, and the same backend operations issued in a plain loop.
//!
//! The plain loop replays, call for call, what the suite sent to the backend (recorded on a
//! run with the same seed), so `suite / plain loop` is the harness's overhead: generation,
//! the oracle, comparisons, timeouts and the runtime.
//!
//! Run with `cargo bench --bench harness`; add `--profile dev` for the debug-build figure.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group};
use memory_conformance::conformance::{Gate, Subject};
use memory_conformance::profile::Profile;
use memory_conformance::{
    Event, InMemoryMemoryService, MemoryEntry, MemoryError, MemoryService, SearchMemoryResponse,
    SearchOptions, Session, async_trait,
};

const SEED: u64 = 2026;

#[derive(Clone)]
enum Call {
    Open,
    Add(Session),
    Search(String, String, String, SearchOptions),
    AddEvents(String, String, Option<String>, Vec<Event>),
    AddMemory(String, String, Vec<MemoryEntry>),
    Delete(String, String, String),
}

/// The reference, recording every call it receives.
struct Recording {
    inner: InMemoryMemoryService,
    calls: Arc<Mutex<Vec<Call>>>,
}

impl Recording {
    fn record(&self, call: Call) {
        self.calls
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(call);
    }
}

#[async_trait]
impl MemoryService for Recording {
    async fn add_session_to_memory(&self, session: &Session) -> Result<(), MemoryError> {
        self.record(Call::Add(session.clone()));
        self.inner.add_session_to_memory(session).await
    }

    async fn search_memory(
        &self,
        app: &str,
        user: &str,
        query: &str,
    ) -> Result<SearchMemoryResponse, MemoryError> {
        self.search_memory_with(app, user, query, &SearchOptions::default())
            .await
    }

    async fn search_memory_with(
        &self,
        app: &str,
        user: &str,
        query: &str,
        options: &SearchOptions,
    ) -> Result<SearchMemoryResponse, MemoryError> {
        self.record(Call::Search(
            app.into(),
            user.into(),
            query.into(),
            options.clone(),
        ));
        self.inner
            .search_memory_with(app, user, query, options)
            .await
    }

    async fn add_events_to_memory(
        &self,
        app: &str,
        user: &str,
        session_id: Option<&str>,
        events: &[Event],
    ) -> Result<(), MemoryError> {
        self.record(Call::AddEvents(
            app.into(),
            user.into(),
            session_id.map(Into::into),
            events.to_vec(),
        ));
        self.inner
            .add_events_to_memory(app, user, session_id, events)
            .await
    }

    async fn add_memory(
        &self,
        app: &str,
        user: &str,
        memories: &[MemoryEntry],
    ) -> Result<(), MemoryError> {
        self.record(Call::AddMemory(app.into(), user.into(), memories.to_vec()));
        self.inner.add_memory(app, user, memories).await
    }

    async fn delete_memory(
        &self,
        app: &str,
        user: &str,
        memory_id: &str,
    ) -> Result<(), MemoryError> {
        self.record(Call::Delete(app.into(), user.into(), memory_id.into()));
        self.inner.delete_memory(app, user, memory_id).await
    }
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime")
}

fn suite() {
    let subject = Subject::new("reference", Profile::reference(), || async {
        InMemoryMemoryService::new()
    });
    let report = Gate::new(subject).seed(SEED).run();
    assert!(report.is_green(), "{report}");
}

fn recorded_calls() -> Vec<Call> {
    let calls = Arc::new(Mutex::new(Vec::new()));
    let recorder = Arc::clone(&calls);
    let subject = Subject::new("reference", Profile::reference(), move || {
        let calls = Arc::clone(&recorder);
        async move {
            calls
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(Call::Open);
            Recording {
                inner: InMemoryMemoryService::new(),
                calls,
            }
        }
    });
    let report = Gate::new(subject).seed(SEED).run();
    assert!(report.is_green(), "{report}");
    calls.lock().unwrap_or_else(PoisonError::into_inner).clone()
}

async fn plain_loop(calls: &[Call]) {
    let mut memory = InMemoryMemoryService::new();
    for call in calls {
        match call {
            Call::Open => memory = InMemoryMemoryService::new(),
            Call::Add(session) => {
                std::hint::black_box(memory.add_session_to_memory(session).await).ok();
            }
            Call::Search(app, user, query, options) => {
                // A search the rules expect to be refused (a limit where none is declared)
                // is replayed as sent: its answer is kept, whatever it is.
                std::hint::black_box(memory.search_memory_with(app, user, query, options).await)
                    .ok();
            }
            Call::AddEvents(app, user, session, events) => {
                let added = memory.add_events_to_memory(app, user, session.as_deref(), events);
                std::hint::black_box(added.await).ok();
            }
            Call::AddMemory(app, user, memories) => {
                std::hint::black_box(memory.add_memory(app, user, memories).await).ok();
            }
            Call::Delete(app, user, id) => {
                std::hint::black_box(memory.delete_memory(app, user, id).await).ok();
            }
        }
    }
}

fn harness(c: &mut Criterion) {
    let runtime = runtime();
    let calls = recorded_calls();
    let count = |kind: fn(&Call) -> bool| calls.iter().filter(|c| kind(c)).count();
    println!(
        "the suite sends {} calls: {} instances, {} adds, {} searches, {} event deltas, {} \
         explicit memories, {} deletes",
        calls.len(),
        count(|c| matches!(c, Call::Open)),
        count(|c| matches!(c, Call::Add(_))),
        count(|c| matches!(c, Call::Search(..))),
        count(|c| matches!(c, Call::AddEvents(..))),
        count(|c| matches!(c, Call::AddMemory(..))),
        count(|c| matches!(c, Call::Delete(..))),
    );
    let mut group = c.benchmark_group("harness");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(20));
    group.bench_function("whole_suite_reference_default_cases", |b| b.iter(suite));
    group.bench_function("same_calls_plain_loop", |b| {
        b.iter(|| runtime.block_on(plain_loop(&calls)))
    });
    group.finish();
    paired(&runtime, &calls);
}

/// The overhead measured in pairs: each run of the suite is followed at once by a run of the
/// plain loop, so both see the same load on a shared machine; the ratio printed is the median
/// of the pairs' ratios.
fn paired(runtime: &tokio::runtime::Runtime, calls: &[Call]) {
    const PAIRS: usize = 15;
    let time = |run: &dyn Fn()| {
        let started = Instant::now();
        run();
        started.elapsed()
    };
    let pairs: Vec<(Duration, Duration)> = (0..PAIRS)
        .map(|_| {
            let whole = time(&suite);
            let plain = time(&|| runtime.block_on(plain_loop(calls)));
            (whole, plain)
        })
        .collect();
    let median = |mut values: Vec<f64>| {
        values.sort_by(f64::total_cmp);
        values[values.len() / 2]
    };
    let ratio = median(
        pairs
            .iter()
            .map(|(whole, plain)| whole.as_secs_f64() / plain.as_secs_f64())
            .collect(),
    );
    let whole = median(pairs.iter().map(|p| p.0.as_secs_f64() * 1e3).collect());
    let plain = median(pairs.iter().map(|p| p.1.as_secs_f64() * 1e3).collect());
    println!(
        "harness overhead over {PAIRS} pairs: the whole suite {whole:.1} ms, the same calls in a \
         plain loop {plain:.1} ms (medians); the median of the pairs' ratios {ratio:.2}x"
    );
}

criterion_group!(benches, harness);

/// Set to `suite`, `record` or `plain`, the bench runs that once and exits (no criterion): the
/// suite; the suite recording its calls; the suite recording its calls, then the plain loop
/// replaying them. Under `valgrind --tool=callgrind`, `plain` minus `record` is the plain
/// loop's instruction count, and `suite` the suite's: counts that do not move with the
/// machine's other work.
const ONCE: &str = "HARNESS_BENCH_ONCE";

fn main() {
    match std::env::var(ONCE).as_deref() {
        Ok("suite") => suite(),
        Ok("record") => drop(recorded_calls()),
        Ok("plain") => runtime().block_on(plain_loop(&recorded_calls())),
        Ok(other) => panic!("{ONCE}={other:?}: expected suite, record or plain"),
        Err(_) => {
            benches();
            Criterion::default().configure_from_args().final_summary();
        }
    }
}
