//! [`ProcessBridge`]: a child process that serves memory stores over the bridge protocol.

use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;

use super::child::Connection;
use super::protocol::{OLDEST_PROTOCOL_VERSION, Op, PROTOCOL_VERSION};
use super::service::ProcessMemoryService;
use crate::MemoryError;
use crate::conformance::DEFAULT_OP_TIMEOUT;

/// A child process, written in any language, that serves independent memory stores over the
/// bridge protocol: one JSON object per line on its stdin and stdout (`docs/bridge-protocol.md`
/// in the repository).
///
/// [`spawn`](Self::spawn) starts the command and shakes hands (`hello`); [`store`](Self::store)
/// gives a [`ProcessMemoryService`] on a fresh, empty store of the child. One child serves any
/// number of stores at once: requests are pipelined and answers matched to them by id, so the
/// child may answer in any order. The bridge runs the child's I/O on a thread of its own, so it
/// works from any async runtime and outlives the runtime that spawned it.
///
/// Every failure of the child is a [`MemoryError`] that names it and ends with the last lines
/// the child wrote to stderr: it cannot be started, it exits, it prints a line that is not a
/// response, it answers a request nobody is waiting for, it does not answer within the
/// timeout (default [`DEFAULT_OP_TIMEOUT`]; the child is then stopped), or
/// it answers `ok: false`. After any failure but the last, every later call fails at once with
/// the same reason. Dropping the bridge and every store closes the child's stdin; a child
/// still running two seconds later is stopped.
///
/// ```no_run
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), memory_conformance::MemoryError> {
/// use memory_conformance::process::ProcessBridge;
/// use memory_conformance::{Event, MemoryService, Session};
///
/// let mut command = std::process::Command::new("bridges/adk-python/.venv/bin/python");
/// command.arg("bridges/adk-python/bridge.py");
/// let bridge = ProcessBridge::spawn(command).await?;
/// println!("{} {}", bridge.backend(), bridge.version());
///
/// let memory = bridge.store("case-1").await?;
/// let monday = Session::new("support", "u-42", "s-1").with_event(Event::text("user", "flat white"));
/// memory.add_session_to_memory(&monday).await?;
/// assert_eq!(memory.search_memory("support", "u-42", "white").await?.memories.len(), 1);
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Debug)]
pub struct ProcessBridge {
    connection: Arc<Connection>,
    backend: String,
    version: String,
    protocol: u32,
    reuses_stores: bool,
}

impl ProcessBridge {
    /// How much longer than the child's own timeout the harness waits for a bridged call, so
    /// a hung child is reported by the bridge, with its stderr, and not by the harness.
    pub const HARNESS_MARGIN: Duration = Duration::from_secs(10);

    /// The time zone a bridge child runs in unless its command sets `TZ`: the kit checks a
    /// naive timestamp (profile `timestamps = "naive-isoformat"`) as wall-clock time in UTC, so
    /// a child writing local time writes UTC whatever zone the machine is set to.
    pub const TIME_ZONE: &'static str = "UTC";

    /// Starts `command` (its program, arguments, environment and working directory are used
    /// as set, with `TZ` set to [`TIME_ZONE`](Self::TIME_ZONE) unless the command sets it;
    /// stdin, stdout and stderr are taken over) and shakes hands with it.
    pub async fn spawn(command: Command) -> Result<Self, MemoryError> {
        Self::spawn_with_timeout(command, DEFAULT_OP_TIMEOUT).await
    }

    /// Like [`spawn`](Self::spawn), with `timeout` for every request; `hello`, which waits for
    /// the child to start, gets at least [`DEFAULT_OP_TIMEOUT`], however short `timeout` is.
    pub async fn spawn_with_timeout(
        command: Command,
        timeout: Duration,
    ) -> Result<Self, MemoryError> {
        let mut command = command;
        if !command.get_envs().any(|(name, _)| name == "TZ") {
            command.env("TZ", Self::TIME_ZONE);
        }
        let connection = Connection::start(command, timeout).await?;
        let hello = connection
            .request(&Op::Hello {
                protocol: PROTOCOL_VERSION,
            })
            .await?;
        let protocol = match hello.get("protocol") {
            Some(protocol) => protocol.as_u64(),
            None => return Err(connection.error("answered hello without a `protocol` version")),
        };
        let spoken = u64::from(OLDEST_PROTOCOL_VERSION)..=u64::from(PROTOCOL_VERSION);
        let Some(protocol) = protocol
            .filter(|v| spoken.contains(v))
            .and_then(|v| u32::try_from(v).ok())
        else {
            let theirs = hello
                .get("protocol")
                .map(Value::to_string)
                .unwrap_or_default();
            return Err(connection.error(format!(
                "speaks bridge protocol {theirs}, but this kit speaks protocols \
                 {OLDEST_PROTOCOL_VERSION} to {PROTOCOL_VERSION}"
            )));
        };
        let field = |name: &str| -> Result<String, MemoryError> {
            match hello.get(name) {
                Some(Value::String(text)) => Ok(text.clone()),
                _ => Err(connection.error(format!("answered hello without a `{name}` string"))),
            }
        };
        let (backend, version) = (field("backend")?, field("version")?);
        let reuses_stores = match hello.get("reuses_stores") {
            None => false,
            Some(Value::Bool(reuses)) => *reuses,
            Some(other) => {
                return Err(connection.error(format!(
                    "answered hello with `reuses_stores` {other}, where true or false was expected"
                )));
            }
        };
        Ok(Self {
            connection: Arc::new(connection),
            backend,
            version,
            protocol,
            reuses_stores,
        })
    }

    /// The protocol version the child speaks: 1, or 2 with `open`, `close` and instances.
    pub fn protocol(&self) -> u32 {
        self.protocol
    }

    /// The backend's name, as the child said in `hello` (`adk-python`).
    pub fn backend(&self) -> &str {
        &self.backend
    }

    /// The backend's version, as the child said in `hello` (`google-adk 2.13.0`).
    pub fn version(&self) -> &str {
        &self.version
    }

    /// Whether the child said in `hello` that it reuses stores (`"reuses_stores": true`): a
    /// dropped store's storage is cleared and given to a later store, instead of removed and
    /// made again. What a case sees is the same either way when the clearing is complete;
    /// an entry of another case in a search is then the clearing's fault.
    pub fn reuses_stores(&self) -> bool {
        self.reuses_stores
    }

    /// A memory service on the child's store `namespace`, emptied first (`reset`): a fresh
    /// instance, as the harness's namespaced factory wants. Dropping the service tells the
    /// child to forget the store (`drop`).
    pub async fn store(
        &self,
        namespace: impl Into<String>,
    ) -> Result<ProcessMemoryService, MemoryError> {
        let store = namespace.into();
        self.connection
            .request(&Op::Reset { store: &store })
            .await?;
        Ok(ProcessMemoryService::new(
            Arc::clone(&self.connection),
            store,
            None,
        ))
    }

    /// A new instance of the backend on the storage of the child's store `namespace`, created
    /// empty by the first `open` of that store (protocol v2): instances opened on one store
    /// reach the same storage, so a second instance, or one opened after the others are
    /// dropped, sees what the backend kept. Dropping the service closes the instance
    /// (`close`); [`forget`](Self::forget) removes the store's storage.
    ///
    /// A child that speaks protocol 1 has no instances: `open` then empties the store
    /// (`reset`) like [`store`](Self::store), so nothing survives a reopen.
    pub async fn open(
        &self,
        namespace: impl Into<String>,
    ) -> Result<ProcessMemoryService, MemoryError> {
        if self.protocol < 2 {
            return self.store(namespace).await;
        }
        let store = namespace.into();
        let opened = self.connection.request(&Op::Open { store: &store }).await?;
        let instance = opened
            .get("instance")
            .and_then(Value::as_u64)
            .ok_or_else(|| {
                self.connection
                    .error("answered open without an `instance` number")
            })?;
        Ok(ProcessMemoryService::new(
            Arc::clone(&self.connection),
            store,
            Some(instance),
        ))
    }

    /// Why the child can no longer be used (it exited, hung, printed something that is not
    /// the protocol), with the end of its stderr; `None` while it serves. Once broken, every
    /// call fails at once with this same message, so a caller can stop at the first.
    pub fn broken(&self) -> Option<String> {
        self.connection.broken().map(|err| err.to_string())
    }

    /// Tells the child to forget the store `namespace`: close its instances and remove its
    /// storage (`drop`, without waiting for the answer).
    pub fn forget(&self, namespace: &str) {
        self.connection.send(&Op::Drop { store: namespace });
    }
}
