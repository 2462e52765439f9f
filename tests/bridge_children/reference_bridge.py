"""A bridge child over plain dicts that behaves like the kit's reference backend.

Standard library only. It speaks bridge protocol 2 (docs/bridge-protocol.md): one JSON object
per line on stdin, one answer per line on stdout, anything else on stderr. Like the reference,
each instance keeps its memory in itself (a new instance starts empty, as a new process of an
in-memory service would), and every call of the reference is served: add, search (with a
limit), a delta of events, explicit memories and delete by id, entries carrying their event's id.

`--open-seconds S` makes opening a store (reset and open) take S seconds, as a backend whose
store opens slowly does.
"""
import itertools
import json
import re
import sys
import time

WORD = re.compile(r"[A-Za-z]+")
QUERY_SEPARATORS = re.compile(r"[ \t\n\x0b\x0c\r]+")
RFC3339 = re.compile(r"^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?Z$")
UNKNOWN_SESSION_ID = "__unknown_session_id__"
MEMORIES = object()  # the explicit memories' place among a key's sessions
FRESH_IDS = itertools.count(1)


def entry_timestamp(rfc3339):
    """The reference's entry time: milliseconds, cut (never rounded), and a Z."""
    match = RFC3339.match(rfc3339)
    if not match:
        raise ValueError(f"timestamp {rfc3339!r} is not RFC 3339 UTC")
    fraction = (match.group(2) or "").ljust(3, "0")[:3]
    return f"{match.group(1)}.{fraction}Z"


def words(content):
    found = set()
    for part in content.get("parts", []):
        if "text" in part:
            found.update(word.lower() for word in WORD.findall(part["text"]))
    return found


class Store:
    """What the reference keeps: per key, sessions in the order first added (the explicit
    memories as one more), and the deleted ids."""

    def __init__(self):
        self.keys = {}
        self.deleted = {}

    def sessions(self, key):
        return self.keys.setdefault(key, {})

    def kept(self, key, entries):
        deleted = self.deleted.get(key, set())
        return [e for e in entries if e["content"].get("parts") and e.get("id") not in deleted]

    def add(self, session):
        key = (session["app_name"], session["user_id"])
        self.sessions(key)[session["id"]] = self.kept(key, entries_of(session["events"]))

    def add_events(self, key, session_id, events):
        held = self.sessions(key).setdefault(session_id or UNKNOWN_SESSION_ID, [])
        ids = {e["id"] for e in held}
        for entry in self.kept(key, entries_of(events)):
            if entry["id"] not in ids:
                held.append(entry)
                ids.add(entry["id"])

    def add_memory(self, key, memories):
        held = self.sessions(key).setdefault(MEMORIES, [])
        for memory in self.kept(key, [dict(m, id=m.get("id") or f"memory-{next(FRESH_IDS)}") for m in memories]):
            same = [i for i, old in enumerate(held) if old["id"] == memory["id"]]
            if same:
                held[same[0]] = memory
            else:
                held.append(memory)

    def delete(self, key, memory_id):
        self.deleted.setdefault(key, set()).add(memory_id)
        for session_id, entries in self.sessions(key).items():
            self.sessions(key)[session_id] = [e for e in entries if e["id"] != memory_id]

    def search(self, key, query, limit):
        tokens = {t for t in QUERY_SEPARATORS.split(query.lower()) if t}
        found = [e for entries in self.keys.get(key, {}).values() for e in entries if tokens & words(e["content"])]
        return found if limit is None else found[:limit]


def entries_of(events):
    return [{"id": e["id"], "content": e["content"], "author": e["author"],
             "timestamp": entry_timestamp(e["timestamp"])}
            for e in events if e.get("content") and e["content"].get("parts")]


def handle(stores, request, open_seconds):
    op = request.get("op")
    if op == "hello":
        return {"protocol": min(int(request.get("protocol", 1)), 2), "backend": "reference-over-dicts",
                "version": "test 2"}
    name = request["store"]
    if op in ("reset", "open"):
        time.sleep(open_seconds)
    if op == "reset":
        stores[name] = {1: Store()}
        return {}
    if op == "open":
        instances = stores.setdefault(name, {})
        number = max(instances, default=0) + 1
        instances[number] = Store()
        return {"instance": number}
    if op == "close":
        stores.get(name, {}).pop(request["instance"], None)
        return {}
    if op == "drop":
        stores.pop(name, None)
        return {}
    instances = stores.get(name) or {}
    number = request.get("instance", min(instances, default=None))
    if number not in instances:
        raise KeyError(f"no instance {number} of store {name!r}: send reset or open first")
    store = instances[number]
    key = (request.get("app_name"), request.get("user_id"))
    if op == "add":
        store.add(request["session"])
        return {}
    if op == "search":
        return {"memories": store.search(key, request["query"], request.get("limit"))}
    if op == "add_events":
        store.add_events(key, request.get("session_id"), request["events"])
        return {}
    if op == "add_memory":
        store.add_memory(key, request["memories"])
        return {}
    if op == "delete":
        store.delete(key, request["memory_id"])
        return {}
    raise ValueError(f"unknown op {op!r}")


def main():
    open_seconds = float(sys.argv[sys.argv.index("--open-seconds") + 1]) if "--open-seconds" in sys.argv else 0.0
    stores = {}
    for line in sys.stdin:
        request = json.loads(line)
        try:
            answer = {"id": request["id"], "ok": True, **handle(stores, request, open_seconds)}
        except Exception as err:  # every failure is answered, never fatal
            print(f"reference_bridge: {type(err).__name__}: {err}", file=sys.stderr, flush=True)
            answer = {"id": request["id"], "ok": False, "error": f"{type(err).__name__}: {err}"}
        sys.stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")
        sys.stdout.flush()


main()
