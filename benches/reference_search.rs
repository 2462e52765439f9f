//! Reference `search_memory` latency at 1k, 10k and 100k stored events, and the inspecting
//! decorator's overhead on the same search.
//!
//! Every store holds the shared corpus (`benches/corpus/`): sessions of 10 events of 8 words
//! drawn from a 5,000-word vocabulary; the word `needle` is in exactly 10 events whatever the
//! store's size, so a search for it should cost the same at every size (an inverted index),
//! while `common` (in 1% of events) grows.
//!
//! Run with `cargo bench --bench reference_search`.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use memory_conformance::inspect::InspectingMemoryService;
use memory_conformance::{InMemoryMemoryService, MemoryService};
use tokio::runtime::Runtime;

#[allow(dead_code)] // each bench uses its part of the shared corpus
mod corpus;

const SIZES: [usize; 3] = [1_000, 10_000, 100_000];

fn filled(runtime: &Runtime, total: usize) -> InMemoryMemoryService {
    let memory = InMemoryMemoryService::new();
    runtime.block_on(async {
        for session in corpus::sessions(total) {
            memory.add_session_to_memory(&session).await.expect("add");
        }
    });
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

fn reference_search(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime");
    let mut group = c.benchmark_group("reference_search");
    for total in SIZES {
        let memory = filled(&runtime, total);
        assert_eq!(search(&runtime, &memory, "needle"), 10);
        assert_eq!(search(&runtime, &memory, "common"), total / 100);
        group.bench_with_input(
            BenchmarkId::new("needle_10_hits", total),
            &memory,
            |b, m| b.iter(|| search(&runtime, m, "needle")),
        );
        group.bench_with_input(
            BenchmarkId::new("common_1pct_hits", total),
            &memory,
            |b, m| b.iter(|| search(&runtime, m, "common")),
        );
        group.bench_with_input(BenchmarkId::new("miss_0_hits", total), &memory, |b, m| {
            b.iter(|| search(&runtime, m, "absent coffee?"))
        });
    }
    group.finish();
}

fn reference_add(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime");
    let mut group = c.benchmark_group("reference_add");
    for total in SIZES {
        let memory = filled(&runtime, total);
        let session = corpus::session("s-readd", corpus::session_texts(0, total));
        group.bench_with_input(
            BenchmarkId::new("readd_session_of_10", total),
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
    group.finish();
}

fn decorator_overhead(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime");
    let mut group = c.benchmark_group("decorator_overhead");
    let total = 10_000;
    let plain = filled(&runtime, total);
    // The same store behind the decorator, so only the decorator differs.
    let inspected = InspectingMemoryService::new(&plain);
    group.bench_function("plain_needle", |b| {
        b.iter(|| search(&runtime, &plain, "needle"))
    });
    group.bench_function("inspected_needle_no_subscriber", |b| {
        b.iter(|| search(&runtime, &inspected, "needle"))
    });
    let subscriber = tracing_subscriber::fmt()
        .with_writer(std::io::sink)
        .finish();
    tracing::subscriber::with_default(subscriber, || {
        group.bench_function("inspected_needle_fmt_subscriber", |b| {
            b.iter(|| search(&runtime, &inspected, "needle"))
        });
    });
    group.finish();
}

criterion_group!(benches, reference_search, reference_add, decorator_overhead);
criterion_main!(benches);
