"""/model saves a reasoning effort per model; resolve reads it back; a bad one writes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from konstruct_tui.app import ModelChoice, save_model_choice
from konstruct_tui.providers import config_path, load_config, resolve


def test_the_reasoning_effort_is_saved_per_model_and_read_back(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "k")
    path = config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('[models."claude-sonnet-4-5"]\ncontext_tokens = 200000\n')
    save_model_choice(ModelChoice("anthropic", "claude-sonnet-4-5", None, "12000"))
    assert load_config(path)["models"]["claude-sonnet-4-5"] == {"context_tokens": 200000, "reasoning_effort": 12000}
    assert resolve().reasoning_effort == 12000
    save_model_choice(ModelChoice("openai-responses", "gpt-5-codex", None, "high"))
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    settings = resolve()
    assert (settings.provider, settings.model, settings.reasoning_effort) == ("openai-responses", "gpt-5-codex", "high")
    save_model_choice(ModelChoice("anthropic", "claude-sonnet-4-5", None, ""))  # empty: the server's default again
    assert load_config(path)["models"]["claude-sonnet-4-5"] == {"context_tokens": 200000}


@pytest.mark.parametrize("reasoning", ["extreme", "512", "-1"])
def test_a_bad_reasoning_effort_is_refused_and_nothing_is_written(reasoning: str, tmp_path: Path) -> None:
    target = tmp_path / "config.toml"
    with pytest.raises(ValueError, match="reasoning must be one of"):
        save_model_choice(ModelChoice("openai", "qwen3", "http://127.0.0.1:8080/v1", reasoning), target)
    assert not target.exists()
