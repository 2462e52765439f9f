//! The bridge protocol's cost: the same calls made directly on an in-process service that does
//! nothing, and through bridge children that do nothing, per call and per case.
//!
//! Three children answer every request at once (`open` with an instance, `search` with no
//! memories): this bench's own binary started again with `BRIDGE_BENCH_CHILD=noop` (the kit's
//! side of the protocol alone: its I/O thread, the pipes, the JSON, a process switch each
//! way); `benches/bridge_children/noop_bridge.py` (the same in Python, as a bridge reads and
//! writes its lines); and `benches/bridge_children/noop_helper_bridge.py`, a service that does
//! nothing served by the Python helper (`bridges/python`, with its event loop and its
//! conversions to ADK Python's types; it needs `google-adk`, from
//! `bridges/adk-python/.venv` or the Python named by `BRIDGE_BENCH_PYTHON`, and is skipped
//! without it). A case is what a gate's case costs the bridge on average: an instance opened,
//! two adds, three searches, the instance closed and the store dropped.
//!
//! Run with `cargo bench --bench bridge_round_trip`. It ends by printing each child's time per
//! call and per case over the direct call's, measured in rounds that visit every subject in
//! turn, so a busy machine weighs on all alike.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, criterion_group};
use memory_conformance::process::ProcessBridge;
use memory_conformance::{
    Event, MemoryError, MemoryService, SearchMemoryResponse, Session, async_trait,
};

/// Set, the binary is the no-op Rust child instead of the bench.
const CHILD: &str = "BRIDGE_BENCH_CHILD";
/// The Python that has `google-adk`, for the helper's child.
const PYTHON: &str = "BRIDGE_BENCH_PYTHON";

/// A service that does nothing.
struct Noop;

#[async_trait]
impl MemoryService for Noop {
    async fn add_session_to_memory(&self, _session: &Session) -> Result<(), MemoryError> {
        Ok(())
    }

    async fn search_memory(
        &self,
        _app: &str,
        _user: &str,
        _query: &str,
    ) -> Result<SearchMemoryResponse, MemoryError> {
        Ok(SearchMemoryResponse::default())
    }
}

/// Where the calls go: in process, or a store of a bridge child.
enum Target {
    Direct,
    Bridge(ProcessBridge),
}

impl Target {
    async fn open(&self, store: &str) -> Box<dyn MemoryService> {
        match self {
            Self::Direct => Box::new(Noop),
            Self::Bridge(bridge) => Box::new(bridge.open(store).await.expect("open")),
        }
    }

    fn forget(&self, store: &str) {
        if let Self::Bridge(bridge) = self {
            bridge.forget(store);
        }
    }
}

/// A session as the gate's cases send them: three events of eight words.
fn session() -> Session {
    let words = "coffee flat white oat milk morning order usual";
    (0..3).fold(Session::new("support", "u-42", "s-1"), |session, _| {
        session.with_event(Event::text("user", words))
    })
}

async fn one_add(memory: &dyn MemoryService, session: &Session) {
    memory.add_session_to_memory(session).await.expect("add");
}

async fn one_search(memory: &dyn MemoryService) {
    let found = memory.search_memory("support", "u-42", "coffee").await;
    std::hint::black_box(found.expect("search"));
}

/// One case: an instance opened, two adds, three searches, the instance closed, the store
/// dropped.
async fn one_case(target: &Target, store: &str, session: &Session) {
    let memory = target.open(store).await;
    for _ in 0..2 {
        one_add(memory.as_ref(), session).await;
    }
    for _ in 0..3 {
        one_search(memory.as_ref()).await;
    }
    drop(memory);
    target.forget(store);
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime")
}

fn children_folder() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/bridge_children")
}

/// The Python with `google-adk`, if there is one.
fn adk_python() -> Option<PathBuf> {
    let python = std::env::var_os(PYTHON)
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("bridges/adk-python/.venv/bin/python")
        });
    python.exists().then_some(python)
}

/// The subjects: the direct call, then every child that can start here.
fn targets(runtime: &tokio::runtime::Runtime) -> Vec<(&'static str, Target)> {
    let mut own = Command::new(std::env::current_exe().expect("the bench's own path"));
    own.env(CHILD, "noop");
    let mut python = Command::new("python3");
    python.arg(children_folder().join("noop_bridge.py"));
    let mut commands = vec![("rust_noop_child", own), ("python_noop_child", python)];
    match adk_python() {
        Some(adk) => {
            let mut helper = Command::new(adk);
            helper
                .arg(children_folder().join("noop_helper_bridge.py"))
                .env(
                    "PYTHONPATH",
                    Path::new(env!("CARGO_MANIFEST_DIR")).join("bridges/python"),
                );
            commands.push(("python_helper_noop_service", helper));
        }
        None => println!(
            "python_helper_noop_service skipped: no Python with google-adk (run \
             bridges/install.sh, or set {PYTHON})"
        ),
    }
    let mut targets = vec![("direct", Target::Direct)];
    for (name, command) in commands {
        match runtime.block_on(ProcessBridge::spawn(command)) {
            Ok(bridge) => targets.push((name, Target::Bridge(bridge))),
            Err(err) => println!("{name} skipped: {err}"),
        }
    }
    targets
}

fn bridge_round_trip(c: &mut Criterion) {
    let runtime = runtime();
    let targets = targets(&runtime);
    let session = session();
    let mut group = c.benchmark_group("bridge_round_trip");
    group.measurement_time(Duration::from_secs(5));
    for (name, target) in &targets {
        let memory = runtime.block_on(target.open("per-call"));
        group.bench_function(BenchmarkId::new("search", name), |b| {
            b.iter(|| runtime.block_on(one_search(memory.as_ref())))
        });
        group.bench_function(BenchmarkId::new("add", name), |b| {
            b.iter(|| runtime.block_on(one_add(memory.as_ref(), &session)))
        });
        let mut case = 0u64;
        group.bench_function(BenchmarkId::new("case", name), |b| {
            b.iter(|| {
                case += 1;
                runtime.block_on(one_case(target, &format!("case-{case}"), &session))
            })
        });
        drop(memory);
        target.forget("per-call");
    }
    group.finish();
    summary(&runtime, &targets, &session);
}

/// Each subject's median time per search, per add and per case, over rounds that visit every
/// subject in turn, printed with its overhead over the direct call.
fn summary(runtime: &tokio::runtime::Runtime, targets: &[(&str, Target)], session: &Session) {
    const ROUNDS: usize = 100;
    const CALLS: u32 = 50;
    const CASES: u32 = 10;
    let mut times = vec![[Vec::new(), Vec::new(), Vec::new()]; targets.len()];
    let mut case = 0u64;
    for _ in 0..ROUNDS {
        for ((_, target), times) in targets.iter().zip(&mut times) {
            runtime.block_on(async {
                let memory = target.open("summary").await;
                let started = Instant::now();
                for _ in 0..CALLS {
                    one_search(memory.as_ref()).await;
                }
                times[0].push(started.elapsed() / CALLS);
                let started = Instant::now();
                for _ in 0..CALLS {
                    one_add(memory.as_ref(), session).await;
                }
                times[1].push(started.elapsed() / CALLS);
                drop(memory);
                target.forget("summary");
                let started = Instant::now();
                for _ in 0..CASES {
                    case += 1;
                    one_case(target, &format!("summary-{case}"), session).await;
                }
                times[2].push(started.elapsed() / CASES);
            });
        }
    }
    let median = |values: &[Duration]| {
        let mut values = values.to_vec();
        values.sort();
        values[values.len() / 2]
    };
    let medians: Vec<[Duration; 3]> = times
        .iter()
        .map(|[search, add, case]| [median(search), median(add), median(case)])
        .collect();
    let direct = medians[0];
    println!(
        "medians over {ROUNDS} rounds ({CALLS} calls, {CASES} cases each); in brackets, the \
         time over the direct call's:"
    );
    for ((name, _), times) in targets.iter().zip(&medians) {
        let shown: Vec<String> = ["search", "add", "case"]
            .iter()
            .zip(times.iter().zip(direct))
            .map(|(what, (time, direct))| {
                let over = time.saturating_sub(direct);
                format!("{what} {time:.1?} (+{over:.1?})")
            })
            .collect();
        println!("  {name:28} {}", shown.join(", "));
    }
}

criterion_group!(benches, bridge_round_trip);

fn main() {
    if std::env::var_os(CHILD).is_some() {
        serve_noop();
        return;
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
}

/// The no-op child: answers every request of the protocol at once, one flushed line each.
fn serve_noop() {
    use std::io::{BufRead, Write};
    let mut out = std::io::stdout().lock();
    let mut opened = 0u64;
    for line in std::io::stdin().lock().lines() {
        let line = line.expect("a line on stdin");
        let request: serde_json::Value = serde_json::from_str(&line).expect("a JSON request");
        let id = &request["id"];
        let answer = match request["op"].as_str() {
            Some("hello") => serde_json::json!({
                "id": id, "ok": true, "protocol": 2, "backend": "noop", "version": "noop 1"
            }),
            Some("open") => {
                opened += 1;
                serde_json::json!({"id": id, "ok": true, "instance": opened})
            }
            Some("search") => serde_json::json!({"id": id, "ok": true, "memories": []}),
            _ => serde_json::json!({"id": id, "ok": true}),
        };
        writeln!(out, "{answer}")
            .and_then(|()| out.flush())
            .expect("stdout");
    }
}
