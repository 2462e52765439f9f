//! Faults of the PostgreSQL server under `PostgresMemoryService` (adk-memory 2.3.0, through
//! the adapter), on the server `servers/start.sh` starts: a crash and restart mid-run, a
//! connection dropped under a call, and a server too slow for the kit's per-call timeout.

mod faults;

use faults::{Fault, assert_found, coffee, monday};

use std::process::ExitCode;
use std::str::FromStr;
use std::time::Duration;

use libtest_mimic::Failed;
use memory_conformance::conformance::{Gate, Namespace, Subject, Verdict, rules};
use memory_conformance::{MemoryError, MemoryService, Session};
use memory_conformance_adk_rust::postgres_gate;
use memory_conformance_adk_rust::servers::{POSTGRES_URL, server_url};
use sqlx::postgres::{PgConnectOptions, PgConnection};
use sqlx::{Connection, Executor};

fn main() -> ExitCode {
    let gate = postgres_gate();
    let available = match gate.unavailable_reason() {
        Some(reason) => Err(reason.to_owned()),
        None => server_url(POSTGRES_URL),
    };
    faults::main(
        available,
        vec![
            Fault::new(
                "postgres::restart_keeps_acknowledged_writes",
                restart_keeps_acknowledged_writes,
            ),
            Fault::new(
                "postgres::dropped_connection_is_a_memory_error",
                dropped_connection_is_a_memory_error,
            ),
            Fault::new(
                "postgres::slow_server_fails_on_the_per_call_timeout",
                slow_server_fails_on_the_per_call_timeout,
            ),
        ],
    )
}

async fn admin(url: &str) -> Result<PgConnection, Failed> {
    let options = PgConnectOptions::from_str(url).map_err(|err| err.to_string())?;
    Ok(PgConnection::connect_with(&options)
        .await
        .map_err(|err| err.to_string())?)
}

/// The role (and schema) the gate made for `namespace`.
async fn role_of(url: &str, namespace: &Namespace) -> Result<String, Failed> {
    let mut conn = admin(url).await?;
    let role: Option<String> =
        sqlx::query_scalar("SELECT rolname::text FROM pg_roles WHERE rolname LIKE $1 || '\\_%'")
            .bind(namespace.as_str())
            .fetch_optional(&mut conn)
            .await
            .map_err(|err| err.to_string())?;
    role.ok_or_else(|| format!("no role of namespace {namespace}").into())
}

/// A write acknowledged before PostgreSQL crashes (immediate shutdown, recovery from the
/// write-ahead log on start) is found afterwards, through the instance that made it and
/// through a new one; the first call after the restart is an answer or a `MemoryError`.
fn restart_keeps_acknowledged_writes(_url: String) -> Result<(), Failed> {
    let subject = postgres_gate().subject().clone();
    let namespace = Namespace::fresh();
    let outcome = faults::run(Duration::from_secs(120), async {
        let before = subject.open(&namespace).await;
        before.add_session_to_memory(&monday()).await?;
        faults::servers_script("restart.sh", &["postgres", "crash"])?;
        // The pool's connections died with the server: the first call may fail, cleanly.
        match tokio::spawn({
            let before = before.clone();
            async move { coffee(before.as_ref()).await }
        })
        .await
        {
            Ok(Ok(1)) => {}
            Ok(Ok(found)) => {
                return Err(format!(
                    "after the restart the old instance found {found} memories, not 1"
                )
                .into());
            }
            Ok(Err(MemoryError::Backend { .. })) => {}
            Ok(Err(other)) => {
                return Err(format!("after the restart: an unexpected error {other}").into());
            }
            Err(panic) => {
                return Err(format!("the search after the restart panicked: {panic}").into());
            }
        }
        assert_found(before.as_ref(), "the instance that wrote it").await?;
        let after = subject.open(&namespace).await;
        assert_found(after.as_ref(), "a new instance").await?;
        Ok(())
    });
    subject.clean(&namespace);
    outcome
}

/// A search whose connection is terminated while it waits (on a lock of the test's) fails
/// with a `MemoryError` naming the search, without a panic; the write acknowledged before is
/// found by the next search of the same instance.
fn dropped_connection_is_a_memory_error(url: String) -> Result<(), Failed> {
    let subject = postgres_gate().subject().clone();
    let namespace = Namespace::fresh();
    let outcome = faults::run(Duration::from_secs(120), async {
        let memory = subject.open(&namespace).await;
        memory.add_session_to_memory(&monday()).await?;
        let role = role_of(&url, &namespace).await?;
        let mut locker = admin(&url).await?;
        locker
            .execute("BEGIN")
            .await
            .map_err(|err| err.to_string())?;
        locker
            .execute(format!("LOCK TABLE {role}.memory_entries IN ACCESS EXCLUSIVE MODE").as_str())
            .await
            .map_err(|err| err.to_string())?;
        let search = tokio::spawn({
            let memory = memory.clone();
            async move { coffee(memory.as_ref()).await }
        });
        tokio::time::sleep(Duration::from_millis(500)).await;
        let mut killer = admin(&url).await?;
        sqlx::query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1")
            .bind(&role)
            .execute(&mut killer)
            .await
            .map_err(|err| err.to_string())?;
        let answer = search
            .await
            .map_err(|panic| format!("the search panicked: {panic}"))?;
        locker
            .execute("ROLLBACK")
            .await
            .map_err(|err| err.to_string())?;
        match answer {
            Err(err @ MemoryError::Backend { .. }) => {
                let text = err.to_string();
                if !text.contains("adk-memory search of") {
                    return Err(format!("the error does not name the search: {text}").into());
                }
            }
            Err(other) => return Err(format!("an unexpected kind of error: {other}").into()),
            Ok(found) => {
                return Err(format!(
                    "the search whose connection was terminated answered ({found} found)"
                )
                .into());
            }
        }
        assert_found(
            memory.as_ref(),
            "the same instance, after the dropped connection",
        )
        .await
    });
    subject.clean(&namespace);
    outcome
}

/// With every table of a case's schema locked for longer than the per-call timeout (each
/// instance the rule opens is followed by the lock), `key.isolation` fails, naming the call
/// that did not answer within the timeout, instead of hanging.
fn slow_server_fails_on_the_per_call_timeout(url: String) -> Result<(), Failed> {
    let inner = postgres_gate().subject().clone();
    let lock_url = url.clone();
    let subject = Subject::namespaced(
        "adk-rust-postgres-slow",
        inner.profile().clone(),
        move |namespace: Namespace| {
            let (inner, url) = (inner.clone(), lock_url.clone());
            async move {
                let memory = inner.open(&namespace).await;
                let (locked, is_locked) = tokio::sync::oneshot::channel();
                tokio::spawn(async move {
                    let held = async {
                        let role = role_of(&url, &namespace).await?;
                        let mut locker = admin(&url).await?;
                        locker
                            .execute("BEGIN")
                            .await
                            .map_err(|err| err.to_string())?;
                        locker
                            .execute(
                                format!(
                                    "LOCK TABLE {role}.memory_entries IN ACCESS EXCLUSIVE MODE"
                                )
                                .as_str(),
                            )
                            .await
                            .map_err(|err| err.to_string())?;
                        Ok::<_, Failed>(locker)
                    }
                    .await;
                    let _ = locked.send(());
                    if let Ok(mut locker) = held {
                        tokio::time::sleep(Duration::from_secs(5)).await;
                        let _ = locker.execute("ROLLBACK").await;
                    }
                });
                let _ = is_locked.await;
                ForwardTo(memory)
            }
        },
    );
    let clean = postgres_gate().subject().clone();
    let subject = subject.cleanup_with(move |namespace| clean.clean(namespace));
    let rule = rules::find("key.isolation").ok_or("no rule key.isolation")?;
    match Gate::new(subject)
        .cases(1)
        .op_timeout(Duration::from_secs(1))
        .check(rule)
    {
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
struct ForwardTo(std::sync::Arc<dyn MemoryService>);

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
    ) -> Result<memory_conformance::SearchMemoryResponse, MemoryError> {
        self.0.search_memory(app_name, user_id, query).await
    }

    async fn search_memory_with(
        &self,
        app_name: &str,
        user_id: &str,
        query: &str,
        options: &memory_conformance::SearchOptions,
    ) -> Result<memory_conformance::SearchMemoryResponse, MemoryError> {
        self.0
            .search_memory_with(app_name, user_id, query, options)
            .await
    }
}
