"""End to end: `konstruct blueprint run --headless` against fakellm, a third-party mock of the
OpenAI API run as its own process on loopback. Its rules tell the executor from the adjudicator by
the tools each is offered, and phases by their brief; each session is its own conversation."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from blueprint_harness import CALC, EVIDENCE, PHASE_DOC, PHASE_FIX, blueprint_text, fakellm_server

from konstruct_tui.cli import main

FIXED = CALC.replace("a - b", "a + b")
DOC_EVIDENCE = "calc.py: mul now starts with the docstring 'The product.' under its def line"


def _revision(text: str) -> str:
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def _rules() -> dict:
    def rule(name: str, when: dict, content: str, *calls: tuple[str, dict]) -> dict:
        return {"name": name, "when": when, "respond": {"content": content, "tool_calls": [{"name": n, "arguments": a} for n, a in calls]}}

    def edit(before: str, old: str, new: str) -> tuple[str, dict]:
        return ("write_code", {"edits": [{"path": "calc.py", "revision": _revision(before), "replacements": [{"old": old, "new": new}]}]})

    verdict = lambda evidence: ("submit_verdict", {"verdict": "complete", "tasks": [{"id": "t1", "evidence": evidence}]})
    return {"version": 1, "rules": [
        rule("p1_read", {"turn": 1, "tools_include": "phase_done", "messages_contain": "Phase p1:"}, "Reading calc.py.", ("read_code", {"paths": ["calc.py"]})),
        rule("p1_fix", {"turn": 2, "tools_include": "phase_done", "messages_contain": "Phase p1:"}, "Fixing add.",
             edit(CALC, "a - b", "a + b"), ("mark_task", {"id": "t1", "status": "done"}), ("phase_done", {"summary": "add returns a + b"})),
        rule("p1_judge", {"turn": 1, "tools_include": "submit_verdict", "messages_contain": "Phase p1:"}, "Verdict.", verdict(EVIDENCE)),
        rule("p2_read", {"turn": 1, "tools_include": "phase_done", "messages_contain": "Phase p2:"}, "Reading calc.py.", ("read_code", {"paths": ["calc.py"]})),
        rule("p2_doc", {"turn": 2, "tools_include": "phase_done", "messages_contain": "Phase p2:"}, "Documenting mul.",
             edit(FIXED, "def mul(a, b):\n", 'def mul(a, b):\n    """The product."""\n'), ("phase_done", {"summary": "mul documented"})),
        rule("p2_judge", {"turn": 1, "tools_include": "submit_verdict", "messages_contain": "Phase p2:"}, "Verdict.", verdict(DOC_EVIDENCE)),
    ]}


@pytest.fixture(scope="module")
def fakellm(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    pytest.importorskip("fakellm", reason="the dev dependency fakellm is not installed")
    with fakellm_server(tmp_path_factory.mktemp("fakellm"), _rules()) as url:
        yield url


def test_a_two_phase_blueprint_against_a_mock_openai_server(fakellm: str, project: Path, tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    for key in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY"):
        monkeypatch.delenv(key, raising=False)
    httpx.post(fakellm + "/_fakellm/reset")
    plan = tmp_path / "plan.toml"
    plan.write_text(blueprint_text(PHASE_FIX, PHASE_DOC))
    code = main(["blueprint", "run", str(plan), "--root", str(project), "--provider", "openai", "--base-url", fakellm + "/v1",
                 "--model", "gpt-4o-mini", "--headless"])
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert code == 0, events[-1]
    assert [(e["phase"], e["verdict"]) for e in events if e["event"] == "phase_closed"] == [("p1", "complete"), ("p2", "complete")]
    assert (project / "calc.py").read_text() == FIXED.replace("def mul(a, b):\n", 'def mul(a, b):\n    """The product."""\n')
    assert events[-1]["event"] == "finished" and events[-1]["reason"] == "done" and events[-1]["turns"] == 6
    assert [e["input_tokens"] > 0 for e in events if e["event"] == "budget"][-1]
