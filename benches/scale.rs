//! The reference's search time and memory from 1,000 to 1,000,000 stored events, for one user
//! and for 1,000 users sharing the store.
//!
//! ```text
//! cargo bench --bench scale              # every size, one and 1,000 users
//! cargo bench --bench scale -- 100000    # sizes up to 100,000 events only
//! ```
//!
//! Every user's events come in sessions of 10 (fewer when a user has fewer events), each event 8
//! words drawn from a 5,000-word vocabulary, the benchmarks' corpus (`benches/corpus/`) as in
//! `reference_search` and adk-rust's `side_by_side`. In each user's events the word `needle` is in
//! 10 events (every event when the user has fewer), `common` in 1%, and `absent` in none. The
//! searches are for the first user, as `search_memory` returns them: every match, unscored.
//!
//! Printed per size: the time to add every session (one `add_session_to_memory` per session),
//! the heap bytes the store holds afterwards (counted by this binary's allocator: what the
//! store keeps, the sessions given to it having been dropped), per event, and the median time
//! of each search. The process's peak resident set size (`VmHWM`) is printed at the end.
//!
//! Timed with `Instant` in a plain loop: each search's figure is the median over batches of
//! calls, each batch timed whole, so the clock's own cost stays below 1%.

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use memory_conformance::{Event, InMemoryMemoryService, MemoryService, Session};
use tokio::runtime::Runtime;

use corpus::{APP, EVENTS_PER_SESSION, VOCABULARY, text_of};

#[allow(dead_code)] // each bench uses its part of the shared corpus
mod corpus;

/// The system allocator, counting the bytes live at any moment.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded to `System` unchanged; only a counter is updated beside it.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size(), Ordering::Relaxed);
        // SAFETY: the caller's contract is `System`'s.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size(), Ordering::Relaxed);
        // SAFETY: as above.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_add(new_size, Ordering::Relaxed);
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

const SIZES: [usize; 4] = [1_000, 10_000, 100_000, 1_000_000];
const USERS: [usize; 2] = [1, 1_000];
/// A search: its query, and the number of hits it must return for a user with `n` events.
type Query = (&'static str, fn(usize) -> usize);
/// The searches made at every size.
const QUERIES: [Query; 3] = [
    ("needle", |n| n.min(10)),
    ("common", |n| n.div_ceil(100)),
    ("absent", |_| 0),
];

fn user(u: usize) -> String {
    format!("u-{u}")
}

/// A store of `total` events spread evenly over `users` users, and the time its adds took.
fn filled(runtime: &Runtime, total: usize, users: usize) -> (InMemoryMemoryService, Duration) {
    let memory = InMemoryMemoryService::new();
    let per_user = total / users;
    let mut adding = Duration::ZERO;
    runtime.block_on(async {
        for u in 0..users {
            let user = user(u);
            let mut event = 0;
            let mut s = 0;
            while event < per_user {
                let len = EVENTS_PER_SESSION.min(per_user - event);
                let events =
                    (event..event + len).map(|e| Event::text("user", text_of(e, per_user)));
                let session =
                    Session::new(APP, user.as_str(), format!("s-{s}")).with_events(events);
                let start = Instant::now();
                memory.add_session_to_memory(&session).await.expect("add");
                adding += start.elapsed();
                event += len;
                s += 1;
            }
        }
    });
    (memory, adding)
}

/// The median time of one search for `query` by the first user, and its number of hits.
fn search_time(
    runtime: &Runtime,
    memory: &InMemoryMemoryService,
    query: &str,
) -> (Duration, usize) {
    let user = user(0);
    let hits = runtime
        .block_on(memory.search_memory(APP, &user, query))
        .expect("search");
    let hits = hits.memories.len();
    // Calls per batch: enough for a batch to take about 1 ms.
    let one = {
        let start = Instant::now();
        runtime.block_on(async {
            for _ in 0..10 {
                black_box(
                    memory
                        .search_memory(APP, &user, black_box(query))
                        .await
                        .expect("search"),
                );
            }
        });
        start.elapsed() / 10
    };
    let per_batch =
        (Duration::from_millis(1).as_nanos() / one.as_nanos().max(1)).clamp(1, 10_000) as u32;
    let budget = Duration::from_millis(300);
    let began = Instant::now();
    let mut batches = Vec::new();
    while batches.len() < 15 || (began.elapsed() < budget && batches.len() < 1_000) {
        let start = Instant::now();
        runtime.block_on(async {
            for _ in 0..per_batch {
                black_box(
                    memory
                        .search_memory(APP, &user, black_box(query))
                        .await
                        .expect("search"),
                );
            }
        });
        batches.push(start.elapsed() / per_batch);
    }
    batches.sort();
    (batches[batches.len() / 2], hits)
}

fn format_duration(d: Duration) -> String {
    let ns = d.as_nanos() as f64;
    if ns < 1_000.0 {
        format!("{ns:.0} ns")
    } else if ns < 1_000_000.0 {
        format!("{:.1} µs", ns / 1e3)
    } else if ns < 1_000_000_000.0 {
        format!("{:.1} ms", ns / 1e6)
    } else {
        format!("{:.2} s", ns / 1e9)
    }
}

fn format_count(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `VmHWM` of /proc/self/status, the process's peak resident set size, when readable.
fn peak_rss() -> Option<String> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    Some(line["VmHWM:".len()..].trim().to_owned())
}

/// The largest size to run: the first argument that is a number (cargo bench passes `--bench`).
fn largest_size() -> usize {
    std::env::args()
        .skip(1)
        .find_map(|a| a.replace(['_', ','], "").parse().ok())
        .unwrap_or(usize::MAX)
}

fn main() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime");
    let largest = largest_size();
    println!(
        "The reference (InMemoryMemoryService) at scale: sessions of {EVENTS_PER_SESSION} events of 8 words from a {VOCABULARY}-word vocabulary."
    );
    println!(
        "Searches by the first user; hits in brackets. Heap: bytes the store holds after the adds (allocator-counted).\n"
    );
    print!("| users | events | events per user | add every session | heap | heap per event |");
    for (query, _) in QUERIES {
        print!(" search `{query}` |");
    }
    println!();
    print!("|---:|---:|---:|---:|---:|---:|");
    for _ in QUERIES {
        print!("---:|");
    }
    println!();
    for users in USERS {
        for total in SIZES.into_iter().filter(|&n| n <= largest && n >= users) {
            let before = LIVE.load(Ordering::Relaxed);
            let (memory, adding) = filled(&runtime, total, users);
            let heap = LIVE.load(Ordering::Relaxed).saturating_sub(before);
            print!(
                "| {} | {} | {} | {} | {:.1} MB | {} B |",
                format_count(users),
                format_count(total),
                format_count(total / users),
                format_duration(adding),
                heap as f64 / 1e6,
                heap / total
            );
            for (query, expected) in QUERIES {
                let (time, hits) = search_time(&runtime, &memory, query);
                assert_eq!(
                    hits,
                    expected(total / users),
                    "search {query:?} of {total} events over {users} users"
                );
                print!(" {} ({}) |", format_duration(time), format_count(hits));
            }
            println!();
            drop(memory);
        }
    }
    if let Some(peak) = peak_rss() {
        println!("\nPeak resident set size of the whole run (VmHWM): {peak}");
    }
}
