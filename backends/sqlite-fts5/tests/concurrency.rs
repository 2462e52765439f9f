//! Concurrent calls: every add lands, a re-add is seen whole or not at all, and SQLite work
//! never runs on the async runtime's thread.

mod support;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::task::{Context, Poll, Wake, Waker};

use memory_conformance::{Event, MemoryService, Session};
use memory_sqlite_fts5::SqliteFts5MemoryService;
use support::{hits, texts};

fn unlimited_file(path: &std::path::Path) -> SqliteFts5MemoryService {
    SqliteFts5MemoryService::builder()
        .result_limit(None)
        .open(path)
        .unwrap()
}

#[test]
fn the_service_is_send_sync_clone_and_object_safe() {
    fn assert_traits<T: Send + Sync + Clone + 'static>() {}
    assert_traits::<SqliteFts5MemoryService>();
    let memory: Arc<dyn MemoryService> =
        Arc::new(SqliteFts5MemoryService::open_in_memory().unwrap());
    drop(memory);
}

async fn add_many_concurrently(services: &[SqliteFts5MemoryService], sessions: usize) {
    let mut tasks = Vec::new();
    for n in 0..sessions {
        let memory = services[n % services.len()].clone();
        tasks.push(tokio::spawn(async move {
            let session = Session::new("app", "u", format!("s-{n}"))
                .with_event(Event::text("user", format!("espresso order {n}")));
            memory.add_session_to_memory(&session).await
        }));
    }
    for task in tasks {
        task.await.unwrap().unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_adds_of_distinct_sessions_all_land_in_memory() {
    let memory = SqliteFts5MemoryService::builder()
        .result_limit(None)
        .open_in_memory()
        .unwrap();
    add_many_concurrently(std::slice::from_ref(&memory), 64).await;
    assert_eq!(hits(&memory, "app", "u", "espresso").await, 64);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_adds_through_two_services_on_one_file_all_land() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("memory.db");
    let services = [unlimited_file(&path), unlimited_file(&path)];
    add_many_concurrently(&services, 64).await;
    assert_eq!(hits(&services[0], "app", "u", "espresso").await, 64);
    assert_eq!(hits(&services[1], "app", "u", "espresso").await, 64);
}

/// One session flips between version A (5 events) and version B (7 events) while readers
/// search; every search sees exactly one whole version.
async fn re_adds_are_atomic(writer: SqliteFts5MemoryService, reader: SqliteFts5MemoryService) {
    let version = |name: &str, events: usize| {
        Session::new("app", "u", "s-1")
            .with_events((0..events).map(|n| Event::text("user", format!("tick {name} {n}"))))
    };
    let (a, b) = (version("alpha", 5), version("beta", 7));
    writer.add_session_to_memory(&a).await.unwrap();
    let done = Arc::new(AtomicBool::new(false));
    let flips = {
        let done = Arc::clone(&done);
        tokio::spawn(async move {
            for round in 0..60 {
                let next = if round % 2 == 0 { &b } else { &a };
                writer.add_session_to_memory(next).await.unwrap();
            }
            done.store(true, Ordering::SeqCst);
        })
    };
    let mut seen = [0usize; 2];
    while !done.load(Ordering::SeqCst) {
        let found = reader.search_memory("app", "u", "tick").await.unwrap();
        let words = texts(&found);
        let alphas = words.iter().filter(|t| t.contains("alpha")).count();
        let betas = words.iter().filter(|t| t.contains("beta")).count();
        assert!(
            (alphas, betas) == (5, 0) || (alphas, betas) == (0, 7),
            "a search saw a mix: {words:?}"
        );
        seen[usize::from(betas > 0)] += 1;
    }
    flips.await.unwrap();
    assert!(seen[0] + seen[1] > 0, "the reader searched");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_re_add_is_seen_whole_or_not_at_all_in_memory() {
    let memory = SqliteFts5MemoryService::builder()
        .result_limit(None)
        .open_in_memory()
        .unwrap();
    re_adds_are_atomic(memory.clone(), memory).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_re_add_is_seen_whole_or_not_at_all_across_services_on_one_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("memory.db");
    re_adds_are_atomic(unlimited_file(&path), unlimited_file(&path)).await;
}

#[tokio::test(flavor = "current_thread")]
async fn database_work_leaves_the_runtime_thread_free() {
    let memory = SqliteFts5MemoryService::open_in_memory().unwrap();
    let big = Session::new("app", "u", "s-1").with_events(
        (0..3_000).map(|n| Event::text("user", format!("a long day of coffee number {n}"))),
    );
    let ticks = Arc::new(AtomicUsize::new(0));
    let ticker = {
        let ticks = Arc::clone(&ticks);
        tokio::spawn(async move {
            loop {
                ticks.fetch_add(1, Ordering::SeqCst);
                tokio::task::yield_now().await;
            }
        })
    };
    memory.add_session_to_memory(&big).await.unwrap();
    let during_add = ticks.load(Ordering::SeqCst);
    ticker.abort();
    assert!(
        during_add > 0,
        "the only runtime thread was blocked for the whole add"
    );
}

struct NoopWake;

impl Wake for NoopWake {
    fn wake(self: Arc<Self>) {}
}

/// Polls `future` to completion on this thread, with no Tokio runtime.
fn block_on<F: std::future::Future>(future: F) -> F::Output {
    let mut future = std::pin::pin!(future);
    let waker = Waker::from(Arc::new(NoopWake));
    let mut cx = Context::from_waker(&waker);
    loop {
        if let Poll::Ready(output) = future.as_mut().poll(&mut cx) {
            return output;
        }
        std::thread::yield_now();
    }
}

#[test]
fn calls_work_without_a_tokio_runtime() {
    let memory = SqliteFts5MemoryService::open_in_memory().unwrap();
    let session =
        Session::new("app", "u", "s-1").with_event(Event::text("user", "flat white please"));
    block_on(memory.add_session_to_memory(&session)).unwrap();
    let found = block_on(memory.search_memory("app", "u", "white")).unwrap();
    assert_eq!(texts(&found), ["flat white please"]);
}
