//! The I/O thread of a child: it spawns the child in a process group of its own, writes the
//! requests, reads and dispatches the responses, keeps the end of stderr and supervises the
//! child until it is gone.

use std::process::{ExitStatus, Stdio};
use std::sync::Arc;

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStderr, ChildStdin, ChildStdout};
use tokio::sync::{mpsc, oneshot};

use super::{Command, Core, EXIT_GRACE, MAX_LINE_BYTES, quote_line};
use crate::process::group::Group;
use crate::process::protocol;

/// The I/O thread: spawns the child, reports the outcome, then drives its pipes until the
/// child is gone and every handle dropped.
pub(super) fn run_io(
    core: Arc<Core>,
    command: std::process::Command,
    commands: mpsc::UnboundedReceiver<Command>,
    started: oneshot::Sender<std::io::Result<()>>,
) {
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(err) => {
            let _ = started.send(Err(err));
            return;
        }
    };
    runtime.block_on(async move {
        let mut group = match Group::prepare(Arc::clone(&core.hangup)) {
            Ok(group) => group,
            Err(err) => {
                let _ = started.send(Err(err));
                return;
            }
        };
        let mut command = tokio::process::Command::from(command);
        if !command
            .as_std()
            .get_envs()
            .any(|(name, _)| name == "TMPDIR")
        {
            command.env("TMPDIR", group.scratch());
        }
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .kill_on_drop(true);
        let mut child = match command.spawn() {
            Ok(child) => child,
            Err(err) => {
                let _ = started.send(Err(err));
                return;
            }
        };
        group.started(child.id());
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = started.send(Err(std::io::Error::other(
                "the child's pipes were not set up",
            )));
            return;
        };
        let _ = started.send(Ok(()));
        tokio::join!(
            write_requests(Arc::clone(&core), stdin, commands),
            read_responses(Arc::clone(&core), stdout),
            read_stderr(Arc::clone(&core), stderr),
            supervise(core, child, &group),
        );
        drop(group);
    });
}

/// Writes each request as one line, after registering it (so its answer can never come
/// first) and arming its timeout.
async fn write_requests(
    core: Arc<Core>,
    mut stdin: ChildStdin,
    mut commands: mpsc::UnboundedReceiver<Command>,
) {
    let mut write_failed = false;
    let hangup = Arc::clone(&core.hangup);
    loop {
        let command = tokio::select! {
            command = commands.recv() => command,
            () = hangup.notified() => None,
        };
        let Some(command) = command else { break };
        if !core.register(command.id, command.op, command.reply) {
            continue;
        }
        if write_failed {
            continue;
        }
        let mut line = command.line.into_bytes();
        line.push(b'\n');
        let written = async {
            stdin.write_all(&line).await?;
            stdin.flush().await
        };
        if let Err(err) = written.await {
            // The child most likely exited: give the stdout reader the time to say how,
            // and fail with the write error only if it does not.
            write_failed = true;
            let core = Arc::clone(&core);
            tokio::spawn(async move {
                tokio::time::sleep(EXIT_GRACE).await;
                core.break_with(format!("cannot be written to: {err}"));
            });
        }
    }
    drop(stdin);
    core.closing.notify_one();
}

/// Reads response lines and dispatches them by id; at the end of stdout, waits for the
/// child's exit status and its last stderr, then fails whatever is still waiting.
async fn read_responses(core: Arc<Core>, stdout: ChildStdout) {
    let mut reader = BufReader::new(stdout);
    let mut line = Vec::new();
    loop {
        line.clear();
        match read_line(&mut reader, &mut line, MAX_LINE_BYTES).await {
            Ok(Line::End) => break,
            Ok(Line::TooLong) => {
                core.break_with(format!(
                    "printed a protocol line longer than the limit of {} MiB, so it was \
                     stopped without reading the rest",
                    MAX_LINE_BYTES >> 20
                ));
                break;
            }
            Ok(Line::Read) => {
                if core.is_broken() {
                    continue;
                }
                let text = String::from_utf8_lossy(&line);
                let text = text.trim_end_matches(['\n', '\r']);
                match protocol::decode(text) {
                    Ok(reply) => core.deliver(reply),
                    Err(why) => {
                        let (shown, note) = core.tail.shown(text);
                        core.break_with(format!(
                            "printed a line that is not a protocol response ({why}): {}{note}",
                            quote_line(&shown)
                        ))
                    }
                }
            }
            Err(err) => {
                core.break_with(format!("cannot be read from: {err}"));
                break;
            }
        }
    }
    let mut exit = core.exit.subscribe();
    let status = tokio::time::timeout(EXIT_GRACE, exit.wait_for(Option::is_some)).await;
    let reason = match status {
        Ok(Ok(status)) => format!("exited ({})", status.as_deref().unwrap_or("status unknown")),
        _ => "closed its stdout".to_owned(),
    };
    core.break_with(reason);
}

/// What [`read_line`] found.
enum Line {
    /// A line (its newline included, unless the output ended without one).
    Read,
    /// The end of the output.
    End,
    /// More than the limit without a newline; what was read is dropped, the rest unread.
    TooLong,
}

/// Reads one line into `line`, holding at most `limit` bytes of it.
async fn read_line<R: AsyncBufReadExt + Unpin>(
    reader: &mut R,
    line: &mut Vec<u8>,
    limit: usize,
) -> std::io::Result<Line> {
    loop {
        let available = reader.fill_buf().await?;
        if available.is_empty() {
            return Ok(if line.is_empty() {
                Line::End
            } else {
                Line::Read
            });
        }
        let (taken, ends) = match available.iter().position(|&b| b == b'\n') {
            Some(at) => (at + 1, true),
            None => (available.len(), false),
        };
        if line.len() + taken > limit + usize::from(ends) {
            line.clear();
            return Ok(Line::TooLong);
        }
        line.extend_from_slice(&available[..taken]);
        reader.consume(taken);
        if ends {
            return Ok(Line::Read);
        }
    }
}

/// Keeps the end of the child's stderr for error messages.
async fn read_stderr(core: Arc<Core>, mut stderr: ChildStderr) {
    let mut chunk = vec![0u8; 8192];
    loop {
        match stderr.read(&mut chunk).await {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                core.tail.push(&chunk[..n]);
                tracing::trace!(target: "memory_conformance::process", child = %core.label, stderr = %String::from_utf8_lossy(&chunk[..n]));
            }
        }
    }
    core.stderr_closed.send_replace(true);
}

/// Waits for the child to exit, stopping it when asked or when every handle is gone and it
/// does not exit by itself.
async fn supervise(core: Arc<Core>, mut child: Child, group: &Group) {
    let status = tokio::select! {
        status = child.wait() => status,
        () = core.kill.notified() => stop(&mut child, group).await,
        () = core.closing.notified() => match tokio::time::timeout(EXIT_GRACE, child.wait()).await {
            Ok(status) => status,
            Err(_) => stop(&mut child, group).await,
        },
    };
    // Whatever the child started and left behind goes with it, and with it the pipes it
    // inherited, so the readers reach their end.
    group.kill();
    let status = match status {
        Ok(status) => describe_status(status),
        Err(err) => format!("status unknown: {err}"),
    };
    core.exit.send_replace(Some(status));
}

/// Kills the child and everything it started in its group.
async fn stop(child: &mut Child, group: &Group) -> std::io::Result<ExitStatus> {
    group.kill();
    let _ = child.start_kill();
    child.wait().await
}

fn describe_status(status: ExitStatus) -> String {
    status.to_string()
}
