"""A bridge child that does nothing: it answers every request of the bridge protocol at once
(``open`` with a new instance number, ``search`` with no memories, anything else with ``ok``),
reading and writing the protocol's lines as a Python bridge does (``json``, one flushed line per
answer). What the kit measures through it is the protocol's own cost in Python: the pipes, the
JSON, two process switches. Used by ``benches/bridge_round_trip.rs``.
"""
import json
import sys


def main():
    out = sys.stdout
    opened = 0
    for line in sys.stdin:
        request = json.loads(line)
        op = request["op"]
        answer = {"id": request["id"], "ok": True}
        if op == "hello":
            answer.update(protocol=2, backend="noop", version="noop 1")
        elif op == "open":
            opened += 1
            answer["instance"] = opened
        elif op == "search":
            answer["memories"] = []
        out.write(json.dumps(answer) + "\n")
        out.flush()


main()
