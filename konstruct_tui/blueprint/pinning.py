"""Which files a phase's verification stands on, so the phase cannot weaken it.

A fix is judged by the tests as they were before the fix (SWE-bench's rule). So the files a verify
command names or runs are *pinned*: the gate runs the command in a scratch copy where the phase's
edits to them are reverted. What counts, read from the command line and the phase-start listing:

- every word of the command that names a workspace file (`python check_calc.py`, `pytest -c ci.ini`);
  a named folder pins the test files and test configuration under it;
- what a known runner reads on its own: pytest / unittest / tox / nox (Python test files, conftest.py,
  pytest.ini, tox.ini, setup.cfg, pyproject.toml), npm / yarn / pnpm / jest / vitest / mocha
  (package.json, JS test files, their configs), go test (*_test.go, testdata/, go.mod), cargo test,
  make (the Makefile and what its recipes run), maven / gradle (build files, src/test/);
- the lines of a named shell script, a Makefile's recipes and package.json's scripts, read the same way
  (to a small depth), and the modules a pinned Python script imports from the project (with the
  `__init__.py` of each package above them, which runs first). A file the phase adds that Python
  would import instead of a pinned module is shadowing.py's business.

Not pinned: a file a task of the phase names as its target (`files = [...]`: "add a test for ..."),
and a file the command names that is one of the phase's `relevant` files and is not itself a test or
test configuration (`mypy calc.py` checks calc.py; it does not define the check).
"""

from __future__ import annotations

import configparser
import fnmatch
import json
import posixpath
import re
import tomllib
from collections.abc import Callable, Iterable

from ..commands import ShellSyntaxError, segments, tokenize
from ..workspace import normalise
from .gate import is_relevant
from .plan import Phase

TEST_DIRS = frozenset({"tests", "test", "testing", "__tests__", "spec", "specs", "testdata"})
CONFIG_NAMES = frozenset({
    "conftest.py", "pytest.ini", "tox.ini", "setup.cfg", "pyproject.toml", "noxfile.py", ".coveragerc",
    "package.json", "Makefile", "makefile", "GNUmakefile", "go.mod", "go.sum", "Cargo.toml", "pom.xml",
    "build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts", "Rakefile", "justfile",
    "Justfile", "mypy.ini", ".flake8", "ruff.toml", ".ruff.toml", ".babelrc", ".mocharc.json", ".mocharc.yml",
    ".mocharc.js", ".mocharc.cjs",
})
CONFIG_GLOBS = ("tsconfig*.json", "jest.config.*", "vitest.config.*", "karma.conf.*", "playwright.config.*",
                ".eslintrc*", "eslint.config.*", "babel.config.*", "vite.config.*")
_TEST_GLOBS = ("test_*.py", "*_test.py", "tests.py", "*_test.go", "*.test.*", "*.spec.*", "*Test.java",
               "*Tests.java", "*_spec.rb", "*_test.rb")
_RUNNERS = {
    "pytest": ("python",), "py.test": ("python",), "unittest": ("python",), "tox": ("python",), "nox": ("python",),
    "npm": ("js",), "yarn": ("js",), "pnpm": ("js",), "npx": ("js",), "jest": ("js",), "vitest": ("js",),
    "mocha": ("js",), "node": ("js-config",), "go": ("go",), "cargo": ("rust",), "make": ("make",),
    "mvn": ("java",), "gradle": ("java",), "./gradlew": ("java",), "gradlew": ("java",),
}
_PY_IMPORT = re.compile(r"^\s*(?:from\s+([\w.]+)\s+import|import\s+([\w.]+(?:\s*,\s*[\w.]+)*))", re.MULTILINE)
_DEPTH = 3
_INTERPRETERS = frozenset({"python", "pypy", "sh", "bash", "zsh", "dash", "node", "deno", "bun", "ruby", "perl", "php",
                           "tsx", "ts-node", "Rscript", "lua"})
_CHECK_PREFIXES = ("check", "verify", "test")
_WRAPPERS = frozenset({"env", "timeout", "nice", "nohup", "time", "stdbuf", "xvfb-run", "command", "exec"})


TEST_CONFIG_NAMES = frozenset({"conftest.py", "pytest.ini", "tox.ini", "noxfile.py", ".coveragerc", ".mocharc.json",
                               ".mocharc.yml", ".mocharc.js", ".mocharc.cjs"})
_TEST_CONFIG_GLOBS = ("jest.config.*", "vitest.config.*", "karma.conf.*", "playwright.config.*")


def is_test_config(path: str) -> bool:
    """Configuration that exists only to configure tests (a new one is never the phase's to add
    unless a task names it): unlike pyproject.toml, package.json or go.mod, which a phase may
    legitimately create."""
    name = posixpath.basename(path)
    return name in TEST_CONFIG_NAMES or any(fnmatch.fnmatchcase(name, g) for g in _TEST_CONFIG_GLOBS)


def is_config(path: str) -> bool:
    name = posixpath.basename(path)
    return name in CONFIG_NAMES or any(fnmatch.fnmatchcase(name, g) for g in CONFIG_GLOBS)


def is_test_like(path: str) -> bool:
    name = posixpath.basename(path)
    parts = path.split("/")[:-1]
    return any(fnmatch.fnmatchcase(name, g) for g in _TEST_GLOBS) or any(p in TEST_DIRS for p in parts) \
        or "/".join(parts[-2:]) == "src/test" or is_config(path)


def task_targets(phase: Phase) -> frozenset[str]:
    """Files the phase's tasks name as their targets: the phase's to write, so never pinned."""
    return frozenset(p for task in phase.tasks for p in (normalise(f) for f in task.files) if p)


def pinned_files(phase: Phase, files: Iterable[str], read: Callable[[str], bytes | None] | None = None) -> frozenset[str]:
    """The workspace files (of `files`, the phase-start listing) the phase's verify commands stand on.
    `read(path)` gives a file's bytes (scripts, Makefiles and package.json are read to follow them)."""
    listing = sorted(set(files))
    finder = _Finder(phase, listing, read or (lambda _path: None))
    for command in phase.verify:
        finder.command(command, 0)
    targets = task_targets(phase)
    return frozenset(p for p in finder.pinned if p not in targets)


class _Finder:
    def __init__(self, phase: Phase, listing: list[str], read: Callable[[str], bytes | None]) -> None:
        self.phase = phase
        self.listing = listing
        self.present = set(listing)
        self.read = read
        self.pinned: set[str] = set()
        self.kinds: set[str] = set()
        self._seen: set[str] = set()

    def command(self, line: str, depth: int) -> None:
        if depth > _DEPTH or line in self._seen:
            return
        self._seen.add(line)
        try:
            runs = segments(tokenize(line))
        except ShellSyntaxError:
            runs = [line.split()]
        for words in runs:
            self.words(words, depth)

    def words(self, words: list[str], depth: int) -> None:
        words = [w for w in words if "=" not in w or w.startswith("-")]  # VAR=value prefixes
        while words and posixpath.basename(words[0]) in _WRAPPERS:  # `timeout 60 python check.py` runs check.py
            skip = 2 if posixpath.basename(words[0]) == "timeout" else 1
            words = words[skip:]
            while words and words[0].startswith("-"):
                words = words[1:]
        if words[:2] in (["uv", "run"], ["poetry", "run"], ["pipenv", "run"], ["hatch", "run"], ["pdm", "run"]):
            words = words[2:]
        if not words:
            return
        if posixpath.basename(words[0]) in ("sh", "bash", "zsh", "dash") and len(words) > 2 and words[1] == "-c":
            self.command(words[2], depth + 1)
            return
        script = self._script(words)
        if script is not None:  # the program that runs is the verification itself, whatever `relevant` says
            self.pin(script, depth)
        for index, word in enumerate(words):
            base = posixpath.basename(word)
            runner = _RUNNERS.get(word) or _RUNNERS.get(base)
            if runner and (index == 0 or words[index - 1] in ("-m", "run", "exec", "npx") or posixpath.basename(words[0]).startswith("python")):
                self.kinds.update(runner)
                self.runner(runner[0], words[index + 1:], depth)
            self.word(word, depth)

    def _script(self, words: list[str]) -> str | None:
        """The workspace file a command line runs: `./check.sh`, `python check.py`, `python -m check`,
        `bash ci/check.sh`, `node test.js`."""
        first = normalise(words[0].removeprefix("./"))
        if first in self.present:
            return first
        if posixpath.basename(words[0]).rstrip("0123456789.") not in _INTERPRETERS:
            return None
        rest = iter(words[1:])
        for word in rest:
            if word == "-m":
                module = next(rest, "").replace(".", "/")
                return next((p for p in (f"{module}.py", f"{module}/__main__.py") if p in self.present), None)
            if word.startswith("-"):
                continue
            path = normalise(word.removeprefix("./"))
            return path if path in self.present else None
        return None

    def word(self, word: str, depth: int) -> None:
        path = normalise(word.split("::", 1)[0].removeprefix("./")) if not word.startswith("-") else None
        if path is None and "=" in word and word.startswith("-"):  # --config=ci.ini
            path = normalise(word.split("=", 1)[1])
        if path is None:
            return
        if path in self.present:
            if self._defines_checks(path):
                self.pin(path, depth)
            return
        prefix = path + "/"
        for candidate in self.listing:
            if candidate.startswith(prefix) and is_test_like(candidate):
                self.pin(candidate, depth)

    def runner(self, kind: str, rest: list[str], depth: int) -> None:
        has_paths = any(normalise(w.split("::", 1)[0].removeprefix("./")) in self.present or self._is_dir(w) for w in rest if not w.startswith("-"))
        if kind == "python":
            for path in self.listing:
                if path.endswith(".py") and posixpath.basename(path) == "conftest.py" or posixpath.basename(path) in ("pytest.ini", "tox.ini", "setup.cfg", "pyproject.toml", "noxfile.py", ".coveragerc") or not has_paths and is_test_like(path) and (path.endswith(".py") or _under_test_dir(path)):
                    self.pin(path, depth)
        elif kind in ("js", "js-config"):
            for path in self.listing:
                name = posixpath.basename(path)
                if name == "package.json" or any(fnmatch.fnmatchcase(name, g) for g in CONFIG_GLOBS) or name.startswith(".mocharc") or kind == "js" and not has_paths and is_test_like(path) and not path.endswith(".py"):
                    self.pin(path, depth)
            if kind == "js":
                for script in self._package_scripts(rest):
                    self.command(script, depth + 1)
        elif kind == "go":
            for path in self.listing:
                if path.endswith("_test.go") or posixpath.basename(path) in ("go.mod", "go.sum") or "testdata" in path.split("/"):
                    self.pin(path, depth)
        elif kind == "rust":
            for path in self.listing:
                if posixpath.basename(path) == "Cargo.toml" or path.startswith("tests/") or "/tests/" in path:
                    self.pin(path, depth)
        elif kind == "java":
            for path in self.listing:
                if posixpath.basename(path) in ("pom.xml", "build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts") \
                        or "src/test/" in path:
                    self.pin(path, depth)
        elif kind == "make":
            for path in self.listing:
                if posixpath.basename(path) in ("Makefile", "makefile", "GNUmakefile"):
                    self.pin(path, depth)
                    for line in self._text(path).splitlines():
                        if line.startswith("\t"):
                            self.command(line.strip().lstrip("@-+"), depth + 1)

    def pin(self, path: str, depth: int) -> None:
        if path in self.pinned:
            return
        self.pinned.add(path)
        if depth >= _DEPTH:
            return
        text = self._text(path)
        if path.endswith(".py"):
            for module in self._imports(path, text):
                if self._defines_checks(module):
                    self.pin(module, depth + 1)
        elif path.endswith(".sh") or text.startswith(("#!/bin/sh", "#!/bin/bash", "#!/usr/bin/env bash", "#!/usr/bin/env sh")):
            for line in text.splitlines():
                if line.strip() and not line.lstrip().startswith("#"):
                    self.command(line.strip(), depth + 1)

    def _defines_checks(self, path: str) -> bool:
        """A file a check names or imports: part of the verification (a test, its configuration, a
        check helper), or the code under test? Without a `relevant` list only the first kind is
        known for sure; with one, whatever lies outside it is not the phase's to change either."""
        if is_test_like(path) or posixpath.basename(path).startswith(_CHECK_PREFIXES):
            return True
        return bool(self.phase.relevant) and not is_relevant(path, self.phase.relevant)

    def _imports(self, path: str, text: str) -> list[str]:
        found = []
        folder = posixpath.dirname(path)
        for match in _PY_IMPORT.finditer(text):
            names = [match.group(1)] if match.group(1) else [n.strip() for n in match.group(2).split(",")]
            for name in names:
                stem = name.replace(".", "/")
                # Importing a.b.c runs a/__init__.py and a/b/__init__.py first: they can replace it.
                packages = [f"{'/'.join(name.split('.')[:n])}/__init__.py" for n in range(1, name.count(".") + 1)]
                for base in {folder, ""}:
                    for candidate in (f"{stem}.py", f"{stem}/__init__.py", *packages):
                        full = posixpath.join(base, candidate) if base else candidate
                        if full in self.present and full != path:
                            found.append(full)
        return found

    def _package_scripts(self, rest: list[str]) -> list[str]:
        names = [w for w in rest if not w.startswith("-")][:1] or ["test"]
        scripts = []
        for path in self.listing:
            if posixpath.basename(path) == "package.json":
                try:
                    data = json.loads(self._text(path) or "{}")
                except ValueError:
                    continue
                table = data.get("scripts") if isinstance(data, dict) else None
                if isinstance(table, dict):
                    scripts += [v for k, v in table.items() if isinstance(v, str) and k in (names[0], f"pre{names[0]}", f"post{names[0]}")]
        return scripts

    def _is_dir(self, word: str) -> bool:
        path = normalise(word.removeprefix("./"))
        return path is not None and any(p.startswith(path + "/") for p in self.listing)

    def _text(self, path: str) -> str:
        data = self.read(path)
        if data is None:
            return ""
        return data[:256 * 1024].decode("utf-8", "replace")


def _under_test_dir(path: str) -> bool:
    return any(p in TEST_DIRS for p in path.split("/")[:-1])


def verification_part(path: str, data: bytes | None) -> object:
    """The part of a shared project file that configures tests, for files that hold much else too
    (pyproject.toml, setup.cfg, package.json): an edit that leaves this part alone (a new dependency,
    a version bump) does not touch the verification. Any other file: all of it."""
    name = posixpath.basename(path)
    if data is None or name not in ("pyproject.toml", "setup.cfg", "package.json"):
        return data
    text = data.decode("utf-8", "replace")
    try:
        if name == "pyproject.toml":
            tool = tomllib.loads(text).get("tool", {})
            return {k: v for k, v in tool.items() if k in ("pytest", "coverage", "tox", "nox", "hatch", "unittest")} if isinstance(tool, dict) else tool
        if name == "package.json":
            table = json.loads(text)
            if not isinstance(table, dict):
                return table
            scripts = table.get("scripts") if isinstance(table.get("scripts"), dict) else {}
            return {"scripts": scripts, **{k: table.get(k) for k in ("jest", "mocha", "vitest", "ava", "c8", "nyc")}}
        parser = configparser.ConfigParser(interpolation=None)
        parser.read_string(text)
        return {s: dict(parser[s]) for s in parser.sections() if s.startswith(("tool:pytest", "pytest", "coverage:", "tox", "flake8", "mypy"))}
    except (ValueError, configparser.Error, tomllib.TOMLDecodeError):
        return data  # unreadable now: judged as a whole
