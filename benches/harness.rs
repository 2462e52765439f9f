//! The harness's cost: the wall time of the whole rule suite against the reference at the
//! default case count, and the same backend operations issued in a plain loop.
//!
//! The plain loop replays, call for call, what the suite sent to the backend (recorded on a
//! run with the same seed), so `suite / plain loop` is the harness's overhead: generation,
//! the oracle, comparisons, timeouts and the runtime.
//!
//! Run with `cargo bench --bench harness`; add `--profile dev` for the debug-build figure.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use memory_conformance::conformance::{Gate, Subject};
use memory_conformance::profile::Profile;
use memory_conformance::{
    InMemoryMemoryService, MemoryError, MemoryService, SearchMemoryResponse, Session, async_trait,
};

const SEED: u64 = 2026;

#[derive(Clone)]
enum Call {
    Open,
    Add(Session),
    Search(String, String, String),
}

/// The reference, recording every call it receives.
struct Recording {
    inner: InMemoryMemoryService,
    calls: Arc<Mutex<Vec<Call>>>,
}

#[async_trait]
impl MemoryService for Recording {
    async fn add_session_to_memory(&self, session: &Session) -> Result<(), MemoryError> {
        self.calls
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(Call::Add(session.clone()));
        self.inner.add_session_to_memory(session).await
    }

    async fn search_memory(
        &self,
        app: &str,
        user: &str,
        query: &str,
    ) -> Result<SearchMemoryResponse, MemoryError> {
        let call = Call::Search(app.into(), user.into(), query.into());
        self.calls
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(call);
        self.inner.search_memory(app, user, query).await
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
    assert!(Gate::new(subject).seed(SEED).run().is_green());
    calls.lock().unwrap_or_else(PoisonError::into_inner).clone()
}

async fn plain_loop(calls: &[Call]) {
    let mut memory = InMemoryMemoryService::new();
    for call in calls {
        match call {
            Call::Open => memory = InMemoryMemoryService::new(),
            Call::Add(session) => memory.add_session_to_memory(session).await.expect("add"),
            Call::Search(app, user, query) => {
                std::hint::black_box(
                    memory
                        .search_memory(app, user, query)
                        .await
                        .expect("search"),
                );
            }
        }
    }
}

fn harness(c: &mut Criterion) {
    let runtime = runtime();
    let calls = recorded_calls();
    let (opens, adds) = (
        calls.iter().filter(|c| matches!(c, Call::Open)).count(),
        calls.iter().filter(|c| matches!(c, Call::Add(_))).count(),
    );
    println!(
        "the suite sends {} calls: {opens} instances, {adds} adds, {} searches",
        calls.len(),
        calls.len() - opens - adds
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
}

criterion_group!(benches, harness);
criterion_main!(benches);
