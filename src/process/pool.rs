//! [`BridgePool`]: the children of one bridge command a gate's cases run on, started lazily,
//! up to one per thread of the runner.

use std::collections::HashMap;
use std::ffi::OsString;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use tokio::sync::OnceCell;

use super::{ProcessBridge, ProcessMemoryService};
use crate::MemoryError;

/// The children of one bridge command, each serving the cases given to it: a case's first
/// instance goes to an idle child (one serving no case), a new child is started for it when
/// none is idle and fewer than the pool's size run, else it goes to the child serving the
/// fewest cases; every later instance of the case, and its [`forget`](Self::forget), goes to
/// the same child. So a runner with as many threads as the pool's size runs each thread's case
/// on a child of its own, and the backend's work spreads over as many cores.
///
/// Every child is a [`ProcessBridge`], with every guarantee of one (a failure names the child
/// and ends with its redacted stderr; an interrupt or the exit takes back every child and its
/// scratch folder). [`broken`](Self::broken) is the first failure of any child, or of starting
/// one, so a runner stops at one error.
pub struct BridgePool {
    command: Vec<OsString>,
    timeout: Duration,
    size: usize,
    /// The child started first, shaking hands before the pool exists.
    first: ProcessBridge,
    state: Mutex<State>,
}

/// Which child serves which case.
struct State {
    children: Vec<Slot>,
    /// The child (its index) of each case, by namespace, until the case is forgotten.
    cases: HashMap<String, usize>,
    /// Why a child could not start, the first time one could not.
    failed_start: Option<String>,
}

/// One child of the pool, started by the first case given to it.
struct Slot {
    bridge: Arc<OnceCell<ProcessBridge>>,
    /// How many cases it serves now.
    cases: usize,
}

impl BridgePool {
    /// Starts the first child of `command` (program and arguments), shaking hands, with
    /// `timeout` for every request; later children, up to `size` in all (at least 1), start
    /// when cases need them.
    pub(crate) async fn start(
        command: &[OsString],
        timeout: Duration,
        size: usize,
    ) -> Result<Self, MemoryError> {
        let first = spawn(command, timeout).await?;
        let ready = OnceCell::new_with(Some(first.clone()));
        Ok(Self {
            command: command.to_vec(),
            timeout,
            size: size.max(1),
            first,
            state: Mutex::new(State {
                children: vec![Slot {
                    bridge: Arc::new(ready),
                    cases: 0,
                }],
                cases: HashMap::new(),
                failed_start: None,
            }),
        })
    }

    /// A new instance of the backend on the store `namespace` ([`ProcessBridge::open`]), on the
    /// child that serves the case, or, for a new case, on the child the pool gives it.
    pub async fn open(&self, namespace: &str) -> Result<ProcessMemoryService, MemoryError> {
        let cell = self.child_of(namespace);
        let bridge = cell
            .get_or_try_init(|| spawn(&self.command, self.timeout))
            .await
            .inspect_err(|err| {
                self.lock()
                    .failed_start
                    .get_or_insert_with(|| err.to_string());
            })?;
        bridge.open(namespace).await
    }

    /// Tells the child that serves the case `namespace` to forget its store
    /// ([`ProcessBridge::forget`]); the child then serves one case fewer.
    pub fn forget(&self, namespace: &str) {
        let bridge = {
            let mut state = self.lock();
            let Some(index) = state.cases.remove(namespace) else {
                return;
            };
            let slot = &mut state.children[index];
            slot.cases = slot.cases.saturating_sub(1);
            Arc::clone(&slot.bridge)
        };
        if let Some(bridge) = bridge.get() {
            bridge.forget(namespace);
        }
    }

    /// The backend's name, as the first child said in `hello`.
    pub fn backend(&self) -> &str {
        self.first.backend()
    }

    /// The backend's version, as the first child said in `hello`.
    pub fn version(&self) -> &str {
        self.first.version()
    }

    /// Whether the first child said in `hello` that it reuses stores
    /// ([`ProcessBridge::reuses_stores`]).
    pub fn reuses_stores(&self) -> bool {
        self.first.reuses_stores()
    }

    /// How many children have started (or are starting) so far.
    pub fn children(&self) -> usize {
        self.lock().children.len()
    }

    /// Why the pool can no longer be trusted: the first child that stopped working, in the
    /// order they started ([`ProcessBridge::broken`]), or why one could not start; `None`
    /// while every child serves.
    pub fn broken(&self) -> Option<String> {
        let state = self.lock();
        if let Some(failed) = &state.failed_start {
            return Some(failed.clone());
        }
        state
            .children
            .iter()
            .filter_map(|slot| slot.bridge.get())
            .find_map(ProcessBridge::broken)
    }

    /// The cell of the child that serves `namespace`, giving a new case a child.
    fn child_of(&self, namespace: &str) -> Arc<OnceCell<ProcessBridge>> {
        let mut state = self.lock();
        if let Some(&index) = state.cases.get(namespace) {
            return Arc::clone(&state.children[index].bridge);
        }
        let idle = state.children.iter().position(|slot| slot.cases == 0);
        let index = match idle {
            Some(index) => index,
            None if state.children.len() < self.size => {
                state.children.push(Slot {
                    bridge: Arc::new(OnceCell::new()),
                    cases: 0,
                });
                state.children.len() - 1
            }
            None => (0..state.children.len())
                .min_by_key(|&index| state.children[index].cases)
                .unwrap_or(0),
        };
        state.children[index].cases += 1;
        state.cases.insert(namespace.to_owned(), index);
        Arc::clone(&state.children[index].bridge)
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl std::fmt::Debug for BridgePool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BridgePool")
            .field("size", &self.size)
            .field("children", &self.children())
            .field("first", &self.first)
            .finish_non_exhaustive()
    }
}

/// Starts one child of `command`, shaking hands.
async fn spawn(command: &[OsString], timeout: Duration) -> Result<ProcessBridge, MemoryError> {
    let (program, args) = command
        .split_first()
        .ok_or_else(|| MemoryError::backend("the bridge command is empty"))?;
    let mut child = std::process::Command::new(program);
    child.args(args);
    ProcessBridge::spawn_with_timeout(child, timeout).await
}
