"""The gate judges what is on disk: an executor that weakens its verification never closes its phase,
a fix made by a command counts, new tests run, and a path's spelling changes nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from blueprint_harness import (
    COMMANDS,
    COSMETIC,
    EVIDENCE,
    ONE_TRY,
    PHASE_FIX,
    RecordingBook,
    blueprint_text,
    edit,
    read,
    run_blueprint,
    run_with,
    verdict,
    write_scripts,
)

from konstruct_tui.blueprint import render_report

WEAKEN = ("assert calc.add(2, 3) == 5, 'add is wrong'", "assert calc.add(2, 3) == -1, 'add is wrong'")
# Long enough that a one-line edit stays inside write_code's 50% guard.
PREAMBLE = "".join(f"# check {n}: the sum of two numbers is what add returns\n" for n in range(6))


@pytest.fixture(autouse=True)
def longer_check(project: Path) -> None:
    (project / "check_calc.py").write_text(PREAMBLE + (project / "check_calc.py").read_text())


def command(line: str, *, done: bool = True) -> dict[str, Any]:
    calls: list[dict[str, Any]] = [{"name": "run_command", "arguments": {"command": line}}]
    if done:
        calls.append({"name": "phase_done", "arguments": {"summary": "done"}})
    return {"text": "Running.", "tool_calls": calls}


def gate_audit(result: Any) -> list[dict[str, Any]]:
    return [a for a in result.store.audit(result.run_id) if a["kind"] == "gate"]


@pytest.mark.parametrize("how", ["write_code", "sed"])
def test_a_phase_that_weakens_its_check_script_stays_open_whatever_the_reviewer_says(project: Path, tmp_path: Path, how: str) -> None:
    weaken = edit("check_calc.py", *WEAKEN, done=None) if how == "write_code" else command("sed -i s/==\\ 5/==\\ -1/ check_calc.py", done=False)
    book = RecordingBook(write_scripts(tmp_path / "s", {
        "executor-p1": [read("calc.py", "check_calc.py"), weaken, edit("calc.py", *COSMETIC)],
        "adjudicator-p1": [verdict("complete", {"t1": EVIDENCE})],  # gullible: believes whatever it is told
    }))
    result = run_with(project, blueprint_text(PHASE_FIX), book, options=COMMANDS)
    assert "== -1" in (project / "check_calc.py").read_text()  # the workspace keeps the edit; the gate ignores it
    assert result.finished.reason == "stalled" and result.events("phase_closed") == []
    [gate] = result.events("verdict")
    assert gate["verdict"] == "complete" and gate["decision"] != "close"
    assert "veto:verify_weakened" in gate["outstanding"] and gate["pinned_edited"] == ["check_calc.py"]
    assert "passes only with this phase's own edits to check_calc.py" in gate["vetoes"][0]
    [audit] = gate_audit(result)
    assert audit["detail"]["pinned_edited"] == ["check_calc.py"]
    assert {c["path"] for c in audit["detail"]["changed"]} == {"calc.py", "check_calc.py"}
    told = book.seen[("adjudicator", "p1", 1)][0]
    assert "The verification ignored these edits" in told and "+assert calc.add(2, 3) == -1" in told
    assert "check_calc.py" in render_report(result.store, result.run_id).split("pinned verification files")[1]


@pytest.mark.parametrize("relevant", ["", 'relevant = ["**/*.py"]\n', 'relevant = ["./check_calc.py", "calc.py"]\n'])
def test_editing_only_the_check_script_never_closes_whatever_relevant_says(project: Path, tmp_path: Path, relevant: str) -> None:
    text = blueprint_text(PHASE_FIX.replace('relevant = ["calc.py"]\n', relevant))
    scripts = write_scripts(tmp_path / "s", {
        "executor-p1": [read("check_calc.py"), edit("check_calc.py", *WEAKEN)],
        "adjudicator-p1": [verdict("complete", {"t1": EVIDENCE})],
    })
    result = run_blueprint(project, text, scripts, options=ONE_TRY)
    [gate] = result.events("verdict")
    assert gate["tier"] == "executable" and "veto:verify_weakened" in gate["outstanding"]
    assert result.events("phase_closed") == []


def test_a_fix_made_with_sed_through_run_command_closes_and_is_labelled_a_command(project: Path, tmp_path: Path) -> None:
    line = "sed -i s/a\\ -\\ b/a\\ +\\ b/ calc.py"
    scripts = write_scripts(tmp_path / "s", {
        "executor-p1": [read("calc.py"), command(line)],
        "adjudicator-p1": [verdict("complete", {"t1": EVIDENCE})],
    })
    result = run_blueprint(project, blueprint_text(PHASE_FIX), scripts, options=COMMANDS)
    assert "a + b" in (project / "calc.py").read_text()
    assert result.finished.reason == "done", result.finished.message
    [closed] = result.events("phase_closed")
    assert closed["changed"] == ["calc.py"]
    [gate] = result.events("verdict")
    assert gate["changed"] == [{"path": "calc.py", "kind": "modified", "how": "command", "detail": line}]
    [audit] = gate_audit(result)
    assert audit["detail"]["changed"][0]["how"] == "command"
    assert f"`calc.py` (modified, command: `{line}`)" in render_report(result.store, result.run_id)


def test_a_touch_that_changes_no_byte_is_no_change(project: Path, tmp_path: Path) -> None:
    scripts = write_scripts(tmp_path / "s", {
        "executor-p1": [command("touch calc.py")],
        "adjudicator-p1": [verdict("complete", {"t1": EVIDENCE})],
    })
    result = run_blueprint(project, blueprint_text(PHASE_FIX), scripts, options=COMMANDS)
    [gate] = result.events("verdict")
    assert gate["outstanding"][-1] == "veto:no_change" and gate["changed"] == []


PYTEST_PHASE = PHASE_FIX.replace('verify = ["python check_calc.py"]', 'verify = ["python -m pytest -q -p no:cacheprovider"]')
TEST_SUM = PREAMBLE + "import calc\n\n\ndef test_sum():\n    assert calc.add(2, 3) == 5\n"


def test_a_new_test_and_the_fix_close_the_phase(project: Path, tmp_path: Path) -> None:
    new_test = {"text": "Adding a test.", "tool_calls": [{"name": "write_code", "arguments": {"edits": [
        {"path": "tests/test_sum.py", "create": True, "content": TEST_SUM}]}}]}
    scripts = write_scripts(tmp_path / "s", {
        "executor-p1": [read("calc.py"), new_test, edit("calc.py", "a - b", "a + b")],
        "adjudicator-p1": [verdict("complete", {"t1": EVIDENCE})],
    })
    result = run_blueprint(project, blueprint_text(PYTEST_PHASE), scripts, options=ONE_TRY)
    assert result.finished.reason == "done", result.finished.message
    [closed] = result.events("phase_closed")
    assert sorted(closed["changed"]) == ["calc.py", "tests/test_sum.py"]
    last = result.store.verifications(result.run_id)[-1]
    assert last["outcome"] == "ok" and "1 passed" in last["output"]  # the new test ran


def test_a_new_test_that_fails_keeps_the_phase_open(project: Path, tmp_path: Path) -> None:
    failing = TEST_SUM.replace("== 5", "== 6")
    new_test = {"text": "Adding a test.", "tool_calls": [{"name": "write_code", "arguments": {"edits": [
        {"path": "tests/test_sum.py", "create": True, "content": failing}]}}]}
    scripts = write_scripts(tmp_path / "s", {
        "executor-p1": [read("calc.py"), new_test, edit("calc.py", "a - b", "a + b")],
        "adjudicator-p1": [verdict("complete", {"t1": EVIDENCE})],
    })
    result = run_blueprint(project, blueprint_text(PYTEST_PHASE), scripts, options=ONE_TRY)
    [gate] = result.events("verdict")
    assert "veto:verify_failed" in gate["outstanding"] and "tests/test_sum.py" in gate["vetoes"][0]


def test_a_new_conftest_cannot_rig_the_tests(project: Path, tmp_path: Path) -> None:
    (project / "tests").mkdir()
    (project / "tests" / "test_add.py").write_text(TEST_SUM)  # fails before the phase, in a file it never touches
    skip_all = "import calc\n\ncalc.add = lambda a, b: a + b  # 'fixed'\n"
    conftest = {"text": "Tidying.", "tool_calls": [{"name": "write_code", "arguments": {"edits": [
        {"path": "tests/conftest.py", "create": True, "content": skip_all}]}}]}
    scripts = write_scripts(tmp_path / "s", {
        "executor-p1": [read("calc.py"), conftest, edit("calc.py", *COSMETIC)],
        "adjudicator-p1": [verdict("complete", {"t1": EVIDENCE})],
    })
    result = run_blueprint(project, blueprint_text(PYTEST_PHASE), scripts, options=ONE_TRY)
    [gate] = result.events("verdict")
    assert gate["pinned_edited"] == ["tests/conftest.py"] and "veto:verify_weakened" in gate["outstanding"]
    assert result.events("phase_closed") == [] and gate["defects"] == []  # not excused as a failure from before


def test_a_test_file_a_task_names_as_its_target_is_the_phases_to_change(project: Path, tmp_path: Path) -> None:
    (project / "tests").mkdir()
    (project / "tests" / "test_add.py").write_text(TEST_SUM.replace("== 5", "== -1"))  # the test expects the bug
    text = blueprint_text(PYTEST_PHASE.replace('text = "make add return a + b"', 'text = "make add return a + b and fix its test"\n'
                                                                                 'files = ["src/../tests/test_add.py"]'))
    scripts = write_scripts(tmp_path / "s", {
        "executor-p1": [read("calc.py", "tests/test_add.py"), edit("tests/test_add.py", "== -1", "== 5", done=None),
                        edit("calc.py", "a - b", "a + b")],
        "adjudicator-p1": [verdict("complete", {"t1": EVIDENCE})],
    })
    result = run_blueprint(project, text, scripts, options=ONE_TRY)
    assert result.finished.reason == "done", result.finished.message
    [gate] = result.events("verdict")
    assert gate["pinned_edited"] == []


def test_a_path_spelt_through_dot_dot_is_the_path_it_names(project: Path, tmp_path: Path) -> None:
    (project / "src").mkdir()
    (project / "src" / "util.py").write_text("X = 1\n")
    text = blueprint_text(PHASE_FIX.replace('relevant = ["calc.py"]', 'relevant = ["src/"]').replace('verify = ["python check_calc.py"]\n', ""))
    scripts = write_scripts(tmp_path / "s", {
        "executor-p1": [read("src/../notes.md"), edit("src/../notes.md", "# notes", "# notes\nadd is fixed")],
        "adjudicator-p1": [verdict("complete", {"t1": EVIDENCE})],
    })
    result = run_blueprint(project, text, scripts, options=ONE_TRY)
    [gate] = result.events("verdict")
    assert "veto:relevant_untouched" in gate["outstanding"]
    assert [c["path"] for c in gate["changed"]] == ["notes.md"]
    assert gate["changed"][0]["how"] == "tool"
    assert result.events("phase_closed") == []


def test_a_new_test_file_that_ends_the_run_early_does_not_rig_the_verdict(project: Path, tmp_path: Path) -> None:
    (project / "tests").mkdir()
    (project / "tests" / "test_add.py").write_text(TEST_SUM)
    rig = {"text": "Adding a test.", "tool_calls": [{"name": "write_code", "arguments": {"edits": [
        {"path": "tests/test_aaa.py", "create": True, "content": "import os\n\nos._exit(0)\n"}]}}]}
    scripts = write_scripts(tmp_path / "s", {
        "executor-p1": [read("calc.py"), rig, edit("calc.py", *COSMETIC)],
        "adjudicator-p1": [verdict("complete", {"t1": EVIDENCE})],
    })
    result = run_blueprint(project, blueprint_text(PYTEST_PHASE), scripts, options=ONE_TRY)
    [gate] = result.events("verdict")
    assert "veto:verify_weakened" in gate["outstanding"] and "tests/test_aaa.py" in gate["vetoes"][0]
    assert result.events("phase_closed") == []


def test_a_phase_may_create_project_files_its_verification_reads(project: Path, tmp_path: Path) -> None:
    (project / "tests").mkdir()
    (project / "tests" / "test_add.py").write_text(TEST_SUM)
    scaffold = {"text": "Packaging.", "tool_calls": [{"name": "write_code", "arguments": {"edits": [
        {"path": "pyproject.toml", "create": True, "content": "[project]\nname = 'calc'\nversion = '0.1'\n"}]}}]}
    scripts = write_scripts(tmp_path / "s", {
        "executor-p1": [read("calc.py"), scaffold, edit("calc.py", "a - b", "a + b")],
        "adjudicator-p1": [verdict("complete", {"t1": EVIDENCE})],
    })
    result = run_blueprint(project, blueprint_text(PYTEST_PHASE), scripts, options=ONE_TRY)
    assert result.finished.reason == "done", result.finished.message
    [gate] = result.events("verdict")
    assert gate["pinned_edited"] == [] and sorted(c["path"] for c in gate["changed"]) == ["calc.py", "pyproject.toml"]


def test_a_change_that_lands_while_verification_runs_makes_its_pass_stale(project: Path, tmp_path: Path) -> None:
    import glob
    import tempfile
    import threading
    import time
    import uuid

    marker = f"verifying-{uuid.uuid4().hex}"
    (project / "check_calc.py").write_text(
        "import calc, time\n\nassert calc.add(2, 3) == 5, 'add is wrong'\n"
        f"open({marker!r}, 'w').close()\ntime.sleep(1.5)\n")

    def late_edit() -> None:  # someone (a command left running, the person) edits while the check runs
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if (project / marker).exists() or glob.glob(f"{tempfile.gettempdir()}/konstruct-verify-*/workspace/{marker}"):
                with open(project / "calc.py", "a") as handle:
                    handle.write("# late\n")
                return
            time.sleep(0.02)

    editor = threading.Thread(target=late_edit, daemon=True)
    editor.start()
    scripts = write_scripts(tmp_path / "s", {
        "executor-p1": [read("calc.py"), edit("calc.py", "a - b", "a + b")],
        "adjudicator-p1": [verdict("complete", {"t1": EVIDENCE})],
    })
    result = run_blueprint(project, blueprint_text(PHASE_FIX), scripts, options=ONE_TRY)
    editor.join(5)
    [gate] = result.events("verdict")
    assert "veto:verify_stale" in gate["outstanding"]
    assert any("the disk changed after the verification ran (calc.py)" in v for v in gate["vetoes"])
    assert result.events("phase_closed") == []


def test_what_verification_writes_in_the_workspace_is_never_the_phases_change(project: Path, tmp_path: Path) -> None:
    (project / "check_calc.py").write_text("open('verify-report.txt', 'w').write('ran')\n" + (project / "check_calc.py").read_text())
    scripts = write_scripts(tmp_path / "s", {
        "executor-p1": [{"text": "Done.", "tool_calls": [{"name": "phase_done", "arguments": {"summary": "fixed"}}]}],
        "adjudicator-p1": [verdict("complete", {"t1": EVIDENCE})],
    })
    result = run_blueprint(project, blueprint_text(PHASE_FIX), scripts, options=ONE_TRY)
    assert (project / "verify-report.txt").exists()  # it ran in the workspace, as a person's command would
    [gate] = result.events("verdict")
    assert gate["outstanding"][-1] == "veto:no_change" and gate["changed"] == []


def test_a_new_dependency_in_pyproject_is_not_an_edit_to_the_verification(project: Path, tmp_path: Path) -> None:
    (project / "tests").mkdir()
    (project / "tests" / "test_add.py").write_text(TEST_SUM)
    pyproject = PREAMBLE + "[project]\nname = 'calc'\ndependencies = []\n\n[tool.pytest.ini_options]\naddopts = '-q'\n"
    (project / "pyproject.toml").write_text(pyproject)
    scripts = write_scripts(tmp_path / "s", {
        "executor-p1": [read("calc.py", "pyproject.toml"), edit("pyproject.toml", "dependencies = []", "dependencies = ['attrs']", done=None),
                        edit("calc.py", "a - b", "a + b")],
        "adjudicator-p1": [verdict("complete", {"t1": EVIDENCE})],
    })
    result = run_blueprint(project, blueprint_text(PYTEST_PHASE), scripts, options=ONE_TRY)
    assert result.finished.reason == "done", result.finished.message
    [gate] = result.events("verdict")
    assert gate["pinned_edited"] == [] and "pyproject.toml" in [c["path"] for c in gate["changed"]]
