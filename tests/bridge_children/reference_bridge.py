"""A bridge child over plain dicts that behaves like the kit's reference backend.

Standard library only. It speaks bridge protocol 1 (docs/bridge-protocol.md): one JSON object
per line on stdin, one answer per line on stdout, anything else on stderr.
"""
import json
import re
import sys

WORD = re.compile(r"[A-Za-z]+")
QUERY_SEPARATORS = re.compile(r"[ \t\n\x0b\x0c\r]+")
RFC3339 = re.compile(r"^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?Z$")


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


def add(store, session):
    key = (session["app_name"], session["user_id"])
    events = [e for e in session["events"] if e.get("content") and e["content"].get("parts")]
    store.setdefault(key, {})[session["id"]] = events


def search(store, app_name, user_id, query):
    tokens = {t for t in QUERY_SEPARATORS.split(query.lower()) if t}
    memories = []
    for events in store.get((app_name, user_id), {}).values():
        for event in events:
            if tokens & words(event["content"]):
                memories.append({
                    "content": event["content"],
                    "author": event["author"],
                    "timestamp": entry_timestamp(event["timestamp"]),
                })
    return memories


def handle(stores, request):
    op = request.get("op")
    if op == "hello":
        return {"protocol": 1, "backend": "reference-over-dicts", "version": "test 1"}
    name = request["store"]
    if op == "reset":
        stores[name] = {}
        return {}
    if op == "drop":
        stores.pop(name, None)
        return {}
    if name not in stores:
        raise KeyError(f"no store {name!r}: send reset first")
    if op == "add":
        add(stores[name], request["session"])
        return {}
    if op == "search":
        return {"memories": search(stores[name], request["app_name"], request["user_id"], request["query"])}
    raise ValueError(f"unknown op {op!r}")


def main():
    stores = {}
    for line in sys.stdin:
        request = json.loads(line)
        try:
            answer = {"id": request["id"], "ok": True, **handle(stores, request)}
        except Exception as err:  # every failure is answered, never fatal
            print(f"reference_bridge: {type(err).__name__}: {err}", file=sys.stderr, flush=True)
            answer = {"id": request["id"], "ok": False, "error": f"{type(err).__name__}: {err}"}
        sys.stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")
        sys.stdout.flush()


main()
