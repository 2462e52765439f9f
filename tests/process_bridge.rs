//! `ProcessBridge`: every way a bridge child can fail ends as an error that names the failure
//! and shows the child's stderr: verbatim what it wrote before any call carried stored content
//! (its start-up, `open`, `reset`), redacted to its shape after that
//! (`MEMORY_CONFORMANCE_SHOW_STDERR=1` shows it verbatim: `cli/tests/misbehaving_bridges.rs`
//! sets it); a working child runs the harness's rules unchanged.
//!
//! The broken children are small `sh` scripts; the working one is a standard-library Python
//! script over dicts that behaves like the reference backend.

use std::process::Command;
use std::time::{Duration, Instant};

use memory_conformance::conformance::{DEFAULT_OP_TIMEOUT, Gate, Subject};
use memory_conformance::process::ProcessBridge;
use memory_conformance::profile::Profile;
use memory_conformance::{Event, MemoryError, MemoryService, Session};

/// Shell functions every scripted child starts with: `id_of LINE`, `answer_hello`, `ok LINE`.
const PRELUDE: &str = r#"
id_of() { printf '%s\n' "$1" | sed -n 's/^{"id":\([0-9]*\),.*/\1/p'; }
answer_hello() {
  read -r line
  printf '{"id":%s,"ok":true,"protocol":1,"backend":"sh-child","version":"0"}\n' "$(id_of "$line")"
}
ok() { printf '{"id":%s,"ok":true}\n' "$(id_of "$1")"; }
"#;

fn sh(script: &str) -> Command {
    let mut command = Command::new("sh");
    command.arg("-c").arg(format!("{PRELUDE}\n{script}"));
    command
}

fn session() -> Session {
    Session::new("support", "u-42", "s-1")
        .with_event(Event::text("user", "My favourite coffee is a flat white."))
}

fn message(result: Result<impl std::fmt::Debug, MemoryError>) -> String {
    assert!(
        std::env::var_os(memory_conformance::process::SHOW_STDERR).is_none(),
        "these tests check the redacted stderr of errors: unset {}",
        memory_conformance::process::SHOW_STDERR
    );
    result.expect_err("the call must fail").to_string()
}

fn assert_contains(message: &str, parts: &[&str]) {
    for part in parts {
        assert!(
            message.contains(part),
            "{part:?} is missing from the error:\n{message}"
        );
    }
}

#[tokio::test]
async fn a_missing_program_cannot_start_and_the_error_names_it() {
    let error = message(ProcessBridge::spawn(Command::new("/nonexistent/memory-bridge")).await);
    assert_contains(
        &error,
        &[
            "cannot start bridge child `/nonexistent/memory-bridge`",
            "No such file",
        ],
    );
}

#[tokio::test]
async fn a_child_that_exits_at_once_fails_the_handshake_with_its_status_and_stderr() {
    let child =
        sh(r#"echo "bridge.py: ModuleNotFoundError: No module named 'google.adk'" >&2; exit 3"#);
    let error = message(ProcessBridge::spawn(child).await);
    assert_contains(
        &error,
        &[
            "bridge child `sh -c",
            "exited (exit status: 3)",
            // Before any stored content was sent: verbatim, the module's name included.
            "the child's stderr ends with:\n  | bridge.py: ModuleNotFoundError: No module named \
             'google.adk'",
        ],
    );
}

#[tokio::test]
async fn a_secret_on_stderr_stays_out_of_the_error_by_default() {
    // The secret comes with the first call that carries stored content (the add).
    let child = sh(r#"
        answer_hello
        read -r line; ok "$line"
        read -r line
        echo "Traceback (most recent call last):" >&2
        echo "  File \"/srv/bridge.py\", line 41, in add" >&2
        echo "KeyError: 'the password is xylophone'" >&2
        exit 1
    "#);
    let bridge = ProcessBridge::spawn(child).await.unwrap();
    let memory = bridge.store("case-1").await.unwrap();
    let error = message(memory.add_session_to_memory(&session()).await);
    assert!(!error.contains("xylophone"), "{error}");
    assert!(!error.contains("password"), "{error}");
    assert_contains(
        &error,
        &[
            "exited (exit status: 1)",
            "the child's stderr ends with these lines, redacted to their \
             shape (set MEMORY_CONFORMANCE_SHOW_STDERR=1 to see them verbatim):",
            "\n  | Traceback (most recent call last):\n  |   File \"/srv/bridge.py\", line 41, \
             in add\n  | KeyError: '<letters:3> <letters:8> <letters:2> <letters:9>'",
        ],
    );
}

#[tokio::test]
async fn a_secret_printed_on_stdout_stays_out_of_the_error_by_default() {
    // The secret comes with the first call that carries stored content (the add).
    let child = sh(r#"
        answer_hello
        read -r line; ok "$line"
        read -r line
        echo "stored: the password is xylophone"
        while read -r line; do :; done
    "#);
    let bridge = ProcessBridge::spawn(child).await.unwrap();
    let memory = bridge.store("case-1").await.unwrap();
    let error = message(memory.add_session_to_memory(&session()).await);
    assert!(!error.contains("xylophone"), "{error}");
    assert!(!error.contains("password"), "{error}");
    assert_contains(
        &error,
        &[
            "printed a line that is not a protocol response (not JSON",
            "\"<letters:6>: <letters:3> <letters:8> <letters:2> <letters:9>\" (redacted to its \
             shape: set MEMORY_CONFORMANCE_SHOW_STDERR=1 to see it verbatim)",
        ],
    );
}

#[tokio::test]
async fn a_child_that_exits_mid_session_fails_the_call_and_every_later_one() {
    let child = sh(r#"
        answer_hello
        read -r line; ok "$line"
        read -r line
        echo "fatal: cannot allocate memory for session s-1" >&2
        exit 4
    "#);
    // Calls may take an hour: a later call that waited for an answer would not fail within
    // the minute this test allows it, however busy the machine.
    let bridge = ProcessBridge::spawn_with_timeout(child, Duration::from_secs(3600))
        .await
        .unwrap();
    let memory = bridge.store("case-1").await.unwrap();
    let error = message(memory.add_session_to_memory(&session()).await);
    assert_contains(
        &error,
        &[
            "exited (exit status: 4)",
            "<letters:5>: <letters:6> <letters:8> <letters:6> <letters:3> <letters:7> \
             <letters:1>-<digits:1>",
        ],
    );
    let later = memory.search_memory("support", "u-42", "coffee");
    let again = tokio::time::timeout(Duration::from_secs(60), later)
        .await
        .expect("a dead child fails later calls at once, without waiting for an answer");
    assert_contains(
        &message(again),
        &[
            "exited (exit status: 4)",
            "<letters:5>: <letters:6> <letters:8>",
        ],
    );
    assert_eq!(bridge.broken().as_deref(), Some(error.as_str()));
}

#[tokio::test]
async fn a_child_that_prints_garbage_is_quoted_and_stopped() {
    let child = sh(r#"
        answer_hello
        read -r line
        echo "DeprecationWarning: printing to stdout" >&2
        echo "Traceback (most recent call last):"
        while read -r line; do :; done
    "#);
    let bridge = ProcessBridge::spawn(child).await.unwrap();
    let error = message(bridge.store("case-1").await);
    assert_contains(
        &error,
        &[
            "printed a line that is not a protocol response (not JSON",
            r#""Traceback (most recent call last):""#,
            "  | DeprecationWarning: printing to stdout",
        ],
    );
    let again = message(bridge.store("case-2").await);
    assert_contains(&again, &["printed a line that is not a protocol response"]);
}

#[tokio::test]
async fn a_child_that_answers_the_wrong_request_is_stopped() {
    let child = sh(r#"
        answer_hello
        read -r line
        echo "answering from a stale counter" >&2
        printf '{"id":999,"ok":true}\n'
        while read -r line; do :; done
    "#);
    let bridge = ProcessBridge::spawn(child).await.unwrap();
    let error = message(bridge.store("case-1").await);
    assert_contains(
        &error,
        &[
            "answered request 999, but no request 999 is waiting for an answer (waiting: 2 (reset))",
            "  | answering from a stale counter",
        ],
    );
}

#[tokio::test]
async fn a_child_that_never_answers_times_out_and_is_stopped() {
    let child = sh(r#"
        answer_hello
        while read -r line; do echo "ignoring $line" >&2; done
    "#);
    let bridge = ProcessBridge::spawn_with_timeout(child, Duration::from_millis(300))
        .await
        .unwrap();
    let started = Instant::now();
    let error = message(bridge.store("case-1").await);
    assert!(started.elapsed() >= Duration::from_millis(300));
    assert_contains(
        &error,
        &[
            "did not answer request 2 (reset) within 300ms, so it was stopped (given up after ",
            " ms late, and that scheduling delay was allowed once on top)",
            r#"  | ignoring {"id":2,"op":"reset","store":"case-1"}"#,
        ],
    );
    // A stopped child fails later calls at once: with the first request's reason, not
    // after a timeout of their own (request 3 is never named).
    let again = message(bridge.store("case-2").await);
    assert_contains(&again, &["did not answer request 2 (reset)"]);
    assert!(!again.contains("request 3"), "{again}");
}

/// `hello` waits for the child to start, which is not a call of the backend: it gets at least
/// `DEFAULT_OP_TIMEOUT` (20 s), however short the per-call timeout.
#[tokio::test]
async fn a_child_that_never_shakes_hands_times_out_after_the_start_allowance() {
    let child = sh(r#"echo "importing google.adk..." >&2; while read -r line; do :; done"#);
    let started = Instant::now();
    let error = message(ProcessBridge::spawn_with_timeout(child, Duration::from_millis(300)).await);
    assert!(started.elapsed() >= DEFAULT_OP_TIMEOUT, "{error}");
    assert_contains(
        &error,
        &[
            "did not answer request 1 (hello) within 20s",
            "  | importing google.adk...",
        ],
    );
}

/// A child that takes longer to start than the per-call timeout (an interpreter importing its
/// package on a busy machine) still shakes hands; its calls then get the per-call timeout.
#[tokio::test]
async fn a_child_slower_to_start_than_the_per_call_timeout_shakes_hands() {
    let child = sh(r#"
        sleep 1
        read -r line
        printf '{"id":%s,"ok":true,"protocol":1,"backend":"slow-start","version":"0"}\n' "$(id_of "$line")"
        while read -r line; do :; done
    "#);
    let bridge = ProcessBridge::spawn_with_timeout(child, Duration::from_millis(300))
        .await
        .expect("the start is not bounded by the per-call timeout");
    assert_eq!(bridge.backend(), "slow-start");
    let error = message(bridge.store("case-1").await);
    assert_contains(&error, &["did not answer request 2 (reset) within 300ms"]);
}

#[tokio::test]
async fn a_child_of_another_protocol_version_is_rejected() {
    let child = sh(r#"
        echo "bridge built for protocol 3" >&2
        read -r line
        printf '{"id":%s,"ok":true,"protocol":3,"backend":"future","version":"9"}\n' "$(id_of "$line")"
        while read -r line; do :; done
    "#);
    let error = message(ProcessBridge::spawn(child).await);
    assert_contains(
        &error,
        &[
            "speaks bridge protocol 3, but this kit speaks protocols 1 to 2",
            "  | bridge built for protocol 3",
        ],
    );
}

#[tokio::test]
async fn a_childs_reuses_stores_is_read_from_hello_and_must_be_true_or_false() {
    let reusing = sh(r#"
        read -r line
        printf '{"id":%s,"ok":true,"protocol":2,"backend":"pooled","version":"0","reuses_stores":true}\n' "$(id_of "$line")"
        while read -r line; do :; done
    "#);
    assert!(ProcessBridge::spawn(reusing).await.unwrap().reuses_stores());
    let silent = sh(r#"
        answer_hello
        while read -r line; do :; done
    "#);
    assert!(!ProcessBridge::spawn(silent).await.unwrap().reuses_stores());
    let wrong = sh(r#"
        read -r line
        printf '{"id":%s,"ok":true,"protocol":2,"backend":"pooled","version":"0","reuses_stores":"yes"}\n' "$(id_of "$line")"
        while read -r line; do :; done
    "#);
    assert_contains(
        &message(ProcessBridge::spawn(wrong).await),
        &["answered hello with `reuses_stores` \"yes\", where true or false was expected"],
    );
}

#[tokio::test]
async fn a_version_1_child_is_opened_with_reset_and_a_version_2_one_must_number_its_instance() {
    // Version 1: `open` falls back to `reset`, so the service has no instance number.
    let v1 = sh(r#"
        answer_hello
        while read -r line; do ok "$line"; done
    "#);
    let bridge = ProcessBridge::spawn(v1).await.unwrap();
    assert_eq!(bridge.protocol(), 1);
    let store = bridge.open("a").await.unwrap();
    assert_eq!(store.instance(), None);
    // Version 2: an `open` answered without an instance number is an error that says so.
    let v2 = sh(r#"
        read -r line
        printf '{"id":%s,"ok":true,"protocol":2,"backend":"sh-child","version":"0"}\n' "$(id_of "$line")"
        while read -r line; do ok "$line"; done
    "#);
    let bridge = ProcessBridge::spawn(v2).await.unwrap();
    assert_eq!(bridge.protocol(), 2);
    assert_contains(
        &message(bridge.open("a").await),
        &["answered open without an `instance` number"],
    );
}

#[tokio::test]
async fn a_refusal_carries_the_childs_message_redacted_and_stderr_and_the_child_stays_usable() {
    let child = sh(r#"
        answer_hello
        read -r line; ok "$line"
        read -r line
        echo "Traceback (most recent call last):" >&2
        echo "ValueError: timestamp 'yesterday' is not RFC 3339" >&2
        printf '{"id":%s,"ok":false,"error":"cannot convert event e-1: bad timestamp"}\n' "$(id_of "$line")"
        read -r line
        printf '{"id":%s,"ok":true,"memories":[]}\n' "$(id_of "$line")"
        while read -r line; do ok "$line"; done
    "#);
    let bridge = ProcessBridge::spawn(child).await.unwrap();
    let memory = bridge.store("case-1").await.unwrap();
    let error = message(memory.add_session_to_memory(&session()).await);
    assert_contains(
        &error,
        &[
            "failed request 3 (add): <letters:6> <letters:7> <letters:5> <letters:1>-<digits:1>: \
             <letters:3> <letters:9> (redacted to its shape: set \
             MEMORY_CONFORMANCE_SHOW_STDERR=1 to see it verbatim)",
            "  | Traceback (most recent call last):\n  | ValueError: <letters:9> '<letters:9>' \
             <letters:2> <letters:3> <letters:3> <digits:4>",
        ],
    );
    let found = memory
        .search_memory("support", "u-42", "coffee")
        .await
        .unwrap();
    assert!(found.memories.is_empty());
}

#[tokio::test]
async fn a_search_answer_the_kit_cannot_read_fails_that_search() {
    let child = sh(r#"
        answer_hello
        read -r line; ok "$line"
        read -r line
        printf '{"id":%s,"ok":true,"memories":[{"content":{"parts":[{"file_data":{}}]}}]}\n' "$(id_of "$line")"
        while read -r line; do ok "$line"; done
    "#);
    let bridge = ProcessBridge::spawn(child).await.unwrap();
    let memory = bridge.store("case-1").await.unwrap();
    let error = message(memory.search_memory("support", "u-42", "coffee").await);
    assert_contains(
        &error,
        &[
            "answered a search with memories the kit cannot read",
            // A search carries stored content: what the kit could not read is redacted.
            "`<letters:4>_<letters:4>`",
            "(redacted to its shape: set MEMORY_CONFORMANCE_SHOW_STDERR=1 to see it verbatim)",
        ],
    );
}

#[tokio::test]
async fn answers_in_any_order_reach_the_request_they_answer() {
    // Holds the first search's answer until the second search arrives, then answers both,
    // the second first.
    let child = sh(r#"
        answer_hello
        held=""
        while read -r line; do
          id=$(id_of "$line")
          case "$line" in
            *'"op":"search"'*)
              store=$(printf '%s\n' "$line" | sed -n 's/.*"store":"\([^"]*\)".*/\1/p')
              answer=$(printf '{"id":%s,"ok":true,"memories":[{"content":{"parts":[{"text":"from %s"}]}}]}' "$id" "$store")
              if [ -z "$held" ]; then held="$answer"; else printf '%s\n%s\n' "$answer" "$held"; held=""; fi ;;
            *) ok "$line" ;;
          esac
        done
    "#);
    let bridge = ProcessBridge::spawn(child).await.unwrap();
    let (a, b) = (
        bridge.store("a").await.unwrap(),
        bridge.store("b").await.unwrap(),
    );
    let (from_a, from_b) = tokio::join!(
        a.search_memory("x", "y", "q"),
        b.search_memory("x", "y", "q")
    );
    let text = |found: memory_conformance::SearchMemoryResponse| {
        found.memories[0].content.texts().collect::<String>()
    };
    assert_eq!(text(from_a.unwrap()), "from a");
    assert_eq!(text(from_b.unwrap()), "from b");
}

/// The reference behaviour over Python dicts, as a bridge child.
async fn reference_bridge() -> ProcessBridge {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/bridge_children/reference_bridge.py"
    );
    let mut command = Command::new("python3");
    command.arg(script);
    ProcessBridge::spawn(command)
        .await
        .unwrap_or_else(|err| panic!("the working child needs python3 on the PATH: {err}"))
}

#[tokio::test]
async fn a_working_child_stores_and_finds_with_stores_kept_apart() {
    let bridge = reference_bridge().await;
    assert_eq!(
        (bridge.backend(), bridge.version()),
        ("reference-over-dicts", "test 2")
    );
    let first = bridge.store("first").await.unwrap();
    let second = bridge.store("second").await.unwrap();
    first.add_session_to_memory(&session()).await.unwrap();
    let found = first
        .search_memory("support", "u-42", "Coffee")
        .await
        .unwrap();
    assert_eq!(found.memories.len(), 1);
    assert_eq!(
        found.memories[0].content,
        session().events[0].content.clone().unwrap()
    );
    assert!(
        second
            .search_memory("support", "u-42", "coffee")
            .await
            .unwrap()
            .memories
            .is_empty()
    );
    // A reset empties the store.
    let first_again = bridge.store("first").await.unwrap();
    assert!(
        first_again
            .search_memory("support", "u-42", "coffee")
            .await
            .unwrap()
            .memories
            .is_empty()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_harness_runs_unchanged_against_a_bridge_child() {
    let bridge = reference_bridge().await;
    // The child implements the two calls only.
    let mut profile = Profile::reference();
    profile.capabilities = memory_conformance::profile::Capabilities::default();
    let subject = Subject::namespaced("reference-over-dicts", profile, move |namespace| {
        let bridge = bridge.clone();
        async move {
            bridge
                .store(namespace.as_str())
                .await
                .expect("the reference child serves stores")
        }
    });
    let report = Gate::new(subject).cases(16).run();
    assert!(report.is_green(), "{report}");
}

/// Whether process `pid` is still running (a zombie waiting for its parent counts as gone).
fn running(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        stat.rsplit(')')
            .next()
            .is_some_and(|rest| !rest.trim_start().starts_with('Z'))
    })
}

/// Polls `done` for up to 30 s (a liveness bound, not a speed goal).
async fn eventually(mut done: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + Duration::from_secs(30);
    while Instant::now() < deadline {
        if done() {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    done()
}

#[tokio::test]
async fn a_line_over_the_limit_is_an_error_naming_the_limit_and_is_not_read_whole() {
    let child = sh(r#"
        answer_hello
        read -r line
        echo "about to print a 20 MiB line" >&2
        head -c 20971520 /dev/zero | tr '\0' x
        while read -r line; do :; done
    "#);
    let bridge = ProcessBridge::spawn(child).await.unwrap();
    let error = message(bridge.store("case-1").await);
    assert_contains(
        &error,
        &[
            "printed a protocol line longer than the limit of 16 MiB, so it was stopped without reading the rest",
            "  | about to print a 20 MiB line",
        ],
    );
}

#[tokio::test]
async fn a_child_runs_in_its_own_group_with_its_own_scratch_folder_and_leaves_neither_behind() {
    let report = std::env::temp_dir().join(format!("mc-group-{}", std::process::id()));
    let _ = std::fs::remove_file(&report);
    let child = sh(&format!(
        r#"
        sleep 600 &
        printf '%s %s %s\n' "$$" "$!" "$TMPDIR" > '{}.tmp'
        mv '{}.tmp' '{}'
        answer_hello
        while read -r line; do ok "$line"; done
    "#,
        report.display(),
        report.display(),
        report.display()
    ));
    let bridge = ProcessBridge::spawn(child).await.unwrap();
    let written = std::fs::read_to_string(&report).expect("the child says who it is");
    let _ = std::fs::remove_file(&report);
    let mut words = written.split_whitespace();
    let (pid, grandchild, scratch): (u32, u32, String) = (
        words.next().unwrap().parse().unwrap(),
        words.next().unwrap().parse().unwrap(),
        words.next().unwrap().to_owned(),
    );
    assert!(
        scratch.contains("memory-conformance-bridge-"),
        "the child's TMPDIR is its scratch folder: {scratch}"
    );
    assert!(std::path::Path::new(&scratch).is_dir());
    assert!(running(pid) && running(grandchild));
    // SAFETY: getpgid only reads the process's group.
    let group = unsafe { getpgid(pid as i32) };
    assert_eq!(
        group, pid as i32,
        "the child leads a process group of its own"
    );
    drop(bridge);
    assert!(
        eventually(|| !running(pid) && !running(grandchild)).await,
        "the child ({pid}) and what it started ({grandchild}) are stopped once the bridge is dropped"
    );
    assert!(
        eventually(|| !std::path::Path::new(&scratch).exists()).await,
        "the scratch folder {scratch} is removed"
    );
}

unsafe extern "C" {
    fn getpgid(pid: i32) -> i32;
}
