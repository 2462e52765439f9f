//! The inspecting decorator's cost per search, counted in instructions, which unlike wall
//! time does not move with the other tenants of a virtual machine.
//!
//! `cargo bench --bench decorator_instructions` prints wall time; for the instruction counts,
//! run the built binary under callgrind once per mode and compare the totals (`setup` only
//! fills the store; the rest of each total is its searches):
//!
//! ```sh
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null target/release/deps/decorator_instructions-* setup
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null target/release/deps/decorator_instructions-* plain
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null target/release/deps/decorator_instructions-* inspected
//! ```

use std::hint::black_box;
use std::time::Instant;

use memory_conformance::inspect::InspectingMemoryService;
use memory_conformance::{Event, InMemoryMemoryService, MemoryService, Session};

const SEARCHES: usize = 20_000;

fn main() {
    let mode = std::env::args()
        .skip(1)
        .find(|a| ["setup", "plain", "inspected"].contains(&a.as_str()));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("runtime");
    let memory = InMemoryMemoryService::new();
    runtime.block_on(async {
        for s in 0..1_000 {
            let text = if s % 100 == 0 {
                "needle in the coffee"
            } else {
                "flat white coffee"
            };
            let session = Session::new("bench", "u-1", format!("s-{s}"))
                .with_event(Event::text("user", text));
            memory.add_session_to_memory(&session).await.expect("add");
        }
    });
    let inspected = InspectingMemoryService::new(&memory);
    let search = |service: &dyn MemoryService| {
        runtime.block_on(async {
            for _ in 0..SEARCHES {
                black_box(
                    service
                        .search_memory("bench", "u-1", black_box("needle"))
                        .await
                        .expect("search"),
                );
            }
        })
    };
    match mode.as_deref() {
        Some("setup") => {}
        Some("plain") => search(&memory),
        Some("inspected") => search(&inspected),
        _ => {
            for (name, service) in [
                ("plain", &memory as &dyn MemoryService),
                ("inspected", &inspected),
            ] {
                let started = Instant::now();
                search(service);
                println!(
                    "{name}: {:?} per search",
                    started.elapsed() / SEARCHES as u32
                );
            }
        }
    }
}
