"""Anyone who may submit a team run names its model server; the API key is the worker's. A worker
sends its key only to the server it would use itself, or to one its operator allowed: a submitted
`--base-url` of somebody else's never receives the build machine's key."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from konstruct_tui.team.model_server import ModelServerRefused, run_settings, same_server

from team_processes import cli
from team_harness import make_repo, two_phase_plan

SECRET = "sk-worker-secret-4242"


@pytest.fixture
def worker_key(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_BASE_URL", "ANTHROPIC_BASE_URL", "OPENAI_API_KEY", "ANTHROPIC_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    monkeypatch.setenv("ANTHROPIC_API_KEY", SECRET)


@pytest.mark.parametrize("url", [
    "https://collector.example/v1",
    "https://api.openai.com/v1@collector.example",  # the host is collector.example
    "https://api.openai.com.collector.example/v1",
    "https://user:pw@api.openai.com/v1",  # userinfo is never the worker's own server
    "http://api.openai.com/v1",  # not TLS: another server as far as the key goes
    "https://api.openai.com:8443/v1",
    "https://api.openai.com/v1/../../collector",
    "https://api.openai.com/v1?next=https://collector.example",
    # where a URL parser and the HTTP client could disagree on the host (httpx connects to collector.example)
    "https://api.openai.com\\@collector.example/v1",
    "https://collector.example#@api.openai.com/v1",
    "https://collector.example?@api.openai.com/v1",
    "https://api.openai.com%2f@collector.example/v1",
    "https://api.openai.com:443@collector.example/v1",
    "https://collector.example\\.api.openai.com/v1",
])
def test_a_submitted_server_that_is_not_the_workers_gets_no_key(worker_key: None, url: str) -> None:
    with pytest.raises(ModelServerRefused) as refused:
        run_settings({"provider": "openai", "model": "gpt-5", "base_url": url})
    message = str(refused.value)
    assert "--allow-base-url" in message and "OPENAI_API_KEY" in message and SECRET not in message and len(message.splitlines()) == 1
    assert "pw" not in message.replace("gpt", "")


def test_the_workers_own_server_and_allowed_ones_get_the_key(worker_key: None, monkeypatch: pytest.MonkeyPatch) -> None:
    assert run_settings({"provider": "openai", "model": "gpt-5", "base_url": "https://API.OpenAI.com/v1/"}).api_key == SECRET
    assert run_settings({"provider": "anthropic", "model": "claude-sonnet-4-5", "base_url": "https://api.anthropic.com"}).api_key == SECRET
    allowed = frozenset({"http://gpu-box.lan:8000/v1"})
    assert run_settings({"provider": "openai", "model": "qwen3", "base_url": "http://gpu-box.lan:8000/v1"}, allowed).api_key == SECRET
    monkeypatch.setenv("OPENAI_BASE_URL", "http://gpu-box.lan:8000/v1")  # the worker's own choice
    assert run_settings({"provider": "openai", "model": "qwen3", "base_url": "http://gpu-box.lan:8000/v1/"}).api_key == SECRET
    with pytest.raises(ModelServerRefused):  # and then the vendor's is not its own any more
        run_settings({"provider": "openai", "model": "gpt-5", "base_url": "https://api.openai.com/v1"})


def test_a_worker_without_a_key_goes_where_the_run_says(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    settings = run_settings({"provider": "openai", "model": "qwen3", "base_url": "http://127.0.0.1:11434/v1"})
    assert settings.api_key is None and settings.base_url == "http://127.0.0.1:11434/v1"


def test_same_server_compares_parts_not_prefixes() -> None:
    assert same_server("https://api.openai.com/v1/", "https://api.openai.com/v1")
    assert same_server("https://api.openai.com:443/v1", "https://api.openai.com/v1")
    assert not same_server("https://api.openai.com/v10", "https://api.openai.com/v1")
    assert not same_server("https://api.openai.com:notaport/v1", "https://api.openai.com/v1")


def test_a_worker_never_sends_its_key_to_a_submitted_server(tmp_path: Path) -> None:
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "agent"))
    from sse_server import Reply, SSEServer

    with SSEServer([Reply(401, body=b'{"error": {"message": "bad key"}}') for _ in range(40)]) as collector:
        repo = make_repo(tmp_path / "repo")
        plan, _ = two_phase_plan(tmp_path, phases=1)
        server = f"{collector.url}/v1"
        done = cli("blueprint", "submit", str(plan), "--repo", str(repo), "--provider", "openai", "--model", "m", "--base-url", server,
                   env={"OPENAI_API_KEY": ""})
        assert done.returncode == 0, done.stderr
        run_id = json.loads(done.stdout)["run"]
        worker_env = {"OPENAI_API_KEY": SECRET, "OPENAI_BASE_URL": ""}
        served = cli("worker", "--once", "--workdir", str(tmp_path / "w"), "--heartbeat", "0.3", env=worker_env)
        assert served.returncode == 0, served.stderr
        from konstruct_tui.team.database import default_url

        status = json.loads(cli("blueprint", "status", run_id, "--json", "--database", default_url()).stdout)
        assert status["status"] == "parked" and "--allow-base-url" in status["message"] and "internal error" not in status["message"]
        assert collector.requests == []  # nothing was sent, so no key either
        # The operator allows it: the run resumes, and now the key goes there.
        assert cli("blueprint", "resume", run_id, "--database", default_url()).returncode == 0
        served = cli("worker", "--once", "--workdir", str(tmp_path / "w"), "--heartbeat", "0.3", "--allow-base-url", server, env=worker_env)
        assert served.returncode == 0, served.stderr
        assert collector.requests and all({k.lower(): v for k, v in r["headers"].items()}.get("authorization") == f"Bearer {SECRET}"
                                              for r in collector.requests)


def test_allow_base_url_must_be_a_url(tmp_path: Path) -> None:
    refused = cli("worker", "--once", "--allow-base-url", "collector.example", "--workdir", str(tmp_path / "w"))
    assert refused.returncode == 2 and "--allow-base-url" in refused.stderr and len(refused.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "w").exists()
