"""The blueprint file: a TOML plan of phases, read into frozen records, with errors that name the
line and the key so a person can fix the file without guessing.

    title = "Totals"

    [[phases]]
    id = "p1"
    title = "Fix the adder"
    goal = "add() returns the sum"
    relevant = ["calc.py"]                  # files, folders ("src/") or globs ("src/**/*.py")
    verify = ["python -m pytest -q"]        # optional; run after every settled phase turn
    verify_timeout_s = 300                  # optional

    [[phases.tasks]]
    id = "t1"
    text = "make add() return a + b"
    files = ["tests/test_calc.py"]          # optional: the task's targets (a test file listed here
                                            # is the task's to write, so the gate does not pin it)

Unknown keys are errors, not ignored: a misspelt `relevent` would otherwise silently drop the
mechanical check the person thought they asked for.
"""

from __future__ import annotations

import posixpath
import re
import tomllib
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
_TOP_KEYS = {"title", "description", "phases"}
_PHASE_KEYS = {"id", "title", "goal", "tasks", "relevant", "verify", "verify_timeout_s"}
_TASK_KEYS = {"id", "text", "files"}
DEFAULT_VERIFY_TIMEOUT_S = 600.0


class BlueprintInvalid(ValueError):
    """The file cannot be used. `str()` is one line: `FILE:LINE: KEY: problem`."""

    def __init__(self, source: str, line: int | None, key: str, problem: str) -> None:
        where = f"{source}:{line}" if line else source
        super().__init__(f"{where}: {key}: {problem}" if key else f"{where}: {problem}")
        self.line = line
        self.key = key


@dataclass(frozen=True)
class Task:
    id: str
    text: str
    files: tuple[str, ...] = ()  # the task's target files, workspace-relative and normalised


@dataclass(frozen=True)
class Phase:
    id: str
    title: str
    goal: str
    tasks: tuple[Task, ...]
    relevant: tuple[str, ...] = ()
    verify: tuple[str, ...] = ()
    verify_timeout_s: float = DEFAULT_VERIFY_TIMEOUT_S

    def task_ids(self) -> tuple[str, ...]:
        return tuple(task.id for task in self.tasks)


@dataclass(frozen=True)
class Blueprint:
    title: str
    phases: tuple[Phase, ...]
    description: str = ""

    def phase(self, phase_id: str) -> Phase:
        for phase in self.phases:
            if phase.id == phase_id:
                return phase
        raise KeyError(phase_id)


def parse_blueprint(text: str, source: str = "blueprint.toml") -> Blueprint:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        match = re.search(r"\(at line (\d+), column \d+\)", str(error))
        message = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(error))
        raise BlueprintInvalid(source, int(match.group(1)) if match else None, "", f"not valid TOML: {message}") from None
    return _Reader(text, source).blueprint(data)


class _Reader:
    def __init__(self, text: str, source: str) -> None:
        self.lines = text.splitlines()
        self.source = source

    def fail(self, path: tuple[str | int, ...], problem: str) -> BlueprintInvalid:
        key = "".join(f"[{part + 1}]" if isinstance(part, int) else (f".{part}" if i else part) for i, part in enumerate(path))
        return BlueprintInvalid(self.source, self.line_of(path), key, problem)

    def line_of(self, path: tuple[str | int, ...]) -> int | None:
        """Best-effort line of a key: the n-th `[[phases]]` (and `[[phases.tasks]]`) block, then the key."""
        start, end = 0, len(self.lines)
        in_block = False
        if len(path) >= 2 and path[0] == "phases" and isinstance(path[1], int):
            block = self._block(r"^\s*\[\[\s*phases\s*\]\]", path[1], 0, end)
            if block is None:
                return None
            start, end = block
            in_block = True
            if len(path) >= 4 and path[2] == "tasks" and isinstance(path[3], int):
                inner = self._block(r"^\s*\[\[\s*phases\.tasks\s*\]\]", path[3], start, end)
                if inner is not None:
                    start, end = inner
                    path = path[:2] + path[4:]
                else:
                    path = path[:3]
            key = next((p for p in reversed(path[2:]) if isinstance(p, str)), None)
        else:
            key = next((p for p in path if isinstance(p, str)), None)
        if key:
            pattern = re.compile(rf"^\s*{re.escape(key)}\s*=")
            for number in range(start, end):
                if pattern.match(self.lines[number]):
                    return number + 1
        return start + 1 if in_block else None  # a missing key: the header of its table

    def _block(self, header: str, index: int, start: int, end: int) -> tuple[int, int] | None:
        pattern = re.compile(header)
        starts = [n for n in range(start, end) if pattern.match(self.lines[n])]
        if index >= len(starts):
            return None
        stop = starts[index + 1] if index + 1 < len(starts) else end
        if header.endswith(r"phases\s*\]\]"):  # a phase block ends at the next phase header
            nxt = [n for n in range(starts[index] + 1, end) if re.match(r"^\s*\[\[\s*phases\s*\]\]", self.lines[n])]
            stop = nxt[0] if nxt else end
        return starts[index], stop

    def text(self, value: Any, path: tuple[str | int, ...], *, required: bool = True) -> str:
        if value is None and not required:
            return ""
        if not isinstance(value, str) or not value.strip():
            raise self.fail(path, "must be a non-empty string" if value is not None else "is missing")
        return value.strip()

    def unknown(self, table: dict[str, Any], allowed: set[str], path: tuple[str | int, ...]) -> None:
        extra = sorted(set(table) - allowed)
        if extra:
            raise self.fail(path + (extra[0],), f"unknown key (expected one of: {', '.join(sorted(allowed))})")

    def blueprint(self, data: dict[str, Any]) -> Blueprint:
        self.unknown(data, _TOP_KEYS, ())
        title = self.text(data.get("title"), ("title",))
        phases = data.get("phases")
        if not isinstance(phases, list) or not phases:
            raise self.fail(("phases",), "at least one [[phases]] table is needed")
        read = tuple(self.phase(entry, index) for index, entry in enumerate(phases))
        seen: set[str] = set()
        for index, phase in enumerate(read):
            if phase.id in seen:
                raise self.fail(("phases", index, "id"), f"duplicate phase id {phase.id!r}")
            seen.add(phase.id)
        return Blueprint(title, read, self.text(data.get("description"), ("description",), required=False))

    def phase(self, entry: Any, index: int) -> Phase:
        path: tuple[str | int, ...] = ("phases", index)
        if not isinstance(entry, dict):
            raise self.fail(path, "must be a table")
        self.unknown(entry, _PHASE_KEYS, path)
        phase_id = self.text(entry.get("id"), path + ("id",))
        if not _ID.match(phase_id):
            raise self.fail(path + ("id",), f"{phase_id!r} is not a usable id (letters, digits, _ . -; at most 64)")
        tasks = entry.get("tasks")
        if not isinstance(tasks, list) or not tasks:
            raise self.fail(path + ("tasks",), "a phase needs at least one task ([[phases.tasks]] with id and text)")
        read_tasks: list[Task] = []
        for number, task in enumerate(tasks):
            where = path + ("tasks", number)
            if not isinstance(task, dict):
                raise self.fail(where, "must be a table with id and text")
            self.unknown(task, _TASK_KEYS, where)
            task_id = self.text(task.get("id"), where + ("id",))
            if not _ID.match(task_id):
                raise self.fail(where + ("id",), f"{task_id!r} is not a usable id")
            if any(t.id == task_id for t in read_tasks):
                raise self.fail(where + ("id",), f"duplicate task id {task_id!r} in phase {phase_id!r}")
            files = tuple(self.path(item, where + ("files",)) for item in self.strings(task.get("files", []), where + ("files",)))
            read_tasks.append(Task(task_id, self.text(task.get("text"), where + ("text",)), tuple(dict.fromkeys(files))))
        relevant = self.strings(entry.get("relevant", []), path + ("relevant",))
        # One spelling per path (`./src//a.py` and `src/../src/a.py` are `src/a.py`; a folder keeps its
        # trailing slash), so a change is matched against what the person meant, never the spelling.
        relevant = tuple(item if any(ch in item for ch in "*?[{") and ".." not in PurePosixPath(item).parts
                         else "**" if posixpath.normpath(item) == "." and not item.startswith("/")  # the whole project
                         else self.path(item, path + ("relevant",)) + ("/" if item.endswith("/") else "")
                         for item in relevant)
        timeout = entry.get("verify_timeout_s", DEFAULT_VERIFY_TIMEOUT_S)
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout <= 0:
            raise self.fail(path + ("verify_timeout_s",), "must be a positive number of seconds")
        return Phase(
            id=phase_id,
            title=self.text(entry.get("title"), path + ("title",)),
            goal=self.text(entry.get("goal"), path + ("goal",)),
            tasks=tuple(read_tasks),
            relevant=relevant,
            verify=self.strings(entry.get("verify", []), path + ("verify",)),
            verify_timeout_s=float(timeout),
        )

    def path(self, item: str, where: tuple[str | int, ...]) -> str:
        """One spelling per file (`src/../calc.py` is `calc.py`), so a target cannot be named twice."""
        pure = PurePosixPath(item)
        norm = posixpath.normpath(item) if "\x00" not in item else ""
        if pure.is_absolute() or not norm or norm == "." or norm == ".." or norm.startswith("../"):
            raise self.fail(where, f"{item!r} must be a workspace-relative path inside the project")
        return norm

    def strings(self, value: Any, path: tuple[str | int, ...]) -> tuple[str, ...]:
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not all(isinstance(item, str) and item.strip() for item in value):
            raise self.fail(path, "must be a list of non-empty strings")
        return tuple(item.strip() for item in value)
