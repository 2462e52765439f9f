"""The reference bridge child, but writing each entry's timestamp as ADK Python does: naive local
wall-clock time, `datetime.fromtimestamp(t).isoformat()`. What it writes depends on the time zone
the child runs in (`TZ`); the profile `timestamps = "naive-isoformat"` checks it as UTC.
"""
import calendar
import datetime
import pathlib
import re

REFERENCE = pathlib.Path(__file__).with_name("reference_bridge.py")
RFC3339 = re.compile(r"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?Z")


def entry_timestamp(rfc3339):
    """ADK Python's entry time: float seconds (rounded once, as ADK's helper does), local time."""
    civil, fraction = RFC3339.fullmatch(rfc3339).groups()
    whole = calendar.timegm(datetime.datetime.strptime(civil, "%Y-%m-%dT%H:%M:%S").timetuple())
    seconds = (whole * 10**9 + int((fraction or "").ljust(9, "0"))) / 10**9
    return datetime.datetime.fromtimestamp(seconds).isoformat()


source = REFERENCE.read_text()
body, _, _ = source.rpartition("\nmain()")
namespace = {"__name__": "reference_bridge", "__file__": str(REFERENCE)}
exec(compile(body, str(REFERENCE), "exec"), namespace)
namespace["entry_timestamp"] = entry_timestamp
namespace["main"]()
