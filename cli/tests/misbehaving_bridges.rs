//! `memory-conformance gate` against bridges that misbehave: interrupted while its bridge
//! hangs, it closes the child, kills its process group after a grace period, removes its
//! scratch folder and exits 130; a bridge that dies is one error and exit 2, its stderr redacted
//! to its shape unless `MEMORY_CONFORMANCE_SHOW_STDERR=1`; however `gate` or `infer`
//! ends, no scratch folder remains; and a gate on more than one thread runs its cases on as
//! many children, none left afterwards.

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use support::Scratch;

/// A bridge that shakes hands, starts a helper, says who it and the helper are, then hangs
/// on its first request: it never reads again and ignores SIGINT and SIGTERM.
const HUNG_BRIDGE: &str = r#"
trap '' INT TERM
read -r line
id=$(printf '%s\n' "$line" | sed -n 's/^{"id":\([0-9]*\),.*/\1/p')
printf '{"id":%s,"ok":true,"protocol":1,"backend":"hung","version":"0"}\n' "$id"
sleep 600 &
printf '%s %s %s\n' "$$" "$!" "$TMPDIR" > "$REPORT.tmp"
mv "$REPORT.tmp" "$REPORT"
read -r line
sleep 600
"#;

/// Whether process `pid` is still running (a zombie counts as gone).
fn running(pid: &str) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        stat.rsplit(')')
            .next()
            .is_some_and(|rest| !rest.trim_start().starts_with('Z'))
    })
}

/// Polls `done` for up to 60 s (a liveness bound, not a speed goal).
fn eventually(mut done: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + Duration::from_secs(60);
    while Instant::now() < deadline {
        if done() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    done()
}

fn leftovers(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| {
                    p.file_name().is_some_and(|n| {
                        n.to_string_lossy()
                            .starts_with("memory-conformance-bridge-")
                    })
                })
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn an_interrupted_gate_leaves_no_process_and_no_scratch_folder() {
    let dir = Scratch::new("interrupt");
    let report = dir.join("bridge.pids");
    let mut gate = Command::new(env!("CARGO_BIN_EXE_memory-conformance"))
        .args([
            "gate",
            "--profile",
            "reference",
            "--rules",
            "key.isolation",
            "--",
        ])
        .args(["sh", "-c", HUNG_BRIDGE])
        .env("TMPDIR", &*dir)
        .env("REPORT", &report)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    assert!(
        eventually(|| report.exists()),
        "the bridge never started: {:?}",
        gate.try_wait()
    );
    let said = std::fs::read_to_string(&report).unwrap();
    let words: Vec<&str> = said.split_whitespace().collect();
    let [bridge, helper, scratch] = words[..] else {
        panic!("the bridge said {said:?}");
    };
    assert!(running(bridge) && running(helper));
    assert!(
        Path::new(scratch).starts_with(&*dir) && Path::new(scratch).is_dir(),
        "the bridge's TMPDIR is a scratch folder of the kit's: {scratch}"
    );
    let interrupted = Command::new("kill")
        .args(["-INT", &gate.id().to_string()])
        .status()
        .unwrap();
    assert!(interrupted.success());
    let mut status = None;
    assert!(
        eventually(|| {
            status = gate.try_wait().unwrap();
            status.is_some()
        }),
        "the gate did not exit after SIGINT"
    );
    let stderr = std::io::read_to_string(gate.stderr.take().unwrap()).unwrap_or_default();
    assert_eq!(status.and_then(|s| s.code()), Some(130), "{stderr}");
    assert!(
        eventually(|| !running(bridge) && !running(helper)),
        "the bridge ({bridge}) or its helper ({helper}) is still running"
    );
    assert_eq!(
        leftovers(&dir),
        Vec::<PathBuf>::new(),
        "scratch folders left"
    );
}

/// Shakes hands as protocol 1, then runs the misbehaviour.
fn misbehaving(after_hello: &str) -> String {
    format!(
        r#"
read -r line
id=$(printf '%s\n' "$line" | sed -n 's/^{{"id":\([0-9]*\),.*/\1/p')
printf '{{"id":%s,"ok":true,"protocol":1,"backend":"misbehaving","version":"0"}}\n' "$id"
{after_hello}
"#
    )
}

/// Shell lines that answer the calls on whole stores (`reset`, `drop`: no stored content)
/// and stop reading at the first call that carries content, whose line is left in `$line`:
/// what a bridge writes from then on is what the kit redacts.
macro_rules! until_content {
    () => {
        r#"while read -r line; do
  case "$line" in
    *'"op":"reset"'*|*'"op":"drop"'*) printf '{"id":%s,"ok":true}\n' "$(printf '%s\n' "$line" | sed -n 's/^{"id":\([0-9]*\),.*/\1/p')" ;;
    *) break ;;
  esac
done
"#
    };
}

/// Each way a bridge stops working after its handshake, and what the one error must say. Only
/// the hanging bridge is given a short call timeout (1 s); the others get ten minutes, so
/// each is reported as what it did, however long a busy machine takes to do it.
const MISBEHAVIOURS: [(&str, &str, &str); 6] = [
    (
        "exits early",
        concat!(
            until_content!(),
            "echo 'the backend lost its database' >&2; exit 3"
        ),
        "exited (exit status: 3)",
    ),
    (
        "prints garbage",
        "read -r line; echo 'Traceback (most recent call last):'; sleep 600",
        "printed a line that is not a protocol response",
    ),
    (
        "answers out of order",
        "read -r line; printf '{\"id\":999,\"ok\":true}\\n'; sleep 600",
        "answered request 999, but no request 999 is waiting",
    ),
    (
        "sleeps forever",
        "read -r line; sleep 600",
        "did not answer request 2 (reset) within 1s, so it was stopped (given up after ",
    ),
    (
        "writes a huge line",
        "read -r line; head -c 20971520 /dev/zero | tr '\\0' x; sleep 600",
        "longer than the limit of 16 MiB",
    ),
    (
        "floods stderr and exits",
        "read -r line; head -c 10485760 /dev/zero | tr '\\0' e >&2; exit 5",
        "exited (exit status: 5)",
    ),
];

/// `gate` and `infer` against each misbehaving bridge exit 2 with one error naming what went
/// wrong, never a panic, a failure per test, or the child's whole stderr; what stderr it wrote
/// after it was sent stored content is redacted to its shape, with how to see it verbatim;
/// and they leave no scratch folder.
#[test]
fn gate_and_infer_exit_2_with_one_error_on_every_misbehaving_bridge() {
    let dir = Scratch::new("misbehaving");
    let mut problems = Vec::new();
    for (what, after_hello, says) in MISBEHAVIOURS {
        let timeout = if what == "sleeps forever" { "1" } else { "600" };
        for command in [
            &[
                "gate",
                "--profile",
                "reference",
                "--cases",
                "4",
                "--op-timeout",
                timeout,
            ][..],
            &["infer", "--cases", "4", "--op-timeout", timeout][..],
        ] {
            let output = Command::new(env!("CARGO_BIN_EXE_memory-conformance"))
                .args(command)
                .arg("--")
                .args(["sh", "-c", &misbehaving(after_hello)])
                .env_remove(memory_conformance::process::SHOW_STDERR)
                .env("TMPDIR", &*dir)
                .output()
                .expect("the binary runs");
            let stdout = String::from_utf8_lossy(&output.stdout);
            let stderr = String::from_utf8_lossy(&output.stderr);
            let left = leftovers(&dir);
            if !left.is_empty() {
                problems.push(format!(
                    "{} on a bridge that {what} left scratch folders behind: {left:?}",
                    command[0]
                ));
                for folder in left {
                    let _ = std::fs::remove_dir_all(folder);
                }
            }
            let errors = stderr.matches("the bridge stopped working").count();
            if output.status.code() != Some(2)
                || errors != 1
                || !stderr.contains(says)
                || stderr.contains("panicked")
                || stdout.matches("FAILED").count() > 1
                || stderr.len() > 64 * 1024
                || (what == "exits early"
                    && (stderr.contains("lost its database")
                        || !stderr
                            .contains("set MEMORY_CONFORMANCE_SHOW_STDERR=1 to see them verbatim")))
            {
                problems.push(format!(
                    "{} on a bridge that {what}: exit {:?}, {errors} errors, {} bytes of \
                     stderr; expected exit 2 and one error saying {says:?}\nstdout:\n{stdout}\n\
                     stderr (first 2000 bytes):\n{}",
                    command[0],
                    output.status.code(),
                    stderr.len(),
                    stderr.chars().take(2000).collect::<String>()
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

/// Runs `gate` on a bridge that shakes hands, writes a secret and a traceback to stderr on
/// its first request that carries stored content and exits 3; `show_stderr` sets
/// `MEMORY_CONFORMANCE_SHOW_STDERR=1`.
fn gate_on_a_dying_bridge(show_stderr: bool) -> (std::process::Output, String, String) {
    let dying = concat!(
        r#"
read -r line
id=$(printf '%s\n' "$line" | sed -n 's/^{"id":\([0-9]*\),.*/\1/p')
printf '{"id":%s,"ok":true,"protocol":1,"backend":"dying","version":"0"}\n' "$id"
"#,
        until_content!(),
        r#"echo "Traceback (most recent call last):" >&2
echo '  File "/srv/bridge.py", line 41, in add' >&2
echo "RuntimeError: the backend lost its database (it held xylophone)" >&2
exit 3
"#
    );
    let mut gate = Command::new(env!("CARGO_BIN_EXE_memory-conformance"));
    gate.args(["gate", "--profile", "reference", "--cases", "4", "--"])
        .args(["sh", "-c", dying])
        .env_remove(memory_conformance::process::SHOW_STDERR);
    if show_stderr {
        gate.env(memory_conformance::process::SHOW_STDERR, "1");
    }
    let output = gate.output().expect("the binary runs");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(2), "{stdout}{stderr}");
    assert_eq!(
        stderr.matches("the bridge stopped working during").count(),
        1,
        "{stdout}{stderr}"
    );
    assert!(
        stderr.contains("exited (exit status: 3)"),
        "the error names the exit status:\n{stderr}"
    );
    assert!(
        stdout.matches("FAILED").count() <= 1,
        "the gate stops at the first test the dead bridge fails:\n{stdout}"
    );
    (output, stdout, stderr)
}

#[test]
fn a_bridge_that_dies_is_one_error_and_exit_2_with_its_stderr_redacted() {
    let (_, stdout, stderr) = gate_on_a_dying_bridge(false);
    for secret in ["xylophone", "database"] {
        assert!(
            !stdout.contains(secret) && !stderr.contains(secret),
            "{secret:?} is shown:\n{stdout}{stderr}"
        );
    }
    assert!(
        stderr.contains(
            "the child's stderr ends with these lines, redacted to their \
             shape (set MEMORY_CONFORMANCE_SHOW_STDERR=1 to see them verbatim):\n  \
             | Traceback (most recent call last):\n  \
             |   File \"/srv/bridge.py\", line 41, in add\n  \
             | RuntimeError: <letters:3> <letters:7> <letters:4> <letters:3> <letters:8> \
             (<letters:2> <letters:4> <letters:9>)"
        ),
        "the error shows the last stderr lines' shape and how to see them:\n{stderr}"
    );
}

#[test]
fn a_bridge_that_dies_shows_its_stderr_verbatim_when_the_user_opts_in() {
    let (_, _, stderr) = gate_on_a_dying_bridge(true);
    assert!(
        stderr.contains(
            "the child's stderr ends with:\n  \
             | Traceback (most recent call last):\n  \
             |   File \"/srv/bridge.py\", line 41, in add\n  \
             | RuntimeError: the backend lost its database (it held xylophone)"
        ),
        "the error shows the last stderr lines verbatim:\n{stderr}"
    );
}

/// A bridge that fails before it shakes hands (its backend's package is not installed) has
/// been sent nothing: its error is shown verbatim, the module's name included, by `gate` and
/// `infer` alike.
#[test]
fn a_bridge_that_fails_at_import_shows_its_error_verbatim() {
    let bridge = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/bridge_children/missing_module_bridge.py")
        .display()
        .to_string();
    for command in [&["gate", "--profile", "reference"][..], &["infer"][..]] {
        let output = Command::new(env!("CARGO_BIN_EXE_memory-conformance"))
            .args(command)
            .args(["--", "python3", &bridge])
            .env_remove(memory_conformance::process::SHOW_STDERR)
            .output()
            .expect("the binary runs");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{}: {stderr}", command[0]);
        assert!(
            stderr.contains("could not start")
                && stderr.contains("the child's stderr ends with:\n")
                && stderr.contains(
                    "ModuleNotFoundError: No module named 'memory_conformance_missing_backend'"
                )
                && !stderr.contains("redacted"),
            "{}: the start-up error is shown verbatim:\n{stderr}",
            command[0]
        );
    }
}

/// A bridge that refuses every search, quoting the request (its store, user id and query) in
/// its message: the failure shows the message redacted to its shape, and no line of the
/// report (its last included) carries the request verbatim. The reproduce line is the gate's
/// own command, with the rule's id and the bridge command as given.
#[test]
fn a_backend_error_after_content_was_sent_shows_no_generated_text_or_ids() {
    let dir = Scratch::new("refusing");
    let bridge = dir.file(
        "refusing_bridge.sh",
        r#"while read -r line; do
  id=$(printf '%s\n' "$line" | sed -n 's/^{"id":\([0-9]*\),.*/\1/p')
  case "$line" in
    *'"op":"hello"'*) printf '{"id":%s,"ok":true,"protocol":1,"backend":"refusing","version":"0"}\n' "$id" ;;
    *'"op":"search"'*) printf '{"id":%s,"ok":false,"error":"cannot search %s"}\n' "$id" "$(printf '%s' "$line" | sed 's/["\\]/\\&/g')" ;;
    *) printf '{"id":%s,"ok":true}\n' "$id" ;;
  esac
done
"#,
    );
    let bridge = bridge.display().to_string();
    let output = Command::new(env!("CARGO_BIN_EXE_memory-conformance"))
        .args(["gate", "--profile", "reference", "--rules", "key.isolation"])
        .args(["--cases", "4", "--seed", "7", "--", "sh", &bridge])
        .env_remove(memory_conformance::process::SHOW_STDERR)
        .output()
        .expect("the binary runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("(search): ")
            && stdout.contains("(redacted to its shape: set MEMORY_CONFORMANCE_SHOW_STDERR=1"),
        "the refusal is shown, redacted:\n{stdout}"
    );
    for verbatim in ["cannot search", "user_id", "\"query\""] {
        assert!(
            !stdout.contains(verbatim),
            "{verbatim:?} is shown verbatim:\n{stdout}"
        );
    }
    assert!(
        stdout.contains(&format!(
            "reproduce: memory-conformance gate --profile reference --rules key.isolation \
             --seed 7 --cases 4 -- sh {bridge}\n"
        )),
        "{stdout}"
    );
}

/// `gate` and `infer` remove their bridges' scratch folders however they end: green, with a
/// failed test, and on a bridge that dies. Each command's process exits with its bridge still
/// alive, so this is the exit's take-back, not a drop's.
#[test]
fn gate_and_infer_leave_no_scratch_folder_however_they_end() {
    let dir = Scratch::new("scratch");
    let reference = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/bridge_children/reference_bridge.py")
        .display()
        .to_string();
    let unpinned = dir.join("no-snapshots-here");
    let exits_early = misbehaving("read -r line; exit 3");
    let runs: [(&str, Vec<&str>, Vec<&str>, i32); 4] = [
        (
            "a green gate",
            vec!["gate", "--profile", "reference", "--cases", "4"],
            vec!["python3", &reference],
            0,
        ),
        (
            "a gate with a failed test (no recall pinned)",
            vec![
                "gate",
                "--profile",
                "reference",
                "--cases",
                "4",
                "--snapshots",
                unpinned.to_str().unwrap(),
            ],
            vec!["python3", &reference],
            1,
        ),
        (
            "infer",
            vec!["infer", "--cases", "2"],
            vec!["python3", &reference],
            0,
        ),
        (
            "a gate on a bridge that exits early",
            vec!["gate", "--profile", "reference", "--cases", "4"],
            vec!["sh", "-c", &exits_early],
            2,
        ),
    ];
    for (what, command, bridge, code) in runs {
        let output = Command::new(env!("CARGO_BIN_EXE_memory-conformance"))
            .args(&command)
            .arg("--")
            .args(&bridge)
            .env("TMPDIR", &*dir)
            .output()
            .expect("the binary runs");
        assert_eq!(
            output.status.code(),
            Some(code),
            "{what}: {}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        assert_eq!(
            leftovers(&dir),
            Vec::<PathBuf>::new(),
            "{what} left scratch folders behind (command: memory-conformance {} -- {})",
            command.join(" "),
            bridge.join(" ")
        );
    }
}

/// A gate on two threads starts a second child of the bridge for the cases of its second
/// thread, and leaves neither child nor scratch folder behind. Each child appends its pid to a
/// file before it becomes the reference bridge.
#[test]
fn a_gate_on_two_threads_runs_on_two_children_and_leaves_none() {
    let dir = Scratch::new("children");
    let pids = dir.join("children.pids");
    let reference = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/bridge_children/reference_bridge.py")
        .display()
        .to_string();
    let output = Command::new(env!("CARGO_BIN_EXE_memory-conformance"))
        .args(["gate", "--profile", "reference", "--cases", "16"])
        .args([
            "--rules",
            "key.*",
            "--rules",
            "query.*",
            "--test-threads",
            "2",
        ])
        .args(["--", "sh", "-c", r#"echo $$ >> "$PIDS"; exec python3 "$0""#])
        .arg(&reference)
        .env("TMPDIR", &*dir)
        .env("PIDS", &pids)
        .output()
        .expect("the binary runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stdout}{stderr}");
    let started = std::fs::read_to_string(&pids).unwrap_or_default();
    let children: std::collections::BTreeSet<&str> = started.split_whitespace().collect();
    assert_eq!(
        children.len(),
        2,
        "a gate on two threads starts two children, one per thread: {started:?}\n{stdout}"
    );
    for child in &children {
        assert!(
            eventually(|| !running(child)),
            "child {child} is still running after the gate"
        );
    }
    assert_eq!(
        leftovers(&dir),
        Vec::<PathBuf>::new(),
        "scratch folders left"
    );
}
