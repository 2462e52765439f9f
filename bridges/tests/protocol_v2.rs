//! Bridge protocol v2 through the Python helper (`bridges/python`): every instance the kit
//! opens on a store reaches the store's one storage, so a file-backed service keeps what an
//! earlier instance wrote and shares it with a second one, an in-memory service keeps nothing
//! across a reopen, `drop` removes the storage, and a kit that speaks only version 1 is
//! answered in version 1. Those trials need ADK Python installed (`bash bridges/install.sh`).
//!
//! Without ADK: both helpers (Python and JavaScript) answer a call their service does not have
//! with `"unsupported": true`, which the kit gives as `MemoryError::Unsupported`; and every
//! exchange on `docs/bridge-protocol.md` is one the kit and a child really send (recorded from
//! the kit's requests to the test child `tests/bridge_children/reference_bridge.py` and to the
//! Python helper). These need `python3` and `node` on the PATH, and show as ignored without.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};

use libtest_mimic::{Arguments, Completion, Failed, Trial};
use memory_conformance::process::ProcessBridge;
use memory_conformance::{
    Content, Event, MemoryEntry, MemoryError, MemoryService, SearchOptions, Session, Timestamp,
};

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

/// A service with ADK's two calls only, served by the Python helper: `search` finds nothing.
const PYTHON_TWO_CALLS: &str = r#"
from memory_conformance_bridge import serve

class TwoCalls:
    async def add_session_to_memory(self, session):
        pass

    async def search_memory(self, *, app_name, user_id, query):
        return type("Found", (), {"memories": []})()

serve(TwoCalls, backend="two-calls", version="two-calls 1.0")
"#;

/// The same service, served by the JavaScript helper.
const NODE_TWO_CALLS: &str = r#"
import {serve} from 'HELPER';
class TwoCalls {
  async addSessionToMemory() {}
  async searchMemory() { return {memories: []}; }
}
await serve(() => new TwoCalls(), {
  backend: 'two-calls', version: 'two-calls 1.0', createEvent: (e) => e, createSession: (s) => s,
});
"#;

/// A service whose one entry says its storage and how many instances were opened on it since
/// the storage was new or cleared (`store-1 2`), served by the Python helper with `clear=`.
const PYTHON_REUSED: &str = r#"
from types import SimpleNamespace as NS
from memory_conformance_bridge import serve

class Counted:
    def __init__(self, storage):
        self.storage = storage
        with open(storage / "opened", "a") as opened:
            opened.write("x")

    async def add_session_to_memory(self, session):
        pass

    async def search_memory(self, *, app_name, user_id, query):
        count = len((self.storage / "opened").read_text())
        part = NS(text=f"{self.storage.name} {count}", function_call=None, function_response=None, inline_data=None)
        return NS(memories=[NS(content=NS(role=None, parts=[part]), author="user", timestamp=None)])

serve(Counted, backend="reused", version="reused 1.0", clear=lambda storage: (storage / "opened").unlink())
"#;

/// The same service, served by the JavaScript helper with `clear`.
const NODE_REUSED: &str = r#"
import {appendFileSync, readFileSync, unlinkSync} from 'node:fs';
import {basename, join} from 'node:path';
import {serve} from 'HELPER';
class Counted {
  constructor(storage) { this.storage = storage; appendFileSync(join(storage, 'opened'), 'x'); }
  async addSessionToMemory() {}
  async searchMemory() {
    const count = readFileSync(join(this.storage, 'opened'), 'utf8').length;
    return {memories: [{content: {parts: [{text: `${basename(this.storage)} ${count}`}]}, author: 'user'}]};
  }
}
await serve((storage) => new Counted(storage), {
  backend: 'reused', version: 'reused 1.0', createEvent: (e) => e, createSession: (s) => s,
  clear: (storage) => unlinkSync(join(storage, 'opened')),
});
"#;

/// Whether `program` runs here (`program --version`); `Err` says why not.
fn runs(program: &str) -> Result<(), String> {
    match Command::new(program)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
    {
        Ok(_) => Ok(()),
        Err(err) => Err(format!(
            "{program} cannot be run ({err}): this test needs it on the PATH"
        )),
    }
}

/// The Python helper serving `PYTHON_TWO_CALLS`.
fn python_two_calls() -> Command {
    let mut command = Command::new("python3");
    command
        .env("PYTHONPATH", bridges().join("python"))
        .args(["-c", PYTHON_TWO_CALLS]);
    command
}

/// The JavaScript helper serving `NODE_TWO_CALLS`.
fn node_two_calls() -> Command {
    let helper = format!(
        "file://{}",
        bridges().join("js/memory-conformance-bridge.mjs").display()
    );
    let mut command = Command::new("node");
    command.args([
        "--input-type=module",
        "-e",
        &NODE_TWO_CALLS.replace("HELPER", &helper),
    ]);
    command
}

/// `code` run by `program` with the helpers on its path: Python's on `PYTHONPATH`, or the
/// JavaScript helper's file where `code` says `HELPER`.
fn helper_child(program: &str, code: &str) -> Command {
    let mut command = Command::new(program);
    if program == "node" {
        let helper = format!(
            "file://{}",
            bridges().join("js/memory-conformance-bridge.mjs").display()
        );
        command.args([
            "--input-type=module",
            "-e",
            &code.replace("HELPER", &helper),
        ]);
    } else {
        command
            .env("PYTHONPATH", bridges().join("python"))
            .args(["-c", code]);
    }
    command
}

/// What the one entry of the store's instance says: its storage and the instances opened on it.
async fn storage_of(memory: &dyn MemoryService) -> Result<String, Failed> {
    let found = memory
        .search_memory("support", "u-42", "where")
        .await
        .map_err(|err| err.to_string())?;
    match found.memories.as_slice() {
        [entry] => Ok(entry.content.texts().collect::<Vec<_>>().join(" ")),
        other => Err(format!("expected one entry, got {other:?}").into()),
    }
}

/// A helper given `clear` says so in `hello`, clears a dropped store and gives its storage to
/// the next store, whose first instance then finds it as new; a store opened while the first
/// lives gets storage of its own.
async fn a_helper_with_clear_reuses_cleared_stores(command: Command) -> Result<(), Failed> {
    let bridge = ProcessBridge::spawn(command).await?;
    if !bridge.reuses_stores() {
        return Err("hello did not say `reuses_stores`".into());
    }
    let first = bridge.open("case-1").await?;
    let again = bridge.open("case-1").await?;
    let seen = [storage_of(&first).await?, storage_of(&again).await?];
    if seen != ["store-1 2", "store-1 2"] {
        return Err(format!("two instances of one store: {seen:?}").into());
    }
    drop((first, again));
    bridge.forget("case-1");
    let next = bridge.open("case-2").await?;
    let beside = bridge.open("case-3").await?;
    let seen = [storage_of(&next).await?, storage_of(&beside).await?];
    if seen != ["store-1 1", "store-2 1"] {
        return Err(format!(
            "the store after a drop, and one beside it: {seen:?} (expected the first's storage \
             cleared, `store-1 1`, and a new one, `store-2 1`)"
        )
        .into());
    }
    Ok(())
}

fn the_python_helper_reuses_cleared_stores() -> Result<(), Failed> {
    block_on(a_helper_with_clear_reuses_cleared_stores(helper_child(
        "python3",
        PYTHON_REUSED,
    )))
}

fn the_js_helper_reuses_cleared_stores() -> Result<(), Failed> {
    block_on(a_helper_with_clear_reuses_cleared_stores(helper_child(
        "node",
        NODE_REUSED,
    )))
}

/// `command` run so that every line the kit writes to it and it writes back is also appended to
/// `dir/requests` and `dir/answers`.
fn recorded(dir: &Path, command: &Command) -> Command {
    let mut recorder = Command::new("sh");
    recorder
        .arg("-c")
        .arg(r#"dir=$1; shift; tee -a "$dir/requests" | "$@" | tee -a "$dir/answers""#)
        .arg("sh")
        .arg(dir)
        .arg(command.get_program())
        .args(command.get_args());
    for (key, value) in command.get_envs() {
        if let Some(value) = value {
            recorder.env(key, value);
        }
    }
    recorder
}

fn at(timestamp: &str) -> Result<Timestamp, Failed> {
    timestamp
        .parse()
        .map_err(|err| format!("{timestamp}: {err}").into())
}

fn expect_unsupported(
    what: &str,
    result: Result<impl std::fmt::Debug, MemoryError>,
    operation: &str,
) -> Result<(), Failed> {
    match result {
        Err(MemoryError::Unsupported { operation: said }) if said == operation => Ok(()),
        other => Err(format!("{what}: expected MemoryError::Unsupported {{ operation: {operation:?} }}, got {other:?}").into()),
    }
}

/// A two-call service behind `command`'s helper: every optional call, and a search with a limit,
/// is answered `"unsupported": true` and given as `MemoryError::Unsupported` naming the call; a
/// plain search works; a search on a store the child forgot fails with the child's message.
async fn a_helper_answers_unsupported(command: Command) -> Result<(), Failed> {
    let bridge = ProcessBridge::spawn(command).await?;
    if (bridge.protocol(), bridge.backend()) != (2, "two-calls") {
        return Err(format!(
            "hello: protocol {}, backend {}",
            bridge.protocol(),
            bridge.backend()
        )
        .into());
    }
    let memory = bridge.open("case-1").await?;
    if memory.instance() != Some(1) {
        return Err(format!("the first open gave instance {:?}", memory.instance()).into());
    }
    expect("a plain search", found(&memory).await?, 0)?;
    let limited = SearchOptions::with_limit(1);
    expect_unsupported(
        "a search with a limit",
        memory
            .search_memory_with("support", "u-42", "coffee", &limited)
            .await,
        "search options (a result limit)",
    )?;
    let tuesday = Event::text("user", "Make it oat milk.")
        .with_id("e-2")
        .at(at("2026-01-02T09:30:00Z")?);
    expect_unsupported(
        "add_events",
        memory
            .add_events_to_memory("support", "u-42", Some("s-1"), &[tuesday])
            .await,
        "add_events_to_memory",
    )?;
    let note = MemoryEntry::new(Content::text("Prefers oat milk.")).with_author("user");
    expect_unsupported(
        "add_memory",
        memory.add_memory("support", "u-42", &[note]).await,
        "add_memory",
    )?;
    expect_unsupported(
        "delete",
        memory.delete_memory("support", "u-42", "e-1").await,
        "delete_memory",
    )?;
    bridge.forget("case-1");
    match memory.search_memory("support", "u-42", "coffee").await {
        Err(MemoryError::Backend { message, .. })
            if message.contains("failed request 9 (search): ")
                && (message
                    .contains("LookupError: no store 'case-1': open (or reset) it first")
                    || message
                        .contains("Error: no store \"case-1\": open (or reset) it first")) =>
        {
            Ok(())
        }
        other => Err(format!("a search on a forgotten store: {other:?}").into()),
    }
}

fn the_python_helper_answers_unsupported() -> Result<(), Failed> {
    block_on(a_helper_answers_unsupported(python_two_calls()))
}

fn the_js_helper_answers_unsupported() -> Result<(), Failed> {
    block_on(a_helper_answers_unsupported(node_two_calls()))
}

/// Every line of every `json` block on `docs/bridge-protocol.md`: the page's exchanges.
fn page_lines() -> Vec<&'static str> {
    let page = include_str!("../../docs/bridge-protocol.md");
    page.split("```json\n")
        .skip(1)
        .filter_map(|rest| rest.split("```").next())
        .flat_map(str::lines)
        .collect()
}

/// The kit's requests and the children's answers, recorded: the reference test child through
/// every operation of protocol 2 and a `reset`, then the Python helper over a service with the
/// two calls only.
async fn record_exchanges(dir: &Path) -> Result<(), Failed> {
    let script = bridges().join("../tests/bridge_children/reference_bridge.py");
    let mut reference = Command::new("python3");
    reference.arg(&script);
    let bridge = ProcessBridge::spawn(recorded(dir, &reference)).await?; // 1 hello
    let first = bridge.open("case-1").await?; // 2
    let monday = Session::new("support", "u-42", "s-1").with_event(
        Event::text("user", "My favourite coffee is a flat white.")
            .with_id("e-1")
            .at(at("2026-01-01T00:00:01.25Z")?),
    );
    first.add_session_to_memory(&monday).await?; // 3
    expect("search", found(&first).await?, 1)?; // 4
    let limited = SearchOptions::with_limit(1);
    first
        .search_memory_with("support", "u-42", "coffee", &limited)
        .await?; // 5
    let tuesday = Event::text("user", "Make it oat milk.")
        .with_id("e-2")
        .at(at("2026-01-02T09:30:00Z")?);
    first
        .add_events_to_memory("support", "u-42", Some("s-1"), &[tuesday])
        .await?; // 6
    let note = MemoryEntry::new(Content::text("Prefers oat milk.")).with_author("user");
    first.add_memory("support", "u-42", &[note]).await?; // 7
    first.delete_memory("support", "u-42", "e-1").await?; // 8
    let second = bridge.open("case-1").await?; // 9
    drop(first); // 10 close
    expect("a second in-memory instance", found(&second).await?, 0)?; // 11
    drop(second); // 12 close
    bridge.forget("case-1"); // 13 drop
    let fresh = bridge.store("case-2").await?; // 14 reset
    drop(fresh); // 15 drop
    // Answered after every earlier request, so the recording is complete.
    bridge.open("case-3").await?;
    a_helper_answers_unsupported(recorded(dir, &python_two_calls())).await
}

fn the_exchanges_on_the_protocol_page_are_what_the_kit_and_a_child_send() -> Result<(), Failed> {
    let dir = std::env::temp_dir().join(format!(
        "memory-conformance-protocol-page-{}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).map_err(|err| format!("{}: {err}", dir.display()))?;
    let recorded = block_on(record_exchanges(&dir));
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap_or_default();
    let transcript = format!("{}{}", read("requests"), read("answers"));
    let _ = std::fs::remove_dir_all(&dir);
    recorded?;
    let sent: std::collections::HashSet<&str> = transcript.lines().collect();
    let lines = page_lines();
    let missing: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|line| !sent.contains(line))
        .collect();
    if missing.is_empty() {
        if lines.len() < 20 {
            return Err(format!(
                "docs/bridge-protocol.md shows only {} exchange lines",
                lines.len()
            )
            .into());
        }
        Ok(())
    } else {
        Err(format!(
            "docs/bridge-protocol.md shows lines no one sent:\n  {}\nwhat was sent:\n{transcript}",
            missing.join("\n  ")
        )
        .into())
    }
}

/// A trial that needs `programs` on the PATH, ignored with the reason (or failed, where every
/// backend is required) without them.
fn needs(programs: &[&str], name: &'static str, test: fn() -> Result<(), Failed>) -> Trial {
    match programs.iter().try_for_each(|program| runs(program)) {
        Ok(()) => Trial::test(name, test),
        Err(reason) => ignored(name, reason),
    }
}

fn ignored(name: &'static str, reason: String) -> Trial {
    let required = std::env::var_os(REQUIRE_ALL).is_some();
    Trial::ignorable_test(name, move || {
        if required {
            Err(format!("{REQUIRE_ALL} is set, but {reason}").into())
        } else {
            Ok(Completion::ignored_with(reason.clone()))
        }
    })
}

fn trial(name: &'static str, test: fn() -> Result<(), Failed>) -> Trial {
    match installed() {
        Ok(()) => Trial::test(name, test),
        Err(reason) => ignored(name, reason),
    }
}

fn main() -> ExitCode {
    // The children here hold only these tests' own data: their messages are compared verbatim.
    memory_conformance::process::show_stderr_verbatim();
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
        needs(
            &["python3"],
            "unsupported::the_python_helper_answers_what_its_service_lacks_as_unsupported",
            the_python_helper_answers_unsupported,
        ),
        needs(
            &["node"],
            "unsupported::the_js_helper_answers_what_its_service_lacks_as_unsupported",
            the_js_helper_answers_unsupported,
        ),
        needs(
            &["python3"],
            "reuse::the_python_helper_with_clear_reuses_a_dropped_stores_storage_cleared",
            the_python_helper_reuses_cleared_stores,
        ),
        needs(
            &["node"],
            "reuse::the_js_helper_with_clear_reuses_a_dropped_stores_storage_cleared",
            the_js_helper_reuses_cleared_stores,
        ),
        needs(
            &["python3", "sh", "tee"],
            "page::the_exchanges_on_the_protocol_page_are_what_the_kit_and_a_child_send",
            the_exchanges_on_the_protocol_page_are_what_the_kit_and_a_child_send,
        ),
    ];
    libtest_mimic::run(&Arguments::from_args(), trials).exit_code()
}
