"""Scripted scenarios through the whole orchestrator: no phase closes on the executor's word."""

from __future__ import annotations

import json
from pathlib import Path

from blueprint_harness import (
    EVIDENCE,
    ONE_TRY,
    PHASE_FIX,
    THREE_TASK_EVIDENCE as E,
    THREE_TASKS,
    RecordingBook,
    blueprint_text,
    claim_done,
    edit,
    read,
    run_blueprint,
    run_with,
    shrinking_outstanding_scripts,
    verdict,
    write_scripts,
)

from konstruct_tui.blueprint import RunOptions, render_report


def test_a_phase_closes_when_the_work_is_done_and_checked(project: Path, tmp_path: Path) -> None:
    scripts = write_scripts(tmp_path / "s", {
        "executor-p1": [read("calc.py"), edit("calc.py", "a - b", "a + b")],
        "adjudicator-p1": [read("calc.py"), verdict("complete", {"t1": EVIDENCE})],
    })
    result = run_blueprint(project, blueprint_text(PHASE_FIX), scripts)
    assert result.finished.reason == "done", result.finished.message
    assert "a + b" in (project / "calc.py").read_text()
    [closed] = result.events("phase_closed")
    assert closed["phase"] == "p1" and closed["verdict"] == "complete" and closed["changed"] == ["calc.py"]
    names = [e.name for e in result.reporter.events]
    assert names[0] == "session_started" and names[-1] == "finished"
    [started] = result.events("session_started")
    assert started["session_id"] == started["run_id"] == result.run_id and started["phases"] == ["p1"]
    [audit] = [a for a in result.store.audit(result.run_id) if a["kind"] == "gate"]
    assert audit["tier"] == "adjudicator" and audit["verdict"] == "complete" and audit["evidence"][0]["evidence"] == EVIDENCE


def test_phase_done_with_nothing_changed_never_closes_even_if_the_reviewer_is_fooled(project: Path, tmp_path: Path) -> None:
    scripts = write_scripts(tmp_path / "s", {
        "executor-p1": [claim_done("fixed add"), claim_done("really fixed add")],
        "adjudicator-p1": [verdict("complete", {"t1": EVIDENCE})],  # a reviewer that believes the claim
    })
    result = run_blueprint(project, blueprint_text(PHASE_FIX), scripts)
    assert result.finished.reason == "stalled"
    assert result.events("phase_closed") == []
    verdicts = result.events("verdict")
    assert [v["tier"] for v in verdicts] == ["mechanical", "mechanical"]
    assert all("no file was changed" in v["vetoes"][0] for v in verdicts)
    assert verdicts[-1]["decision"] == "stalled" and verdicts[-1]["outstanding"][0] == "veto:no_change"
    assert (project / "calc.py").read_text().count("a - b") == 1
    assert result.store.phases(result.run_id)[0].status == "stalled"


def test_changes_outside_the_relevant_files_are_vetoed(project: Path, tmp_path: Path) -> None:
    scripts = write_scripts(tmp_path / "s", {
        "executor-p1": [read("notes.md"), edit("notes.md", "# notes", "# notes\nadd is fixed")],
        "adjudicator-p1": [verdict("complete", {"t1": EVIDENCE})],
    })
    result = run_blueprint(project, blueprint_text(PHASE_FIX), scripts, options=ONE_TRY)
    [gate] = result.events("verdict")
    assert gate["tier"] == "mechanical" and "veto:relevant_untouched" in gate["outstanding"]
    assert result.finished.reason == "stalled" and result.events("phase_closed") == []


def test_verification_failing_in_the_phases_own_file_is_blamed_on_it(project: Path, tmp_path: Path) -> None:
    book = RecordingBook(write_scripts(tmp_path / "s", {
        "executor-p1": [read("calc.py"), edit("calc.py", "return a - b", "return (a + b) / 0")],
        "adjudicator-p1": [verdict("complete", {"t1": EVIDENCE})],
    }))
    result = run_with(project, blueprint_text(PHASE_FIX), book, options=ONE_TRY)
    [gate] = result.events("verdict")
    assert gate["tier"] == "executable" and "veto:verify_failed" in gate["outstanding"]
    assert "files this phase changed (calc.py)" in gate["vetoes"][0]
    told = book.seen[("adjudicator", "p1", 1)][0]
    assert "ZeroDivisionError" in told and "files this phase changed (calc.py)" in told
    assert result.events("phase_closed") == []
    baseline, run = result.store.verifications(result.run_id)
    assert baseline["attempt"] == 0 and baseline["failing"] == ["check_calc.py"]  # add was wrong before the phase
    assert run["outcome"] == "failed" and "calc.py" in run["failing"]


def test_a_failure_the_phase_caused_in_an_untouched_file_is_vetoed_and_named(project: Path, tmp_path: Path) -> None:
    (project / "legacy.py").write_text("import calc\n\n\ndef total():\n    assert calc.add(2, 2) == 0, 'legacy relies on the old add'\n")
    (project / "check_calc.py").write_text("import calc\nimport legacy\n\nlegacy.total()\nassert calc.add(2, 3) == 5\n")
    book = RecordingBook(write_scripts(tmp_path / "s", {
        "executor-p1": [read("calc.py"), edit("calc.py", "a - b", "a + b")],
        "adjudicator-p1": [verdict("complete", {"t1": EVIDENCE})],
    }))
    result = run_with(project, blueprint_text(PHASE_FIX), book, options=ONE_TRY)
    [gate] = result.events("verdict")
    assert "veto:verify_failed_elsewhere" in gate["outstanding"]
    assert "only in files this phase never touched: check_calc.py, legacy.py" in gate["vetoes"][0]
    assert "never touched: check_calc.py, legacy.py" in book.seen[("adjudicator", "p1", 1)][0]
    assert result.events("phase_closed") == []


def test_a_failure_that_was_there_before_the_phase_in_untouched_files_is_a_defect_not_a_veto(project: Path, tmp_path: Path) -> None:
    (project / "legacy.py").write_text("def broken():\n    raise RuntimeError('legacy is broken')\n")
    (project / "check_calc.py").write_text("import calc\nimport legacy\n\nlegacy.broken()\nassert calc.add(2, 3) == 5\n")
    book = RecordingBook(write_scripts(tmp_path / "s", {
        "executor-p1": [read("calc.py"), edit("calc.py", "a - b", "a + b")],
        "adjudicator-p1": [verdict("complete", {"t1": EVIDENCE})],
    }))
    result = run_with(project, blueprint_text(PHASE_FIX), book, options=ONE_TRY)
    assert result.finished.reason == "done"
    assert "Known before this phase began" in book.seen[("adjudicator", "p1", 1)][0]
    [closed] = result.events("phase_closed")
    assert closed["defects"] == ["`python check_calc.py` already failed before phase work began, in files the phase did not touch: check_calc.py, legacy.py"]
    assert result.store.defects(result.run_id)[0][1] == closed["defects"][0]


def test_an_unreachable_adjudicator_keeps_the_phase_open_then_resume_asks_again(project: Path, tmp_path: Path) -> None:
    scripts = write_scripts(tmp_path / "s", {
        "executor-p1": [read("calc.py"), edit("calc.py", "a - b", "a + b")],
        "adjudicator-p1": [verdict("complete", {"t1": EVIDENCE})],
    })
    text = blueprint_text(PHASE_FIX)
    first = run_with(project, text, RecordingBook(scripts, unreachable="adjudicator"))
    assert first.finished.reason == "error" and "cannot connect" in first.finished.message
    assert first.events("phase_closed") == []
    [gate] = first.events("verdict")
    assert gate["verdict"] is None and gate["decision"] == "no_verdict"
    assert first.store.phases(first.run_id)[0].status == "parked"
    assert first.store.run(first.run_id).status == "parked"

    book = RecordingBook(scripts)
    again = run_with(project, text, book, store=first.store, run_id=first.run_id, resumed=True)
    assert again.finished.reason == "done"
    assert again.events("phase_started") == []  # the executor's work stood; only the gate ran again
    assert [key[0] for key in book.seen] == ["adjudicator"]


def test_evidence_that_is_too_short_is_refused_and_the_phase_stays_open(project: Path, tmp_path: Path) -> None:
    scripts = write_scripts(tmp_path / "s", {
        "executor-p1": [read("calc.py"), edit("calc.py", "a - b", "a + b")],
        "adjudicator-p1": [verdict("complete", {"t1": "done"}), {"text": "It is done."}],
    })
    result = run_blueprint(project, blueprint_text(PHASE_FIX), scripts)
    refused = [e for e in result.events("tool_finished") if e["tool"] == "submit_verdict"]
    assert refused and not refused[0]["ok"] and "too short" in refused[0]["error"]
    assert result.finished.reason == "error" and "without a valid verdict" in result.finished.message
    assert result.events("phase_closed") == []




def test_a_shrinking_outstanding_set_keeps_going_until_complete(project: Path, tmp_path: Path) -> None:
    book = RecordingBook(write_scripts(tmp_path / "s", shrinking_outstanding_scripts()))
    result = run_with(project, blueprint_text(THREE_TASKS), book)
    assert result.finished.reason == "done", result.finished.message
    started = result.events("phase_started")
    assert [(s["attempt"], s["fresh"]) for s in started] == [(1, True), (2, False), (3, True)]
    assert "t2 (document mul)" in started[1]["nudge"] and "t3 (add sub)" in started[1]["nudge"]
    third = book.seen[("executor", "p1", 3)][0]  # a fresh session: the digest and every nudge so far
    assert "Earlier attempts at this phase" in third and "files changed so far in this phase: calc.py" in third
    assert third.count("outstanding tasks:") == 2
    assert [v["outstanding"] for v in result.events("verdict")] == [["t2", "t3"], ["t3"], []]
    assert result.store.defects(result.run_id) == [("p1", "sub has no docstring")]
    assert "sub has no docstring" in render_report(result.store, result.run_id)


def test_the_same_outstanding_set_twice_stalls_at_once_and_resume_continues(project: Path, tmp_path: Path) -> None:
    scripts = write_scripts(tmp_path / "s", {
        "executor-p1": [read("calc.py"), edit("calc.py", "a - b", "a + b", marks=("t1", "t2", "t3")), claim_done("t2 done too")],
        "adjudicator-p1": [verdict("incomplete", E, outstanding=("t2", "t3"))],
    })
    text = blueprint_text(THREE_TASKS)
    result = run_blueprint(project, text, scripts)
    assert result.finished.reason == "stalled" and "phase p1 stalled" in result.finished.message
    verdicts = result.events("verdict")
    assert len(verdicts) == 2 and verdicts[-1]["decision"] == "stalled"  # retries 2 and 3 were not spent
    assert result.store.phases(result.run_id)[0].status == "stalled"

    (tmp_path / "s" / "executor-p1-3.json").write_text((tmp_path / "s" / "executor-p1.json").read_text())
    (tmp_path / "s" / "adjudicator-p1-3.json").write_text('{"turns": [' + json.dumps(verdict("complete", E)) + "]}")
    again = run_blueprint(project, text, tmp_path / "s", store=result.store, run_id=result.run_id, resumed=True)
    assert again.finished.reason == "done"
    assert [s["attempt"] for s in again.events("phase_started")] == [3]


def test_a_silent_session_is_stopped_by_the_watchdog(project: Path, tmp_path: Path) -> None:
    scripts = write_scripts(tmp_path / "s", {
        "executor-p1": [{"text": "Thinking", "hang": True}],
        "adjudicator-p1": [verdict("incomplete", {"t1": "calc.py line 2 still returns a - b, so add is still wrong"}, outstanding=("t1",))],
    })
    options = RunOptions(max_retries=0, tick_s=0.05, silent_after_s=0.4, turn_deadline_s=30, adjudicator_deadline_s=30)
    result = run_blueprint(project, blueprint_text(PHASE_FIX), scripts, options=options)
    [alarm] = result.events("watchdog")
    assert alarm["kind"] == "silent" and alarm["phase"] == "p1"
    assert result.finished.reason == "stalled"
    assert result.store.sessions(result.run_id)[0]["reason"] == "silent"
    assert any(a["kind"] == "watchdog" for a in result.store.audit(result.run_id))


def test_a_run_stuck_between_sessions_is_caught_as_quiet(project: Path, tmp_path: Path, monkeypatch) -> None:
    import asyncio

    from konstruct_tui.blueprint import phase_gate

    async def hangs(*args, **kwargs):  # a verification step that overruns its own deadline
        await asyncio.Event().wait()

    monkeypatch.setattr(phase_gate, "run_verification", hangs)
    scripts = write_scripts(tmp_path / "s", {"executor-p1": [read("calc.py"), edit("calc.py", "a - b", "a + b")]})
    text = blueprint_text(PHASE_FIX.replace('verify = ["python check_calc.py"]', 'verify = ["python check_calc.py"]\nverify_timeout_s = 0.1'))
    options = RunOptions(tick_s=0.05, turn_deadline_s=20, adjudicator_deadline_s=30)
    result = run_blueprint(project, text, scripts, options=options)
    [alarm] = result.events("watchdog")
    assert alarm["kind"] == "quiet" and alarm["session_id"] is None
    assert result.finished.reason == "error" and "watchdog" in result.finished.message
    assert result.store.run(result.run_id).status == "parked"


def test_the_token_budget_covers_the_whole_run_and_parks_it(project: Path, tmp_path: Path) -> None:
    heavy = dict(read("calc.py"), usage={"input_tokens": 900, "output_tokens": 200})
    scripts = write_scripts(tmp_path / "s", {"executor-p1": [heavy, edit("calc.py", "a - b", "a + b")]})
    options = RunOptions(max_tokens=1000, turn_deadline_s=20, adjudicator_deadline_s=30)
    result = run_blueprint(project, blueprint_text(PHASE_FIX), scripts, options=options)
    assert result.finished.reason == "max_tokens" and f"konstruct blueprint resume {result.run_id}" in result.finished.message
    assert result.events("budget")[-1]["input_tokens"] == 900
    assert "a - b" in (project / "calc.py").read_text()  # stopped before the next turn's edit
    assert result.store.run(result.run_id).status == "parked" and result.store.usage(result.run_id)[1:] == (900, 200)


def test_a_hung_model_turn_is_cut_at_its_deadline_and_the_gate_still_judges(project: Path, tmp_path: Path) -> None:
    from konstruct_tui.app import ScriptBook

    scripts = write_scripts(tmp_path / "s", {
        "executor-p1": [{"text": "Thinking", "hang": True}],
        "adjudicator-p1": [verdict("incomplete", {"t1": "calc.py line 2 still returns a - b, so add is still wrong"}, outstanding=("t1",))],
    })
    result = run_with(project, blueprint_text(PHASE_FIX), ScriptBook(scripts, 0.3), options=ONE_TRY)
    assert result.store.sessions(result.run_id)[0]["reason"] == "deadline"
    [gate] = result.events("verdict")
    assert gate["verdict"] == "incomplete" and gate["tier"] == "mechanical"
    assert result.finished.reason == "stalled"


def test_a_kill_between_a_phase_close_and_its_report_section_is_mended_on_resume(project: Path, tmp_path: Path) -> None:
    scripts = write_scripts(tmp_path / "s", {
        "executor-p1": [read("calc.py"), edit("calc.py", "a - b", "a + b")],
        "adjudicator-p1": [verdict("complete", {"t1": EVIDENCE})],
    })
    text = blueprint_text(PHASE_FIX)
    first = run_blueprint(project, text, scripts)
    store, run_id = first.store, first.run_id
    # What a SIGKILL right after the close transaction leaves: no section yet, the run still running.
    store.db.execute("DELETE FROM report_sections WHERE run_id=?", (run_id,))
    store.set_run(run_id, "running")
    assert "Not written yet" in render_report(store, run_id)
    again = run_blueprint(project, text, scripts, store=store, run_id=run_id, resumed=True)
    assert again.finished.reason == "done" and again.events("phase_started") == []
    report = render_report(store, run_id)
    assert "## Phase p1: Fix add" in report and "Not written yet" not in report


def test_each_phase_opens_a_fresh_session_seeded_with_the_ledger_and_accepted_defects(project: Path, tmp_path: Path) -> None:
    def phase(pid: str, title: str) -> str:
        return PHASE_FIX.replace('id = "p1"', f'id = "{pid}"', 1).replace("Fix add", title).replace('verify = ["python check_calc.py"]\n', "")

    book = RecordingBook(write_scripts(tmp_path / "s", {
        "executor-p1": [read("calc.py"), edit("calc.py", "a - b", "a + b", done="add now adds")],
        "adjudicator-p1": [verdict("complete_with_defects", {"t1": EVIDENCE}, defects=("add has no test for negative numbers",))],
        "executor-p2": [read("calc.py"), edit("calc.py", "    return a * b\n", "    return b * a\n", done="mul commuted")],
        "adjudicator-p2": [verdict("complete", {"t1": EVIDENCE})],
        "executor-p3": [read("calc.py"), edit("calc.py", "def mul", "# multiplication\ndef mul", done="commented")],
        "adjudicator-p3": [verdict("complete", {"t1": EVIDENCE})],
    }))
    result = run_with(project, blueprint_text(phase("p1", "One"), phase("p2", "Two"), phase("p3", "Three")), book)
    assert result.finished.reason == "done"
    sessions = [s for s in result.store.sessions(result.run_id) if s["role"] == "executor"]
    assert [s["phase_id"] for s in sessions] == ["p1", "p2", "p3"] and len({s["id"] for s in sessions}) == 3
    third = book.seen[("executor", "p3", 1)][0]
    assert "- p1: One: closed complete_with_defects after 1 attempt. changed calc.py. executor's summary: add now adds" in third
    assert "- p2: Two: closed complete after 1 attempt" in third
    assert "- [p1] add has no test for negative numbers" in third
    assert "Phase p1" not in third and "Phase p3: Three" in third  # no earlier phase's transcript, only the ledger
    assert [a["phase_id"] for a in result.store.audit(result.run_id) if a["kind"] == "gate"] == ["p1", "p2", "p3"]


def test_a_malformed_verdict_keeps_the_phase_open(project: Path, tmp_path: Path) -> None:
    scripts = write_scripts(tmp_path / "s", {
        "executor-p1": [read("calc.py"), edit("calc.py", "a - b", "a + b")],
        "adjudicator-p1": [{"text": "Verdict.", "tool_calls": [{"name": "submit_verdict", "raw_arguments": "{\"verdict\": \"complete\", "}]},
                           {"text": "The phase is complete."}],
    })
    result = run_blueprint(project, blueprint_text(PHASE_FIX), scripts)
    assert result.finished.reason == "error" and "without a valid verdict" in result.finished.message
    assert result.events("phase_closed") == [] and result.store.phases(result.run_id)[0].status == "parked"
