//! Faults of the Redis server under `RedisMemoryService` (adk-memory 2.3.0, through the
//! adapter), on the server `servers/start.sh` starts (append-only file, fsynced on every
//! write): a crash and restart mid-run, dropped connections, and a server too slow for the
//! kit's per-call timeout.

mod faults;

use faults::{Fault, coffee, monday};

use std::process::{Command, ExitCode};
use std::sync::Arc;
use std::time::Duration;

use libtest_mimic::Failed;
use memory_conformance::conformance::{Gate, Namespace, Subject, Verdict, rules};
use memory_conformance::{
    MemoryError, MemoryService, SearchMemoryResponse, SearchOptions, Session,
};
use memory_conformance_adk_rust::redis_gate;
use memory_conformance_adk_rust::servers::{REDIS_URL, server_url};

fn main() -> ExitCode {
    let gate = redis_gate();
    let available = match gate.unavailable_reason() {
        Some(reason) => Err(reason.to_owned()),
        None => server_url(REDIS_URL),
    };
    faults::main(
        available,
        vec![
            Fault::new(
                "redis::restart_keeps_acknowledged_writes",
                restart_keeps_acknowledged_writes,
            ),
            Fault::new(
                "redis::dropped_connection_is_a_memory_error",
                dropped_connection_is_a_memory_error,
            )
            .known_violation(KILLED_NO_ANSWER, HANGS_AFTER_A_DROP),
            Fault::new(
                "redis::slow_server_fails_on_the_per_call_timeout",
                slow_server_fails_on_the_per_call_timeout,
            ),
        ],
    )
}

/// How long a call after a fault may take to answer (or fail).
const ANSWER_WITHIN: Duration = Duration::from_secs(10);

/// What a call that never answers fails with.
const NO_ANSWER: &str = "did not answer within";

/// The search through the instance whose connection the server killed.
const KILLED: &str = "of the instance whose connection was killed";

/// How that search fails when it never answers.
const KILLED_NO_ANSWER: &str = "of the instance whose connection was killed did not answer within";

/// Why `RedisMemoryService` 2.3.0's calls hang once the server dropped its connection.
const HANGS_AFTER_A_DROP: &str = "RedisMemoryService::new builds its fred client with fred's \
     defaults (adk-memory 2.3.0 src/redis.rs:104-114): no reconnect policy and no command \
     timeout (fred 10.1 default_command_timeout 0), so after the server drops the connection \
     a call waits forever instead of failing";

/// Runs `redis-cli -u <url>` with `args`.
fn redis_cli(url: &str, args: &[&str]) -> Result<String, Failed> {
    let output = Command::new("redis-cli")
        .arg("-u")
        .arg(url)
        .args(args)
        .output()
        .map_err(|err| format!("cannot run redis-cli: {err}"))?;
    if !output.status.success() {
        return Err(format!(
            "redis-cli {} failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&output.stderr)
        )
        .into());
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// Searches for the acknowledged write through `memory` in a task of its own, for at most
/// [`ANSWER_WITHIN`]: an answer of one memory, or (when `may_fail`) a `MemoryError::Backend`,
/// passes; a panic, another count, another error or no answer fails, naming `what`.
async fn search_after(
    memory: &Arc<dyn MemoryService>,
    what: &str,
    may_fail: bool,
) -> Result<(), Failed> {
    let memory = Arc::clone(memory);
    let task = tokio::spawn(async move { coffee(memory.as_ref()).await });
    let answer = tokio::time::timeout(ANSWER_WITHIN, task)
        .await
        .map_err(|_| format!("the search {what} {NO_ANSWER} {ANSWER_WITHIN:?}"))?
        .map_err(|panic| format!("the search {what} panicked: {panic}"))?;
    match answer {
        Ok(1) => Ok(()),
        Ok(found) => {
            Err(format!("the search {what} found {found} memories, not the acknowledged 1").into())
        }
        Err(MemoryError::Backend { .. }) if may_fail => Ok(()),
        Err(err) => Err(format!("the search {what} failed: {err}").into()),
    }
}

/// A write acknowledged before Redis is killed (SIGKILL, then a start that replays the
/// append-only file) is found afterwards through a new instance. (What the instance that
/// wrote it does with its dropped connection is `dropped_connection_is_a_memory_error`'s
/// concern.)
fn restart_keeps_acknowledged_writes(_url: String) -> Result<(), Failed> {
    let subject = redis_gate().subject().clone();
    let namespace = Namespace::fresh();
    let outcome = faults::run(Duration::from_secs(120), async {
        let before = subject.open(&namespace).await;
        before.add_session_to_memory(&monday()).await?;
        faults::servers_script("restart.sh", &["redis", "crash"])?;
        let after = subject.open(&namespace).await;
        search_after(&after, "of a new instance after the restart", false).await
    });
    subject.clean(&namespace);
    outcome
}

/// With every client connection killed by the server (`CLIENT KILL TYPE normal`), the write
/// acknowledged before is found through a new instance, and the next two searches of the
/// instance whose connection was killed each answer, or fail with a `MemoryError`, within 10 s
/// and without a panic. Two, because the first may be sent before the client has read the
/// close (on a busy machine its reader task runs late): it then fails as the close arrives, and
/// only the second is sent by a client that knows its connection is gone.
fn dropped_connection_is_a_memory_error(url: String) -> Result<(), Failed> {
    let subject = redis_gate().subject().clone();
    let namespace = Namespace::fresh();
    let outcome = faults::run(Duration::from_secs(120), async {
        let memory = subject.open(&namespace).await;
        memory.add_session_to_memory(&monday()).await?;
        redis_cli(&url, &["CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes"])?;
        let fresh = subject.open(&namespace).await;
        search_after(&fresh, "of a new instance", false).await?;
        search_after(&memory, KILLED, true).await?;
        search_after(&memory, KILLED, true).await
    });
    subject.clean(&namespace);
    outcome
}

/// With the server asleep (`DEBUG SLEEP 4`) after each instance the rule opens, `key.isolation`
/// fails, naming the call that did not answer within the per-call timeout, instead of hanging.
fn slow_server_fails_on_the_per_call_timeout(url: String) -> Result<(), Failed> {
    let inner = redis_gate().subject().clone();
    let sleep_url = url.clone();
    let subject = Subject::namespaced(
        "adk-rust-redis-slow",
        inner.profile().clone(),
        move |namespace: Namespace| {
            let (inner, url) = (inner.clone(), sleep_url.clone());
            async move {
                let memory = inner.open(&namespace).await;
                let sleeper =
                    std::thread::spawn(move || redis_cli(&url, &["DEBUG", "SLEEP", "4"]).is_ok());
                // Until the server is asleep (the sleep is the next command it runs).
                tokio::time::sleep(Duration::from_millis(300)).await;
                drop(sleeper);
                ForwardTo(memory)
            }
        },
    );
    let clean = redis_gate().subject().clone();
    let subject = subject.cleanup_with(move |namespace| clean.clean(namespace));
    let rule = rules::find("key.isolation").ok_or("no rule key.isolation")?;
    let verdict = Gate::new(subject)
        .cases(1)
        .op_timeout(Duration::from_secs(1))
        .check(rule);
    // Let the server wake before the next test.
    std::thread::sleep(Duration::from_secs(4));
    match verdict {
        Verdict::Failed(failure) => {
            let text = failure.to_string();
            if text.contains("did not answer within 1s (the per-call timeout)") {
                Ok(())
            } else {
                Err(format!("the rule failed, but not on the per-call timeout: {text}").into())
            }
        }
        other => Err(format!("the rule did not fail on the slow server: {other}").into()),
    }
}

/// An opened instance, as the subject's factory must return a `MemoryService` by value.
struct ForwardTo(Arc<dyn MemoryService>);

#[memory_conformance::async_trait]
impl MemoryService for ForwardTo {
    async fn add_session_to_memory(&self, session: &Session) -> Result<(), MemoryError> {
        self.0.add_session_to_memory(session).await
    }

    async fn search_memory(
        &self,
        app_name: &str,
        user_id: &str,
        query: &str,
    ) -> Result<SearchMemoryResponse, MemoryError> {
        self.0.search_memory(app_name, user_id, query).await
    }

    async fn search_memory_with(
        &self,
        app_name: &str,
        user_id: &str,
        query: &str,
        options: &SearchOptions,
    ) -> Result<SearchMemoryResponse, MemoryError> {
        self.0
            .search_memory_with(app_name, user_id, query, options)
            .await
    }
}
