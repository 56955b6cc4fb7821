"""Blueprint runs as the workbench's runs screen shows them: every run in the run store, and one run
in full (phases, every attempt's verdict, the ledger, each verification's command and output),
read from the store alone.

The store is opened read-only and read afresh on every look: a run driven by another process
(`konstruct blueprint run` in a second terminal) is followed by polling what it records, never by
a second orchestrator. Stop asks the driving process to stop (SIGTERM: it parks the run as ctrl+c
would); resume starts `konstruct blueprint resume` as a process of its own, which the screen then
follows like any other.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from ..blueprint import RunStore, StoreUnusable, effective_status, output_excerpt, owner_alive, render_report
from ..userdirs import StoreProblem, data_dir, private_dir

RESUMABLE = ("parked", "stalled", "interrupted")
TEAM_RESUMABLE = ("stopped", "stalled", "parked")  # as team/supervise.py resumes them (app may not import team)


@dataclass(frozen=True)
class RunRow:
    """One line of the runs list."""

    run_id: str
    title: str
    status: str  # as `konstruct blueprint status` says it: running, parked, stalled, done, interrupted
    phase: str  # the phase it is at (or ended at)
    attempt: int
    worker: str  # who drives it: "pid 123 on host", "this workbench", or the last driver, marked gone
    created: float
    updated: float
    root: str
    reason: str | None = None
    message: str | None = None
    owner: str | None = None  # the store's token for the driving process ("pid:ticks@host")
    # A team run (issue 28): the team database it lives in, as shown (password redacted). Its
    # statuses add queued, waiting_approval and stopped; it is stopped and resumed through that
    # database, never by a signal to a process here.
    team: str | None = None

    def age(self, now: float | None = None) -> str:
        return age_text((now or time.time()) - self.created)

    @property
    def next_step(self) -> str | None:
        """What the person does next, as the command to type (the screen offers it as a key too)."""
        if self.team is not None:
            if self.status == "waiting_approval":
                return f"konstruct approvals list {self.run_id}"
            return f"konstruct blueprint resume {self.run_id}" if self.status in TEAM_RESUMABLE else None
        if self.status in RESUMABLE:
            return f"konstruct blueprint resume {self.run_id}"
        return None


@dataclass(frozen=True)
class AttemptView:
    """One gate run of a phase: who decided, what was outstanding, and the evidence per task."""

    attempt: int
    decision: str
    tier: str
    verdict: str | None
    outstanding: tuple[str, ...]
    vetoes: tuple[str, ...]
    defects: tuple[str, ...]
    evidence: tuple[tuple[str, str], ...]  # (task id, evidence)
    problem: str = ""


@dataclass(frozen=True)
class Verification:
    phase: str
    attempt: int  # 0: before the phase began (its baseline)
    command: str
    outcome: str
    exit_code: int | None
    output: str

    @property
    def excerpt(self) -> list[str]:
        return output_excerpt(self.output)

    @property
    def heading(self) -> str:
        when = "baseline" if self.attempt == 0 else f"attempt {self.attempt}"
        return f"{self.phase} · {when} · `{self.command}` → {self.outcome} (exit {self.exit_code})"


@dataclass(frozen=True)
class PhaseView:
    phase_id: str
    title: str
    status: str
    attempts: tuple[AttemptView, ...]
    sessions: tuple[tuple[str, int, str, str], ...] = ()  # (role, attempt, session id, how it ended)
    calls: int = 0
    last_call: str = ""


@dataclass(frozen=True)
class RunView:
    row: RunRow
    source: str
    phases: tuple[PhaseView, ...]
    ledger: tuple[tuple[str, str], ...]
    defects: tuple[tuple[str, str], ...]
    verifications: tuple[Verification, ...] = field(default=())


def age_text(seconds: float) -> str:
    seconds = max(0.0, seconds)
    for size, unit in ((86400, "d"), (3600, "h"), (60, "m")):
        if seconds >= size:
            return f"{int(seconds // size)}{unit}"
    return f"{int(seconds)}s"


def open_run_store(path: Path | None = None) -> RunStore | None:
    """The run store, read-only; None before any run was started. Raises StoreDamaged /
    StoreUnusable with a one-line message (a busy or unreachable store too: the screen shows the
    line, whatever kept it from opening)."""
    try:
        return RunStore.read_only(path)
    except StoreProblem as problem:
        raise StoreUnusable(str(problem)) from None


def list_runs(store: RunStore, root: Path | None = None) -> list[RunRow]:
    """Every run, newest first; only those of the project at `root` when given."""
    wanted = str(root.resolve()) if root is not None else None
    return [_row(store, run) for run in store.runs() if wanted is None or _same_root(run.root, wanted)]


def read_run(store: RunStore, run_id: str) -> RunView | None:
    run = store.run(run_id)
    if run is None:
        return None
    titles = _phase_titles(run.blueprint)
    sessions = store.sessions(run_id)
    counts = store.call_counts(run_id)
    phases = []
    for record in store.phases(run_id):
        count, role, tool, ok = counts.get(record.phase_id, (0, "", "", True))
        phases.append(PhaseView(
            record.phase_id, titles.get(record.phase_id, ""), record.status,
            tuple(_attempt(g) for g in store.gates(run_id, record.phase_id)),
            tuple((s["role"], int(s["attempt"]), s["id"], s["reason"] or "open") for s in sessions if s["phase_id"] == record.phase_id),
            count, f"{role} {tool} {'ok' if ok else 'failed'}" if count else ""))
    verifications = tuple(Verification(v["phase_id"], int(v["attempt"]), v["command"], v["outcome"], v["exit_code"], v["output"])
                          for v in store.verifications(run_id))
    return RunView(_row(store, run), run.source, tuple(phases), tuple(store.ledger(run_id)), tuple(store.defects(run_id)), verifications)


def report_markdown(store: RunStore, run_id: str) -> str:
    return render_report(store, run_id)


def stop_run(row: RunRow) -> str:
    """Ask the process driving the run to stop (SIGTERM: the run parks, resumable). Returns what
    happened, one line. The workbench's own run is stopped with its kill switch instead."""
    if row.team is not None:  # never a signal: the pid of a team row's worker is on another machine's books
        return f"run {row.run_id} is a team run: it stops through the team database ({row.team})"
    if row.status != "running":
        return f"run {row.run_id} is not running ({row.status})"
    if owner_alive(row.owner) is None:
        return f"run {row.run_id} is driven on another host ({row.worker}); stop it there"
    pid = _pid(row.owner)
    if pid is None:
        return f"run {row.run_id} names no process to stop"
    try:
        os.kill(pid, signal.SIGTERM)
    except OSError as error:
        return f"could not stop process {pid}: {error.strerror}"
    return f"asked process {pid} to stop run {row.run_id}: it parks the run (resume continues it)"


@dataclass
class ResumeProcess:
    """`konstruct blueprint resume RUN` started from the workbench: its own process and log."""

    run_id: str
    process: subprocess.Popen[bytes]
    log: Path

    def failure(self) -> str | None:
        """Why it ended early (its last line of output), or None while it runs or once it ran."""
        code = self.process.poll()
        if code in (None, 0):
            return None
        lines = [line for line in self.log.read_text(encoding="utf-8", errors="replace").splitlines() if line.strip()]
        problem = next((line for line in reversed(lines) if line.startswith("konstruct:")), lines[-1] if lines else "")
        return f"resume of {self.run_id} exited with status {code}" + (f": {problem}" if problem else "")


def start_resume(row: RunRow) -> ResumeProcess | str:
    """Start `konstruct blueprint resume` for a parked, stalled or interrupted run; a string says
    why not. The process is detached from the workbench (closing the workbench leaves it running)."""
    if row.team is not None:
        return f"run {row.run_id} is a team run: it resumes through the team database ({row.team})"
    if row.status not in RESUMABLE:
        return f"run {row.run_id} is {row.status}: only a parked, stalled or interrupted run resumes"
    log = private_dir(data_dir() / "blueprint" / "logs") / f"{row.run_id}.log"
    handle: IO[bytes] = open(log, "ab")
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "konstruct_tui", "blueprint", "resume", row.run_id, "--headless"],
            stdin=subprocess.DEVNULL, stdout=handle, stderr=subprocess.STDOUT, cwd=row.root if os.path.isdir(row.root) else None,
            start_new_session=True)
    finally:
        handle.close()
    return ResumeProcess(row.run_id, process, log)


def _row(store: RunStore, run: Any) -> RunRow:
    phases = store.phases(run.id)
    current = next((p for p in phases if p.status in ("running", "parked", "stalled")), None) \
        or next((p for p in phases if p.status == "pending"), None) or (phases[-1] if phases else None)
    attempt = store.attempts(run.id, current.phase_id) if current else 0
    if current is not None:
        attempt = max([attempt] + [g.attempt for g in store.gates(run.id, current.phase_id)])
    return RunRow(run.id, run.title, effective_status(run), current.phase_id if current else "-", attempt, _worker(run),
                  run.created, run.updated, run.root, run.reason, run.message, run.owner)


def _worker(run: Any) -> str:
    pid = _pid(run.owner)
    if pid is None:
        return "-"
    alive = owner_alive(run.owner)
    if alive and pid == os.getpid():
        return "this workbench" if run.status == "running" else "this workbench (ended)"
    if alive is None:
        return f"pid {pid} on {run.owner.rsplit('@', 1)[-1]}"
    return f"pid {pid}" if alive else f"pid {pid} ({'gone' if run.status == 'running' else 'ended'})"


def _pid(owner: str | None) -> int | None:
    try:
        return int((owner or "").split(":", 1)[0])
    except ValueError:
        return None


def _same_root(recorded: str, wanted: str) -> bool:
    try:
        return str(Path(recorded).resolve()) == wanted
    except OSError:
        return recorded == wanted


def _phase_titles(blueprint_text: str) -> dict[str, str]:
    from ..blueprint import BlueprintInvalid, parse_blueprint

    try:
        return {p.id: p.title for p in parse_blueprint(blueprint_text).phases}
    except BlueprintInvalid:
        return {}  # the titles are a nicety: the recorded phases are shown all the same


def _attempt(gate: Any) -> AttemptView:
    detail = gate.detail
    return AttemptView(
        gate.attempt, gate.decision, gate.tier, gate.verdict, tuple(gate.outstanding),
        tuple(str(v.get("message", "")) for v in detail.get("vetoes", [])),
        tuple(str(d) for d in detail.get("defects", [])),
        tuple((str(e.get("id", "")), str(e.get("evidence", ""))) for e in detail.get("evidence", [])),
        str(detail.get("problem") or ""))
