//! `SqliteFts5MemoryService` latency at 1k, 10k and 100k stored events, next to the kit's
//! reference `InMemoryMemoryService` on the same data.
//!
//! The data is the kit's benchmarks' corpus (`benches/corpus/`, as in `reference_search`):
//! sessions of 10 events of 8 words drawn from a 5,000-word ASCII vocabulary; the word `needle`
//! is in exactly 10 events whatever the store's size, and `common` is in 1% of events. The
//! SQLite store is a file (WAL, `synchronous = FULL`, SQLite's default) under Cargo's target
//! directory, so every add pays a real commit. Searches use an unlimited result count, so both
//! backends return the same events; `common_limit_10` shows the default limit of 10 (a second
//! service on the same file).
//!
//! Run with `cargo bench -p memory-sqlite-fts5 --bench fts5`.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use memory_conformance::{InMemoryMemoryService, MemoryService, Session};
use memory_sqlite_fts5::SqliteFts5MemoryService;
use tempfile::TempDir;
use tokio::runtime::Runtime;

#[allow(dead_code)] // each bench uses its part of the shared corpus
#[path = "../../../benches/corpus/mod.rs"]
mod corpus;

const SIZES: [usize; 3] = [1_000, 10_000, 100_000];

fn fill(runtime: &Runtime, memory: &impl MemoryService, total: usize) {
    runtime.block_on(async {
        for session in corpus::sessions(total) {
            memory.add_session_to_memory(&session).await.expect("add");
        }
    });
}

/// A file-backed store of `total` events, in a directory removed when the `TempDir` drops.
fn sqlite_filled(
    runtime: &Runtime,
    total: usize,
    limit: Option<usize>,
) -> (SqliteFts5MemoryService, TempDir) {
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("temp dir");
    let memory = SqliteFts5MemoryService::builder()
        .result_limit(limit)
        .open(dir.path().join("memory.db"))
        .expect("open");
    fill(runtime, &memory, total);
    (memory, dir)
}

fn reference_filled(runtime: &Runtime, total: usize) -> InMemoryMemoryService {
    let memory = InMemoryMemoryService::new();
    fill(runtime, &memory, total);
    memory
}

fn search(runtime: &Runtime, memory: &impl MemoryService, query: &str) -> usize {
    runtime.block_on(async {
        memory
            .search_memory(black_box("bench"), black_box("u-1"), black_box(query))
            .await
            .expect("search")
            .memories
            .len()
    })
}

fn readd_session(total: usize) -> Session {
    corpus::session("s-readd", corpus::session_texts(0, total))
}

fn runtime() -> Runtime {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime")
}

fn searches(c: &mut Criterion) {
    let runtime = runtime();
    let mut group = c.benchmark_group("search");
    for total in SIZES {
        let (sqlite, dir) = sqlite_filled(&runtime, total, None);
        let reference = reference_filled(&runtime, total);
        for (name, memory) in [
            ("sqlite_fts5", &sqlite as &dyn MemoryService),
            ("reference", &reference as &dyn MemoryService),
        ] {
            assert_eq!(search(&runtime, &memory, "needle"), 10);
            assert_eq!(search(&runtime, &memory, "common"), total / 100);
            assert_eq!(search(&runtime, &memory, "absent coffee?"), 0);
            group.bench_with_input(
                BenchmarkId::new(format!("{name}/needle_10_hits"), total),
                &memory,
                |b, m| b.iter(|| search(&runtime, m, "needle")),
            );
            group.bench_with_input(
                BenchmarkId::new(format!("{name}/common_1pct_hits"), total),
                &memory,
                |b, m| b.iter(|| search(&runtime, m, "common")),
            );
            group.bench_with_input(
                BenchmarkId::new(format!("{name}/miss_0_hits"), total),
                &memory,
                |b, m| b.iter(|| search(&runtime, m, "absent coffee?")),
            );
        }
        let limited = SqliteFts5MemoryService::builder()
            .result_limit(Some(10))
            .open(dir.path().join("memory.db"))
            .expect("open");
        assert_eq!(search(&runtime, &limited, "common"), 10.min(total / 100));
        group.bench_with_input(
            BenchmarkId::new("sqlite_fts5/common_limit_10", total),
            &limited,
            |b, m| b.iter(|| search(&runtime, m, "common")),
        );
    }
    group.finish();
}

fn adds(c: &mut Criterion) {
    let runtime = runtime();
    let mut group = c.benchmark_group("add");
    for total in SIZES {
        let session = readd_session(total);
        let (sqlite, _dir) = sqlite_filled(&runtime, total, None);
        let reference = reference_filled(&runtime, total);
        for (name, memory) in [
            ("sqlite_fts5", &sqlite as &dyn MemoryService),
            ("reference", &reference as &dyn MemoryService),
        ] {
            group.bench_with_input(
                BenchmarkId::new(format!("{name}/readd_session_of_10"), total),
                &memory,
                |b, m| {
                    b.iter(|| {
                        runtime
                            .block_on(m.add_session_to_memory(black_box(&session)))
                            .expect("add")
                    })
                },
            );
        }
    }
    group.finish();
}

criterion_group!(benches, searches, adds);
criterion_main!(benches);
