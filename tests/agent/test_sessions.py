"""Sessions are written as they happen and a run can be resumed where it stopped."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest
from agent_harness import CALC, DONE, FIX_CALC, READ_CALC, scripted_loop, write_script

from konstruct_tui.agent import (
    Limits,
    SessionMissing,
    SessionStarted,
    TurnStarted,
    load_session,
)
from konstruct_tui.agent.ports import AssistantMessage, ToolResultMessage, UserMessage
from konstruct_tui.agent.sessions import sessions_dir


def lines(session_id: str) -> list[dict]:
    return [json.loads(line) for line in (sessions_dir() / f"{session_id}.jsonl").read_text().splitlines()]


async def test_every_message_is_on_disk_with_private_permissions(project: Path, tmp_path: Path) -> None:
    loop, _, _ = scripted_loop(project, write_script(tmp_path, [READ_CALC, FIX_CALC, DONE]))
    finished = await loop.run("fix add")
    path = sessions_dir() / f"{finished.session_id}.jsonl"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    kinds = [line["kind"] for line in lines(finished.session_id)]
    assert kinds[0] == "header" and kinds[-1] == "finished"
    assert kinds.count("message") == 6  # request, 3 replies, 2 tool results
    assert kinds.count("budget") == 3


async def test_resume_continues_the_transcript_with_budgets_of_its_own(project: Path, tmp_path: Path) -> None:
    script = write_script(tmp_path, [READ_CALC, FIX_CALC, DONE])
    loop, _, _ = scripted_loop(project, script, limits=Limits(max_turns=1))
    first = await loop.run("fix add")
    assert first.reason == "max_turns" and (project / "calc.py").read_text() == CALC

    loop, model, events = scripted_loop(project, script, limits=Limits(max_turns=2))
    second = await loop.run(None, resume=load_session(first.session_id))
    assert second.reason == "done" and second.session_id == first.session_id and second.turns == 2
    assert (project / "calc.py").read_text() == CALC.replace("a - b", "a + b")
    started = events.of(SessionStarted)[0]
    assert started.resumed and started.session_id == first.session_id
    assert [e.turn for e in events.of(TurnStarted)] == [2, 3]  # turns count on from the first run
    assert isinstance(model.transcripts[0][1], AssistantMessage)  # the model saw the earlier turn


async def test_a_call_cut_off_by_a_crash_is_answered_on_resume(project: Path, tmp_path: Path) -> None:
    loop, _, _ = scripted_loop(project, write_script(tmp_path, [READ_CALC, DONE]))
    finished = await loop.run("read")
    path = sessions_dir() / f"{finished.session_id}.jsonl"
    kept = [line for line in path.read_text().splitlines() if '"role": "tool"' not in line][:-3]
    path.write_text("\n".join(kept) + '\n{"kind": "message", "message": {"role": "us')  # torn by the crash
    record = load_session(finished.session_id)
    assert [type(m) for m in record.transcript] == [UserMessage, AssistantMessage, ToolResultMessage]
    mended = record.transcript[-1]
    assert mended.is_error and "interrupted" in mended.content and "Re-read" in mended.content


@pytest.mark.parametrize("bad", ["../../etc/passwd", "20260101-000000-zzzzzz", "20260101-000000-abcdef"])
def test_unknown_or_malformed_ids_are_refused(bad: str) -> None:
    with pytest.raises(SessionMissing):
        load_session(bad)
