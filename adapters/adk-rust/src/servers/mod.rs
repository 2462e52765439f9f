//! The database servers the server-backed gates run against: where to reach them, and how a
//! gate keeps each case's data apart on a server shared by every case and every run.
//!
//! The servers are started by `servers/start.sh` of the repository (after
//! `servers/install.sh`), which writes their URLs to `target/servers/env`. A gate reads a
//! URL from its environment variable, else from that file; without either, every test of
//! the gate shows as ignored with [`START_SERVERS`] as the reason.

pub(crate) mod postgres;
pub(crate) mod redis;

use std::future::Future;
use std::path::PathBuf;

/// The environment variable holding the PostgreSQL URL (a superuser on a database where the
/// `vector` extension is created), e.g. `postgres://postgres@127.0.0.1:5432/memory_conformance`.
pub const POSTGRES_URL: &str = "MEMORY_CONFORMANCE_POSTGRES_URL";

/// The environment variable holding the Redis URL, e.g. `redis://127.0.0.1:6379`.
pub const REDIS_URL: &str = "MEMORY_CONFORMANCE_REDIS_URL";

/// The environment variable naming the file of `NAME=value` lines the URLs are read from when
/// the variables themselves are not set (default: `target/servers/env` of the repository).
pub const SERVERS_ENV_FILE: &str = "MEMORY_CONFORMANCE_SERVERS_ENV";

/// What installs and starts the servers, from the repository's root.
pub const START_SERVERS: &str = "bash servers/install.sh && bash servers/start.sh";

/// The URL in `variable`: the environment's, else the servers' env file's. The error says
/// how to start the servers.
pub fn server_url(variable: &str) -> Result<String, String> {
    if let Some(url) = std::env::var(variable)
        .ok()
        .filter(|url| !url.trim().is_empty())
    {
        return Ok(url.trim().to_owned());
    }
    let file = env_file();
    let text = std::fs::read_to_string(&file).unwrap_or_default();
    text.lines()
        .filter_map(|line| line.split_once('='))
        .find(|(name, _)| name.trim() == variable)
        .map(|(_, url)| url.trim().to_owned())
        .filter(|url| !url.is_empty())
        .ok_or_else(|| {
            format!(
                "{variable} is not set and {} does not name it: start the servers with `{START_SERVERS}`",
                file.display()
            )
        })
}

fn env_file() -> PathBuf {
    std::env::var_os(SERVERS_ENV_FILE)
        .filter(|file| !file.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/servers/env")
        })
}

/// Runs `make`'s future to completion on a thread of its own with a current-thread runtime,
/// and returns its output: for the gates' synchronous hooks (cleanup, version queries, word
/// cuts), which may be called from inside another runtime, where blocking on a future
/// panics.
pub(crate) fn block_on_own_thread<F, Fut, T>(make: F) -> Result<T, String>
where
    F: FnOnce() -> Fut + Send,
    Fut: Future<Output = Result<T, String>>,
    T: Send,
{
    std::thread::scope(|scope| {
        scope
            .spawn(|| {
                tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .map_err(|err| format!("no tokio runtime: {err}"))?
                    .block_on(make())
            })
            .join()
            .unwrap_or_else(|_| Err("the thread panicked".into()))
    })
}

/// A tag no other run of the gates shares (the clock's nanoseconds and the process id): a
/// namespace's role, schema or claim carries it, so two runs on one server never meet, even
/// when a process id comes back.
pub(crate) fn run_tag() -> &'static str {
    static TAG: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    TAG.get_or_init(|| {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or_default();
        format!(
            "{:08x}",
            (nanos as u64 ^ u64::from(std::process::id()).rotate_left(32)) as u32
        )
    })
}
