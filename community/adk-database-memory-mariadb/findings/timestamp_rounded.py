"""adk-database-memory 0.1.0 on MariaDB: a memory's timestamp comes back rounded to six
significant digits, over an hour off.

Standalone, in the package's own API (docs/findings/adk-database-memory-mariadb-timestamp-rounded.md),
on the MariaDB the community gate uses (a database of its own, made by ../../mariadb.py). Exit 0
with `still present` when an event of 2026-01-01T00:00:00 UTC comes back with another time, 1
with `fixed` when it comes back with its own."""
import asyncio
import datetime
import pathlib
import sys
import uuid

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2]))
import mariadb  # noqa: E402  (the server's URL, a database of the reproduction's own)

from adk_database_memory import DatabaseMemoryService  # noqa: E402
from google.adk.events import Event  # noqa: E402
from google.adk.sessions import Session  # noqa: E402
from google.genai import types  # noqa: E402

WHEN = 1767225600.0  # 2026-01-01T00:00:00 UTC


async def main():
    name = f"finding_{uuid.uuid4().hex[:12]}"
    memory = DatabaseMemoryService(mariadb.url(mariadb.database(name), database=name,
                                               scheme="mysql+aiomysql"))
    try:
        said = types.Content(role="user", parts=[types.Part(text="coffee at midnight")])
        await memory.add_session_to_memory(Session(
            id="s-1", app_name="support", user_id="u-42",
            events=[Event(id="e-1", author="user", timestamp=WHEN, content=said)]))
        found = await memory.search_memory(app_name="support", user_id="u-42", query="coffee")
    finally:  # the database is the reproduction's own: it goes with it
        await memory._engine.dispose()
        mariadb.drop_database(name)
    # The service writes the timestamp as the machine's local time, naive (isoformat).
    expected = datetime.datetime.fromtimestamp(WHEN).isoformat()
    stamps = [entry.timestamp for entry in found.memories]
    if stamps == [expected]:
        print(f"fixed: the event came back with its timestamp {expected}")
        return 1
    print(f"still present: the event of {expected} came back with timestamps {stamps}")
    return 0


sys.exit(asyncio.run(main()))
