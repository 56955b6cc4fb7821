"""The gate's plain-code rules, the verdict checks and the watchdog's clock, one by one."""

from __future__ import annotations

import pytest

from konstruct_tui.blueprint.failures import implication
from konstruct_tui.blueprint.gate import decide, executable, is_relevant, mechanical
from konstruct_tui.blueprint.plan import Phase, Task
from konstruct_tui.blueprint.retries import RetryPolicy
from konstruct_tui.blueprint.store import GateRecord, ToolCallRecord
from konstruct_tui.blueprint.verdict import VerdictRejected, read_verdict
from konstruct_tui.blueprint.verification import VerifyResult
from konstruct_tui.blueprint.watchdog import Watchdog

PHASE = Phase("p1", "Fix", "fix it", (Task("t1", "one"), Task("t2", "two")), relevant=("src/",))
LONG = "src/calc.py line 4: add returns a + b now, checked by reading the function"


def _call(tool: str, *statuses: tuple[str, str], ok: bool = True) -> ToolCallRecord:
    return ToolCallRecord(1, "s", "executor", tool, {}, ok, {"results": [{"path": p, "status": s} for p, s in statuses]}, 0.0)


def test_self_marks_and_phase_done_alone_change_nothing() -> None:
    marks = [ToolCallRecord(1, "s", "executor", "mark_task", {"id": "t1", "status": "done"}, True, {}, 0.0),
             ToolCallRecord(2, "s", "executor", "phase_done", {"summary": "all done"}, True, {}, 0.0)]
    [veto] = mechanical(PHASE, marks)
    assert veto.code == "no_change"


def test_only_landed_writes_count_and_they_must_touch_relevant_files() -> None:
    assert mechanical(PHASE, [_call("write_code", ("src/a.py", "conflict"))])[0].code == "no_change"
    assert mechanical(PHASE, [_call("write_code", ("docs/a.md", "written"))])[0].code == "relevant_untouched"
    assert mechanical(PHASE, [_call("delete_code", ("src/old.py", "deleted"))]) == []
    assert is_relevant("src/x/y.py", ["src"]) and is_relevant("a/b.ts", ["**/*.ts"]) and not is_relevant("srcx/a.py", ["src"])
    assert is_relevant("calc.py", ["**/*.py"]) and is_relevant("web/a.tsx", ["web/*.{ts,tsx}"]) and not is_relevant("pkg/calc.py", ["calc.py"])


def _verify(outcome: str, counts: bool = True) -> VerifyResult:
    return VerifyResult("pytest -q", outcome, 0 if outcome == "ok" else 1, "", implication([], []), 5, counts)


def test_a_pass_that_ran_before_the_last_write_proves_nothing() -> None:
    assert executable([_verify("ok")]) == []
    [veto] = executable([_verify("ok", counts=False)])
    assert veto.code == "verify_stale"
    assert executable([_verify("timeout")])[0].code == "verify_failed"


def test_no_verdict_never_closes_and_a_veto_beats_a_complete_verdict() -> None:
    verdict = read_verdict({"verdict": "complete", "tasks": [{"id": "t1", "evidence": LONG}, {"id": "t2", "evidence": LONG}]}, PHASE)
    assert decide(PHASE, [], verdict).closes
    blocked = decide(PHASE, executable([_verify("failed")]), verdict)
    assert not blocked.closes and blocked.tier == "executable" and blocked.outstanding == ("veto:verify_failed",)
    none = decide(PHASE, [], None, "the adjudicator could not be reached")
    assert not none.closes and none.outstanding == ("t1", "t2")


@pytest.mark.parametrize(("arguments", "problem"), [
    ({"verdict": "complete", "tasks": [{"id": "t1", "evidence": "done"}, {"id": "t2", "evidence": LONG}]}, "evidence for 't1' is too short"),
    ({"verdict": "complete", "tasks": [{"id": "t1", "evidence": LONG}]}, "task 't2' has no evidence"),
    ({"verdict": "incomplete", "tasks": [{"id": "t1", "evidence": LONG}, {"id": "t2", "evidence": LONG}]}, "must name the outstanding"),
    ({"verdict": "complete", "tasks": [{"id": "t1", "evidence": LONG}, {"id": "t2", "evidence": LONG}], "outstanding": ["t2"]}, "cannot have outstanding"),
    ({"verdict": "complete_with_defects", "tasks": [{"id": "t1", "evidence": LONG}, {"id": "t2", "evidence": LONG}]}, "needs at least one defect"),
    ({"verdict": "incomplete", "tasks": [{"id": "t1", "evidence": LONG}, {"id": "t2", "evidence": LONG}], "outstanding": ["t9"]}, "unknown tasks: t9"),
    ({"verdict": "finished", "tasks": []}, "verdict"),
])
def test_malformed_verdicts_are_refused(arguments: dict, problem: str) -> None:
    with pytest.raises(VerdictRejected, match=problem):
        read_verdict(arguments, PHASE)


def test_stuck_is_told_from_slow() -> None:
    policy = RetryPolicy(max_retries=3)
    incomplete = lambda *out: decide(PHASE, [], read_verdict({"verdict": "incomplete", "tasks": [{"id": "t1", "evidence": LONG}, {"id": "t2", "evidence": LONG}], "outstanding": list(out)}, PHASE))
    earlier = [GateRecord("p1", 1, "retry", "adjudicator", "incomplete", ("t1", "t2"), {})]
    assert policy.next_step(2, incomplete("t2"), earlier) == "retry"
    assert policy.next_step(2, incomplete("t2", "t1"), earlier) == "stalled"
    assert policy.next_step(4, incomplete("t2"), earlier) == "exhausted"
    assert [policy.fresh_session(n) for n in (1, 2, 3, 4)] == [True, False, True, True]


class _Session:
    session_id = "s1"
    stopped: str | None = None

    def stop(self, reason: str) -> None:
        self.stopped = reason


def test_the_watchdog_tells_a_silent_session_from_a_quiet_run() -> None:
    now = [0.0]
    dog = Watchdog("run", lambda alarm: None, tick_s=30, silent_after_s=300, clock=lambda: now[0])
    session = _Session()
    dog.watch(session)
    now[0] = 299.0
    assert dog.check() is None
    dog.alive()  # output keeps it alive
    now[0] = 598.0
    assert dog.check() is None
    now[0] = 600.0
    alarm = dog.check()
    assert alarm is not None and alarm.kind == "silent" and session.stopped == "silent"
    dog.watch(None)
    now[0] = 659.0
    assert dog.check() is None
    now[0] = 661.0  # two ticks with no session running and no progress
    quiet = dog.check()
    assert quiet is not None and quiet.kind == "quiet" and quiet.session_id is None


def test_a_long_verification_is_not_a_quiet_run_until_its_deadline_passes() -> None:
    now = [0.0]
    dog = Watchdog("run", lambda alarm: None, tick_s=30, clock=lambda: now[0])
    dog.busy(600.0)
    now[0] = 500.0
    assert dog.check() is None
    now[0] = 601.0
    alarm = dog.check()
    assert alarm is not None and alarm.kind == "quiet"
