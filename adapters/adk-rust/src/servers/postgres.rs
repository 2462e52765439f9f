//! PostgreSQL for the gates of `PostgresMemoryService`: a role and a schema of its own per
//! namespace, the server's version, and the words of PostgreSQL's `simple` text search
//! configuration.
//!
//! adk-memory 2.3.0 creates its table `memory_entries` unqualified, and decides whether the
//! table already exists from `information_schema.tables` (src/postgres.rs:359-371), which lists
//! every table the connected user may use. So each namespace connects as a role of its own
//! (`<namespace>_<run tag>`), which owns a schema of the same name: the default `search_path`
//! (`"$user", public`) puts the namespace's table in its schema, with pgvector's type from
//! `public`, and no role sees another's tables.

use std::collections::{HashMap, HashSet};
use std::str::FromStr;
use std::sync::{Arc, Mutex, OnceLock, PoisonError, mpsc};

use adk_memory::{EmbeddingProvider, PostgresMemoryService, VectorIndexType};
use memory_conformance::MemoryError;
use memory_conformance::conformance::Namespace;
use sqlx::postgres::{PgConnectOptions, PgConnection, PgPoolOptions};
use sqlx::{Connection, Row};
use tokio::runtime::Handle;

use super::{POSTGRES_URL, block_on_own_thread, run_tag, server_url};
use crate::AdkRustMemory;

/// The role and schema of `namespace` in this run.
pub(crate) fn role(namespace: &Namespace) -> String {
    format!("{}_{}", namespace.as_str(), run_tag())
}

/// The options of a connection to `url` as `role`.
fn options(url: &str, role: Option<&str>) -> Result<PgConnectOptions, String> {
    let options = PgConnectOptions::from_str(url)
        .map_err(|err| format!("bad {POSTGRES_URL} {url:?}: {err}"))?;
    Ok(match role {
        Some(role) => options.username(role),
        None => options,
    })
}

async fn admin(url: &str) -> Result<PgConnection, String> {
    PgConnection::connect_with(&options(url, None)?)
        .await
        .map_err(|err| format!("cannot connect to PostgreSQL at {url}: {err}"))
}

/// Creates `role` and its schema, once per process.
async fn ensure_role(url: &str, role: &str) -> Result<(), String> {
    static CREATED: OnceLock<Mutex<HashSet<String>>> = OnceLock::new();
    let created = CREATED.get_or_init(Mutex::default);
    if created
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .contains(role)
    {
        return Ok(());
    }
    // A pool of one connection, not a `PgConnection`: rustc cannot prove a future holding
    // `&mut PgConnection`'s executor `Send`, and a factory's future must be.
    let pool = PgPoolOptions::new()
        .max_connections(1)
        .connect_with(options(url, None)?)
        .await
        .map_err(|err| format!("cannot connect to PostgreSQL at {url}: {err}"))?;
    let created_now = sqlx::raw_sql(&format!(
        "CREATE ROLE {role} LOGIN; CREATE SCHEMA {role} AUTHORIZATION {role};"
    ))
    .execute(&pool)
    .await
    .map_err(|err| format!("cannot create the role and schema {role}: {err}"));
    pool.close().await;
    created_now?;
    created
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .insert(role.to_owned());
    Ok(())
}

/// A `PostgresMemoryService` on the schema of `namespace`, built as `PostgresMemoryService::new`
/// builds it but on a pool connecting as the namespace's role (`from_pool_with_index` with
/// HNSW m 16, ef_construction 64, the default index), then `migrate()`, behind
/// [`AdkRustMemory`].
pub(crate) async fn open(
    url: &str,
    namespace: &Namespace,
    embedder: Option<Arc<dyn EmbeddingProvider>>,
) -> Result<AdkRustMemory<PostgresMemoryService>, MemoryError> {
    let role = role(namespace);
    ensure_role(url, &role)
        .await
        .map_err(MemoryError::backend)?;
    // The pool `PostgresMemoryService::new` makes (`PgPool::connect`: sqlx's defaults, up to
    // 10 connections), for the namespace's role.
    let pool = PgPoolOptions::new()
        .connect_with(options(url, Some(&role)).map_err(MemoryError::backend)?)
        .await
        .map_err(|err| {
            MemoryError::backend_with_source(format!("cannot connect to PostgreSQL as {role}"), err)
        })?;
    let index = VectorIndexType::Hnsw {
        m: 16,
        ef_construction: 64,
    };
    let service = PostgresMemoryService::from_pool_with_index(pool, embedder, index);
    // As in `AdkRustMemory::open_sqlite`: `migrate()`'s future is not provably `Send`, so it
    // runs on a blocking thread of the same runtime.
    let runtime = Handle::try_current()
        .map_err(|err| MemoryError::backend_with_source("migrate needs a tokio runtime", err))?;
    let migrated =
        tokio::task::spawn_blocking(move || runtime.block_on(service.migrate()).map(|()| service))
            .await;
    match migrated {
        Ok(Ok(service)) => Ok(AdkRustMemory::new(service)),
        Ok(Err(err)) => Err(MemoryError::backend_with_source(
            format!("cannot migrate the PostgreSQL memory of {role}"),
            err,
        )),
        Err(err) => Err(MemoryError::backend_with_source(
            format!("cannot migrate the PostgreSQL memory of {role}"),
            err,
        )),
    }
}

/// Drops the schema and role of `namespace`, after ending the sessions still connected as it.
/// Best effort: a failure is printed, not raised.
pub(crate) fn clean(url: &str, namespace: &Namespace) {
    let role = role(namespace);
    let dropped = block_on_own_thread(|| async {
        let mut conn = admin(url).await?;
        sqlx::query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1")
            .bind(&role)
            .execute(&mut conn)
            .await
            .map_err(|err| err.to_string())?;
        sqlx::raw_sql(&format!(
            "DROP SCHEMA IF EXISTS {role} CASCADE; DROP ROLE IF EXISTS {role};"
        ))
        .execute(&mut conn)
        .await
        .map_err(|err| err.to_string())?;
        let _ = conn.close().await;
        Ok(())
    });
    if let Err(err) = dropped {
        eprintln!(
            "memory-conformance-adk-rust: cannot drop the PostgreSQL schema and role {role}: {err}"
        );
    }
}

/// The server's version and pgvector's, as `PostgreSQL 16.2, pgvector 0.6.2`.
pub(crate) fn version(url: &str) -> Result<String, String> {
    block_on_own_thread(|| async {
        let mut conn = admin(url).await?;
        let row = sqlx::query(
            "SELECT current_setting('server_version') AS server, \
             (SELECT extversion FROM pg_extension WHERE extname = 'vector') AS vector",
        )
        .fetch_one(&mut conn)
        .await
        .map_err(|err| format!("cannot ask PostgreSQL at {url} for its version: {err}"))?;
        let _ = conn.close().await;
        let server: String = row.get("server");
        let vector: Option<String> = row.get("vector");
        let vector = vector.ok_or_else(|| {
            format!("the database of {url} has no vector extension: run CREATE EXTENSION vector")
        })?;
        Ok(format!("PostgreSQL {server}, pgvector {vector}"))
    })
}

/// The words PostgreSQL's `simple` text search configuration makes of `text`, in order with
/// repeats: the lexemes `to_tsvector('simple', text)` stores and `plainto_tsquery('simple',
/// text)` requires, taken from `ts_debug`. PostgreSQL's own parser cuts them (on the server
/// the gate runs against, memoized): words of letters, numbers, hyphenated words with their
/// parts, e-mail addresses, URLs, file paths, version numbers and so on, lowercased.
///
/// # Panics
///
/// When the server cannot be asked: the rule that asked fails with the message.
pub(crate) fn simple_words(text: &str) -> Vec<String> {
    static MEMO: OnceLock<Mutex<HashMap<String, Vec<String>>>> = OnceLock::new();
    let memo = MEMO.get_or_init(Mutex::default);
    if let Some(words) = memo
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .get(text)
    {
        return words.clone();
    }
    let words = ask_parser(text).unwrap_or_else(|err| {
        panic!("cannot cut {text:?} into words with PostgreSQL's parser: {err}")
    });
    memo.lock()
        .unwrap_or_else(PoisonError::into_inner)
        .insert(text.to_owned(), words.clone());
    words
}

type WordRequest = (String, mpsc::Sender<Result<Vec<String>, String>>);

/// Asks the parser through one connection kept on a thread of its own.
fn ask_parser(text: &str) -> Result<Vec<String>, String> {
    static WORKER: OnceLock<Mutex<mpsc::Sender<WordRequest>>> = OnceLock::new();
    let worker = WORKER.get_or_init(|| {
        let (requests, receiver) = mpsc::channel::<WordRequest>();
        std::thread::Builder::new()
            .name("postgres-words".into())
            .spawn(move || parser_worker(&receiver))
            .expect("a thread for PostgreSQL's word parser");
        Mutex::new(requests)
    });
    let (reply, answer) = mpsc::channel();
    worker
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .send((text.to_owned(), reply))
        .map_err(|_| "the parser's thread has stopped".to_owned())?;
    answer
        .recv()
        .map_err(|_| "the parser's thread has stopped".to_owned())?
}

fn parser_worker(requests: &mpsc::Receiver<WordRequest>) {
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(err) => {
            for (_, reply) in requests {
                let _ = reply.send(Err(format!("no tokio runtime: {err}")));
            }
            return;
        }
    };
    let mut conn: Option<PgConnection> = None;
    for (text, reply) in requests {
        let answer = runtime.block_on(async {
            if conn.is_none() {
                conn = Some(admin(&server_url(POSTGRES_URL)?).await?);
            }
            let words = sqlx::query_scalar::<_, Option<Vec<String>>>(
                "SELECT array_agg(u.lexeme ORDER BY t.n, u.m) \
                 FROM ts_debug('simple', $1) WITH ORDINALITY \
                      AS t(alias, description, token, dictionaries, dictionary, lexemes, n), \
                      unnest(t.lexemes) WITH ORDINALITY AS u(lexeme, m)",
            )
            .bind(&text)
            .fetch_one(conn.as_mut().expect("connected above"))
            .await;
            match words {
                Ok(words) => Ok(words.unwrap_or_default()),
                Err(err) => {
                    conn = None;
                    Err(err.to_string())
                }
            }
        });
        let _ = reply.send(answer);
    }
}
