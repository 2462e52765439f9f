//! Redis for the gate of `RedisMemoryService`: a database of its own per namespace, the
//! server's version, and a small client for the gate's own commands.
//!
//! adk-memory 2.3.0 names its keys `mem:{app}:{user}:{session}` and `mem_idx:{app}:{user}`
//! with no prefix of the caller's (src/redis.rs:62-68), so the gate keeps namespaces apart by
//! Redis's numbered databases (the URL's path, `redis://host:port/<n>`; `servers/start.sh`
//! configures 4096 of them). A namespace claims a free database with `SET NX` of a claim key
//! in database 0 carrying the run's tag (expiring after a day, for a run that dies), and its
//! cleanup empties the database and releases the claim, so concurrent runs never share one.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::sync::{Mutex, OnceLock, PoisonError};
use std::time::Duration;

use adk_memory::{RedisMemoryConfig, RedisMemoryService};
use memory_conformance::MemoryError;
use memory_conformance::conformance::Namespace;

use super::run_tag;
use crate::AdkRustMemory;

/// The databases namespaces take, 1 to `DATABASES - 1` (0 holds the claims).
const DATABASES: u32 = 4096;

/// How long a claim lives when its run never releases it.
const CLAIM_SECONDS: &str = "86400";

/// The database each namespace of this process claimed.
fn claimed() -> &'static Mutex<HashMap<String, u32>> {
    static CLAIMED: OnceLock<Mutex<HashMap<String, u32>>> = OnceLock::new();
    CLAIMED.get_or_init(Mutex::default)
}

/// A reply of Redis.
#[derive(Debug, PartialEq)]
pub(crate) enum Reply {
    /// `+...` or `:...`: a status or an integer, as text.
    Line(String),
    /// `$...`: a bulk string, `None` for the null reply.
    Bulk(Option<String>),
    /// `*...`: an array, of which only the count is kept.
    Array(usize),
}

/// A blocking connection for the gate's own commands (claims, cleanup, versions, faults).
pub(crate) struct Admin {
    reader: BufReader<TcpStream>,
    writer: TcpStream,
}

impl Admin {
    /// Connects to the server of `url` (`redis://host:port[/db]`; the database is ignored).
    pub(crate) fn connect(url: &str) -> Result<Self, String> {
        let address = url
            .strip_prefix("redis://")
            .ok_or_else(|| format!("{url:?} is not a redis:// URL"))?;
        let address = address.split('/').next().unwrap_or(address);
        let address = address.rsplit('@').next().unwrap_or(address);
        let stream = TcpStream::connect(address)
            .map_err(|err| format!("cannot connect to Redis at {address}: {err}"))?;
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .map_err(|err| err.to_string())?;
        let writer = stream.try_clone().map_err(|err| err.to_string())?;
        Ok(Self {
            reader: BufReader::new(stream),
            writer,
        })
    }

    /// Sends one command and reads its reply; an error reply is an `Err`.
    pub(crate) fn command(&mut self, args: &[&str]) -> Result<Reply, String> {
        let mut request = format!("*{}\r\n", args.len());
        for arg in args {
            request.push_str(&format!("${}\r\n{arg}\r\n", arg.len()));
        }
        self.writer
            .write_all(request.as_bytes())
            .map_err(|err| format!("cannot send {}: {err}", args[0]))?;
        let line = self.line()?;
        let (kind, rest) = line.split_at(1.min(line.len()));
        match kind {
            "+" | ":" => Ok(Reply::Line(rest.to_owned())),
            "-" => Err(format!("Redis answered {} with {rest}", args.join(" "))),
            "$" => {
                let length: i64 = rest.parse().map_err(|_| format!("bad reply {line:?}"))?;
                if length < 0 {
                    return Ok(Reply::Bulk(None));
                }
                let mut body = vec![0; usize::try_from(length).unwrap_or(0) + 2];
                std::io::Read::read_exact(&mut self.reader, &mut body)
                    .map_err(|err| format!("cannot read the reply to {}: {err}", args[0]))?;
                body.truncate(body.len() - 2);
                Ok(Reply::Bulk(Some(
                    String::from_utf8_lossy(&body).into_owned(),
                )))
            }
            "*" => Ok(Reply::Array(rest.parse().unwrap_or(0))),
            _ => Err(format!("bad reply {line:?} to {}", args[0])),
        }
    }

    fn line(&mut self) -> Result<String, String> {
        let mut line = String::new();
        self.reader
            .read_line(&mut line)
            .map_err(|err| format!("cannot read Redis's reply: {err}"))?;
        if line.is_empty() {
            return Err("Redis closed the connection".into());
        }
        Ok(line.trim_end_matches(['\r', '\n']).to_owned())
    }
}

/// The database of `namespace`, claimed on first use.
fn database(url: &str, namespace: &Namespace) -> Result<u32, String> {
    let mut claimed = claimed().lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(db) = claimed.get(namespace.as_str()) {
        return Ok(*db);
    }
    let mut admin = Admin::connect(url)?;
    let owner = format!("{}_{}", namespace.as_str(), run_tag());
    // Start where this process's claims end, so a run rarely tries a taken database twice.
    let start = claimed.values().max().copied().unwrap_or(0);
    for step in 0..DATABASES - 1 {
        let db = (start + step) % (DATABASES - 1) + 1;
        if claimed.values().any(|&taken| taken == db) {
            continue;
        }
        let claim = format!("memory-conformance:claim:{db}");
        let set = admin.command(&["SET", &claim, &owner, "NX", "EX", CLAIM_SECONDS])?;
        if set == Reply::Line("OK".into()) {
            admin.command(&["SELECT", &db.to_string()])?;
            admin.command(&["FLUSHDB"])?;
            claimed.insert(namespace.as_str().to_owned(), db);
            return Ok(db);
        }
    }
    Err(format!(
        "every Redis database from 1 to {} is claimed: stop other runs, or restart the servers",
        DATABASES - 1
    ))
}

/// A `RedisMemoryService` on the database of `namespace`, built as an application builds it
/// (`RedisMemoryService::new` with a URL and no TTL), behind [`AdkRustMemory`].
pub(crate) async fn open(
    url: &str,
    namespace: &Namespace,
) -> Result<AdkRustMemory<RedisMemoryService>, MemoryError> {
    let db = database(url, namespace).map_err(MemoryError::backend)?;
    let base = url.trim_end_matches('/');
    let base = match base.strip_prefix("redis://") {
        Some(rest) if rest.contains('/') => {
            format!("redis://{}", rest.split('/').next().unwrap_or(rest))
        }
        _ => base.to_owned(),
    };
    let config = RedisMemoryConfig {
        url: format!("{base}/{db}"),
        ttl: None,
    };
    RedisMemoryService::new(config)
        .await
        .map(AdkRustMemory::new)
        .map_err(|err| {
            MemoryError::backend_with_source(
                format!("cannot open the Redis memory on database {db}"),
                err,
            )
        })
}

/// Empties the database of `namespace` and releases its claim. Best effort: a failure is
/// printed, not raised.
pub(crate) fn clean(url: &str, namespace: &Namespace) {
    let Some(db) = claimed()
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .remove(namespace.as_str())
    else {
        return;
    };
    let released = Admin::connect(url).and_then(|mut admin| {
        admin.command(&["SELECT", &db.to_string()])?;
        admin.command(&["FLUSHDB"])?;
        admin.command(&["SELECT", "0"])?;
        admin.command(&["DEL", &format!("memory-conformance:claim:{db}")])?;
        Ok(())
    });
    if let Err(err) = released {
        eprintln!("memory-conformance-adk-rust: cannot empty Redis database {db}: {err}");
    }
}

/// The server's version, as `Redis 7.0.15`.
pub(crate) fn version(url: &str) -> Result<String, String> {
    let mut admin = Admin::connect(url)?;
    let Reply::Bulk(Some(info)) = admin.command(&["INFO", "server"])? else {
        return Err("Redis's INFO server returned no text".into());
    };
    info.lines()
        .find_map(|line| line.strip_prefix("redis_version:"))
        .map(|version| format!("Redis {}", version.trim()))
        .ok_or_else(|| "Redis's INFO server names no redis_version".into())
}
