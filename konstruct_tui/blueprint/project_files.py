"""A project file the phase created, without its test part, for the scratch copy.

A phase may create a `pyproject.toml` or `setup.cfg` (it may create a project), so a new one stays
where verification runs; but the part of it that configures the test runner is test configuration
like a new `pytest.ini`, and a new `pytest.ini` is absent there. Without this, a new pyproject.toml
with `[tool.pytest.ini_options] addopts = "-p rig"` loads a plugin of the phase's that patches the
code under test before the pinned tests run.

So the scratch copy holds the file with its test part removed: the INI file rewritten without those
sections, the TOML file without the tables that hold them. The result is checked by reading it back
with the same rule (pinning.verification_part); if a test part is still there (a dotted key, an
inline table) or the file cannot be read, the file is absent instead — never kept as it is.
"""

from __future__ import annotations

import configparser
import io
import posixpath
import re

from .pinning import verification_part

NEW_PROJECT_FILES = ("pyproject.toml", "setup.cfg")
_TABLE = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$")
_TOML_TEST_TOOLS = ("pytest", "coverage", "tox", "nox", "hatch", "unittest")


def without_test_parts(path: str, data: bytes) -> bytes | None:
    """`data` without what configures tests; the same bytes when there is nothing to take out; None
    when it cannot be taken out reliably (the file must then be absent)."""
    if not verification_part(path, data):
        return data
    name = posixpath.basename(path)
    try:
        stripped = _toml(data.decode("utf-8")) if name == "pyproject.toml" else _ini(data.decode("utf-8"))
    except (UnicodeDecodeError, configparser.Error, ValueError):
        return None
    if stripped is None or verification_part(path, stripped):
        return None
    return stripped


def _toml(text: str) -> bytes:
    """Drop every table under tool.<test tool> (and its sub-tables and arrays of tables)."""
    out: list[str] = []
    dropping = False
    for line in text.splitlines(keepends=True):
        header = _TABLE.match(line)
        if header:
            key = [k.strip().strip("\"'") for k in header.group(1).split(".")]
            dropping = len(key) >= 2 and key[0] == "tool" and key[1] in _TOML_TEST_TOOLS
        if not dropping:
            out.append(line)
    return "".join(out).encode()


def _ini(text: str) -> bytes | None:
    parser = configparser.ConfigParser(interpolation=None)
    parser.read_string(text)
    for section in list(parser.sections()):
        if section.startswith(("tool:pytest", "pytest", "coverage:", "tox", "flake8", "mypy")):
            parser.remove_section(section)
    buffer = io.StringIO()
    parser.write(buffer)
    return buffer.getvalue().encode()
