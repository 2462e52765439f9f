"""Runs a command and reports what its whole process tree used: the peak of the summed resident
set sizes of the command and every process under it, and their CPU time, sampled from /proc
every 100 ms. For a command whose children are not waited for (a bridge the CLI ends), GNU
time's figures cover the command alone; these cover the children too.

    python3 benches/tree-usage.py OUTPUT.json -- COMMAND ARGS...

Writes {"peak_rss_kib": ..., "cpu_seconds": ..., "processes": ...} to OUTPUT.json and exits
with the command's status. The CPU time of a process is its last sample, so up to 100 ms of
each process's end is missed.
"""

import json
import os
import subprocess
import sys
import time

PAGE_KIB = os.sysconf("SC_PAGE_SIZE") // 1024
TICKS = os.sysconf("SC_CLK_TCK")


def processes():
    """pid -> (ppid, rss KiB, CPU seconds) of every process readable now."""
    table = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        # The command name (field 2) may hold spaces: the rest follows its closing bracket.
        fields = stat[stat.rindex(")") + 2 :].split()
        ppid, utime, stime, rss = int(fields[1]), int(fields[11]), int(fields[12]), int(fields[21])
        table[int(name)] = (ppid, rss * PAGE_KIB, (utime + stime) / TICKS)
    return table


def tree(root, table):
    pids, frontier = {root}, [root]
    while frontier:
        parent = frontier.pop()
        for pid, (ppid, _, _) in table.items():
            if ppid == parent and pid not in pids:
                pids.add(pid)
                frontier.append(pid)
    return pids


def main():
    if len(sys.argv) < 4 or sys.argv[2] != "--":
        sys.exit("usage: tree-usage.py OUTPUT.json -- COMMAND ARGS...")
    child = subprocess.Popen(sys.argv[3:])
    peak, cpu = 0, {}
    while child.poll() is None:
        table = processes()
        pids = tree(child.pid, table) & table.keys()
        peak = max(peak, sum(table[pid][1] for pid in pids))
        for pid in pids:
            cpu[pid] = table[pid][2]
        time.sleep(0.1)
    with open(sys.argv[1], "w") as out:
        json.dump(
            {"peak_rss_kib": peak, "cpu_seconds": round(sum(cpu.values()), 2), "processes": len(cpu)},
            out,
        )
    sys.exit(child.returncode)


if __name__ == "__main__":
    main()
