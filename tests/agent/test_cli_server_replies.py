"""Real servers' errors and odd answers, replayed by a loopback server, through `konstruct run`: the
person sees the server's own words in `finished.message` and on stderr, exit codes stay the contract
(0 done, 1 error), and what can go on goes on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from agent_harness import CALC
from sse_server import Reply, SSEServer, openai_done, openai_text

from konstruct_tui.cli import main

WIRE = Path(__file__).parent.parent / "providers" / "wire"


def wire(name: str) -> bytes:
    return (WIRE / name).read_bytes()


def run(capsys: pytest.CaptureFixture[str], server: SSEServer, project: Path, *extra: str, provider: str = "openai") -> tuple[int, list[dict], str]:
    base = server.url + ("/v1" if provider == "openai" else "")
    code = main(["run", "--root", str(project), "--provider", provider, "--base-url", base, "--model", "m", "--yes", *extra, "fix add in calc.py"])
    out, err = capsys.readouterr()
    return code, [json.loads(line) for line in out.splitlines()], err


@pytest.fixture(autouse=True)
def no_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    for key in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_BASE_URL"):
        monkeypatch.delenv(key, raising=False)


def test_a_vllm_error_mid_stream_reaches_finished_and_stderr(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with SSEServer([Reply(body=wire("vllm_error_mid_stream.sse"))]) as server:
        code, events, err = run(capsys, server, project)
    words = "The decoder prompt (length 33012) is longer than the maximum model length of 32768."
    finished = events[-1]
    assert code == 1 and finished["event"] == "finished" and finished["reason"] == "error"
    assert words in finished["message"] and words in err
    assert "stream ended" not in finished["message"]
    budget = [e for e in events if e["event"] == "budget"][-1]
    assert budget["output_tokens"] > 0 and budget["tokens_estimated"]  # "Let me" streamed before the error


def test_a_llamacpp_error_event_reaches_finished(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with SSEServer([Reply(body=wire("llamacpp_error_event.sse"))]) as server:
        code, events, _ = run(capsys, server, project)
    assert code == 1 and "the request exceeds the available context size, try increasing it" in events[-1]["message"]


def test_a_malformed_line_is_reported_once_and_the_run_completes(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with SSEServer([Reply(body=wire("openai_malformed_line.sse"))]) as server:
        code, events, err = run(capsys, server, project)
    warnings = [e for e in events if e["event"] == "warning"]
    assert code == 0 and events[-1]["reason"] == "done" and events[-1]["message"] == "The fix place."
    assert len(warnings) == 1 and warnings[0]["kind"] == "malformed_line" and warnings[0]["turn"] == 1
    assert err == ""


def test_a_reply_cut_at_the_output_limit_names_the_call_and_runs_nothing(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with SSEServer([Reply(body=wire("openai_length_cut_tool_call.sse"))]) as server:
        code, events, err = run(capsys, server, project)
        sent = server.requests[0]["body"]
    message = events[-1]["message"]
    assert code == 1 and events[-1]["reason"] == "error"
    assert 'finish_reason "length"' in message and "write_code tool call call_Wq1XbHhL0e8sYk2mN4pR7tUv" in message and message in err
    assert not [e for e in events if e["event"] == "tool_started"]
    assert (project / "calc.py").read_text() == CALC
    assert sent["max_tokens"] == 4096  # the default output limit for OpenAI-compatible servers is sent


def test_a_whole_json_answer_is_used_and_the_run_goes_on(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    replies = [Reply(headers={"content-type": "application/json"}, body=wire("openai_non_streamed_completion.json")),
               Reply(body=openai_done("calc.py read; nothing else to do."))]
    with SSEServer(replies) as server:
        code, events, _ = run(capsys, server, project)
    assert code == 0 and events[-1]["message"] == "calc.py read; nothing else to do."
    assert [(e["tool"], e["statuses"]) for e in events if e["event"] == "tool_finished"] == [("read_code", ["ok"])]
    assert [e["kind"] for e in events if e["event"] == "warning"] == ["non_streamed"]


def test_an_html_page_answering_200_is_shown_in_its_words(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page = b"<!doctype html><html><head><title>LM Studio</title></head><body><p>Model not loaded. Load a model first.</p></body></html>"
    with SSEServer([Reply(headers={"content-type": "text/html"}, body=page)]) as server:
        code, events, err = run(capsys, server, project)
    assert code == 1 and "LM Studio: Model not loaded. Load a model first." in events[-1]["message"] and "<p>" not in err


def test_an_anthropic_overload_after_text_is_retried_and_the_run_completes(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    replies = [Reply(body=wire("anthropic_overloaded_after_text.sse")), Reply(body=wire("anthropic_cached_text.sse"))]
    with SSEServer(replies) as server:
        code, events, _ = run(capsys, server, project, provider="anthropic")
    assert code == 0 and events[-1]["message"] == "Nothing to change: add() is correct."
    retry = [e for e in events if e["event"] == "warning"]
    assert [e["kind"] for e in retry] == ["retry"] and "Overloaded" in retry[0]["message"]
    budget = [e for e in events if e["event"] == "budget"][-1]
    assert budget["cache_read_tokens"] == 3000 and budget["cache_write_tokens"] == 1200
    assert budget["input_tokens"] == 1400 + 4220  # the overloaded attempt's prompt is counted too


def test_an_anthropic_overload_inside_a_tool_call_is_reported_once_prefixed(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with SSEServer([Reply(body=wire("anthropic_overloaded_in_tool_use.sse"))]) as server:
        code, events, _ = run(capsys, server, project, provider="anthropic")
        asked = len(server.requests)
    message = events[-1]["message"]
    assert code == 1 and asked == 1
    assert message.startswith("anthropic: Overloaded") and "anthropic: anthropic:" not in message and "write_code" in message


def test_a_turn_cut_by_its_deadline_after_text_still_counts_its_tokens(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    words = [f" word{n}" for n in range(40)]
    with SSEServer([Reply(body=openai_text(*words), hang=True)]) as server:
        code, events, err = run(capsys, server, project, "--turn-timeout", "0.5")
    budget = [e for e in events if e["event"] == "budget"][-1]
    assert code == 1 and "deadline of 0.5 s" in events[-1]["message"] and "deadline" in err
    assert budget["output_tokens"] == len("".join(words)) // 4 and budget["tokens_estimated"]


def test_as_a_process_the_server_words_reach_stderr_and_exit_1(project: Path, tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "XDG_CONFIG_HOME": str(tmp_path / "config"), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    env.pop("OPENAI_API_KEY", None)
    with SSEServer([Reply(body=wire("llamacpp_error_event.sse"))]) as server:
        done = subprocess.run([sys.executable, "-m", "konstruct_tui", "run", "--root", str(project), "--provider", "openai",
                               "--base-url", server.url, "--model", "m", "fix add"], capture_output=True, text=True, env=env, timeout=60, check=False)
    last = json.loads(done.stdout.splitlines()[-1])
    assert done.returncode == 1 and last["event"] == "finished" and last["reason"] == "error"
    assert done.stderr.strip() == f"konstruct run: error: {last['message']}"
    assert "the request exceeds the available context size, try increasing it" in done.stderr


def test_a_configured_context_window_compacts_and_the_json_lines_say_where(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from konstruct_tui.providers import config_path

    config_path().parent.mkdir(parents=True, exist_ok=True)
    config_path().write_text('[models."m"]\ncontext_tokens = 6000\nmax_output_tokens = 1000\n')  # 15000 characters a turn
    (project / "big.py").write_text("# filler line\n" * 700)

    def read(call_id: str, path: str) -> Reply:
        frames = [{"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": call_id, "function": {"name": "read_code", "arguments": json.dumps({"paths": [path]})}}]}}]},
                  {"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}]
        return Reply(body=b"".join(b"data: " + json.dumps(f).encode() + b"\n\n" for f in frames) + b"data: [DONE]\n\n")

    replies = [read("c1", "big.py"), read("c2", "big.py"), Reply(body=openai_done("Read big.py twice; calc.py next.")),
               Reply(body=openai_done("add() subtracts."))]
    with SSEServer(replies) as server:
        code, events, _ = run(capsys, server, project)
        sent = server.requests
    compacted = [e for e in events if e["event"] == "compacted"]
    assert code == 0 and events[-1]["message"] == "add() subtracts."
    assert len(compacted) == 1 and compacted[0]["trigger"] == "auto" and compacted[0]["files_read"] == 1
    assert [e["event"] for e in events].index("compacted") < [e["event"] for e in events].index("finished")
    assert sent[3]["body"]["messages"][1]["content"].startswith("[compacted: ") and sent[0]["body"]["max_tokens"] == 1000
