//! The connection to one child process: its I/O runs on a thread of its own, requests are
//! pipelined and answers dispatched by id, and every way the child can fail ends as an error
//! that says how and shows the end of its stderr.

mod io;

use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use serde_json::{Map, Value};
use tokio::sync::{Notify, mpsc, oneshot, watch};
use tokio::task::AbortHandle;

use super::group::interrupted;
use super::protocol::{self, Op, Reply};
use super::stderr_tail::StderrTail;
use crate::MemoryError;
use crate::conformance::DEFAULT_OP_TIMEOUT;
use crate::conformance::late_timer::{self, Overrun};

/// How long a child that closed its stdout gets to exit, and a child whose stdin was closed
/// gets to finish, before the kit stops waiting (or stops it).
const EXIT_GRACE: Duration = Duration::from_secs(2);
/// How long an error waits for the child's last stderr lines to be read.
const STDERR_SETTLE: Duration = Duration::from_millis(200);
/// One turn of the stderr reader, when an error waits for it to catch up.
const STDERR_TURN: Duration = Duration::from_millis(10);
/// How long a child gets, at least, to start and answer `hello`: its start-up (an interpreter
/// importing its package, a JVM warming up) is not a call of the backend, and on a busy machine
/// it can take longer than a short per-call timeout meant for the backend's calls.
const START_TIMEOUT: Duration = DEFAULT_OP_TIMEOUT;
/// The longest protocol line the kit reads; a longer one breaks the connection unread.
pub(crate) const MAX_LINE_BYTES: usize = 16 << 20;

/// A running child and the means to ask it things. Dropping the last handle closes the
/// child's stdin; a child that has not exited [`EXIT_GRACE`] later is stopped.
pub(crate) struct Connection {
    commands: mpsc::UnboundedSender<Command>,
    core: Arc<Core>,
    next_id: AtomicU64,
}

/// One request on its way to the writer.
struct Command {
    id: u64,
    op: &'static str,
    line: String,
    reply: Option<oneshot::Sender<Answer>>,
}

type Answer = Result<Map<String, Value>, Failure>;

/// Why a request got no successful answer.
#[derive(Clone, Debug)]
enum Failure {
    /// The child answered `ok: false` with this message.
    Refused(protocol::Refusal),
    /// The child can no longer be used; the text says why (it exited, printed garbage,
    /// answered a request nobody asked, hung).
    Broken(Arc<str>),
}

/// What the I/O tasks and the handles share.
struct Core {
    /// The command line, for messages.
    label: String,
    timeout: Duration,
    state: Mutex<State>,
    tail: StderrTail,
    /// Asks the supervisor to stop the child now.
    kill: Notify,
    /// Tells the supervisor that every handle is gone.
    closing: Notify,
    /// Asks the writer to close the child's stdin (on SIGINT or SIGTERM).
    hangup: Arc<Notify>,
    /// How the child ended, once it has.
    exit: watch::Sender<Option<String>>,
    /// Whether the child's stderr reached its end.
    stderr_closed: watch::Sender<bool>,
}

#[derive(Default)]
struct State {
    pending: HashMap<u64, Pending>,
    broken: Option<Arc<str>>,
}

struct Pending {
    op: &'static str,
    reply: Option<oneshot::Sender<Answer>>,
    timer: AbortHandle,
}

impl Connection {
    /// Starts `command` with piped stdin, stdout and stderr, on an I/O thread of its own.
    pub(crate) async fn start(
        command: std::process::Command,
        timeout: Duration,
    ) -> Result<Self, MemoryError> {
        let label = describe(&command);
        let core = Arc::new(Core {
            label: label.clone(),
            timeout,
            state: Mutex::new(State::default()),
            tail: StderrTail::default(),
            kill: Notify::new(),
            closing: Notify::new(),
            hangup: Arc::new(Notify::new()),
            exit: watch::Sender::new(None),
            stderr_closed: watch::Sender::new(false),
        });
        let (commands, receiver) = mpsc::unbounded_channel();
        let (started, on_start) = oneshot::channel();
        let io_core = Arc::clone(&core);
        std::thread::Builder::new()
            .name("memory-bridge-io".into())
            .spawn(move || io::run_io(io_core, command, receiver, started))
            .map_err(|err| {
                MemoryError::backend_with_source(
                    format!("cannot start a thread for bridge child {label}"),
                    err,
                )
            })?;
        match on_start.await {
            Ok(Ok(())) => Ok(Self {
                commands,
                core,
                next_id: AtomicU64::new(1),
            }),
            Ok(Err(err)) => Err(MemoryError::backend_with_source(
                format!("cannot start bridge child {label}: {err}"),
                err,
            )),
            Err(_) => Err(MemoryError::backend(format!(
                "cannot start bridge child {label}: its I/O thread stopped"
            ))),
        }
    }

    /// Sends `op` and waits for the answer: the response's fields on success, else an error
    /// naming the failure, with the end of the child's stderr.
    pub(crate) async fn request(&self, op: &Op<'_>) -> Result<Map<String, Value>, MemoryError> {
        if interrupted() {
            return std::future::pending().await;
        }
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let line = protocol::encode(id, op).map_err(|err| {
            self.error(format!("cannot encode request {id} ({}): {err}", op.name()))
        })?;
        if op.carries_content() {
            self.core.tail.sending_content();
        }
        let (reply, answer) = oneshot::channel();
        let command = Command {
            id,
            op: op.name(),
            line,
            reply: Some(reply),
        };
        if self.commands.send(command).is_err() {
            return Err(self.error("cannot be reached: the bridge's I/O thread has stopped"));
        }
        match answer.await {
            Ok(Ok(fields)) => Ok(fields),
            Ok(Err(Failure::Refused(refusal))) if refusal.unsupported => {
                Err(MemoryError::Unsupported {
                    operation: op.call(),
                })
            }
            Ok(Err(Failure::Refused(refusal))) => {
                // The child's message can quote what it stores: shown as its stderr is (the
                // policy of `StderrTail`). The error keeps it verbatim for the program, never
                // printed in a failure report: `MemoryError::backend_reason` gives it to the
                // recall probe and the recall benchmark, which feed the backend only the kit's
                // own corpora.
                let (message, note) = self.core.tail.shown(&refusal.message);
                let what = format!("failed request {id} ({}): {message}{note}", op.name());
                Err(MemoryError::backend_saying(
                    self.describe(what),
                    refusal.message,
                ))
            }
            Ok(Err(Failure::Broken(reason))) => Err(self.error(reason)),
            Err(_) => {
                Err(self
                    .error("cannot be reached: the bridge's I/O thread stopped before the answer"))
            }
        }
    }

    /// Sends `op` without waiting for its answer (a failure still breaks the connection).
    pub(crate) fn send(&self, op: &Op<'_>) {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        if op.carries_content() {
            self.core.tail.sending_content();
        }
        if let Ok(line) = protocol::encode(id, op) {
            let _ = self.commands.send(Command {
                id,
                op: op.name(),
                line,
                reply: None,
            });
        }
    }

    /// Why the connection broke, as the error every call now gets; `None` while it works.
    /// (Never once the kit was interrupted: the kit broke it, and is exiting.)
    pub(crate) fn broken(&self) -> Option<MemoryError> {
        if interrupted() {
            return None;
        }
        let reason = self.core.lock().broken.clone()?;
        Some(self.error(reason))
    }

    /// An error about the child: its command line, `what` happened, and its stderr's end.
    pub(crate) fn error(&self, what: impl fmt::Display) -> MemoryError {
        MemoryError::backend(self.describe(what))
    }

    /// Text the child wrote, as an error message shows it (the policy of `StderrTail`), with
    /// the note that follows it.
    pub(crate) fn shown(&self, text: &str) -> (String, String) {
        self.core.tail.shown(text)
    }

    /// The message of an error about the child: its command line, `what` happened, and its
    /// stderr's end.
    fn describe(&self, what: impl fmt::Display) -> String {
        format!(
            "bridge child {} {what}{}",
            self.core.label,
            self.core.tail.render()
        )
    }
}

impl fmt::Debug for Connection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Connection")
            .field("child", &self.core.label)
            .field("timeout", &self.core.timeout)
            .finish_non_exhaustive()
    }
}

impl Core {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn is_broken(&self) -> bool {
        self.lock().broken.is_some()
    }

    /// Registers request `id` and arms its timeout; `false` (after answering it) when the
    /// child is already broken.
    fn register(
        self: &Arc<Self>,
        id: u64,
        op: &'static str,
        reply: Option<oneshot::Sender<Answer>>,
    ) -> bool {
        let mut state = self.lock();
        if let Some(reason) = &state.broken {
            if let Some(reply) = reply {
                let _ = reply.send(Err(Failure::Broken(Arc::clone(reason))));
            }
            return false;
        }
        let core = Arc::clone(self);
        let timeout = self.timeout_for(op);
        // Aborted when the answer comes; a timer that fired late allows the child that much
        // more, once (the machine was busy, not necessarily the child slow).
        let timer = tokio::spawn(async move {
            if let Err(overrun) = late_timer::within(timeout, std::future::pending::<()>()).await {
                core.time_out(id, op, timeout, overrun);
            }
        });
        state.pending.insert(
            id,
            Pending {
                op,
                reply,
                timer: timer.abort_handle(),
            },
        );
        true
    }

    /// The time `op` gets: the per-call timeout, and for `hello` at least [`START_TIMEOUT`].
    fn timeout_for(&self, op: &str) -> Duration {
        if op == Op::HELLO {
            self.timeout.max(START_TIMEOUT)
        } else {
            self.timeout
        }
    }

    fn time_out(&self, id: u64, op: &'static str, timeout: Duration, overrun: Overrun) {
        if self.lock().pending.contains_key(&id) {
            self.break_with(format!(
                "did not answer request {id} ({op}) within {timeout:?}, so it was stopped ({overrun})"
            ));
        }
    }

    /// Hands `reply` to the request waiting for it; an answer nobody waits for breaks the
    /// connection, since every later answer could be misattributed.
    fn deliver(self: &Arc<Self>, reply: Reply) {
        let mut state = self.lock();
        if state.broken.is_some() {
            return;
        }
        let Some(pending) = state.pending.remove(&reply.id) else {
            let waiting = describe_waiting(&state.pending);
            drop(state);
            self.break_with(format!(
                "answered request {}, but no request {} is waiting for an answer ({waiting})",
                reply.id, reply.id
            ));
            return;
        };
        drop(state);
        pending.timer.abort();
        let Some(sender) = pending.reply else { return };
        match reply.body {
            Ok(fields) => {
                let _ = sender.send(Ok(fields));
            }
            Err(refusal) => {
                let core = Arc::clone(self);
                tokio::spawn(async move {
                    core.settle_stderr().await;
                    let _ = sender.send(Err(Failure::Refused(refusal)));
                });
            }
        }
    }

    /// Waits until the stderr reader has had two turns and read nothing new in the last one
    /// (at most [`STDERR_SETTLE`]), so lines the child wrote just before an answer are in the
    /// tail.
    async fn settle_stderr(&self) {
        let started = tokio::time::Instant::now();
        let mut seen = self.tail.bytes_seen();
        for turn in 1.. {
            tokio::time::sleep(STDERR_TURN).await;
            let now = self.tail.bytes_seen();
            if (turn >= 2 && now == seen) || started.elapsed() >= STDERR_SETTLE {
                return;
            }
            seen = now;
        }
    }

    /// Marks the connection broken for `reason` (the first reason wins), stops the child and
    /// fails every waiting request once the child's last stderr lines are read.
    /// Once the kit was interrupted, the waiting requests are left waiting for the exit.
    fn break_with(&self, reason: String) {
        let pending: Vec<Pending> = {
            let mut state = self.lock();
            if state.broken.is_some() {
                return;
            }
            state.broken = Some(Arc::from(reason.as_str()));
            if interrupted() {
                drop(state);
                self.kill.notify_one();
                return;
            }
            state.pending.drain().map(|(_, pending)| pending).collect()
        };
        self.kill.notify_one();
        let reason: Arc<str> = Arc::from(reason);
        let mut stderr_closed = self.stderr_closed.subscribe();
        tokio::spawn(async move {
            let _ =
                tokio::time::timeout(STDERR_SETTLE, stderr_closed.wait_for(|closed| *closed)).await;
            for pending in pending {
                pending.timer.abort();
                if let Some(reply) = pending.reply {
                    let _ = reply.send(Err(Failure::Broken(Arc::clone(&reason))));
                }
            }
        });
    }
}

fn describe_waiting(pending: &HashMap<u64, Pending>) -> String {
    if pending.is_empty() {
        return "no request is waiting".into();
    }
    let mut ids: Vec<(&u64, &Pending)> = pending.iter().collect();
    ids.sort_by_key(|(id, _)| **id);
    let list: Vec<String> = ids
        .iter()
        .take(5)
        .map(|(id, p)| format!("{id} ({})", p.op))
        .collect();
    let more = if ids.len() > 5 {
        format!(" and {} more", ids.len() - 5)
    } else {
        String::new()
    };
    format!("waiting: {}{more}", list.join(", "))
}

/// A line of output for a message: quoted, control characters escaped, cut at 200 characters.
fn quote_line(line: &str) -> String {
    const MAX: usize = 200;
    match line.char_indices().nth(MAX) {
        Some((at, _)) => format!("{:?}… ({} bytes)", &line[..at], line.len()),
        None => format!("{line:?}"),
    }
}

/// The command line as a shell would show it, in backquotes: whitespace runs in a word shown
/// as one space, each word cut at 60 characters and the whole at 200.
fn describe(command: &std::process::Command) -> String {
    let words: Vec<String> = std::iter::once(command.get_program())
        .chain(command.get_args())
        .map(|word| {
            let word = word.to_string_lossy();
            let collapsed = word.split_whitespace().collect::<Vec<_>>().join(" ");
            shell_word(&cut(&collapsed, 60))
        })
        .collect();
    format!("`{}`", cut(&words.join(" "), 200))
}

fn cut(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_owned(),
    }
}

fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-./=:@%+,".contains(c));
    if plain {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_lines_and_output_lines_are_shown_readably() {
        let mut command = std::process::Command::new("python3");
        command.args(["bridge.py", "--name", "it's here", "\n  one\n  two\n"]);
        assert_eq!(
            describe(&command),
            r"`python3 bridge.py --name 'it'\''s here' 'one two'`"
        );
        let long = "x".repeat(500);
        assert_eq!(quote_line("Traceback:\tboom"), r#""Traceback:\tboom""#);
        assert!(quote_line(&long).ends_with("… (500 bytes)"));
    }
}
