//! Bridge protocol v2 through the Python helper (`bridges/python`): every instance the kit
//! opens on a store reaches the store's one storage, so a file-backed service keeps what an
//! earlier instance wrote and shares it with a second one, an in-memory service keeps nothing
//! across a reopen, `drop` removes the storage, and a kit that speaks only version 1 is
//! answered in version 1.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, ExitCode, Stdio};

use libtest_mimic::{Arguments, Completion, Failed, Trial};
use memory_conformance::process::ProcessBridge;
use memory_conformance::{Event, MemoryService, Session};

const REQUIRE_ALL: &str = "MEMORY_CONFORMANCE_REQUIRE_ALL_BACKENDS";

fn bridges() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The venv's Python running `script` of `bridges/adk-python/`, as the bundled gates run it.
fn command(script: &str) -> Command {
    let mut command = Command::new(bridges().join("adk-python/.venv/bin/python"));
    command
        .env("TZ", "UTC")
        .env("PYTHONPATH", bridges().join("python"))
        .arg(script)
        .current_dir(bridges().join("adk-python"));
    command
}

fn installed() -> Result<(), String> {
    if bridges().join("adk-python/.venv/installed-pins").is_file() {
        Ok(())
    } else {
        Err("google-adk is not installed in bridges/adk-python/.venv: run `bash bridges/install.sh`".into())
    }
}

fn block_on(test: impl std::future::Future<Output = Result<(), Failed>>) -> Result<(), Failed> {
    tokio::runtime::Builder::new_current_thread()
        .build()
        .map_err(|err| format!("no runtime: {err}"))?
        .block_on(test)
}

fn monday() -> Session {
    Session::new("support", "u-42", "s-1")
        .with_event(Event::text("user", "My favourite coffee is a flat white."))
}

async fn found(memory: &dyn MemoryService) -> Result<usize, Failed> {
    Ok(memory
        .search_memory("support", "u-42", "coffee")
        .await
        .map_err(|err| err.to_string())?
        .memories
        .len())
}

fn expect(what: &str, actual: usize, expected: usize) -> Result<(), Failed> {
    if actual == expected {
        Ok(())
    } else {
        Err(format!("{what}: found {actual} entries, expected {expected}").into())
    }
}

/// ADK Python's SqliteMemoryService on each store's database file.
fn a_file_backed_store_survives_a_reopen_is_shared_and_is_removed_by_drop() -> Result<(), Failed> {
    block_on(async {
        let bridge = ProcessBridge::spawn(command("sqlite_bridge.py")).await?;
        if bridge.protocol() != 2 {
            return Err(format!("the helper speaks protocol {}", bridge.protocol()).into());
        }
        let first = bridge.open("case-1").await?;
        first.add_session_to_memory(&monday()).await?;
        let second = bridge.open("case-1").await?;
        expect(
            "a second instance, while the first is open",
            found(&second).await?,
            1,
        )?;
        let elsewhere = bridge.open("case-2").await?;
        expect("an instance of another store", found(&elsewhere).await?, 0)?;
        drop((first, second));
        let reopened = bridge.open("case-1").await?;
        expect(
            "an instance opened after both were closed",
            found(&reopened).await?,
            1,
        )?;
        drop(reopened);
        bridge.forget("case-1");
        let fresh = bridge.open("case-1").await?;
        expect("the store opened again after drop", found(&fresh).await?, 0)?;
        Ok(())
    })
}

/// ADK Python's InMemoryMemoryService: a factory without storage, so each instance is new.
fn an_in_memory_store_keeps_nothing_across_a_reopen() -> Result<(), Failed> {
    block_on(async {
        let bridge = ProcessBridge::spawn(command("bridge.py")).await?;
        let first = bridge.open("case-1").await?;
        first.add_session_to_memory(&monday()).await?;
        expect("the instance that wrote", found(&first).await?, 1)?;
        drop(first);
        let reopened = bridge.open("case-1").await?;
        expect(
            "an instance opened after a close",
            found(&reopened).await?,
            0,
        )?;
        Ok(())
    })
}

/// A kit that speaks version 1 sends `hello` with protocol 1, then `reset`, `add` and `search`
/// without instances.
fn a_version_1_kit_is_answered_in_version_1() -> Result<(), Failed> {
    let mut child = command("bridge.py")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|err| format!("cannot start the bridge: {err}"))?;
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let mut stdout = BufReader::new(child.stdout.take().ok_or("no stdout")?);
    let session = serde_json::to_string(&monday()).map_err(|err| err.to_string())?;
    let requests = [
        r#"{"id":1,"op":"hello","protocol":1}"#.to_owned(),
        r#"{"id":2,"op":"reset","store":"a"}"#.to_owned(),
        format!(r#"{{"id":3,"op":"add","store":"a","session":{session}}}"#),
        r#"{"id":4,"op":"search","store":"a","app_name":"support","user_id":"u-42","query":"coffee"}"#.to_owned(),
    ];
    let mut answers = Vec::new();
    for request in &requests {
        writeln!(stdin, "{request}").map_err(|err| err.to_string())?;
        let mut line = String::new();
        stdout.read_line(&mut line).map_err(|err| err.to_string())?;
        answers.push(
            serde_json::from_str::<serde_json::Value>(&line)
                .map_err(|err| format!("{err}: {line:?}"))?,
        );
    }
    drop(stdin);
    let _ = child.wait();
    if answers[0]["protocol"] != 1 || answers.iter().any(|a| a["ok"] != true) {
        return Err(format!("answers: {answers:?}").into());
    }
    let memories = answers[3]["memories"].as_array().map_or(0, Vec::len);
    expect("a v1 search after a v1 add", memories, 1)
}

fn trial(name: &'static str, test: fn() -> Result<(), Failed>) -> Trial {
    match installed() {
        Ok(()) => Trial::test(name, test),
        Err(reason) => {
            let required = std::env::var_os(REQUIRE_ALL).is_some();
            Trial::ignorable_test(name, move || {
                if required {
                    Err(format!("{REQUIRE_ALL} is set, but {reason}").into())
                } else {
                    Ok(Completion::ignored_with(reason.clone()))
                }
            })
        }
    }
}

fn main() -> ExitCode {
    let trials = vec![
        trial(
            "v2::a_file_backed_store_survives_a_reopen_is_shared_and_is_removed_by_drop",
            a_file_backed_store_survives_a_reopen_is_shared_and_is_removed_by_drop,
        ),
        trial(
            "v2::an_in_memory_store_keeps_nothing_across_a_reopen",
            an_in_memory_store_keeps_nothing_across_a_reopen,
        ),
        trial(
            "v1::a_version_1_kit_is_answered_in_version_1",
            a_version_1_kit_is_answered_in_version_1,
        ),
    ];
    libtest_mimic::run(&Arguments::from_args(), trials).exit_code()
}
