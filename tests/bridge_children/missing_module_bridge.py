"""A bridge whose backend's package is not installed: it fails at import, before it shakes
hands, as a bridge does on a machine where `pip install` was forgotten. Its error names the
missing module, and the kit must show it verbatim (cli/tests/misbehaving_bridges.rs)."""
import memory_conformance_missing_backend  # noqa: F401

raise SystemExit("unreachable: the import above fails")
