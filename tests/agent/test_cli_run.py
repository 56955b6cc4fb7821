"""`konstruct run` headless: JSON-lines events, exit codes, flags, resume, and SIGINT as the kill switch."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from agent_harness import CALC, DONE, FIX_CALC, READ_CALC, write_script

from konstruct_tui.agent.sessions import sessions_dir
from konstruct_tui.cli import main

EVENTS = {"session_started", "turn_started", "text_delta", "tool_started", "tool_finished", "budget", "trust_request", "finished"}


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[dict], str]:
    code = main(["run", *argv])
    out, err = capsys.readouterr()
    return code, [json.loads(line) for line in out.splitlines()], err


def test_scripted_run_end_to_end(project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = write_script(tmp_path, [READ_CALC, FIX_CALC, DONE])
    code, events, err = run(capsys, "--root", str(project), "--provider", "scripted", "--script", str(script), "--yes", "fix add")
    assert code == 0 and err == ""
    assert (project / "calc.py").read_text() == CALC.replace("a - b", "a + b")
    names = [e["event"] for e in events]
    assert names[0] == "session_started" and names[-1] == "finished" and set(names) <= EVENTS
    first = events[0]
    assert first["session_id"] and first["provider"] == "scripted" and first["model"] == "scripted:script.json"
    assert "no model is called" in first["note"]
    finished = events[-1]
    assert finished["reason"] == "done" and finished["landed"] == [{"tool": "write_code", "call_id": "script_2_1", "path": "calc.py", "status": "written"}]
    edit = [e for e in events if e["event"] == "tool_finished"][1]
    assert edit["result"]["results"][0]["status"] == "written" and edit["statuses"] == ["written"]
    budget = [e for e in events if e["event"] == "budget"][-1]
    assert budget["cost_usd"] == 0.0 and budget["turns"] == 3
    assert str(project) not in json.dumps(events)  # the absolute root is never shown


def test_without_yes_edits_are_denied_and_nothing_changes(project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = write_script(tmp_path, [READ_CALC, FIX_CALC, DONE])
    code, events, _ = run(capsys, "--root", str(project), "--provider", "scripted", "--script", str(script), "fix add")
    assert code == 0 and (project / "calc.py").read_text() == CALC
    (trust,) = [e for e in events if e["event"] == "trust_request"]
    assert trust["capability"] == "edit" and trust["decision"] == "denied"


def test_budget_reasons_have_their_own_exit_codes(project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = write_script(tmp_path, [READ_CALC] * 3)
    code, events, _ = run(capsys, "--root", str(project), "--provider", "scripted", "--script", str(script), "--max-turns", "2", "read")
    assert code == 3 and events[-1]["reason"] == "max_turns"
    code, events, _ = run(capsys, "--root", str(project), "--provider", "scripted", "--script", str(script), "read more")
    assert code == 1 and events[-1]["reason"] == "error"  # the script ran out
    hang = write_script(tmp_path, [{"text": "thinking", "hang": True}], "hang.json")
    code, events, _ = run(capsys, "--root", str(project), "--provider", "scripted", "--script", str(hang), "--timeout", "0.3", "think")
    assert code == 124 and events[-1]["reason"] == "timeout"


def test_resume_continues_a_session(project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = write_script(tmp_path, [READ_CALC, FIX_CALC, DONE])
    code, events, _ = run(capsys, "--root", str(project), "--provider", "scripted", "--script", str(script), "--yes", "--max-turns", "1", "fix add")
    session_id = events[0]["session_id"]
    assert code == 3
    code, events, _ = run(capsys, "--resume", session_id, "--yes")  # root, provider and script come from the session
    assert code == 0 and events[0]["session_id"] == session_id and events[0]["resumed"] is True
    assert (project / "calc.py").read_text() == CALC.replace("a - b", "a + b")


@pytest.mark.parametrize("argv, message", [
    (["--max-turns", "0", "x"], "--max-turns: '0' must be greater than 0"),
    (["--max-cost", "cheap", "x"], "--max-cost: 'cheap' is not a number"),
    (["--provider", "gemini", "x"], "invalid choice: 'gemini'"),
    (["--provider", "scripted"], "give a REQUEST"),
    (["--provider", "scripted", "x"], "needs --script FILE"),
    (["--provider", "scripted", "--script", "/nonexistent/s.json", "x"], "cannot read script"),
    (["--resume", "20260101-000000-abcdef"], "no session"),
    (["--provider", "openai", "--base-url", "ftp://h", "x"], "must start with http"),
    (["--root", "/nonexistent/dir", "--provider", "openai", "--base-url", "http://127.0.0.1:9", "x"], "is not a directory"),
])
def test_bad_flags_one_line_exit_2_nothing_written(argv: list[str], message: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    code, events, err = run(capsys, *argv)
    assert code == 2 and events == []
    assert len(err.strip().splitlines()) == 1 and message in err
    assert not sessions_dir().exists()


def test_openai_without_a_key_is_a_usage_error(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    code, _, err = run(capsys, "--provider", "openai", "x")
    assert code == 2 and "OPENAI_API_KEY is not set" in err


def test_sigint_is_the_kill_switch(project: Path, tmp_path: Path) -> None:
    script = write_script(tmp_path, [{"text": "thinking hard", "hang": True}])
    proc = subprocess.Popen(
        [sys.executable, "-m", "konstruct_tui", "run", "--root", str(project), "--provider", "scripted", "--script", str(script), "think"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        lines = []
        for line in proc.stdout:  # type: ignore[union-attr]
            lines.append(json.loads(line))
            if lines[-1]["event"] == "text_delta":
                break
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        rest, err = proc.communicate(timeout=10)
        waited = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
    finished = json.loads(rest.splitlines()[-1])
    assert proc.returncode == 130 and finished["event"] == "finished" and finished["reason"] == "killed"
    assert waited < 2.0, f"exit took {waited:.2f} s after SIGINT"  # the 300 ms figure is bench_kill's; CI machines are noisy
    assert "Traceback" not in err


def test_relevant_neighborhoods_from_an_existing_index(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "shop"
    for folder, files in {"billing": {"invoice.py": "from billing.tax import rate\n\ndef invoice_total(x):\n    return x * rate()\n",
                                      "tax.py": "def rate():\n    return 1.2\n"},
                          "auth": {"login.py": "from auth.tokens import make\n\ndef login(u):\n    return make(u)\n",
                                   "tokens.py": "def make(u):\n    return u\n"}}.items():
        (root / folder).mkdir(parents=True)
        (root / folder / "__init__.py").write_text("")
        for name, text in files.items():
            (root / folder / name).write_text(text)
    script = write_script(tmp_path, [DONE])
    code, events, _ = run(capsys, "--root", str(root), "--provider", "scripted", "--script", str(script), "fix the invoice total")
    assert code == 0 and events[0]["neighborhoods"] == []  # no index yet: nothing is built, nothing is said
    assert main(["index", "--root", str(root)]) == 0
    capsys.readouterr()
    code, events, _ = run(capsys, "--root", str(root), "--provider", "scripted", "--script", str(script), "fix the invoice total")
    assert [h["members"] for h in events[0]["neighborhoods"]] == [["billing/invoice.py", "billing/tax.py"]]


def test_request_from_stdin(project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO("a long request\nover two lines\n"))
    code, events, _ = run(capsys, "--root", str(project), "--provider", "scripted", "--script", str(write_script(tmp_path, [DONE])), "-")
    assert code == 0
    record = json.loads((sessions_dir() / f"{events[0]['session_id']}.jsonl").read_text().splitlines()[0])
    assert record["request"] == "a long request\nover two lines\n"
