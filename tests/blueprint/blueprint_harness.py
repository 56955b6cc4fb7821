"""Scripted blueprint scenarios: a blueprint, one script per session (the scripted provider replays
them; no network), and a helper that runs the orchestrator in-process."""

from __future__ import annotations

import asyncio
import json
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from konstruct_tui.agent import CollectingReporter, Finished
from konstruct_tui.app import ScriptBook
from konstruct_tui.blueprint import (
    LocalEngine,
    Orchestrator,
    RunOptions,
    RunStore,
    new_run_id,
    parse_blueprint,
)
from konstruct_tui.workspace import Workspace

CALC = "def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n"
CHECK = "import calc\n\nassert calc.add(2, 3) == 5, 'add is wrong'\nprint('ok')\n"


def blueprint_text(*phases: str, title: str = "Calc fixes") -> str:
    return f'title = "{title}"\n\n' + "\n".join(textwrap.dedent(p) for p in phases)


PHASE_FIX = """
[[phases]]
id = "p1"
title = "Fix add"
goal = "add() returns the sum"
relevant = ["calc.py"]
verify = ["python check_calc.py"]

[[phases.tasks]]
id = "t1"
text = "make add return a + b"
"""

# A second phase: document mul (its evidence, and the edit that does it).
PHASE_DOC = """
[[phases]]
id = "p2"
title = "Document mul"
goal = "mul has a docstring"
relevant = ["calc.py"]

[[phases.tasks]]
id = "t1"
text = "add a docstring to mul"
"""
DOC = "calc.py: mul now starts with the docstring 'The product.' right under its def line"
DOCSTRING = ("def mul(a, b):\n", "def mul(a, b):\n    \"\"\"The product.\"\"\"\n")

EVIDENCE = "calc.py line 2: add() now returns a + b, so add(2, 3) gives 5 as required"
# One phase of three tasks (the gate scenarios about outstanding sets), and evidence for each.
THREE_TASKS = """
[[phases]]
id = "p1"
title = "Calc"
goal = "calc is right and documented"
relevant = ["calc.py"]

[[phases.tasks]]
id = "t1"
text = "make add return a + b"

[[phases.tasks]]
id = "t2"
text = "document mul"

[[phases.tasks]]
id = "t3"
text = "add sub"
"""
THREE_TASK_EVIDENCE = {t: f"calc.py: I read the function for {t} and its body does what the task asks for" for t in ("t1", "t2", "t3")}
# One attempt, quick deadlines (with `grant_commands`: the executor's commands need no prompt).
ONE_TRY = RunOptions(max_retries=0, turn_deadline_s=20, adjudicator_deadline_s=30)
COMMANDS = RunOptions(max_retries=0, turn_deadline_s=20, adjudicator_deadline_s=30, grant_commands=True)
COSMETIC = ("def add(a, b):\n", "def add(a, b):\n    \"\"\"The sum, they say.\"\"\"\n")  # an edit that fixes nothing


def read(*paths: str) -> dict[str, Any]:
    return {"text": "Reading.", "tool_calls": [{"name": "read_code", "arguments": {"paths": list(paths)}}]}


def edit(path: str, old: str, new: str, *, done: str | None = "fixed it", marks: tuple[str, ...] = ("t1",)) -> dict[str, Any]:
    calls: list[dict[str, Any]] = [{"name": "write_code", "arguments": {"edits": [{"path": path, "revision": f"$revision:{path}", "replacements": [{"old": old, "new": new}]}]}}]
    calls += [{"name": "mark_task", "arguments": {"id": task, "status": "done", "note": "done"}} for task in marks]
    if done is not None:
        calls.append({"name": "phase_done", "arguments": {"summary": done}})
    return {"text": "Editing.", "tool_calls": calls}


def claim_done(summary: str = "all done", marks: tuple[str, ...] = ("t1",)) -> dict[str, Any]:
    calls = [{"name": "mark_task", "arguments": {"id": task, "status": "done"}} for task in marks]
    return {"text": "Done.", "tool_calls": calls + [{"name": "phase_done", "arguments": {"summary": summary}}]}


def verdict(kind: str, evidence: dict[str, str], outstanding: tuple[str, ...] = (), defects: tuple[str, ...] = ()) -> dict[str, Any]:
    arguments = {"verdict": kind, "tasks": [{"id": k, "evidence": v} for k, v in evidence.items()], "outstanding": list(outstanding), "defects": list(defects)}
    return {"text": "Verdict.", "tool_calls": [{"name": "submit_verdict", "arguments": arguments}]}


def shrinking_outstanding_scripts() -> dict[str, list[dict[str, Any]]]:
    """THREE_TASKS done over three attempts (t2 and t3 outstanding, then t3, then complete with a
    defect; the third attempt a fresh session)."""
    evidence = THREE_TASK_EVIDENCE
    return {
        "executor-p1": [read("calc.py"), edit("calc.py", "a - b", "a + b", marks=("t1", "t2", "t3")),
                        edit("calc.py", "def mul(a, b):\n", "def mul(a, b):\n    \"\"\"The product.\"\"\"\n", marks=("t2",))],
        "executor-p1-3": [read("calc.py"), edit("calc.py", "    return a * b\n", "    return a * b\n\n\ndef sub(a, b):\n    return a - b\n", marks=("t3",))],
        "adjudicator-p1-1": [verdict("incomplete", evidence, outstanding=("t2", "t3"))],
        "adjudicator-p1-2": [verdict("incomplete", evidence, outstanding=("t3",))],
        "adjudicator-p1-3": [verdict("complete_with_defects", evidence, defects=("sub has no docstring",))],
    }


def write_scripts(folder: Path, scripts: dict[str, list[dict[str, Any]]]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, turns in scripts.items():
        (folder / f"{name}.json").write_text(json.dumps({"turns": turns}))
    return folder


@dataclass
class RunResult:
    finished: Finished
    reporter: CollectingReporter
    store: RunStore
    run_id: str

    def events(self, name: str) -> list[dict[str, Any]]:
        from konstruct_tui.agent import event_json

        return [event_json(e) for e in self.reporter.events if e.name == name]


def run_blueprint(root: Path, text: str, scripts: Path, **kwargs: Any) -> RunResult:
    return run_with(root, text, ScriptBook(scripts, 20), **kwargs)


class RecordingBook(ScriptBook):
    """A ScriptBook that keeps what each session was told: (role, phase, attempt) -> the first user
    message of each model turn's transcript, and optionally fails one role's model calls."""

    def __init__(self, path: Path, *, unreachable: str | None = None) -> None:
        super().__init__(path, 20)
        self.seen: dict[tuple[str, str, int], list[str]] = {}
        self.unreachable = unreachable

    def open(self, role: str, phase_id: str, attempt: int) -> Any:
        if role == self.unreachable:
            return _Unreachable()
        port = super().open(role, phase_id, attempt)
        seen = self.seen.setdefault((role, phase_id, attempt), [])
        original = port.stream_turn

        def stream_turn(system: str, transcript: Any, tools: Any) -> Any:
            from konstruct_tui.agent import UserMessage

            seen.append("\n".join(m.text for m in transcript if isinstance(m, UserMessage)))
            return original(system, transcript, tools)

        port.stream_turn = stream_turn  # type: ignore[method-assign]
        return port


class _Unreachable:
    provider = "openai"
    model = "unreachable"

    def stream_turn(self, system: str, transcript: Any, tools: Any) -> Any:
        from konstruct_tui.providers import ProviderError

        async def fail() -> Any:
            raise ProviderError("openai: cannot connect to http://127.0.0.1:9/v1 (connection refused) after 3 attempts")
            yield  # pragma: no cover

        return fail()

    async def aclose(self) -> None:
        return None


def run_with(root: Path, text: str, book: ScriptBook, *, store: RunStore | None = None, run_id: str | None = None,
             options: RunOptions | None = None, resumed: bool = False, engine: bool = True) -> RunResult:
    blueprint = parse_blueprint(text)
    store = store or RunStore(root.parent / "runs.sqlite3")
    new = run_id is None
    if run_id is None:
        run_id = new_run_id()
        store.create_run(run_id, blueprint.title, "blueprint.toml", text, str(root), {"provider": "scripted"}, [p.id for p in blueprint.phases])
    reporter = CollectingReporter()
    options = options or RunOptions(turn_deadline_s=20, adjudicator_deadline_s=30)
    # Through the durable engine, as `konstruct blueprint run` drives a run: every scenario's units
    # are steps of a DBOS workflow in the run store's own file (`engine=False`: today's store alone,
    # the baseline bench/bench_local_engine.py measures against).
    if not engine:
        with Workspace(root) as workspace:
            finished = asyncio.run(Orchestrator(store, run_id, blueprint, workspace, book, reporter, options).run(resumed=resumed))
        return RunResult(finished, reporter, store, run_id)
    with LocalEngine(store.path) as local, Workspace(root) as workspace:
        steps = local.steps(run_id, new=new)
        orchestrator = Orchestrator(store, run_id, blueprint, workspace, book, reporter, replace(options, steps=steps))
        finished = asyncio.run(steps.drive(lambda: orchestrator.run(resumed=resumed)))
    return RunResult(finished, reporter, store, run_id)


def engine_record(store: Path, run_id: str) -> list[tuple[str, str, Any, list[tuple[str, Any]]]]:
    """Every workflow of the run as DBOS itself reads it back: (id, status, output, its steps)."""
    from dbos import DBOSClient

    client = DBOSClient(system_database_url=f"sqlite:///{store}")
    try:
        found = [w for w in client.list_workflows(workflow_id_prefix=run_id) if w.workflow_id == run_id or w.workflow_id.startswith(f"{run_id}~")]
        return [(w.workflow_id, w.status, w.output, [(s["function_name"], s["output"]) for s in client.list_workflow_steps(w.workflow_id)])
                for w in sorted(found, key=lambda w: w.created_at or 0)]
    finally:
        client.destroy()



@contextmanager
def fakellm_server(folder: Path, rules: dict[str, Any]) -> Iterator[str]:
    """fakellm (a third-party mock of the OpenAI API) serving `rules` on loopback; yields its URL."""
    import socket
    import subprocess
    import sys
    import time

    import httpx

    (folder / "fakellm.yaml").write_text(json.dumps(rules))  # JSON is YAML
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-c", "from fakellm.cli import main; main()", "serve", "--port", str(port), "--config", "fakellm.yaml"],
                              cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(url + "/_fakellm/stats", timeout=0.5)
                break
            except httpx.HTTPError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"fakellm did not start: {server.stderr.read().decode()[-500:]}") from None  # type: ignore[union-attr]
                time.sleep(0.05)
        yield url
    finally:
        server.terminate()
        server.wait(10)
