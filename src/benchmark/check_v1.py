#!/usr/bin/env python3
"""Validate the recall benchmark, version 1 (v1.json), and print its counts.

Usage: python3 src/benchmark/check_v1.py [path/to/v1.json]

Checks the schema, id uniqueness and format, the size limits, the ten question kinds and their
minimum counts, that every answer and stale id names a text event of the question's user, and
the rules of each kind. For every tool-only question it prints the question next to the user's
text events that share a content word with it, so a reader can confirm by eye that the fact is
not in any text event. Exits 1 if any check fails. Python 3 standard library only.
"""

import json
import re
import sys
from collections import Counter, defaultdict
from datetime import datetime, timedelta
from pathlib import Path

VERSION = 1
APP_NAME = "recall-bench"
KINDS = [
    "exact-word",
    "inflection",
    "paraphrase",
    "number-id",
    "punctuation",
    "non-latin",
    "tool-only",
    "replaced",
    "cross-session",
    "distractor",
]
MIN_PER_KIND = 16
MIN_QUESTIONS = 180
USERS = (6, 8)
SESSIONS_PER_USER = (5, 10)
EVENTS_PER_SESSION = (4, 14)
EVENTS_TOTAL = (350, 600)
PAYLOADS = ("text", "function_call", "function_response")
TIME_FORMAT = "%Y-%m-%dT%H:%M:%SZ"

STOPWORDS = set(
    """a about after again all also am an and any are as at be been before being but by can
    could did do does doing done for from get got had has have how i i'm if in into is it its
    it's just me my mine of on once only or our out over own so some than that the their them
    then there these they this those to too up us was we were what what's when when's where
    where's which who who's whom whose why will with would you your now ever still""".split()
)

errors = []


def error(message):
    errors.append(message)


def check_keys(obj, where, required, optional=()):
    if not isinstance(obj, dict):
        error(f"{where}: expected an object")
        return False
    missing = [k for k in required if k not in obj]
    extra = [k for k in obj if k not in required and k not in optional]
    if missing:
        error(f"{where}: missing {missing}")
    if extra:
        error(f"{where}: unexpected keys {extra}")
    return not missing


def one_line(value):
    return isinstance(value, str) and value.strip() != "" and "\n" not in value


def in_range(n, bounds):
    return bounds[0] <= n <= bounds[1]


def words(text):
    """Lowercase Unicode word runs, for the tool-only eye check."""
    return re.findall(r"\w+", text.lower())


def content_words(text):
    return {w for w in words(text) if w not in STOPWORDS and (len(w) >= 3 or not w.isascii())}


def shares(qword, event_words):
    for w in event_words:
        if w == qword:
            return True
        if len(qword) >= 4 and len(w) >= 4 and (w.startswith(qword) or qword.startswith(w)):
            return True
    return False


def main():
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).with_name("v1.json")
    with open(path, encoding="utf-8") as f:
        data = json.load(f)

    check_keys(data, "top level", ["version", "app_name", "users", "questions"])
    if data.get("version") != VERSION:
        error(f"version is {data.get('version')!r}, expected {VERSION}")
    if data.get("app_name") != APP_NAME:
        error(f"app_name is {data.get('app_name')!r}, expected {APP_NAME!r}")

    users = data.get("users", [])
    questions = data.get("questions", [])
    events = {}  # event id -> (user id, session id, session start, event)
    user_ids = []
    agent_of = {}
    kind_of_event = Counter()
    session_count = 0

    if not in_range(len(users), USERS):
        error(f"{len(users)} users, expected {USERS[0]} to {USERS[1]}")
    for u_index, user in enumerate(users):
        where = f"users[{u_index}]"
        if not check_keys(user, where, ["user_id", "setting", "sessions"]):
            continue
        uid = user["user_id"]
        if not (isinstance(uid, str) and re.fullmatch(r"u-[a-z]+", uid)):
            error(f"{where}: user_id {uid!r} is not u-<name>")
            continue
        if uid in user_ids:
            error(f"{where}: duplicate user_id {uid}")
        user_ids.append(uid)
        short = uid[2:]
        if not one_line(user["setting"]):
            error(f"{uid}: setting must be one non-empty line")
        sessions = user["sessions"]
        if not in_range(len(sessions), SESSIONS_PER_USER):
            error(f"{uid}: {len(sessions)} sessions, expected {SESSIONS_PER_USER[0]} to {SESSIONS_PER_USER[1]}")
        seen_sessions = set()
        previous_end = None
        for s_index, session in enumerate(sessions):
            where = f"{uid} sessions[{s_index}]"
            if not check_keys(session, where, ["id", "start", "events"], ["state"]):
                continue
            session_count += 1
            sid = session["id"]
            if not (isinstance(sid, str) and re.fullmatch(rf"{short}-\d\d", sid)):
                error(f"{where}: session id {sid!r} is not {short}-NN")
            if sid in seen_sessions:
                error(f"{where}: duplicate session id {sid}")
            seen_sessions.add(sid)
            if "state" in session and not isinstance(session["state"], dict):
                error(f"{sid}: state must be an object")
            try:
                start = datetime.strptime(session["start"], TIME_FORMAT)
            except (TypeError, ValueError):
                error(f"{sid}: start {session['start']!r} is not {TIME_FORMAT}")
                continue
            if previous_end is not None and start <= previous_end:
                error(f"{sid}: start {session['start']} is not after the previous session's last event")
            session_events = session["events"]
            if not in_range(len(session_events), EVENTS_PER_SESSION):
                error(f"{sid}: {len(session_events)} events, expected {EVENTS_PER_SESSION[0]} to {EVENTS_PER_SESSION[1]}")
            previous_end = start + timedelta(seconds=max(len(session_events) - 1, 0))
            for e_index, event in enumerate(session_events, 1):
                where = f"{sid} event {e_index}"
                if not isinstance(event, dict):
                    error(f"{where}: expected an object")
                    continue
                payloads = [k for k in PAYLOADS if k in event]
                if len(payloads) != 1:
                    error(f"{where}: has {payloads or 'no payload'}, expected exactly one of {PAYLOADS}")
                check_keys(event, where, ["id", "author"], PAYLOADS)
                eid = event.get("id")
                if eid != f"{sid}-{e_index:02d}":
                    error(f"{where}: id {eid!r}, expected {sid}-{e_index:02d}")
                if eid in events:
                    error(f"{where}: duplicate event id {eid}")
                author = event.get("author")
                if author != "user":
                    if not (isinstance(author, str) and re.fullmatch(r"[a-z]+_agent", author)):
                        error(f"{where}: author {author!r} is neither user nor <name>_agent")
                    elif agent_of.setdefault(uid, author) != author:
                        error(f"{where}: agent {author} differs from {agent_of[uid]} earlier for {uid}")
                if len(payloads) != 1:
                    continue
                kind = payloads[0]
                kind_of_event[kind] += 1
                value = event[kind]
                if kind == "text":
                    if not (isinstance(value, str) and value.strip()):
                        error(f"{where}: text must be a non-empty string")
                elif kind == "function_call":
                    if check_keys(value, f"{where} function_call", ["name", "args"]):
                        if not isinstance(value["name"], str) or not isinstance(value["args"], dict):
                            error(f"{where}: function_call needs a string name and object args")
                    if author == "user":
                        error(f"{where}: a function call is the agent's, not the user's")
                else:
                    if check_keys(value, f"{where} function_response", ["name", "response"]):
                        if not isinstance(value["name"], str) or not isinstance(value["response"], dict):
                            error(f"{where}: function_response needs a string name and object response")
                    if author == "user":
                        error(f"{where}: a function response is the agent's, not the user's")
                events[eid] = (uid, sid, start, event)

    total_events = len(events)
    if not in_range(total_events, EVENTS_TOTAL):
        error(f"{total_events} events in all, expected {EVENTS_TOTAL[0]} to {EVENTS_TOTAL[1]}")

    # Questions.
    if len(questions) < MIN_QUESTIONS:
        error(f"{len(questions)} questions, expected at least {MIN_QUESTIONS}")
    per_kind = Counter()
    unanswerable_per_kind = Counter()
    labels_per_kind = Counter()
    seen_questions = set()
    tool_only = []
    for q_index, q in enumerate(questions):
        where = f"questions[{q_index}]"
        if not check_keys(q, where, ["id", "user_id", "kind", "question", "answers", "stale", "note"]):
            continue
        qid = q["id"]
        where = qid if isinstance(qid, str) else where
        if not (isinstance(qid, str) and re.fullmatch(r"q-\d{3}", qid)):
            error(f"{where}: id {qid!r} is not q-NNN")
        if qid in seen_questions:
            error(f"{where}: duplicate question id")
        seen_questions.add(qid)
        uid = q["user_id"]
        if uid not in user_ids:
            error(f"{where}: unknown user_id {uid!r}")
        kind = q["kind"]
        if kind not in KINDS:
            error(f"{where}: unknown kind {kind!r}")
            continue
        per_kind[kind] += 1
        if not one_line(q["question"]):
            error(f"{where}: question must be one non-empty line")
        if not one_line(q["note"]):
            error(f"{where}: note must be one non-empty line")
        lists_ok = True
        for field in ("answers", "stale"):
            ids = q[field]
            if not (isinstance(ids, list) and all(isinstance(i, str) for i in ids)):
                error(f"{where}: {field} must be a list of event ids")
                lists_ok = False
                continue
            if len(set(ids)) != len(ids):
                error(f"{where}: {field} repeats an id")
            for eid in ids:
                if eid not in events:
                    error(f"{where}: {field} names unknown event {eid}")
                    lists_ok = False
                    continue
                owner, _, _, event = events[eid]
                if owner != uid:
                    error(f"{where}: {field} event {eid} belongs to {owner}, not {uid}")
                if "text" not in event:
                    error(f"{where}: {field} event {eid} is not a text event")
        if not lists_ok:
            continue
        answers, stale = q["answers"], q["stale"]
        if set(answers) & set(stale):
            error(f"{where}: an id is both an answer and stale")
        labels_per_kind[kind] += len(answers)
        if not answers:
            unanswerable_per_kind[kind] += 1
        if kind != "replaced" and stale:
            error(f"{where}: only replaced questions list stale events")
        if kind == "tool-only":
            if answers:
                error(f"{where}: tool-only questions are unanswerable from text: answers must be []")
            tool_only.append(q)
        if kind == "replaced":
            if not answers or not stale:
                error(f"{where}: replaced questions need both answers and stale events")
            else:
                newest_stale = max(events[e][2] for e in stale)
                oldest_answer = min(events[e][2] for e in answers)
                if not newest_stale < oldest_answer:
                    error(f"{where}: every stale event must be in a session before every answer")
        if kind == "cross-session":
            if len({events[e][1] for e in answers}) < 2:
                error(f"{where}: cross-session answers must come from two or more sessions")

    for kind in KINDS:
        if per_kind[kind] < MIN_PER_KIND:
            error(f"kind {kind}: {per_kind[kind]} questions, expected at least {MIN_PER_KIND}")

    # The tool-only eye check.
    text_events = defaultdict(list)
    for eid, (uid, _, _, event) in events.items():
        if "text" in event:
            text_events[uid].append((eid, event["text"]))
    print("== tool-only questions and the user's text events sharing a content word ==")
    for q in tool_only:
        qwords = sorted(content_words(q["question"]))
        print(f"\n{q['id']} {q['user_id']}: {q['question']}")
        print(f"  content words: {', '.join(qwords)}")
        print(f"  note: {q['note']}")
        hits = 0
        for eid, text in text_events[q["user_id"]]:
            ew = words(text)
            shared = [w for w in qwords if shares(w, ew)]
            if shared:
                hits += 1
                flat = " ".join(text.split())
                print(f"  {eid} [{', '.join(shared)}] {flat[:150]}")
        if not hits:
            print("  (no text event shares a content word)")

    # Counts.
    print("\n== counts ==")
    per_user = []
    for user in users:
        if isinstance(user, dict) and isinstance(user.get("sessions"), list):
            n_sessions = len(user["sessions"])
            n_events = sum(len(s.get("events", [])) for s in user["sessions"] if isinstance(s, dict))
            per_user.append((user.get("user_id"), n_sessions, n_events))
    print(f"users: {len(per_user)}")
    for uid, n_sessions, n_events in per_user:
        print(f"  {uid}: {n_sessions} sessions, {n_events} events, agent {agent_of.get(uid)}")
    print(f"sessions: {session_count}")
    print(
        f"events: {total_events} (text {kind_of_event['text']}, function_call "
        f"{kind_of_event['function_call']}, function_response {kind_of_event['function_response']})"
    )
    print(f"sessions with state: {sum(1 for u in users for s in u.get('sessions', []) if 'state' in s)}")
    print(f"questions: {sum(per_kind.values())}")
    print(f"  {'kind':<14} {'total':>5} {'answerable':>10} {'unanswerable':>12} {'answer labels':>13}")
    for kind in KINDS:
        total = per_kind[kind]
        un = unanswerable_per_kind[kind]
        print(f"  {kind:<14} {total:>5} {total - un:>10} {un:>12} {labels_per_kind[kind]:>13}")
    total_un = sum(unanswerable_per_kind.values())
    print(f"unanswerable: {total_un} ({unanswerable_per_kind['tool-only']} tool-only, "
          f"{total_un - unanswerable_per_kind['tool-only']} of other kinds)")
    print(f"answerable: {sum(per_kind.values()) - total_un}, answer labels: {sum(labels_per_kind.values())}")
    if per_kind["distractor"]:
        share = unanswerable_per_kind["distractor"] / per_kind["distractor"]
        print(f"distractor unanswerable share: {share:.0%}")
    questions_per_user = Counter(q.get("user_id") for q in questions if isinstance(q, dict))
    print("questions per user: " + ", ".join(f"{u} {questions_per_user[u]}" for u in user_ids))

    print("\n== result ==")
    if errors:
        for message in errors:
            print(f"ERROR {message}")
        print(f"{len(errors)} error(s)")
        return 1
    print("ok: no errors")
    return 0


if __name__ == "__main__":
    sys.exit(main())
