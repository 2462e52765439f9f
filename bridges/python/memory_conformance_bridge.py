"""Serve any ADK Python memory service as a memory-conformance bridge.

A bridge is then a few lines: import this module first (it keeps standard output for the
protocol and sends everything else that is printed to standard error), then serve a factory of
memory services::

    from memory_conformance_bridge import serve  # first: stdout carries the protocol only

    from google.adk.memory import InMemoryMemoryService

    serve(InMemoryMemoryService, backend="adk-python", package="google-adk")

``serve`` reads one JSON request per line on standard input and answers each on standard output
(bridge protocol version 1, docs/bridge-protocol.md). Each ``reset`` makes a fresh service from
the factory; ``add`` converts the kit's session JSON to ADK's ``Session`` and calls
``add_session_to_memory``; ``search`` calls ``search_memory`` and converts the entries back.
Any failure of one request is answered with ``ok: false`` and its traceback goes to standard
error; a line that is not a request ends the bridge with exit code 2.
"""
import sys

# Standard output carries the protocol only: whatever the service prints goes to stderr.
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

PROTOCOL_VERSION = 1
RFC3339 = re.compile(r"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})")

__all__ = ["serve", "session_from_kit", "entry_to_kit", "PROTOCOL_VERSION"]


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


def _part_in(types, part):
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


def _part_out(part):
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
    raise ValueError(f"the service returned a part the kit's model has no kind for: {part!r}")


def session_from_kit(session):
    """The kit's session JSON as ADK Python's ``Session``, events and parts converted."""
    from google.adk.events import Event
    from google.adk.sessions import Session
    from google.genai import types

    def content(value):
        if value is None:
            return None
        return types.Content(role=value.get("role"), parts=[_part_in(types, p) for p in value.get("parts", [])])

    events = [
        Event(id=e["id"], author=e["author"], timestamp=seconds(e["timestamp"]), content=content(e.get("content")))
        for e in session["events"]
    ]
    return Session(id=session["id"], app_name=session["app_name"], user_id=session["user_id"],
                   state=session.get("state", {}), events=events)


def entry_to_kit(entry):
    """ADK Python's ``MemoryEntry`` as the kit's entry JSON, its fields as they come."""
    out = {
        "content": {"role": entry.content.role, "parts": [_part_out(p) for p in entry.content.parts or []]},
        "author": entry.author,
        "timestamp": entry.timestamp,
    }
    if getattr(entry, "id", None) is not None:
        out["id"] = entry.id
    if getattr(entry, "custom_metadata", None):
        out["custom_metadata"] = entry.custom_metadata
    return out


async def _close(service):
    """Releases a service the kit is done with, when it has ADK's ``close()``."""
    close = getattr(service, "close", None)
    if close is not None:
        result = close()
        if asyncio.iscoroutine(result):
            await result


async def _handle(factory, hello, stores, request):
    op = request["op"]
    if op == "hello":
        return {"protocol": PROTOCOL_VERSION, **hello}
    store = request["store"]
    if op == "reset":
        await _close(stores.pop(store, None))
        stores[store] = factory()
        return {}
    if op == "drop":
        await _close(stores.pop(store, None))
        return {}
    if store not in stores:
        raise LookupError(f"no store {store!r}: reset it first")
    if op == "add":
        await stores[store].add_session_to_memory(session_from_kit(request["session"]))
        return {}
    if op == "search":
        found = await stores[store].search_memory(
            app_name=request["app_name"], user_id=request["user_id"], query=request["query"])
        return {"memories": [entry_to_kit(m) for m in found.memories]}
    raise ValueError(f"unknown op {op!r}")


def serve(factory, *, backend, package=None, version=None):
    """Answers protocol requests on standard input until it ends.

    ``factory()`` makes a fresh, empty memory service with ADK's ``add_session_to_memory`` and
    ``search_memory``. ``backend`` is the name ``hello`` answers with; the version is
    ``version``, or ``"<package> <installed version>"`` when ``package`` names a distribution.
    """
    if version is None:
        version = f"{package} {importlib.metadata.version(package)}" if package else "unknown"
    hello = {"backend": backend, "version": version}
    stores = {}
    loop = asyncio.new_event_loop()
    for line in sys.stdin:
        try:
            request = json.loads(line)
            request_id = request["id"]
        except (ValueError, KeyError, TypeError) as err:
            print(f"{backend} bridge: not a protocol request ({err}): {line!r}", file=sys.stderr, flush=True)
            sys.exit(2)
        try:
            answer = {"id": request_id, "ok": True, **loop.run_until_complete(_handle(factory, hello, stores, request))}
        except Exception as err:  # every failure of one request is answered, never fatal
            traceback.print_exc()
            answer = {"id": request_id, "ok": False, "error": f"{type(err).__name__}: {err}"}
        PROTOCOL.write(json.dumps(answer) + "\n")
        PROTOCOL.flush()
