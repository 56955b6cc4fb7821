"""/model's plain half: local servers found on 127.0.0.1, key sources, and the choice saved."""

from __future__ import annotations

import json
import socket
import threading
import tomllib
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from konstruct_tui.app.model_servers import ModelChoice, detect_local_servers, key_source, save_model_choice
from konstruct_tui.providers import resolve
from konstruct_tui.providers import config_path, load_config


class _Server(BaseHTTPRequestHandler):
    answers: dict[str, tuple[int, bytes]] = {}

    def do_GET(self) -> None:  # noqa: N802
        status, body = self.answers.get(self.path, (404, b"not found"))
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


def _serve(answers: dict[str, tuple[int, bytes]]) -> Iterator[int]:
    handler = type("Handler", (_Server,), {"answers": answers})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def ollama() -> Iterator[int]:
    yield from _serve({"/v1/models": (200, json.dumps({"object": "list", "data": [{"id": "qwen2.5-coder:7b"}, {"id": "llama3.1"}]}).encode())})


@pytest.fixture
def not_a_model_server() -> Iterator[int]:
    yield from _serve({"/v1/models": (200, b"<html>hello</html>")})


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_a_local_server_is_found_with_its_models_and_others_are_not(ollama: int, not_a_model_server: int) -> None:
    found = detect_local_servers([("Ollama", ollama), ("vLLM", _closed_port()), ("llama.cpp", not_a_model_server)], timeout_s=0.5)
    assert [(s.name, s.base_url, s.models) for s in found] == [("Ollama", f"http://127.0.0.1:{ollama}/v1", ("qwen2.5-coder:7b", "llama3.1"))]


def test_nothing_listening_answers_quickly_with_nothing() -> None:
    import time

    started = time.monotonic()
    assert detect_local_servers([("Ollama", _closed_port()), ("vLLM", _closed_port())], timeout_s=0.5) == []
    assert time.monotonic() - started < 2.0


def test_the_key_source_says_where_the_key_comes_from() -> None:
    assert key_source("openai", None, {"OPENAI_API_KEY": "sk-x"}) == "OPENAI_API_KEY from the environment"
    assert "not set" in key_source("openai", None, {}) and "local server" in key_source("openai", None, {})
    assert key_source("openai", "http://127.0.0.1:11434/v1", {}).startswith("none needed")
    assert "ANTHROPIC_API_KEY" in key_source("anthropic", None, {})


def test_the_choice_is_saved_keeping_the_rest_of_the_config_and_resolve_reads_it(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "KONSTRUCT_OPENAI_MODEL"):
        monkeypatch.delenv(name, raising=False)
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('turn_deadline_s = 120\n\n[prices."my-model"]\ninput = 0.5\noutput = 1.5\n\n[anthropic]\nmodel = "claude-x"\n')
    saved = save_model_choice(ModelChoice("openai", "qwen2.5-coder:7b", "http://127.0.0.1:11434/v1"))
    assert saved == path
    config = load_config(path)
    assert config["provider"] == "openai" and config["openai"] == {"model": "qwen2.5-coder:7b", "base_url": "http://127.0.0.1:11434/v1"}
    assert config["turn_deadline_s"] == 120 and config["prices"]["my-model"] == {"input": 0.5, "output": 1.5}
    assert config["anthropic"] == {"model": "claude-x"}
    settings = resolve()  # no flags, no key: the saved local server is usable
    assert (settings.provider, settings.model, settings.base_url) == ("openai", "qwen2.5-coder:7b", "http://127.0.0.1:11434/v1")
    assert "api_key" not in path.read_text() and "sk-" not in path.read_text()


def test_choosing_the_provider_endpoint_again_drops_the_saved_base_url() -> None:
    save_model_choice(ModelChoice("openai", "m1", "http://127.0.0.1:8080/v1"))
    save_model_choice(ModelChoice("openai", "gpt-4.1"))
    assert tomllib.loads(config_path().read_text())["openai"] == {"model": "gpt-4.1"}


@pytest.mark.parametrize("choice", [ModelChoice("scripted", "x"), ModelChoice("openai", "  "), ModelChoice("openai", "m", "ftp://host")])
def test_a_bad_choice_is_refused_and_nothing_is_written(choice: ModelChoice, tmp_path: Path) -> None:
    target = tmp_path / "config.toml"
    with pytest.raises(ValueError):
        save_model_choice(choice, target)
    assert not target.exists()


def test_a_damaged_config_file_is_never_overwritten() -> None:
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("provider = [unclosed\n")
    with pytest.raises(ValueError, match="config.toml"):
        save_model_choice(ModelChoice("openai", "m", "http://127.0.0.1:8080/v1"))
    assert path.read_text() == "provider = [unclosed\n"
