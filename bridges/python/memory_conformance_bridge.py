"""Serve any ADK Python memory service as a memory-conformance bridge.

A bridge is then a few lines: import this module first (it keeps standard output for the
protocol and sends everything else that is printed to standard error), then serve a factory of
memory services::

    from memory_conformance_bridge import serve  # first: stdout carries the protocol only

    from google.adk.memory import InMemoryMemoryService

    serve(InMemoryMemoryService, backend="adk-python", package="google-adk")

``serve`` reads one JSON request per line on standard input and answers each on standard output
(bridge protocol version 2, and version 1 for a kit that speaks only that; docs/bridge-protocol.md).
Each ``open`` makes a new service from the factory on the store's storage (``reset`` makes a
fresh one); ``add`` converts the kit's session JSON to ADK's ``Session`` and calls
``add_session_to_memory``; ``search`` calls ``search_memory`` and converts the entries back.
ADK's optional calls follow the same way: ``add_events`` calls ``add_events_to_memory``,
``add_memory`` calls ``add_memory`` and ``delete`` calls ``delete_memory``; a service without
one (ADK's base class raises ``NotImplementedError``), or a ``search`` with a ``limit`` the
service takes no parameter for, is answered ``"unsupported": true``.
Any failure of one request is answered with ``ok: false`` and its traceback goes to standard
error; a line that is not a request ends the bridge with exit code 2.

A durable backend takes the store's storage as its factory's one argument: a ``pathlib.Path``
to a directory of its own, empty at the store's first ``open``, kept while the store lives and
removed by ``drop`` (and when the bridge ends). Every service opened on one store gets the same
directory, so a reopen and a second instance see what the backend kept there::

    serve(lambda storage: SqliteMemoryService(storage / "memory.db"), backend="adk-python-sqlite",
          package="google-adk")

A backend on a server keeps a store's data there, not in the directory: its factory names what
it makes on the server after the storage (``storage.name`` is unique in the bridge), and
``serve``'s ``drop`` removes it. ``drop(storage)`` is called when the store is dropped and, for
every store still held, when the bridge ends, after the store's services are closed; what it
raises is printed to standard error::

    serve(lambda storage: service_on_schema(f"mc_{RUN}_{storage.name}"), backend="...",
          drop=lambda storage: drop_schema(f"mc_{RUN}_{storage.name}"))

Making and dropping that per case can cost more than the case: with ``clear=`` (a function that
empties the store's tables, say), a dropped store is cleared and its storage reused by the next
store, and ``drop`` runs only for what is kept when the bridge ends.
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
import inspect  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import pathlib  # noqa: E402
import re  # noqa: E402
import shutil  # noqa: E402
import tempfile  # noqa: E402
import traceback  # noqa: E402

PROTOCOL_VERSION = 2
RFC3339 = re.compile(r"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})")

__all__ = ["serve", "session_from_kit", "events_from_kit", "entry_from_kit", "entry_to_kit", "Unsupported",
           "HashedEmbedder", "PROTOCOL_VERSION"]


class HashedEmbedder:
    """The kit's deterministic embedder (``hashed-N``), the same vectors bit for bit as
    ``memory_conformance::embed::HashedEmbedder`` (docs/vector-search.md): NFC, lowercase, words
    of letters and numbers, each word a feature of weight 1 and each trigram of ``<word>`` one of
    weight 1/2, hashed with 64-bit FNV-1a into ``dimensions`` signed slots, normalised.

    Give it to a vector store under test so the kit can compute what it must return::

        embedder = HashedEmbedder(256)
        vectors = embedder.embed(["a flat white, please"])
    """

    def __init__(self, dimensions=256):
        self.dimensions = max(1, int(dimensions))
        self.name = f"hashed-{self.dimensions}"

    @staticmethod
    def _fnv1a(data):
        value = 0xCBF29CE484222325
        for byte in data:
            value = ((value ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
        return value

    @staticmethod
    def words(text):
        import unicodedata

        lowered = unicodedata.normalize("NFC", text).lower()
        words, word = [], []
        for char in lowered:
            if unicodedata.category(char)[0] in "LN":
                word.append(char)
            elif word:
                words.append("".join(word))
                word = []
        if word:
            words.append("".join(word))
        return words

    def embed_one(self, text):
        """The vector of one text, as Python floats holding ``f32`` values."""
        import math
        import struct

        sums = [0.0] * self.dimensions

        def add(feature, weight):
            value = self._fnv1a(feature.encode("utf-8"))
            sums[value % self.dimensions] += -weight if value >> 63 else weight

        for word in self.words(text):
            add("w:" + word, 1.0)
            padded = ["<", *word, ">"]
            for i in range(len(padded) - 2):
                add("t:" + "".join(padded[i:i + 3]), 0.5)
        length = math.sqrt(sum(x * x for x in sums))
        if length == 0.0:
            return [0.0] * self.dimensions
        return [struct.unpack("f", struct.pack("f", x / length))[0] for x in sums]

    def embed(self, texts):
        """One vector per text, in order."""
        return [self.embed_one(text) for text in texts]


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


def _content_in(value):
    from google.genai import types

    if value is None:
        return None
    return types.Content(role=value.get("role"), parts=[_part_in(types, p) for p in value.get("parts", [])])


def events_from_kit(events):
    """The kit's event JSON as ADK Python's ``Event`` objects, parts converted."""
    from google.adk.events import Event

    return [
        Event(id=e["id"], author=e["author"], timestamp=seconds(e["timestamp"]), content=_content_in(e.get("content")))
        for e in events
    ]


def session_from_kit(session):
    """The kit's session JSON as ADK Python's ``Session``, events and parts converted."""
    from google.adk.sessions import Session

    return Session(id=session["id"], app_name=session["app_name"], user_id=session["user_id"],
                   state=session.get("state", {}), events=events_from_kit(session["events"]))


def entry_from_kit(entry):
    """The kit's entry JSON as ADK Python's ``MemoryEntry``: an explicit memory to add."""
    from google.adk.memory.memory_entry import MemoryEntry

    return MemoryEntry(content=_content_in(entry["content"]), id=entry.get("id"),
                       author=entry.get("author"), timestamp=entry.get("timestamp"))


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


def _takes_storage(factory):
    """Whether ``factory`` takes a required positional argument: the store's storage."""
    try:
        parameters = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
               for p in parameters)


class _Store:
    """One store: its storage directory and its open services, by instance number. The directory
    is made only for a factory that takes it: making and removing one costs more than a call."""

    def __init__(self, root, name, number, takes_storage, drop):
        self.storage = pathlib.Path(root) / f"store-{number}"
        self.has_storage = takes_storage
        if takes_storage:
            self.storage.mkdir()
        self.name = name
        self.instances = {}
        self.opened = 0
        self.drop = drop

    def reused_as(self, name):
        """This store's storage, cleared, as the new store ``name``: no instance open yet."""
        self.name = name
        self.instances = {}
        self.opened = 0
        return self

    async def open(self, factory, takes_storage):
        service = factory(self.storage) if takes_storage else factory()
        self.opened += 1
        self.instances[self.opened] = service
        return self.opened

    async def close(self, instance):
        await _close(self.instances.pop(instance, None))

    async def _close_all_then(self, hook):
        """Closes every instance, then calls ``hook(storage)`` (awaited if it is a coroutine)."""
        for instance in list(self.instances):
            await self.close(instance)
        if hook is not None:
            result = hook(self.storage)
            if asyncio.iscoroutine(result):
                await result

    async def clear(self, clear):
        """Closes every instance, then empties the storage with ``clear(storage)``, for a later
        store to reuse it."""
        await self._close_all_then(clear)

    async def forget(self):
        try:
            await self._close_all_then(self.drop)
        finally:
            if self.has_storage:
                shutil.rmtree(self.storage, ignore_errors=True)

    def service(self, instance):
        # v1 requests name no instance: the store's only (or first) one.
        if instance is None:
            instance = min(self.instances, default=None)
        if instance not in self.instances:
            raise LookupError(f"store {self.name!r} has no open instance {instance}: open it first")
        return self.instances[instance]


class _Stores:
    """Every store of the bridge, under one temporary directory removed when the bridge ends.
    With a ``clear`` hook, a dropped store's storage is cleared and kept in ``cleared``, and the
    next store created takes it instead of a new one; what is still kept when the bridge ends is
    dropped then."""

    def __init__(self, factory, drop=None, clear=None):
        self.factory = factory
        self.takes_storage = _takes_storage(factory)
        self.drop_hook = drop
        self.clear_hook = clear
        self.root = tempfile.TemporaryDirectory(prefix="memory-conformance-bridge-")
        self.stores = {}
        self.cleared = []
        self.made = 0

    def get(self, name):
        if name not in self.stores:
            raise LookupError(f"no store {name!r}: open (or reset) it first")
        return self.stores[name]

    def create(self, name):
        if self.cleared:
            self.stores[name] = self.cleared.pop().reused_as(name)
            return self.stores[name]
        self.made += 1
        self.stores[name] = _Store(self.root.name, name, self.made, self.takes_storage, self.drop_hook)
        return self.stores[name]

    async def drop(self, name):
        store = self.stores.pop(name, None)
        if store is None:
            return
        if self.clear_hook is not None:
            try:
                await store.clear(self.clear_hook)
                self.cleared.append(store)
                return
            except Exception:  # a store that cannot be cleared is dropped whole, as without reuse
                traceback.print_exc()
        await store.forget()

    async def release(self):
        """Drops every store, held or kept cleared, when the bridge ends; one store's failure
        leaves the others to be released."""
        held = [self.stores.pop(name) for name in list(self.stores)] + self.cleared
        self.cleared = []
        for store in held:
            try:
                await store.forget()
            except Exception:
                traceback.print_exc()


async def _handle(stores, hello, request):
    op = request["op"]
    if op == "hello":
        # A kit that speaks only version 1 is answered in version 1, which it accepts.
        return {"protocol": min(int(request.get("protocol", 1)), PROTOCOL_VERSION), **hello}
    name = request["store"]
    if op == "reset":
        await stores.drop(name)
        await stores.create(name).open(stores.factory, stores.takes_storage)
        return {}
    if op == "open":
        store = stores.stores.get(name) or stores.create(name)
        return {"instance": await store.open(stores.factory, stores.takes_storage)}
    if op == "close":
        await stores.get(name).close(request["instance"])
        return {}
    if op == "drop":
        await stores.drop(name)
        return {}
    service = stores.get(name).service(request.get("instance"))
    if op == "add":
        await service.add_session_to_memory(session_from_kit(request["session"]))
        return {}
    key = {"app_name": request.get("app_name"), "user_id": request.get("user_id")}
    if op == "search":
        options = {}
        if request.get("limit") is not None:
            if "limit" not in inspect.signature(service.search_memory).parameters:
                raise Unsupported(f"{type(service).__name__}.search_memory takes no limit")
            options["limit"] = request["limit"]
        found = await service.search_memory(**key, query=request["query"], **options)
        return {"memories": [entry_to_kit(m) for m in found.memories]}
    if op == "add_events":
        await _optional(service, "add_events_to_memory")(
            **key, events=events_from_kit(request["events"]), session_id=request.get("session_id"))
        return {}
    if op == "add_memory":
        await _optional(service, "add_memory")(**key, memories=[entry_from_kit(m) for m in request["memories"]])
        return {}
    if op == "delete":
        await _optional(service, "delete_memory")(**key, memory_id=request["memory_id"])
        return {}
    raise Unsupported(f"unknown op {op!r}")


def _json_safe(value):
    """``value`` with every float JSON cannot hold (NaN, infinities) written as its name
    (``"NaN"``, ``"Infinity"``, ``"-Infinity"``): a service's metadata may carry one (a similarity
    score of a blank query), and the protocol's lines are JSON."""
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    if isinstance(value, dict):
        return {key: _json_safe(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_safe(item) for item in value]
    return value


class Unsupported(Exception):
    """The service has no such call: answered ``ok: false`` with ``"unsupported": true``."""


def _optional(service, name):
    """ADK's optional call ``name`` of ``service``, raising ``Unsupported`` where it has none;
    the call itself raises ``Unsupported`` where it raises ``NotImplementedError`` (ADK's base
    class does)."""
    call = getattr(service, name, None)
    if call is None:
        raise Unsupported(f"{type(service).__name__} has no {name}")

    async def calling(**arguments):
        try:
            return await call(**arguments)
        except NotImplementedError as err:
            raise Unsupported(f"{type(service).__name__}.{name}: {err}") from err

    return calling


def serve(factory, *, backend, package=None, version=None, drop=None, clear=None):
    """Answers protocol requests on standard input until it ends.

    ``factory()`` makes a fresh, empty memory service with ADK's ``add_session_to_memory`` and
    ``search_memory``; a factory with one required argument, ``factory(storage)``, makes one on
    the store's storage directory instead (see the module's doc). ``backend`` is the name
    ``hello`` answers with; the version is ``version``, or ``"<package> <installed version>"``
    when ``package`` names a distribution. ``drop(storage)``, when given, removes what a store's
    services made outside its directory (on a server), once they are closed: when the store is
    dropped, and for every store still held when the bridge ends.

    ``clear(storage)``, when given, empties what a store holds (its rows, its files) and leaves
    the storage ready for another store: a dropped store is then cleared, not dropped, and the
    next store the kit opens reuses its storage (and ``drop`` runs only for what is still kept
    when the bridge ends). ``hello`` says so (``"reuses_stores": true``). It saves making and
    removing a namespace on a server per case (docs/store-per-case.md); a ``clear`` that leaves
    anything behind shows as entries of one case in another's searches.
    """
    if version is None:
        version = f"{package} {importlib.metadata.version(package)}" if package else "unknown"
    hello = {"backend": backend, "version": version}
    if clear is not None:
        hello["reuses_stores"] = True
    stores = _Stores(factory, drop, clear)
    loop = asyncio.new_event_loop()
    for line in sys.stdin:
        try:
            request = json.loads(line)
            request_id = request["id"]
        except (ValueError, KeyError, TypeError) as err:
            print(f"{backend} bridge: not a protocol request ({err}): {line!r}", file=sys.stderr, flush=True)
            sys.exit(2)
        try:
            answer = {"id": request_id, "ok": True, **loop.run_until_complete(_handle(stores, hello, request))}
        except Unsupported as err:
            answer = {"id": request_id, "ok": False, "unsupported": True, "error": str(err)}
        except Exception as err:  # every failure of one request is answered, never fatal
            traceback.print_exc()
            answer = {"id": request_id, "ok": False, "error": f"{type(err).__name__}: {err}"}
        try:
            line = json.dumps(answer, allow_nan=False)
        except ValueError:  # a float JSON cannot hold: rewritten only then, by name
            line = json.dumps(_json_safe(answer))
        PROTOCOL.write(line + "\n")
        PROTOCOL.flush()
    # The kit closed standard input: release every service, then every store's storage.
    loop.run_until_complete(stores.release())
    stores.root.cleanup()
