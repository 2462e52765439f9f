"""Runs what `cargo test --workspace` runs, several test executables at a time.

    python3 .ci/tests.py ARTIFACTS [--jobs N] [--times FILE] [--also LABEL COMMAND]...
                         [--apart NAME,NAME...]...

ARTIFACTS is the output of `cargo test --workspace --no-run --message-format=json`. Every test
executable in it runs as cargo test runs it (from its package's folder), N at a time (default
3: most of the slow ones wait on bridge children and servers, not on the CPU), the longest
first by the times FILE kept from the last run (default target/ci-test-times.tsv; a fresh
clone starts from the few known to be slow). The doc tests (`cargo test --workspace --doc`) are
one more job, and each `--also` adds a shell COMMAND under LABEL. The jobs named in one
`--apart` list (`package::target`, or a LABEL) never run at the same time: while one runs, the
others wait and the lanes take other jobs.

The test targets named `faults_*` crash, restart or slow down the shared database servers
(`servers/restart.sh`): each runs alone, before the others start.

Each job's output is printed whole when it ends, headed by its name, result and wall time,
so two jobs never interleave; the end prints every job's time, longest first, and the failed
ones, and exits 1 when any failed. An interrupt stops every job's whole process group.
"""

import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_binary import package_name  # noqa: E402

DOC_TESTS = "doc tests"

# A test target named so crashes, restarts or slows the shared database servers: it runs alone.
ALONE_PREFIX = "faults_"

# The slowest test jobs on a fresh clone, before a times file exists, slowest first (about 560,
# 460, 350, 190 and 170 s); every `--also` job starts before them.
KNOWN_SLOW = [
    "memory-conformance-cli::gate_without_rust",
    "memory-conformance-cli::infer_claims",
    "memory-conformance-cli::infer",
    "memory-conformance-cli::community",
    DOC_TESTS,
]


class Job:
    def __init__(self, name, argv, cwd, shell=False):
        self.name, self.argv, self.cwd, self.shell = name, argv, cwd, shell
        self.process = None

    def alone(self):
        """Whether the job must run with no other job running (see ``ALONE_PREFIX``)."""
        return self.name.rpartition("::")[2].startswith(ALONE_PREFIX)


def test_executables(artifacts):
    """Every test executable in the build's messages, named `package::target`."""
    jobs = []
    with open(artifacts, encoding="utf-8") as lines:
        for line in lines:
            message = json.loads(line)
            if message.get("reason") != "compiler-artifact" or not message.get("executable"):
                continue
            if not message["profile"]["test"]:
                continue
            package = package_name(message["package_id"], message["manifest_path"])
            kinds = message["target"]["kind"]
            target = "lib" if "lib" in kinds else message["target"]["name"]
            if "bin" in kinds:
                target = "bin:" + message["target"]["name"]
            jobs.append(
                Job(
                    f"{package}::{target}",
                    [message["executable"]],
                    os.path.dirname(message["manifest_path"]),
                )
            )
    return jobs


def read_times(path, also):
    """Each job's time in the last run, else its rank among the known slow ones."""
    times = {}
    try:
        with open(path, encoding="utf-8") as lines:
            for line in lines:
                seconds, _, name = line.rstrip("\n").partition("\t")
                times[name] = float(seconds)
    except (OSError, ValueError):
        pass
    for rank, name in enumerate([job.name for job in also] + KNOWN_SLOW):
        times.setdefault(name, 10_000.0 - rank)
    return times


def run(job, log):
    started = time.monotonic()
    job.process = subprocess.Popen(
        job.argv,
        cwd=job.cwd,
        shell=job.shell,
        stdout=log,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        start_new_session=True,
    )
    status = job.process.wait()
    return status, time.monotonic() - started


def main():
    args = sys.argv[1:]
    if not args or args[0].startswith("-"):
        sys.exit(__doc__)
    artifacts, args = args[0], args[1:]
    jobs_at_once, times_file, also = 3, os.path.join("target", "ci-test-times.tsv"), []
    apart = []
    while args:
        flag = args.pop(0)
        if flag == "--jobs" and args:
            jobs_at_once = int(args.pop(0))
        elif flag == "--times" and args:
            times_file = args.pop(0)
        elif flag == "--also" and len(args) >= 2:
            also.append(Job(args.pop(0), args.pop(0), os.getcwd(), shell=True))
        elif flag == "--apart" and args:
            apart.append(set(args.pop(0).split(",")))
        else:
            sys.exit(f".ci/tests.py: unknown or incomplete option {flag!r}\n\n{__doc__}")

    jobs = test_executables(artifacts)
    if not jobs:
        sys.exit(f".ci/tests.py: no test executable in {artifacts}")
    jobs.append(
        Job(DOC_TESTS, ["cargo", "test", "--workspace", "--locked", "--doc"], os.getcwd())
    )
    jobs.extend(also)
    previous = read_times(times_file, also)
    jobs.sort(key=lambda job: -previous.get(job.name, 0.0))

    results, done = {}, [0]

    def one(job):
        with tempfile.TemporaryFile() as log:
            status, seconds = run(job, log)
            log.seek(0)
            output = log.read().decode("utf-8", "replace")
        done[0] += 1
        verdict = "ok" if status == 0 else f"FAILED (exit {status})"
        sys.stdout.write(
            f"\n== [{done[0]}/{len(jobs)}] {job.name}: {verdict} in {seconds:.0f} s\n{output}"
        )
        sys.stdout.flush()
        results[job.name] = (status, seconds)

    def stop(signum, _frame):
        for job in jobs:
            if job.process and job.process.poll() is None:
                try:
                    os.killpg(job.process.pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
        sys.exit(128 + signum)

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    alone = [job for job in jobs if job.alone()]
    together = [job for job in jobs if not job.alone()]
    print(f"{len(jobs)} jobs: {len(alone)} alone ({', '.join(job.name for job in alone)}), "
          f"then {len(together)} {jobs_at_once} at a time, the longest first", flush=True)
    for job in alone:
        one(job)
    known = {job.name for job in jobs}
    for names in apart:
        if not names <= known:
            sys.exit(f".ci/tests.py: --apart names no job {sorted(names - known)}; jobs: {sorted(known)}")
    pending, running, ready = list(together), set(), threading.Condition()

    def conflicts(job):
        return any(job.name in names and names & running for names in apart)

    def lane():
        while True:
            with ready:
                while True:
                    if not pending:
                        return
                    job = next((job for job in pending if not conflicts(job)), None)
                    if job is not None:
                        break
                    ready.wait()
                pending.remove(job)
                running.add(job.name)
            try:
                one(job)
            finally:
                with ready:
                    running.discard(job.name)
                    ready.notify_all()

    with ThreadPoolExecutor(max_workers=jobs_at_once) as pool:
        for lane_done in [pool.submit(lane) for _ in range(jobs_at_once)]:
            lane_done.result()

    ranked = sorted(results.items(), key=lambda item: -item[1][1])
    print("\n== every job's wall time, longest first")
    for name, (status, seconds) in ranked:
        print(f"{seconds:7.0f} s  {name}{'' if status == 0 else '  FAILED'}")
    os.makedirs(os.path.dirname(times_file) or ".", exist_ok=True)
    with open(times_file, "w", encoding="utf-8") as out:
        for name, (_, seconds) in ranked:
            out.write(f"{seconds:.1f}\t{name}\n")
    failed = [name for name, (status, _) in ranked if status != 0]
    if failed:
        print(f"\n{len(failed)} of {len(jobs)} jobs failed: " + ", ".join(failed))
        return 1
    print(f"\nall {len(jobs)} jobs passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
