"""Failing file paths pulled out of a verifier's output, and whether they implicate the files a
phase touched.

Formats read (one pattern each, tried on every line):

    Python traceback   File "pkg/calc.py", line 12, in add
    pytest             FAILED tests/test_calc.py::test_add - assert 1 == 2
                       tests/test_calc.py:14: AssertionError   ERROR tests/test_x.py
    tsc                src/a.ts(12,5): error TS2322: ...     src/a.ts:12:5 - error TS2322: ...
    go                 ./pkg/calc.go:12:5: undefined: Foo     (test logs:)    calc_test.go:14: got 1
    javac              src/main/java/A.java:12: error: cannot find symbol
    eslint             /abs/src/a.js (stylish: the file on its own line, problems indented under it)
                       src/a.js:12:5: message [Error/no-undef]   (unix format)

Go test logs name only the base name; such a name matches any touched file that ends with it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass

_SOURCE = r"[\w./\\@+-]*\w\.[A-Za-z]{1,6}"
_PATTERNS = (
    re.compile(rf'File "(?P<path>{_SOURCE})", line \d+'),  # Python traceback
    re.compile(rf"^(?:FAILED|ERROR)\s+(?P<path>{_SOURCE})(?:::|\s|$)"),  # pytest summary
    re.compile(rf"^(?P<path>{_SOURCE}):\d+: (?:in |[A-Z]\w*(?:Error|Exception)\b)"),  # pytest location line
    re.compile(rf"^(?P<path>{_SOURCE})\(\d+,\d+\): error"),  # tsc classic
    re.compile(rf"^(?P<path>{_SOURCE}):\d+:\d+ - error"),  # tsc pretty
    re.compile(rf"^(?P<path>{_SOURCE}):\d+(?::\d+)?: (?:error|warning)?"),  # go build, javac, eslint unix, gcc-like
    re.compile(r"^\s+(?P<path>[\w.-]+_test\.go):\d+: "),  # go test log line (base name)
)
_ESLINT_FILE = re.compile(rf"^(?P<path>/?{_SOURCE})\s*$")
_ESLINT_PROBLEM = re.compile(r"^\s+\d+:\d+\s+(?:error|warning)\s")
_NOT_SOURCE = (".so", ".dll", ".pyc")


@dataclass(frozen=True)
class FailureImplication:
    failing: tuple[str, ...]  # paths named by the output, workspace-relative where possible
    implicated: tuple[str, ...]  # those the phase touched
    untouched: tuple[str, ...]  # those it never went near

    def describe(self) -> str:
        if not self.failing:
            return "the output names no file, so it cannot be told whose failure it is"
        if self.implicated and not self.untouched:
            return f"the failure is in files this phase changed: {', '.join(self.implicated)}"
        if self.implicated:
            return f"the failure implicates files this phase changed ({', '.join(self.implicated)}) and others it did not ({', '.join(self.untouched)})"
        return f"the failure is only in files this phase never touched: {', '.join(self.untouched)}"


def failing_paths(output: str, root: str | None = None) -> list[str]:
    """Every source path the output blames, in order of first mention, relative to `root` when
    absolute and inside it; paths outside the project (site-packages, the standard library) are dropped."""
    found: dict[str, None] = {}
    lines = output.splitlines()
    for index, line in enumerate(lines):
        for pattern in _PATTERNS:
            match = pattern.search(line)
            if match:
                _keep(found, match.group("path"), root)
                break
        else:
            eslint = _ESLINT_FILE.match(line)
            if eslint and index + 1 < len(lines) and _ESLINT_PROBLEM.match(lines[index + 1]):
                _keep(found, eslint.group("path"), root)
    return list(found)


def _keep(found: dict[str, None], path: str, root: str | None) -> None:
    path = path.replace("\\", "/")
    if path.endswith(_NOT_SOURCE):
        return
    if os.path.isabs(path):
        if root is None:
            return
        real_root = os.path.realpath(root)
        try:
            relative = os.path.relpath(os.path.realpath(path), real_root)
        except ValueError:
            return
        if relative.startswith(".."):
            return  # the standard library, site-packages: not the project's files
        path = relative
    path = os.path.normpath(path).replace("\\", "/")
    if path.startswith(("../", "<")) or "site-packages/" in path:
        return
    found.setdefault(path, None)


def implication(failing: Iterable[str], touched: Iterable[str]) -> FailureImplication:
    touched_set = {path.lstrip("./") if path.startswith("./") else path for path in touched}
    implicated: list[str] = []
    untouched: list[str] = []
    for path in dict.fromkeys(failing):
        hit = path in touched_set or ("/" not in path and any(t.endswith("/" + path) for t in touched_set))
        (implicated if hit else untouched).append(path)
    return FailureImplication(tuple(dict.fromkeys(failing)), tuple(implicated), tuple(untouched))
