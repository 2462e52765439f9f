"""A bridge child over plain dicts that behaves like the kit's reference backend.

Standard library only. It speaks bridge protocol 2 (docs/bridge-protocol.md): one JSON object
per line on stdin, one answer per line on stdout, anything else on stderr. Like the reference,
each instance keeps its memory in itself (a new instance starts empty, as a new process of an
in-memory service would), and every call of the reference is served: add, search (with a
limit), a delta of events, explicit memories and delete by id, entries carrying their event's id.

`--open-seconds S` makes opening a store (reset and open) take S seconds, as a backend whose
store opens slowly does. `--vector N` makes it a vector store instead of a lexical one: a search
ranks the key's entries by the cosine similarity of their text to the query's, embedded with the
kit's hashed-N (the Python helper's port, bridges/python), and returns the 10 nearest (or as many
as a search's limit asks); a query or an entry without a word is never matched
(docs/vector-search.md). `--floor F` then leaves out entries less similar than F, as stores with a
similarity threshold do: a ranking the kit cannot compute, so such a store is semantic to it.
"""
import itertools
import json
import pathlib
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


def argument(name, default):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


VECTOR_TOP_K = 10
FLOOR = float(argument("--floor", -2.0))


def hashed_embedder(dimensions):
    """The kit's hashed-N, from the Python helper (which sends what is printed to stderr, so the
    protocol's stdout is put back)."""
    protocol = sys.stdout
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "bridges" / "python"))
    from memory_conformance_bridge import HashedEmbedder
    sys.stdout = protocol
    return HashedEmbedder(int(dimensions))


EMBEDDER = hashed_embedder(argument("--vector", 0)) if "--vector" in sys.argv else None


def text_of(entry):
    return " ".join(part["text"] for part in entry["content"].get("parts", []) if "text" in part)


def nearest(query, entries, limit):
    """The entries nearest to the query by cosine similarity (vectors are unit length), the top k
    of them or as many as the limit asks; none for a query without a word, never an entry without one."""
    wanted = EMBEDDER.embed_one(query)
    if not any(wanted):
        return []
    scored = []
    for position, entry in enumerate(entries):
        vector = EMBEDDER.embed_one(text_of(entry))
        if any(vector) and sum(a * b for a, b in zip(wanted, vector)) >= FLOOR:
            scored.append((-sum(a * b for a, b in zip(wanted, vector)), position, entry))
    scored.sort(key=lambda s: (s[0], s[1]))
    top = VECTOR_TOP_K if limit is None else limit
    return [entry for _, _, entry in scored[:top]]


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
        if EMBEDDER is not None:
            return nearest(query, [e for entries in self.keys.get(key, {}).values() for e in entries], limit)
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
    open_seconds = float(argument("--open-seconds", 0.0))
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
