"""Dumps the debugging guide's worked example as ADK Python (google-adk) really stores it.

Usage: dump_sessions.py OUT_DIR

Builds the sessions with the package's own Event, Content and Part types and writes, into
OUT_DIR:
  before.alias.json  Monday's session under support/42, session.model_dump_json(by_alias=True),
                     what ADK Python's API server returns
  before.json        the same, session.model_dump_json()
  after.alias.json   after the fix: the same session under support/u-42
  after.json         the same, model_dump_json()
  before.db          DatabaseSessionService's SQLite file holding the Monday session (support/42)
  after.db           the same after the fix (support/42 and support/u-42)
The sessions hold a text event, a function call, a function response that alone names order
4417, an inline-data part, and a state value.

Run with bridges/adk-python/.venv/bin/python (see bridges/install.sh).
"""
import asyncio
import os
import sys

from google.adk.events import Event
from google.adk.sessions import DatabaseSessionService, InMemorySessionService
from google.genai import types


def events():
    return [
        Event(author="user", invocation_id="inv-1", content=types.Content(
            role="user", parts=[types.Part(text="My favourite coffee is a flat white.")])),
        Event(author="support_agent", invocation_id="inv-1", content=types.Content(
            role="model", parts=[types.Part(function_call=types.FunctionCall(
                name="get_order", args={"customer": "me"}))])),
        Event(author="support_agent", invocation_id="inv-1", content=types.Content(
            role="user", parts=[types.Part(function_response=types.FunctionResponse(
                name="get_order", response={"status": "Order 4417 shipped"}))])),
        Event(author="user", invocation_id="inv-1", content=types.Content(
            role="user", parts=[types.Part(inline_data=types.Blob(
                mime_type="text/plain", data=b"receipt for the flat white"))])),
    ]


async def write(service, user_id):
    session = await service.create_session(
        app_name="support", user_id=user_id, session_id="monday",
        state={"loyalty_tier": "gold"})
    for event in events():
        await service.append_event(session, event)
    return await service.get_session(app_name="support", user_id=user_id, session_id="monday")


async def main(out):
    os.makedirs(out, exist_ok=True)
    memory = InMemorySessionService()
    for name, user_id in [("before", "42"), ("after", "u-42")]:
        session = await write(memory, user_id)
        with open(os.path.join(out, f"{name}.alias.json"), "w") as f:
            f.write(session.model_dump_json(by_alias=True))
        with open(os.path.join(out, f"{name}.json"), "w") as f:
            f.write(session.model_dump_json())
    for name, users in [("before", ["42"]), ("after", ["42", "u-42"])]:
        path = os.path.join(out, f"{name}.db")
        if os.path.exists(path):
            os.remove(path)
        database = DatabaseSessionService(db_url=f"sqlite+aiosqlite:///{path}")
        for user_id in users:
            await write(database, user_id)
        if hasattr(database, "close"):
            await database.close()


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: dump_sessions.py OUT_DIR")
    asyncio.run(main(sys.argv[1]))
