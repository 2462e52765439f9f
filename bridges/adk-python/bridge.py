"""ADK Python's InMemoryMemoryService behind the memory-conformance bridge protocol, version 1.

Reads one JSON request per line on stdin and writes one JSON answer per line on stdout (see
docs/bridge-protocol.md). Sessions arrive in the kit's JSON model and are converted to the
package's own types; entries go back in the kit's model with the package's fields as they
come: the timestamp is ADK's own string (naive local time), returned verbatim.

Run by the kit with bridges/adk-python/.venv/bin/python (see bridges/install.sh).
"""
import sys

# stdout carries the protocol only: whatever the package prints goes to stderr.
PROTOCOL = sys.stdout
sys.stdout = sys.stderr

import asyncio  # noqa: E402
import base64  # noqa: E402
import calendar  # noqa: E402
import datetime  # noqa: E402
import importlib.metadata  # noqa: E402
import json  # noqa: E402
import re  # noqa: E402
import traceback  # noqa: E402

from google.adk.events import Event  # noqa: E402
from google.adk.memory import InMemoryMemoryService  # noqa: E402
from google.adk.sessions import Session  # noqa: E402
from google.genai import types  # noqa: E402

PROTOCOL_VERSION = 1
RFC3339 = re.compile(r"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})")


def seconds(rfc3339):
    """An RFC 3339 instant as ADK Python's float seconds, rounded once to the nearest float."""
    match = RFC3339.fullmatch(rfc3339)
    if not match:
        raise ValueError(f"timestamp {rfc3339!r} is not RFC 3339")
    civil, fraction, offset = match.groups()
    whole = calendar.timegm(datetime.datetime.strptime(civil, "%Y-%m-%dT%H:%M:%S").timetuple())
    if offset != "Z":
        sign = 1 if offset[0] == "+" else -1
        whole -= sign * (int(offset[1:3]) * 3600 + int(offset[4:6]) * 60)
    nanos = int((fraction or "").ljust(9, "0"))
    return (whole * 10**9 + nanos) / 10**9


def part_in(part):
    if "text" in part:
        return types.Part(text=part["text"])
    if "function_call" in part:
        call = part["function_call"]
        return types.Part(function_call=types.FunctionCall(name=call["name"], args=call["args"]))
    if "function_response" in part:
        answer = part["function_response"]
        return types.Part(
            function_response=types.FunctionResponse(name=answer["name"], response=answer["response"]))
    if "inline_data" in part:
        blob = part["inline_data"]
        data = base64.b64decode(blob["data"], validate=True)
        return types.Part(inline_data=types.Blob(mime_type=blob["mime_type"], data=data))
    raise ValueError(f"a part of unknown kind: {sorted(part)}")


def part_out(part):
    if part.text is not None:
        return {"text": part.text}
    if part.function_call is not None:
        return {"function_call": {"name": part.function_call.name, "args": part.function_call.args}}
    if part.function_response is not None:
        answer = part.function_response
        return {"function_response": {"name": answer.name, "response": answer.response}}
    if part.inline_data is not None:
        blob = part.inline_data
        return {"inline_data": {"mime_type": blob.mime_type, "data": base64.b64encode(blob.data).decode("ascii")}}
    raise ValueError(f"the package returned a part the kit's model has no kind for: {part!r}")


def content_in(content):
    if content is None:
        return None
    return types.Content(role=content.get("role"), parts=[part_in(p) for p in content.get("parts", [])])


def content_out(content):
    return {"role": content.role, "parts": [part_out(p) for p in content.parts or []]}


def session_in(session):
    events = [
        Event(id=e["id"], author=e["author"], timestamp=seconds(e["timestamp"]), content=content_in(e.get("content")))
        for e in session["events"]
    ]
    return Session(id=session["id"], app_name=session["app_name"], user_id=session["user_id"],
                   state=session.get("state", {}), events=events)


def entry_out(entry):
    out = {"content": content_out(entry.content), "author": entry.author, "timestamp": entry.timestamp}
    if entry.id is not None:
        out["id"] = entry.id
    if entry.custom_metadata:
        out["custom_metadata"] = entry.custom_metadata
    return out


async def handle(stores, request):
    op = request["op"]
    if op == "hello":
        version = importlib.metadata.version("google-adk")
        return {"protocol": PROTOCOL_VERSION, "backend": "adk-python", "version": f"google-adk {version}"}
    store = request["store"]
    if op == "reset":
        stores[store] = InMemoryMemoryService()
        return {}
    if op == "drop":
        stores.pop(store, None)
        return {}
    if store not in stores:
        raise LookupError(f"no store {store!r}: reset it first")
    if op == "add":
        await stores[store].add_session_to_memory(session_in(request["session"]))
        return {}
    if op == "search":
        found = await stores[store].search_memory(
            app_name=request["app_name"], user_id=request["user_id"], query=request["query"])
        return {"memories": [entry_out(m) for m in found.memories]}
    raise ValueError(f"unknown op {op!r}")


def main():
    stores = {}
    loop = asyncio.new_event_loop()
    for line in sys.stdin:
        try:
            request = json.loads(line)
            request_id = request["id"]
        except (ValueError, KeyError, TypeError) as err:
            print(f"adk-python bridge: not a protocol request ({err}): {line!r}", file=sys.stderr, flush=True)
            sys.exit(2)
        try:
            answer = json.dumps({"id": request_id, "ok": True, **loop.run_until_complete(handle(stores, request))})
        except Exception as err:  # every failure of one request is answered, never fatal
            traceback.print_exc()
            answer = json.dumps({"id": request_id, "ok": False, "error": f"{type(err).__name__}: {err}"})
        PROTOCOL.write(answer + "\n")
        PROTOCOL.flush()


if __name__ == "__main__":
    main()
