"""Gate a memory backend from ``pytest``: one pytest item per rule of the kit.

Subclass :class:`ConformanceTests` in a test file, say how to start the backend's bridge and
which profile it declares, and run ``pytest``::

    import sys
    from memory_conformance_pytest import ConformanceTests

    class TestMyMemory(ConformanceTests):
        bridge = [sys.executable, "my_bridge.py"]   # any bridge command (docs/bridge-protocol.md)
        profile = "my-memory.toml"                  # a profile file, or a preset name

Each rule is the item ``test_conformance[<rule id>]`` (``test_conformance[key.isolation]``):
it passes, fails with the kit's message (the rule, the shrunk scenario and the pytest command
that reproduces it, ``PROPTEST_RNG_SEED=N pytest 'test_x.py::TestMyMemory::test_conformance[key.isolation]'``),
or is skipped with the reason the rule does not apply to the profile. pytest's
own options work on the items: ``-k 'key.'``, ``--junitxml gate.xml``.

The kit adds rules over time (``CHANGELOG.md`` says which version brought each). To keep a green
CI green across kit updates, pin the rules the class counts: ``rules_as_of = "0.1"`` counts the
rules of kit version 0.1; a later rule still runs as its item, which passes and says it is new
(``new in rules 0.2, after the pinned 0.1: FAIL, ...``) until the pin moves.

Instead of ``bridge``, ``memory_service = "package.module:factory"`` names a factory of ADK
Python memory services, served by :mod:`memory_conformance_bridge` (``factory()`` makes an
empty service; ``factory(storage)`` one on a storage directory, for a durable backend).

The ``memory-conformance`` command does the work: the class runs ``memory-conformance gate
--format json`` once, when pytest collects it, and each item reports that run's outcome for its
rule. The command is ``MEMORY_CONFORMANCE`` when that variable is set, else the one installed
next to this Python, else the one on ``PATH``. Naive timestamps are checked as UTC: the bridge
is started with ``TZ=UTC`` unless the class sets ``time_zone``.
"""
import json
import os
import pathlib
import shutil
import subprocess
import sys
import sysconfig
import warnings

import pytest

__all__ = ["ConformanceTests", "GateError", "NewRuleWarning"]

COMMAND = "memory-conformance"
COMMAND_VARIABLE = "MEMORY_CONFORMANCE"
TEST_NAME = "test_conformance"
PARAMETER = "conformance_outcome"
# The gate's outcomes (`memory-conformance gate --format json`, field `outcome`).
PASSED, FAILED, IGNORED = "ok", "FAILED", "ignored"


class GateError(Exception):
    """The gate could not run: bad input (the profile, the options) or a bridge that did not start."""


class NewRuleWarning(UserWarning):
    """A rule later than the class's ``rules_as_of`` ran: its item passed, and this says how the rule
    came out (pytest's warnings summary lists it), so the pin can move once it holds."""


def command():
    """The ``memory-conformance`` program: ``$MEMORY_CONFORMANCE``, else the one installed next to
    this Python (a venv's ``bin``), else the one on ``PATH``."""
    if os.environ.get(COMMAND_VARIABLE):
        return os.environ[COMMAND_VARIABLE]
    beside = pathlib.Path(sysconfig.get_path("scripts")) / COMMAND
    if beside.is_file():
        return str(beside)
    found = shutil.which(COMMAND)
    if found is None:
        raise GateError(
            f"no `{COMMAND}` command: install this package (pip install bridges/python from the "
            f"project's repository) or set {COMMAND_VARIABLE} to the command's path"
        )
    return found


def _served(factory):
    """A bridge command serving the ADK Python memory services ``package.module:function`` makes."""
    module, sep, name = factory.partition(":")
    if not sep or not module or not name:
        raise GateError(f"memory_service = {factory!r}: expected 'package.module:factory'")
    script = (
        "from memory_conformance_bridge import serve\n"
        "import importlib\n"
        f"factory = getattr(importlib.import_module({module!r}), {name!r})\n"
        f"serve(factory, backend={name!r})\n"
    )
    return [sys.executable, "-c", script]


class ConformanceTests:
    """The rules of the kit as pytest items, for the backend the subclass describes.

    Set ``bridge`` (the bridge's program and arguments) or ``memory_service``
    (``"package.module:factory"``), and ``profile`` (a profile file, relative to the test file, or a
    preset name). Optional: ``backend`` (its name in the kit's messages), ``rules`` (only these
    rule ids or groups, ``["key.*"]``), ``cases`` (generated cases per rule), ``budget`` (how long
    the whole gate may take, ``"5m"``: the rules share it, each running the cases that fit), ``seed``,
    ``known_violations`` (``{rule id: reason}``), ``time_zone`` (the bridge's ``TZ``, ``"UTC"``),
    ``rules_as_of`` (a kit version, ``"0.1"``: only its rules count, a later rule is reported as new
    and passes; the profile file's ``[gate] rules_as_of`` when not set).
    """

    bridge = None
    memory_service = None
    profile = None
    backend = None
    rules = ()
    cases = None
    budget = None
    seed = None
    known_violations = {}
    time_zone = "UTC"
    rules_as_of = None

    def pytest_generate_tests(self, metafunc):
        if metafunc.function.__name__ != TEST_NAME:
            return
        try:
            outcomes = _gate(type(self), metafunc.definition.path.parent, _node_id(metafunc))
        except GateError as err:
            problem = f"{type(self).__name__}: {err}"
        else:
            metafunc.parametrize(PARAMETER, [o for _, o in outcomes], ids=[rule for rule, _ in outcomes])
            return
        pytest.fail(problem, pytrace=False)

    def test_conformance(self, conformance_outcome):
        outcome, detail, new_rule = conformance_outcome
        if new_rule:
            warnings.warn(NewRuleWarning(detail))
        if outcome == IGNORED:
            pytest.skip(detail or "the rule does not apply to the profile")
        if outcome != PASSED:
            pytest.fail(detail or "the rule failed", pytrace=False)


_RUNS = {}


def _node_id(metafunc):
    """The test function's node id relative to where pytest runs, as its summary writes it."""
    config = metafunc.config
    file, sep, rest = metafunc.definition.nodeid.partition("::")
    path = os.path.relpath(config.rootpath / file, config.invocation_params.dir)
    return f"{pathlib.PurePath(path).as_posix()}{sep}{rest}"


def _reproduce(cls, node_id):
    """The command a failure says reruns its item: pytest on the item's node id, from the seed the
    gate ran with (``PROPTEST_RNG_SEED``, which the gate reads when the class sets no ``seed``)."""
    item = f"{node_id}[{{id}}]"
    rerun = "pytest '" + item.replace("'", "'\\''") + "'"
    return rerun if cls.seed is not None else f"PROPTEST_RNG_SEED={{seed}} {rerun}"


def _arguments(cls, here, node_id):
    if (cls.bridge is None) == (cls.memory_service is None):
        raise GateError("set exactly one of `bridge` (a command) and `memory_service` ('module:factory')")
    if not cls.profile:
        raise GateError("set `profile`: a profile file (docs/profile-format.md) or a preset name")
    profile = here / cls.profile
    arguments = [command(), "gate", "--format", "json", "--profile", str(profile) if profile.is_file() else cls.profile]
    if cls.backend:
        arguments += ["--backend", cls.backend]
    for rule in cls.rules:
        arguments += ["--rules", rule]
    if cls.cases is not None:
        arguments += ["--cases", str(cls.cases)]
    if cls.budget is not None:
        arguments += ["--budget", str(cls.budget)]
    if cls.seed is not None:
        arguments += ["--seed", str(cls.seed)]
    if cls.rules_as_of is not None:
        arguments += ["--rules-as-of", str(cls.rules_as_of)]
    for rule, reason in cls.known_violations.items():
        arguments += ["--known-violation", f"{rule}={reason}"]
    arguments += ["--reproduce", _reproduce(cls, node_id)]
    bridge = list(cls.bridge) if cls.bridge is not None else _served(cls.memory_service)
    return arguments + ["--"] + [str(part) for part in bridge]


def _gate(cls, here, node_id):
    """``[(rule id, (outcome, detail, new rule))]`` of one gate run for ``cls`` (whose test function is the
    pytest node ``node_id``), run once per process."""
    arguments = _arguments(cls, here, node_id)
    key = tuple(arguments)
    if key not in _RUNS:
        environment = dict(os.environ)
        if cls.time_zone is not None:
            environment["TZ"] = cls.time_zone
        done = subprocess.run(arguments, capture_output=True, text=True, cwd=here, env=environment)
        try:
            summary = json.loads(done.stdout)
        except ValueError:
            raise GateError(
                f"`{' '.join(arguments)}` exited {done.returncode} without its JSON summary:\n{done.stderr.strip()}"
            ) from None
        prefix = f"{summary['backend']}::"
        _RUNS[key] = [
            (test["name"].removeprefix(prefix), (test["outcome"], test["detail"], test["new_rule"]))
            for test in summary["tests"]
        ]
    return _RUNS[key]
