"""adk-database-memory 0.1.0 on MariaDB: users whose ids differ in letter case or trailing spaces
share their memories.

Standalone, in the package's own API (docs/findings/adk-database-memory-mariadb-case-folded-key.md),
on the MariaDB the community gate uses (a database of its own, made by ../../mariadb.py with the
server's default collation). Exit 0 with `still present` when user "Alice"'s memory is found by
user "alice", 1 with `fixed` when it is not."""
import asyncio
import pathlib
import sys
import uuid

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2]))
import mariadb  # noqa: E402  (the server's URL, a database of the reproduction's own)

from adk_database_memory import DatabaseMemoryService  # noqa: E402
from google.adk.events import Event  # noqa: E402
from google.adk.sessions import Session  # noqa: E402
from google.genai import types  # noqa: E402


async def main():
    name = f"finding_{uuid.uuid4().hex[:12]}"
    memory = DatabaseMemoryService(mariadb.url(mariadb.database(name), database=name,
                                               scheme="mysql+aiomysql"))
    try:
        said = types.Content(role="user", parts=[types.Part(text="my pin is 4711")])
        await memory.add_session_to_memory(Session(
            id="s-1", app_name="bank", user_id="Alice",
            events=[Event(id="e-1", author="user", timestamp=1767225600.0, content=said)]))
        others = {}
        for user in ["alice", "ALICE", "Alice "]:
            found = await memory.search_memory(app_name="bank", user_id=user, query="pin")
            others[user] = [part.text for entry in found.memories for part in entry.content.parts]
    finally:  # the database is the reproduction's own: it goes with it
        await memory._engine.dispose()
        mariadb.drop_database(name)
    leaked = {user: texts for user, texts in others.items() if texts}
    if not leaked:
        print("fixed: users other than 'Alice' find none of her memories")
        return 1
    print(f"still present: user 'Alice''s memory is found by other users: {leaked}")
    return 0


sys.exit(asyncio.run(main()))
