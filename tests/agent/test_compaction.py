"""Compaction loses nothing that matters: the model's summary may be wrong, the facts block built in
code from the tool results and the disk is not; the session file keeps the full history."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import httpx
import pytest
from agent_harness import CALC, DONE, FIX_CALC, READ_CALC, scripted_loop, write_script

from konstruct_tui.agent.compaction import NothingToCompact, compact, compact_session
from konstruct_tui.agent.events import Compacted, ProviderWarning
from konstruct_tui.agent.ports import AssistantMessage, ToolResultMessage, UserMessage
from konstruct_tui.agent.sessions import load, sessions_dir
from konstruct_tui.providers import OpenAICompatible, RetryPolicy
from konstruct_tui.tools import ToolContext, call
from konstruct_tui.workspace import EditRun, Workspace

FIXED = CALC.replace("a - b", "a + b")


def sha(text: str) -> str:
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def summary_server(summary: str, seen: list[dict] | None = None, status: int = 200) -> OpenAICompatible:
    """An OpenAI-compatible server (MockTransport) whose model writes `summary`."""
    frames = [{"choices": [{"index": 0, "delta": {"content": summary}}]}, {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
              {"choices": [], "usage": {"prompt_tokens": 900, "completion_tokens": 40}}]
    stream = b"".join(b"data: " + json.dumps(f).encode() + b"\n\n" for f in frames) + b"data: [DONE]\n\n"

    def handler(request: httpx.Request) -> httpx.Response:
        if seen is not None:
            seen.append(json.loads(request.content))
        if status != 200:
            return httpx.Response(status, json={"error": {"message": "summaries are switched off on this server", "type": "invalid_request_error"}})
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=stream)

    return OpenAICompatible(httpx.AsyncClient(transport=httpx.MockTransport(handler)), model="m", base_url="http://127.0.0.1:9/v1",
                            retry=RetryPolicy(attempts=1))


def facts_json(text: str) -> dict:
    return json.loads(re.search(r"<session-facts>(.*?)</session-facts>", text, re.DOTALL).group(1))


async def test_the_summary_is_wrong_about_a_revision_and_the_facts_block_is_right(project: Path, tmp_path: Path) -> None:
    loop, _, _ = scripted_loop(project, write_script(tmp_path, [READ_CALC, FIX_CALC, DONE]))
    finished = await loop.run("add() in calc.py subtracts; fix it")
    assert finished.reason == "done"
    # The model "remembers" the revision it first read, from before its own edit: wrong.
    wrong = f"Read calc.py (revision {sha(CALC)}); it is unchanged, nothing was edited yet."
    seen: list[dict] = []
    with Workspace(project) as workspace:
        result = await compact(load(finished.session_id).transcript, summary_server(wrong, seen), workspace, keep_chars=0)
    text = result.message.text
    assert result.summary == wrong and wrong in text
    facts = facts_json(text)
    assert facts["changed"] == {"calc.py": {"status": "written", "revision": sha(FIXED)}}
    assert facts["read"]["calc.py"] == sha(FIXED) and facts["current"]["calc.py"] == sha(FIXED)
    assert f"calc.py: written; on disk now {sha(FIXED)} (the same as you last saw)" in text
    assert facts["request"] == "add() in calc.py subtracts; fix it"
    # The summary call carried no tools and the summarising instructions.
    assert "tools" not in seen[0] and "summarising" in seen[0]["messages"][0]["content"]
    # What a person would notice: an edit built on the facts' revision lands; one built on the summary's conflicts.
    with Workspace(project) as workspace:
        context = ToolContext(workspace, run=EditRun())
        edit = {"path": "calc.py", "replacements": [{"old": "return a * b", "new": "return b * a"}]}
        stale = call("write_code", {"edits": [{**edit, "revision": sha(CALC)}]}, context).to_json()
        fresh = call("write_code", {"edits": [{**edit, "revision": facts["current"]["calc.py"]}]}, context).to_json()
    assert stale["results"][0]["status"] == "conflict" and fresh["results"][0]["status"] == "written"


async def test_a_file_changed_on_disk_since_it_was_read_is_flagged(project: Path, tmp_path: Path) -> None:
    loop, _, _ = scripted_loop(project, write_script(tmp_path, [READ_CALC, DONE]))
    finished = await loop.run("look at calc.py")
    (project / "calc.py").write_text(CALC + "\n# edited by the person\n")
    with Workspace(project) as workspace:
        result = await compact(load(finished.session_id).transcript, summary_server("Read calc.py."), workspace, keep_chars=0)
    assert f"calc.py: read at {sha(CALC)}; on disk now sha256:" in result.message.text
    assert "differs: read it again before editing it" in result.message.text


async def test_near_the_limit_the_run_compacts_reports_it_and_the_session_keeps_everything(project: Path, tmp_path: Path) -> None:
    (project / "big.py").write_text("# filler line\n" * 400)
    read_big = {"tool_calls": [{"name": "read_code", "arguments": {"paths": ["big.py"]}}]}
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"turns": [READ_CALC, read_big, read_big, FIX_CALC, DONE], "summaries": ["Read calc.py and big.py twice."]}))
    loop, model, events = scripted_loop(project, script)
    loop.context_chars = 14_000
    finished = await loop.run("fix add")
    assert finished.reason == "done" and (project / "calc.py").read_text() == FIXED  # the turn after compaction still edits right
    compacted = events.of(Compacted)
    assert len(compacted) == 1 and compacted[0].trigger == "auto" and compacted[0].replaced_messages >= 2
    assert compacted[0].chars_after < compacted[0].chars_before and compacted[0].files_read == 2
    after = model.transcripts[-1]
    assert after[0].text.startswith("[compacted: ") and "Read calc.py and big.py twice." in after[0].text
    # The session file keeps every message; a resumed run continues from the compacted transcript.
    lines = [json.loads(line) for line in (sessions_dir() / f"{finished.session_id}.jsonl").read_text().splitlines()]
    kept = [line for line in lines if line["kind"] == "message"]
    assert sum(1 for line in kept if line["message"]["role"] == "assistant") == 5
    assert [line["kind"] for line in lines].count("compacted") == 1
    resumed = load(finished.session_id).transcript
    assert resumed[0].text.startswith("[compacted: ") and isinstance(resumed[-1], AssistantMessage)


async def test_a_failed_summary_falls_back_to_the_trim_and_says_so(project: Path, tmp_path: Path) -> None:
    (project / "big.py").write_text("# filler line\n" * 250)
    read_big = {"tool_calls": [{"name": "read_code", "arguments": {"paths": ["big.py"]}}]}
    loop, model, events = scripted_loop(project, write_script(tmp_path, [read_big, READ_CALC, READ_CALC, DONE]))
    loop.model = summary_server("never used", status=400)
    loop.model.stream_turn = _scripted_except_summary(model, loop.model)  # type: ignore[method-assign]
    loop.context_chars = 4000
    finished = await loop.run("look")
    warnings = events.of(ProviderWarning)
    assert finished.reason == "done" and len(warnings) == 1 and warnings[0].kind == "compaction_failed"  # not asked again every turn
    assert "summaries are switched off on this server" in warnings[0].message
    assert not events.of(Compacted)
    assert not model.transcripts[-1][0].text.startswith("[compacted")  # the transcript went on as it was (fit trims it)


def _scripted_except_summary(scripted, server):
    """Turns from the script, the summary request to the (refusing) server."""
    from konstruct_tui.agent.compaction import SUMMARY_SYSTEM

    original = server.stream_turn

    def stream_turn(system, transcript, tools):
        return original(system, transcript, tools) if system == SUMMARY_SYSTEM else scripted.stream_turn(system, transcript, tools)

    return stream_turn


async def test_facts_carry_across_two_compactions(project: Path, tmp_path: Path) -> None:
    loop, _, _ = scripted_loop(project, write_script(tmp_path, [READ_CALC, FIX_CALC, DONE]))
    finished = await loop.run("fix add")
    with Workspace(project) as workspace:
        first = await compact(load(finished.session_id).transcript, summary_server("first"), workspace, keep_chars=0)
        longer = [*first.transcript, UserMessage("and mul?"), AssistantMessage("mul is fine.")]
        second = await compact(longer, summary_server("second"), workspace, keep_chars=0)
    facts = facts_json(second.message.text)
    assert facts["changed"]["calc.py"]["status"] == "written" and facts["request"] == "fix add"
    assert facts["follow_ups"] == ["and mul?"] and second.message.text.count("<session-facts>") == 1
    assert "first" in second.message.text or "second" in second.summary


async def test_compact_on_request_records_it_and_a_short_session_has_nothing_to_compact(project: Path, tmp_path: Path) -> None:
    loop, _, _ = scripted_loop(project, write_script(tmp_path, [READ_CALC, FIX_CALC, DONE]))
    finished = await loop.run("fix add")
    with Workspace(project) as workspace:
        result = await compact_session(finished.session_id, summary_server("Fixed add."), workspace, keep_chars=0)
        assert result.replaced > result.kept and load(finished.session_id).transcript[0] == result.message
        with pytest.raises(NothingToCompact):
            await compact([UserMessage("hi"), AssistantMessage("hello")], summary_server("x"), workspace)
    results = [m for m in load(finished.session_id).transcript if isinstance(m, ToolResultMessage)]
    assert results == []  # the kept tail is the final reply; every tool result went into the facts


async def test_a_resumed_compacted_session_numbers_its_turns_on(project: Path, tmp_path: Path) -> None:
    script = write_script(tmp_path, [READ_CALC, FIX_CALC, DONE, {"text": "Nothing else."}])
    loop, _, _ = scripted_loop(project, script)
    finished = await loop.run("fix add")
    with Workspace(project) as workspace:
        await compact_session(finished.session_id, summary_server("Fixed add."), workspace, keep_chars=0)
    again, _, events = scripted_loop(project, script)
    resumed = await again.run("anything else?", load(finished.session_id))
    assert resumed.reason == "done" and resumed.message == "Nothing else."  # the script's 4th turn: folded turns counted
    assert [e.turn for e in events.events if type(e).__name__ == "TurnStarted"] == [4]


async def test_a_server_saying_the_window_is_full_gets_a_compacted_turn_once(project: Path, tmp_path: Path) -> None:
    from agent_harness import Recording

    from konstruct_tui.agent import (
        AgentLoop,
        CollectingReporter,
        KillSwitch,
        Limits,
        headless_gate,
    )
    from konstruct_tui.trust import TrustStore

    def sse(*frames: dict) -> httpx.Response:
        raw = b"".join(b"data: " + json.dumps(f).encode() + b"\n\n" for f in frames) + b"data: [DONE]\n\n"
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=raw)

    def read(call_id: str) -> httpx.Response:
        return sse({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": call_id, "function": {"name": "read_code", "arguments": '{"paths": ["calc.py"]}'}}]}}]},
                   {"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]})

    full = httpx.Response(400, json={"object": "error", "type": "BadRequestError", "code": 400,
                                     "message": "This model's maximum context length is 8192 tokens. However, you requested 8300 tokens."})
    summary = sse({"choices": [{"index": 0, "delta": {"content": "Read calc.py twice."}}]}, {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
    done = sse({"choices": [{"index": 0, "delta": {"content": "add() subtracts; say if I should fix it."}}]}, {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
    replies = [read("c1"), read("c2"), full, summary, done]
    sent: list[dict] = []

    def handler(request: httpx.Request) -> httpx.Response:
        sent.append(json.loads(request.content))
        return replies.pop(0)

    server = OpenAICompatible(httpx.AsyncClient(transport=httpx.MockTransport(handler)), model="qwen", base_url="http://127.0.0.1:9/v1",
                              retry=RetryPolicy(attempts=1))
    events = CollectingReporter()
    with Workspace(project) as workspace:
        loop = AgentLoop(workspace, Recording(server), events, headless_gate(workspace.root, grant=True, store=TrustStore()), Limits(), None, KillSwitch())
        finished = await loop.run("is add right?")
    assert finished.reason == "done" and finished.message == "add() subtracts; say if I should fix it."
    compacted = events.of(Compacted)
    assert [c.trigger for c in compacted] == ["overflow"] and len(sent) == 5
    assert sent[4]["messages"][1]["content"].startswith("[compacted: ") and "Read calc.py twice." in sent[4]["messages"][1]["content"]


async def test_the_stored_history_stays_whole_after_compaction(project: Path, tmp_path: Path) -> None:
    loop, _, _ = scripted_loop(project, write_script(tmp_path, [READ_CALC, FIX_CALC, DONE]))
    finished = await loop.run("fix add")
    before = load(finished.session_id)
    with Workspace(project) as workspace:
        await compact_session(finished.session_id, summary_server("Fixed add."), workspace, keep_chars=0)
    after = load(finished.session_id)
    assert after.history == before.history == before.transcript and len(after.transcript) == 2
