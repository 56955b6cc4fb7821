"""Model selection: flags over environment over config file over defaults; prices; keys."""

from __future__ import annotations

import pytest

from konstruct_tui.providers import ConfigInvalid, Price, resolve
from konstruct_tui.providers.settings import config_path, load_config


def test_flags_beat_environment_beat_config() -> None:
    config = {"provider": "openai", "openai": {"model": "from-config", "base_url": "http://config:1/v1"}}
    env = {"OPENAI_BASE_URL": "http://env:2/v1"}
    settings = resolve(environ=env, config=config)
    assert (settings.model, settings.base_url, settings.api_key) == ("from-config", "http://env:2/v1", None)
    settings = resolve(model="flag-model", base_url="http://flag:3/v1", environ={**env, "OPENAI_API_KEY": "sk-1"}, config=config)
    assert (settings.model, settings.base_url, settings.api_key) == ("flag-model", "http://flag:3/v1", "sk-1")


def test_the_real_service_needs_its_key_and_a_local_server_does_not() -> None:
    with pytest.raises(ConfigInvalid, match="ANTHROPIC_API_KEY is not set"):
        resolve(provider="anthropic", environ={}, config={})
    assert resolve(provider="anthropic", base_url="http://127.0.0.1:9", environ={}, config={}).api_key is None


def test_prices_from_config_and_dated_model_names() -> None:
    config = {"prices": {"my-model": {"input": 1.0, "output": 2.0}}}
    assert resolve(model="my-model", base_url="http://h/v1", environ={}, config=config).price() == Price(1.0, 2.0)
    dated = resolve(provider="anthropic", model="claude-sonnet-4-5-20250929", environ={"ANTHROPIC_API_KEY": "k"}, config={})
    assert dated.price() == Price(3.0, 15.0, 0.3, 3.75)  # the family's price, cache reads and writes included
    assert resolve(model="llama3.1:8b", base_url="http://h/v1", environ={}, config={}).price() is None
    with pytest.raises(ConfigInvalid, match="needs numbers"):
        resolve(base_url="http://h/v1", environ={}, config={"prices": {"x": {"input": "cheap"}}})


def test_config_file_is_read_from_the_config_dir() -> None:
    path = config_path()
    path.parent.mkdir(parents=True)
    path.write_text('provider = "anthropic"\n[anthropic]\nmodel = "claude-haiku-4-5"\nbase_url = "http://127.0.0.1:8/"\n')
    settings = resolve(environ={})
    assert (settings.provider, settings.model) == ("anthropic", "claude-haiku-4-5")
    path.write_text("provider = [")
    with pytest.raises(ConfigInvalid, match="unreadable"):
        load_config()


def test_scripted_needs_a_script_and_only_scripted_takes_one() -> None:
    with pytest.raises(ConfigInvalid, match="needs --script"):
        resolve(provider="scripted", environ={}, config={})
    with pytest.raises(ConfigInvalid, match="--script is for --provider scripted"):
        resolve(provider="openai", base_url="http://h/v1", script="x.json", environ={}, config={})
