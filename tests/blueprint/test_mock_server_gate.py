"""The gate-integrity scenarios end to end: `konstruct blueprint run --headless` against fakellm, a
third-party mock of the OpenAI API on loopback. A fix made with `sed -i` closes its phase; a phase
that weakens its check script does not, whatever the (gullible) reviewer says."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from blueprint_harness import (
    CALC,
    CHECK,
    EVIDENCE,
    PHASE_FIX,
    blueprint_text,
    fakellm_server,
)

from konstruct_tui.cli import main

PREAMBLE = "".join(f"# check {n}: the sum of two numbers is what add returns\n" for n in range(6))
LONG_CHECK = PREAMBLE + CHECK


def _revision(text: str) -> str:
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def _rules() -> dict:
    def rule(name: str, when: dict, content: str, *calls: tuple[str, dict]) -> dict:
        return {"name": name, "when": when, "respond": {"content": content, "tool_calls": [{"name": n, "arguments": a} for n, a in calls]}}

    judge = ("submit_verdict", {"verdict": "complete", "tasks": [{"id": "t1", "evidence": EVIDENCE}]})
    weaken = ("write_code", {"edits": [{"path": "check_calc.py", "revision": _revision(LONG_CHECK),
                                        "replacements": [{"old": "== 5, 'add is wrong'", "new": "== -1, 'add is wrong'"}]}]})
    cosmetic = ("write_code", {"edits": [{"path": "calc.py", "revision": _revision(CALC),
                                          "replacements": [{"old": "def add(a, b):\n", "new": "def add(a, b):\n    \"\"\"Sum.\"\"\"\n"}]}]})
    done = ("phase_done", {"summary": "done"})
    return {"version": 1, "rules": [
        rule("sed_fix", {"turn": 1, "tools_include": "phase_done", "messages_contain": "Phase bysed:"}, "Fixing with sed.",
             ("run_command", {"command": "sed -i 's/a - b/a + b/' calc.py"}), done),
        rule("sed_judge", {"turn": 1, "tools_include": "submit_verdict", "messages_contain": "Phase bysed:"}, "Verdict.", judge),
        rule("weak_edit", {"turn": 1, "tools_include": "phase_done", "messages_contain": "Phase weak:"}, "Adjusting.", weaken, cosmetic, done),
        rule("weak_judge", {"turn": 1, "tools_include": "submit_verdict", "messages_contain": "Phase weak:"}, "Verdict.", judge),
    ]}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    pytest.importorskip("fakellm", reason="the dev dependency fakellm is not installed")
    with fakellm_server(tmp_path_factory.mktemp("fakellm-gate"), _rules()) as url:
        yield url


@pytest.fixture(autouse=True)
def no_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for key in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY"):
        monkeypatch.delenv(key, raising=False)


def _run(project: Path, tmp_path: Path, phase_id: str, url: str, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, list[dict]]:
    plan = tmp_path / "plan.toml"
    plan.write_text(blueprint_text(PHASE_FIX.replace('id = "p1"', f'id = "{phase_id}"', 1)))
    code = main(["blueprint", "run", str(plan), "--root", str(project), "--provider", "openai", "--base-url", url + "/v1",
                 "--model", "gpt-4o-mini", "--headless", "--max-retries", "0", *extra])
    return code, [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_a_fix_made_with_sed_closes_the_phase_and_the_report_says_a_command_made_it(server: str, project: Path, tmp_path: Path,
                                                                                    capsys: pytest.CaptureFixture[str], konstruct) -> None:
    httpx.post(server + "/_fakellm/reset")
    code, events = _run(project, tmp_path, "bysed", server, capsys, "--yes")
    assert code == 0, events[-1]
    assert "a + b" in (project / "calc.py").read_text()
    [closed] = [e for e in events if e["event"] == "phase_closed"]
    assert closed["changed"] == ["calc.py"]
    [gate] = [e for e in events if e["event"] == "verdict"]
    assert gate["changed"][0]["how"] == "command" and gate["changed"][0]["detail"].startswith("sed -i")
    code, report, _ = konstruct("blueprint", "report", events[0]["run_id"])
    assert "`calc.py` (modified, command: `sed -i" in report


def test_weakening_the_check_script_never_closes_whatever_the_reviewer_says(server: str, project: Path, tmp_path: Path,
                                                                           capsys: pytest.CaptureFixture[str], konstruct) -> None:
    httpx.post(server + "/_fakellm/reset")
    (project / "check_calc.py").write_text(LONG_CHECK)
    code, events = _run(project, tmp_path, "weak", server, capsys)
    assert code == 3 and events[-1]["reason"] == "stalled"
    assert "== -1" in (project / "check_calc.py").read_text()
    [gate] = [e for e in events if e["event"] == "verdict"]
    assert gate["verdict"] == "complete" and "veto:verify_weakened" in gate["outstanding"] and gate["pinned_edited"] == ["check_calc.py"]
    assert not [e for e in events if e["event"] == "phase_closed"]
    code, report, _ = konstruct("blueprint", "report", events[0]["run_id"])
    assert "verification ignored the edits): `check_calc.py`" in report
