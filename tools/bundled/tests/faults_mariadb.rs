//! Faults of the MariaDB server under adk-database-memory's `DatabaseMemoryService`, the real
//! PyPI package through its community bridge (`community/adk-database-memory-mariadb/`), on the
//! server `servers/start.sh` starts: a crash and restart mid-run, the service's connection killed
//! under a search, and a server too slow (a table locked) for the bridge's per-call timeout.
//! Nothing acknowledged may be lost, and no fault may hang the kit or panic it.
//!
//! The tests restart and lock the shared server, so they run one after the other. Where the
//! package or the server is missing, they show as ignored with the commands that install them
//! (with `MEMORY_CONFORMANCE_REQUIRE_ALL_BACKENDS` set, as in CI, they fail instead). They share
//! the other server fault tests' module (`adapters/adk-rust/tests/faults/`).

#[path = "../../../adapters/adk-rust/tests/faults/mod.rs"]
mod faults;

use faults::{Fault, assert_found, coffee, monday, servers_script};

use std::future::Future;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitCode, Stdio};
use std::time::Duration;

use libtest_mimic::Failed;
use memory_conformance::process::ProcessBridge;
use memory_conformance::{MemoryError, MemoryService};
use memory_conformance_adk_rust::servers::server_url;

/// The community folder of the package on MariaDB.
const PACKAGE: &str = "adk-database-memory-mariadb";

/// The longest a fault test may take before it fails as hung.
const HUNG: Duration = Duration::from_secs(180);

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn package_dir() -> PathBuf {
    repository().join("community").join(PACKAGE)
}

/// The server's URL, from the variable the package's `servers.txt` names; the error says what
/// to install or start.
fn mariadb_url() -> Result<String, String> {
    if !package_dir().join(".venv/installed-pins").is_file() {
        return Err(format!(
            "{PACKAGE} is not installed: run `bash community/install.sh {PACKAGE}`"
        ));
    }
    let servers = std::fs::read_to_string(package_dir().join("servers.txt"))
        .map_err(|err| format!("cannot read community/{PACKAGE}/servers.txt: {err}"))?;
    let variable = servers
        .lines()
        .map(str::trim)
        .find(|line| !line.is_empty() && !line.starts_with('#'))
        .ok_or_else(|| format!("community/{PACKAGE}/servers.txt names no server"))?;
    server_url(variable)
}

fn main() -> ExitCode {
    faults::main(
        mariadb_url(),
        vec![
            Fault::new(
                "mariadb::restart_keeps_acknowledged_writes",
                restart_keeps_acknowledged_writes,
            ),
            Fault::new(
                "mariadb::killed_connection_is_a_memory_error",
                killed_connection_is_a_memory_error,
            ),
            Fault::new(
                "mariadb::slow_server_fails_on_the_per_call_timeout",
                slow_server_fails_on_the_per_call_timeout,
            ),
        ],
    )
}

/// The package's bridge, answering each request within `timeout`.
async fn bridge(timeout: Duration) -> Result<ProcessBridge, Failed> {
    let mut command = Command::new(package_dir().join(".venv/bin/python"));
    command
        .arg(package_dir().join("bridge.py"))
        .env("PYTHONPATH", repository().join("bridges/python"))
        .current_dir(repository());
    Ok(ProcessBridge::spawn_with_timeout(command, timeout).await?)
}

/// Runs `future` on a fresh runtime, failing it as hung after [`HUNG`].
fn run(future: impl Future<Output = Result<(), Failed>>) -> Result<(), Failed> {
    faults::run(HUNG, future)
}

/// The first search after a fault: the entry, or a clean `MemoryError` (the pool's connection
/// died with the fault), never another count or a panic.
async fn first_search_after(memory: &dyn MemoryService, fault: &str) -> Result<(), Failed> {
    match coffee(memory).await {
        Ok(1) => {
            println!("the first search after {fault} answered");
            Ok(())
        }
        Err(err @ MemoryError::Backend { .. }) => {
            println!("the first search after {fault} failed cleanly: {err}");
            Ok(())
        }
        Ok(found) => Err(format!("after {fault} the search found {found} memories, not 1").into()),
        Err(other) => Err(format!("after {fault}: an unexpected kind of error: {other}").into()),
    }
}

/// A write acknowledged before MariaDB is killed (SIGKILL; InnoDB recovers from its redo log,
/// flushed on every commit, on start) is found afterwards, through the instance that made it
/// and through a new instance of the store; the first call after the restart is an answer or
/// a `MemoryError`.
fn restart_keeps_acknowledged_writes(_url: String) -> Result<(), Failed> {
    run(async {
        let bridge = bridge(Duration::from_secs(20)).await?;
        let before = bridge.open("faults-restart").await?;
        before.add_session_to_memory(&monday()).await?;
        servers_script("restart.sh", &["mariadb", "crash"])?;
        first_search_after(&before, "the restart").await?;
        assert_found(&before, "the instance that wrote it").await?;
        let after = bridge.open("faults-restart").await?;
        assert_found(&after, "a new instance").await
    })
}

/// A search whose connection is killed while it waits (on a table lock the test holds) fails
/// with a `MemoryError`, without a hang or a panic; the write acknowledged before is found by
/// the next search of the same instance.
fn killed_connection_is_a_memory_error(url: String) -> Result<(), Failed> {
    run(async move {
        let bridge = bridge(Duration::from_secs(20)).await?;
        let memory = std::sync::Arc::new(bridge.open("faults-killed").await?);
        memory.add_session_to_memory(&monday()).await?;
        let mut admin = Sql::connect(&url)?;
        let (database, table) = admin.connected_store()?;
        admin.lock(&database, &table)?;
        let search = tokio::spawn({
            let memory = std::sync::Arc::clone(&memory);
            async move { coffee(memory.as_ref()).await }
        });
        let mut killer = Sql::connect(&url)?;
        killer.wait_for_lock_waiter(&database)?;
        let killed = killer.kill_connections_of(&database)?;
        let answer = search
            .await
            .map_err(|panic| format!("the search panicked: {panic}"))?;
        admin.unlock()?;
        match answer {
            Err(err @ MemoryError::Backend { .. }) => {
                println!("{killed} connections killed; the waiting search failed: {err}");
            }
            Err(other) => return Err(format!("an unexpected kind of error: {other}").into()),
            Ok(found) => {
                return Err(format!(
                    "the search whose connection was killed ({killed} killed) answered \
                     ({found} found)"
                )
                .into());
            }
        }
        assert_found(
            memory.as_ref(),
            "the same instance, after the killed connection",
        )
        .await
    })
}

/// With the store's table locked for longer than the bridge's per-call timeout, a search fails
/// with a `MemoryError` naming the timeout instead of hanging, and the bridge fails every call
/// after it at once, naming the same cause. The bridge can then drop nothing, so the test
/// drops the store's database itself.
fn slow_server_fails_on_the_per_call_timeout(url: String) -> Result<(), Failed> {
    run(async move {
        let bridge = bridge(Duration::from_secs(2)).await?;
        let memory = bridge.open("faults-slow").await?;
        memory.add_session_to_memory(&monday()).await?;
        let mut admin = Sql::connect(&url)?;
        let (database, table) = admin.connected_store()?;
        admin.lock(&database, &table)?;
        let answer = coffee(&memory).await;
        let after = coffee(&memory).await;
        admin.unlock()?;
        drop(memory);
        drop(bridge);
        admin.drop_database(&database)?;
        let text = match answer {
            Err(err) => err.to_string(),
            Ok(found) => {
                return Err(
                    format!("the search on a locked table answered ({found} found)").into(),
                );
            }
        };
        println!("the search on the locked table failed: {text}");
        if !text.contains("within 2s") {
            return Err(format!("the error does not name the per-call timeout: {text}").into());
        }
        match after {
            Err(err) if err.to_string().contains("within 2s") => Ok(()),
            other => Err(format!(
                "the call after the timeout did not fail with the same cause: {other:?}"
            )
            .into()),
        }
    })
}

/// An administrator's session on the server: Debian's `mariadb` client, kept running so that a
/// lock it takes is held until [`Sql::unlock`] (or its drop).
struct Sql {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

/// The line the client prints after each batch of statements.
const DONE: &str = "--memory-conformance-done--";

impl Sql {
    /// A session as the user of `url`, `mysql://user:password@host:port/database` (the form
    /// `servers/start.sh` writes).
    fn connect(url: &str) -> Result<Sql, Failed> {
        let malformed = || format!("not a mysql://user:password@host:port/database URL: {url}");
        let rest = url.strip_prefix("mysql://").ok_or_else(malformed)?;
        let (credentials, rest) = rest.split_once('@').ok_or_else(malformed)?;
        let (user, password) = credentials.split_once(':').unwrap_or((credentials, ""));
        let address = rest.split('/').next().unwrap_or(rest);
        let (host, port) = address.split_once(':').unwrap_or((address, "3306"));
        let mut child = Command::new("mariadb")
            .arg(format!("--host={host}"))
            .arg(format!("--port={port}"))
            .arg(format!("--user={user}"))
            .arg(format!("--password={password}"))
            .args(["--batch", "--skip-column-names", "--unbuffered"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|err| format!("cannot run Debian's mariadb client: {err}"))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = BufReader::new(child.stdout.take().ok_or("no stdout")?);
        Ok(Sql {
            child,
            stdin,
            stdout,
        })
    }

    /// The rows `sql` (statements separated by `;`) prints, one line a row.
    fn query(&mut self, sql: &str) -> Result<Vec<String>, Failed> {
        writeln!(self.stdin, "{sql}; SELECT '{DONE}';")
            .map_err(|err| format!("the mariadb client ended before {sql}: {err}"))?;
        let mut rows = Vec::new();
        loop {
            let mut line = String::new();
            let read = self
                .stdout
                .read_line(&mut line)
                .map_err(|err| err.to_string())?;
            if read == 0 {
                let mut stderr = String::new();
                if let Some(mut err) = self.child.stderr.take() {
                    let _ = std::io::Read::read_to_string(&mut err, &mut stderr);
                }
                return Err(format!("the mariadb client ended on {sql}: {stderr}").into());
            }
            let line = line.trim_end().to_owned();
            if line == DONE {
                return Ok(rows);
            }
            rows.push(line);
        }
    }

    /// The database and table of the store the bridge's service is connected to: the one
    /// database named `mc_…` (the bridge's, `mc_<run>_store_<n>`) that a session is connected
    /// to, and the package's one table in it.
    fn connected_store(&mut self) -> Result<(String, String), Failed> {
        let databases = self.query(
            "SELECT DISTINCT db FROM information_schema.processlist WHERE db LIKE 'mc\\_%'",
        )?;
        let [database] = databases.as_slice() else {
            return Err(format!(
                "not one bridge database has a session, but {}: {databases:?}",
                databases.len()
            )
            .into());
        };
        let tables = self.query(&format!(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = '{database}'"
        ))?;
        let [table] = tables.as_slice() else {
            return Err(format!("{database} does not hold one table: {tables:?}").into());
        };
        Ok((database.clone(), table.clone()))
    }

    /// Locks the table for writing: every other session's reads and writes of it wait.
    fn lock(&mut self, database: &str, table: &str) -> Result<(), Failed> {
        self.query(&format!("LOCK TABLES `{database}`.`{table}` WRITE"))
            .map(drop)
    }

    fn unlock(&mut self) -> Result<(), Failed> {
        self.query("UNLOCK TABLES").map(drop)
    }

    /// Drops `database` (a name [`Sql::connected_store`] found), if it exists.
    fn drop_database(&mut self, database: &str) -> Result<(), Failed> {
        self.query(&format!("DROP DATABASE IF EXISTS `{database}`"))
            .map(drop)
    }

    /// Waits until a session of `database` waits for a lock (the search the test started).
    fn wait_for_lock_waiter(&mut self, database: &str) -> Result<(), Failed> {
        for _ in 0..600 {
            let waiting = self.query(&format!(
                "SELECT COUNT(*) FROM information_schema.processlist \
                 WHERE db = '{database}' AND state LIKE 'Waiting for table%'"
            ))?;
            if waiting.first().is_some_and(|count| count != "0") {
                return Ok(());
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        Err(format!("no session of {database} waited for the lock within 60 s").into())
    }

    /// Kills every session connected to `database`; how many.
    fn kill_connections_of(&mut self, database: &str) -> Result<usize, Failed> {
        let ids = self.query(&format!(
            "SELECT id FROM information_schema.processlist \
             WHERE db = '{database}' AND id <> CONNECTION_ID()"
        ))?;
        for id in &ids {
            self.query(&format!("KILL CONNECTION {id}"))?;
        }
        Ok(ids.len())
    }
}

impl Drop for Sql {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
