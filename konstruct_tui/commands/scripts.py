"""The project's own scripts: what `run_command {"script": "test"}` can run without an arbitrary
command string. Found from package.json scripts, Makefile targets, pyproject scripts and the usual
test conventions (pytest when tests exist, `go test ./...` with go.mod, Maven, Gradle).

Every project file is read through the workspace layer. A script's body (the package.json line, the
Makefile recipe) is kept so the policy can hold it to the hard deny list too.
"""

from __future__ import annotations

import json
import posixpath
import re
import shutil
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass

from ..workspace import NotAFile, PathMissing, PathRefused, Workspace
from .unsafe_options import GENERIC, first_unsafe, unsafe_for


@dataclass(frozen=True)
class ProjectScript:
    """One runnable script. `argv` is what runs; `spellings` are the other argv prefixes that mean
    the same script (`npm test`, `npm run test`, `pytest`, `python -m pytest`)."""

    name: str
    kind: str  # npm, make, python, go, maven, gradle
    source: str  # the file it came from
    argv: tuple[str, ...]
    spellings: tuple[tuple[str, ...], ...] = ()
    body: str | None = None
    # Other scripts of the same file the runner runs with this one: make's prerequisites, npm's
    # `preNAME`/`postNAME`. The policy holds them (and any script a body names) to the deny list too.
    needs: tuple[str, ...] = ()

    @property
    def qualified(self) -> str:
        return f"{self.kind}:{self.name}"

    def matches(self, argv: Sequence[str]) -> bool:
        """True when `argv` runs this script as written. Extra words only as arguments to the script,
        after `--` (`npm test -- --watch`), never as options to npm/make that change what runs
        (`make test -f evil.mk`, `npm test --script-shell=./x.sh`, `-C`, `--prefix`, ...). Make has no
        script arguments, so a make target takes none. The test runners that are their own script
        (pytest, `go test`) take the test-selection options listed in _SAFE_EXTRAS and paths inside
        the project."""
        words = tuple(argv)
        if self.kind in ("maven", "gradle"):
            words = (words[0],) + tuple(w for w in words[1:] if not _BUILD_FLAG.match(w)) if words else words
        for spelling in (self.argv, *self.spellings):
            if words[: len(spelling)] == spelling:
                return _extras_allowed(self, words[len(spelling):])
        return False

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "qualified": self.qualified, "source": self.source, "argv": list(self.argv)}


# Options of a test runner that only choose which tests run or how results print; (option, takes a value).
_SAFE_EXTRAS: dict[str, dict[str, bool]] = {
    "pytest": {"-q": False, "-qq": False, "-v": False, "-vv": False, "-x": False, "-s": False, "-l": False, "-k": True,
               "-m": True, "--lf": False, "--ff": False, "--last-failed": False, "--failed-first": False, "--sw": False,
               "--stepwise": False, "--tb": True, "-r": True, "--maxfail": True, "--no-header": False, "--co": False,
               "--collect-only": False, "--durations": True, "-n": True, "--exitfirst": False, "--quiet": False,
               "--verbose": False, "--showlocals": False, "--no-cov": False, "-ra": False, "-rA": False},
    "go": {"-run": True, "-v": False, "-count": True, "-race": False, "-short": False, "-timeout": True, "-cover": False,
           "-bench": True, "-failfast": False, "-json": False, "-cpu": True, "-skip": True, "-benchmem": False},
}


def _extras_allowed(script: ProjectScript, extra: Sequence[str]) -> bool:
    if not extra:
        return True
    if script.kind in ("maven", "gradle", "make"):
        return False
    if script.kind == "npm" or (script.kind == "python" and script.source == "pyproject.toml"):
        # Arguments to the script itself, which hands them to its program: judged by that program's
        # unsafe options, like the program run directly (`npm test -- --junitxml=src/app.py` is
        # `pytest --junitxml=src/app.py`), and no test file or `@options` from outside the project.
        if extra[0] != "--":
            return False
        passed = [w for w in extra[1:] if w != "--"]  # a second `--` hides nothing from the judgment
        if first_unsafe(passed, _programs_unsafe(script)) is not None:
            return False
        return not any(not w.startswith("-") and (_outside(w) or w.startswith("@")) for w in passed)
    safe = _SAFE_EXTRAS["go" if script.kind == "go" else "pytest"]
    k = 0
    while k < len(extra):
        word = extra[k]
        name = word.split("=", 1)[0]
        if word.startswith("-"):
            if name not in safe:
                return False
            k += 2 if safe[name] and "=" not in word else 1
            continue
        if _outside(word) or word.startswith("@"):
            return False  # a test file elsewhere runs code of the caller's choosing; `@FILE` reads more options
        k += 1
    return True


def _programs_unsafe(script: ProjectScript) -> frozenset[str]:
    """The unsafe options of every program the script's body may hand its arguments to (npm appends
    them to the body's last command; every program named counts, erring towards refusing)."""
    words = [w for w in re.split(r"[\s;&|()`'\"]+", script.body or "") if w] or [script.argv[0] if script.kind == "python" else ""]
    found = set(GENERIC)
    for k, word in enumerate(words):
        if word and not word.startswith("-") and "=" not in word:
            found |= unsafe_for(words[k:k + 2])
    return frozenset(found)


def _outside(word: str) -> bool:
    """A path argument that may leave the project, judged on its normal form (`./..`, `.//..`,
    `tests/..//..` are all the parent): absolute, home-relative, a variable, or above the root."""
    if word.startswith(("/", "~")) or "$" in word:
        return True
    plain = posixpath.normpath(word.split("::", 1)[0])
    return plain == ".." or plain.startswith("../")


_BUILD_FLAG = re.compile(
    r"^(-q|-B|-e|-X|-o|-U|--quiet|--batch-mode|--errors|--offline|--no-transfer-progress|--info|--stacktrace"
    r"|--no-daemon|--parallel|-T\d+C?"
    # Properties that only pick tests: any other -Dkey=value can reach a plugin the pom runs
    # (`-Dexec.executable=...`), so it makes the line an arbitrary command.
    r"|-D(test|it\.test|groups|excludedGroups|skipTests|maven\.test\.skip|surefire\.failIfNoSpecifiedTests)(=[\w.#*,/-]*)?"
    r"|-P[\w.,-]+)$"
)
_MAKE_TARGET = re.compile(r"^([A-Za-z0-9_][A-Za-z0-9_./-]*(?:\s+[A-Za-z0-9_][A-Za-z0-9_./-]*)*)\s*::?(?!=)")


def discover_scripts(workspace: Workspace) -> list[ProjectScript]:
    """Every script found, in lookup order: explicit scripts first, then conventions."""
    found: list[ProjectScript] = []
    for finder in (_npm, _make, _pyproject, _python_tests, _go, _maven, _gradle):
        try:
            found.extend(finder(workspace))
        except (OSError, ValueError):
            continue  # an unreadable manifest means no scripts from it, never a failed command
    return found


def find_script(scripts: Sequence[ProjectScript], name: str) -> ProjectScript | None:
    """By plain name (first in lookup order) or qualified name (`make:test`)."""
    for script in scripts:
        if name in (script.qualified, script.name):
            return script
    return None


def _text(workspace: Workspace, path: str) -> str | None:
    try:
        return workspace.read(path).data.decode("utf-8", "replace")
    except (PathMissing, PathRefused, NotAFile):
        return None


def _exists(workspace: Workspace, path: str) -> bool:
    try:
        with workspace.locate(path) as where:
            return where.exists
    except (PathMissing, PathRefused, NotAFile, OSError):
        return False


def _npm(workspace: Workspace) -> list[ProjectScript]:
    text = _text(workspace, "package.json")
    if text is None:
        return []
    try:
        scripts = json.loads(text).get("scripts") or {}
    except (json.JSONDecodeError, AttributeError):
        return []
    if not isinstance(scripts, dict):
        return []
    manager = "npm"
    for lock, name in (("pnpm-lock.yaml", "pnpm"), ("yarn.lock", "yarn"), ("bun.lockb", "bun"), ("bun.lock", "bun")):
        if _exists(workspace, lock):
            manager = name
            break
    found = []
    for name, body in scripts.items():
        if not isinstance(name, str) or not isinstance(body, str) or not name:
            continue
        spellings: list[tuple[str, ...]] = []
        for tool in {manager, "npm"}:
            spellings.append((tool, "run", name))
            spellings.append((tool, "run-script", name))
            if name in ("test", "start", "stop", "restart"):
                spellings.append((tool, name))
            if name == "test":
                spellings.append((tool, "t"))
        if manager in ("yarn", "pnpm", "bun") and name not in ("install", "add", "remove"):
            spellings.append((manager, name))
        argv = (manager, "test") if name == "test" else (manager, "run", name)
        found.append(ProjectScript(name, "npm", "package.json", argv, tuple(spellings), body, (f"pre{name}", f"post{name}")))
    return found


def _make(workspace: Workspace) -> list[ProjectScript]:
    for filename in ("GNUmakefile", "makefile", "Makefile"):
        text = _text(workspace, filename)
        if text is not None:
            break
    else:
        return []
    found: dict[str, ProjectScript] = {}
    lines = text.splitlines()
    for k, line in enumerate(lines):
        match = _MAKE_TARGET.match(line)
        if not match:
            continue
        prerequisites, _, inline = line[match.end():].partition(";")  # `test: setup ; pytest`
        recipe = [inline.strip()] if inline.strip() else []
        for following in lines[k + 1:]:
            if not following.startswith("\t"):
                break
            recipe.append(following.strip())
        for target in match.group(1).split():
            if target.startswith(".") or "%" in target or target in found:
                continue
            found[target] = ProjectScript(target, "make", filename, ("make", target), (), "\n".join(recipe),
                                          tuple(prerequisites.split()))
    return list(found.values())


def _pyproject(workspace: Workspace) -> list[ProjectScript]:
    text = _text(workspace, "pyproject.toml")
    if text is None:
        return []
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return []
    found = []
    project = data.get("project", {}) if isinstance(data.get("project"), dict) else {}
    tool = data.get("tool", {}) if isinstance(data.get("tool"), dict) else {}
    for name in _keys(project.get("scripts")):
        found.append(ProjectScript(name, "python", "pyproject.toml", (name,)))
    for runner in ("poetry", "pdm"):
        section = tool.get(runner, {}) if isinstance(tool.get(runner), dict) else {}
        for name in _keys(section.get("scripts")):
            found.append(ProjectScript(name, "python", "pyproject.toml", (runner, "run", name)))
    return found


def _keys(table: object) -> list[str]:
    return [k for k in table if isinstance(k, str) and k] if isinstance(table, dict) else []


_PYTHON_MARKERS = ("pyproject.toml", "setup.py", "setup.cfg", "pytest.ini", "tox.ini", "noxfile.py", "conftest.py",
                   "tests", "test")


def _python_tests(workspace: Workspace) -> list[ProjectScript]:
    if not any(_exists(workspace, marker) for marker in _PYTHON_MARKERS):
        return []  # listing every file of a big non-Python tree would be slow for nothing
    files = _files(workspace)
    has_tests = any(
        f.rsplit("/", 1)[-1].startswith("test_") and f.endswith(".py")
        or f.endswith("_test.py") or f.endswith("conftest.py") for f in files
    )
    found = []
    if has_tests or "pytest.ini" in files:
        python = "python" if shutil.which("python") else "python3"
        spellings = (("pytest",), ("py.test",), ("python", "-m", "pytest"), ("python3", "-m", "pytest"))
        found.append(ProjectScript("test", "python", "tests", (python, "-m", "pytest"), spellings))
    if "tox.ini" in files:
        found.append(ProjectScript("tox", "python", "tox.ini", ("tox",)))
    if "noxfile.py" in files:
        found.append(ProjectScript("nox", "python", "noxfile.py", ("nox",)))
    return found


def _files(workspace: Workspace) -> set[str]:
    try:
        return set(workspace.files())
    except OSError:
        return set()


def _go(workspace: Workspace) -> list[ProjectScript]:
    if not _exists(workspace, "go.mod"):
        return []
    return [
        ProjectScript(name, "go", "go.mod", ("go", name, "./..."), (("go", name),))
        for name in ("test", "build", "vet")
    ]


def _wrapped_tool(workspace: Workspace, kind: str, markers: tuple[str, ...], plain: str, wrapper: str,
                  goals: tuple[tuple[str, str], ...]) -> list[ProjectScript]:
    """Maven and Gradle: run through the project's own wrapper script when it ships one (`./mvnw`),
    else the tool on PATH; either spelling on a command line is the script."""
    if not any(_exists(workspace, m) for m in markers):
        return []
    tool = f"./{wrapper}" if _exists(workspace, wrapper) else plain
    return [ProjectScript(name, kind, markers[0], (tool, goal), ((plain, goal), (f"./{wrapper}", goal)))
            for name, goal in goals]


def _maven(workspace: Workspace) -> list[ProjectScript]:
    return _wrapped_tool(workspace, "maven", ("pom.xml",), "mvn", "mvnw", (("test", "test"), ("build", "package")))


def _gradle(workspace: Workspace) -> list[ProjectScript]:
    markers = ("build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts")
    return _wrapped_tool(workspace, "gradle", markers, "gradle", "gradlew", (("test", "test"), ("build", "build")))
