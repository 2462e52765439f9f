"""The debugging guide's inspecting memory service and memory trace plugin for ADK Python.

Pure Python (no compiled part): importable wherever google-adk is. Both log through the standard
`logging` module, by default to the logger named ``memory``, in the lines
``memory-conformance diagnose --log`` reads:

    memory.write key=support/42 session=monday events=4 textEvents=2 ms=0.031
    memory.search key=support/u-42 tokens=2 dead=1 hits=0 ms=0.012
    memory.query key=support/u-42 call=... invocation=... tokens=2 dead=1 shapes=[...] ...

Keys, session ids, counts and milliseconds only: the query text, the dead tokens by name and the
stored text are logged only with ``log_content=True`` (for development: they often hold personal
data); without it the query's tokens and the dead ones appear as shapes (``<letters:10>?``).

Two lines register both with a Runner:

    memory = InspectingMemoryService(InMemoryMemoryService())
    runner = Runner(..., memory_service=memory, plugins=[MemoryTracePlugin(profile="adk-python")])

    >>> shape("Where's order 4417?")
    "<letters:5>'<letters:1> <letters:5> <digits:4>?"
    >>> dead_tokens("coffee preference? 4417", profile="reference")
    ['preference?', '4417']
    >>> dead_tokens("coffee preference? 4417", profile="adk-python")
    []
"""
import json
import logging
import re
import time

from google.adk.memory.base_memory_service import BaseMemoryService
from google.adk.plugins.base_plugin import BasePlugin

__all__ = ["InspectingMemoryService", "MemoryTracePlugin", "PROFILES", "dead_tokens", "shape"]

LOGGER = "memory"

# When a query token can match, under each profile's rules (the names of the kit's profiles):
# the guide's (and ADK JS's) index keeps runs of ASCII letters and a query token must be one
# whole; ADK Python's in-memory service finds a token with any word character.
PROFILES = {
    "reference": lambda token: re.fullmatch(r"[a-z]+", token) is not None,
    "adk-js": lambda token: re.fullmatch(r"[a-z]+", token) is not None,
    "adk-python": lambda token: re.search(r"\w", token) is not None,
}


def _query_tokens(query):
    return query.lower().split()


def dead_tokens(query, profile="reference"):
    """The tokens of `query` (split on whitespace, lowercased) that can never match under
    `profile`, one of PROFILES."""
    try:
        can_match = PROFILES[profile]
    except KeyError:
        raise ValueError(f"unknown profile {profile!r}: expected one of "
                         f"{', '.join(sorted(PROFILES))}") from None
    return [t for t in _query_tokens(query) if not can_match(t)]


def shape(text):
    """`text` with each run of letters or digits replaced by its class and length, spaces and
    ASCII punctuation kept, any other character as `*` (the kit's `inspect::shape`)."""
    out = []
    for run in re.finditer(r"[^\W\d_]+|\d+| +|.", text, re.S):
        piece = run.group()
        if piece[0].isalpha():
            out.append(f"<letters:{len(piece)}>")
        elif piece[0].isdigit():
            out.append(f"<digits:{len(piece)}>")
        elif piece[0] == " " or (piece.isascii() and not piece.isalnum() and piece.isprintable()):
            out.append(piece)
        else:
            out.append("*")
    return "".join(out)


def _ms(started):
    return round((time.perf_counter() - started) * 1000, 3)


def _texts(events):
    return [p.text for e in events if e.content for p in (e.content.parts or []) if p.text]


class InspectingMemoryService(BaseMemoryService):
    """Wraps any BaseMemoryService: every call is forwarded unchanged (result, exception) and
    logged, `memory.write` / `memory.search` at INFO, `memory.*.failed` at WARNING with the
    error's type."""

    def __init__(self, delegate, *, logger=None, log_content=False, profile="reference"):
        dead_tokens("", profile)  # an unknown profile is refused here, not at the first search
        self.delegate = delegate
        self.log = logger or logging.getLogger(LOGGER)
        self.log_content = log_content
        self.profile = profile

    def __getattr__(self, name):
        return getattr(self.delegate, name)

    async def add_session_to_memory(self, session):
        key = f"{session.app_name}/{session.user_id}"
        texts = _texts(session.events)
        text_events = sum(
            1 for e in session.events
            if e.content and any(p.text for p in (e.content.parts or [])))
        started = time.perf_counter()
        try:
            result = await self.delegate.add_session_to_memory(session)
        except Exception as error:
            self.log.warning("memory.write.failed key=%s session=%s ms=%s error=%s", key,
                             session.id, _ms(started), type(error).__name__)
            raise
        content = f" texts={json.dumps(texts, ensure_ascii=False)}" if self.log_content else ""
        self.log.info("memory.write key=%s session=%s events=%d textEvents=%d ms=%s%s", key,
                      session.id, len(session.events), text_events, _ms(started), content)
        return result

    async def search_memory(self, *, app_name, user_id, query):
        key = f"{app_name}/{user_id}"
        started = time.perf_counter()
        try:
            found = await self.delegate.search_memory(app_name=app_name, user_id=user_id,
                                                      query=query)
        except Exception as error:
            self.log.warning("memory.search.failed key=%s ms=%s error=%s", key, _ms(started),
                             type(error).__name__)
            raise
        elapsed = _ms(started)
        if self.log.isEnabledFor(logging.INFO):
            self.log.info("memory.search key=%s tokens=%d dead=%d hits=%d ms=%s", key,
                          len(_query_tokens(query)), len(dead_tokens(query, self.profile)),
                          len(found.memories), elapsed)
        return found

    async def add_events_to_memory(self, *, app_name, user_id, events, session_id=None,
                                   custom_metadata=None):
        key = f"{app_name}/{user_id}"
        try:
            result = await self.delegate.add_events_to_memory(
                app_name=app_name, user_id=user_id, events=events, session_id=session_id,
                custom_metadata=custom_metadata)
        except Exception as error:
            self.log.warning("memory.delta.failed key=%s session=%s events=%d error=%s", key,
                             session_id or "", len(events), type(error).__name__)
            raise
        self.log.info("memory.delta key=%s session=%s events=%d", key, session_id or "",
                      len(events))
        return result

    async def add_memory(self, *, app_name, user_id, memories, custom_metadata=None):
        key = f"{app_name}/{user_id}"
        try:
            result = await self.delegate.add_memory(app_name=app_name, user_id=user_id,
                                                    memories=memories,
                                                    custom_metadata=custom_metadata)
        except Exception as error:
            self.log.warning("memory.add_memory.failed key=%s memories=%d error=%s", key,
                             len(memories), type(error).__name__)
            raise
        self.log.info("memory.add_memory key=%s memories=%d", key, len(memories))
        return result

    async def delete_memory(self, *, app_name, user_id, memory_id=None):
        key = f"{app_name}/{user_id}"
        try:
            result = await self.delegate.delete_memory(app_name=app_name, user_id=user_id,
                                                       memory_id=memory_id)
        except Exception as error:
            self.log.warning("memory.delete.failed key=%s id=%s error=%s", key, memory_id,
                             type(error).__name__)
            raise
        self.log.info("memory.delete key=%s id=%s", key, memory_id)
        return result


class MemoryTracePlugin(BasePlugin):
    """Logs `memory.query` before every `load_memory` call: the key, the function call and
    invocation ids, the query's token count and its dead tokens under `profile` (one of
    PROFILES: the rules of the memory service behind the runner). With `log_content=True` the
    line carries the query and the dead tokens by name (`q=... dead=[...]`, the guide's
    plugin); otherwise their counts and shapes only."""

    def __init__(self, *, profile="reference", logger=None, log_content=False,
                 name="memory_trace"):
        dead_tokens("", profile)
        super().__init__(name=name)
        self.profile = profile
        self.log = logger or logging.getLogger(LOGGER)
        self.log_content = log_content

    async def before_tool_callback(self, *, tool, tool_args, tool_context):
        if tool.name != "load_memory":
            return None
        query = str(tool_args.get("query", ""))
        dead = dead_tokens(query, self.profile)
        session = tool_context.session
        ids = (f"key={session.app_name}/{session.user_id} call={tool_context.function_call_id} "
               f"invocation={tool_context.invocation_id}")
        if self.log_content:
            self.log.info("memory.query %s q=%s dead=[%s]", ids, query, ", ".join(dead))
        else:
            self.log.info("memory.query %s tokens=%d dead=%d shapes=[%s] dead_shapes=[%s]", ids,
                          len(_query_tokens(query)), len(dead),
                          ", ".join(shape(t) for t in _query_tokens(query)),
                          ", ".join(shape(t) for t in dead))
        return None
