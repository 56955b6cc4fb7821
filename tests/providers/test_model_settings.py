"""Per-model output limits and context windows from the config; prices that know the prompt cache."""

from __future__ import annotations

import pytest

from konstruct_tui.agent import BudgetMeter, Limits
from konstruct_tui.agent import Usage
from konstruct_tui.providers import ConfigInvalid, Price, open_provider, resolve

LOCAL = {"base_url": "http://127.0.0.1:11434/v1", "environ": {}}


def test_output_limit_defaults_per_provider_then_section_then_model() -> None:
    assert resolve(**LOCAL, config={}).max_output_tokens == 4096
    assert resolve(provider="anthropic", base_url="http://127.0.0.1:9", environ={}, config={}).max_output_tokens == 8192
    config = {"openai": {"max_output_tokens": 2048}, "models": {"qwen2.5-coder": {"max_output_tokens": 1024, "context_tokens": 32768}}}
    assert resolve(**LOCAL, model="llama3", config=config).max_output_tokens == 2048
    dated = resolve(**LOCAL, model="qwen2.5-coder-14b", config=config)  # a longer name finds its family
    assert (dated.max_output_tokens, dated.context_tokens) == (1024, 32768)
    assert open_provider(dated).max_output_tokens == 1024  # type: ignore[attr-defined]


@pytest.mark.parametrize("bad", [0, -5, "lots", True, 1.5e-3])
def test_a_bad_output_limit_is_a_one_line_config_error(bad: object) -> None:
    with pytest.raises(ConfigInvalid, match="max_output_tokens for model 'm' must be a whole number above 0"):
        resolve(**LOCAL, model="m", config={"models": {"m": {"max_output_tokens": bad}}})


def test_a_models_entry_that_is_not_a_table_is_refused() -> None:
    with pytest.raises(ConfigInvalid, match=r"\[models.'m'\]"):
        resolve(**LOCAL, model="m", config={"models": {"m": 4096}})


def test_the_context_window_leaves_room_for_the_reply() -> None:
    config = {"models": {"big": {"context_tokens": 32768}, "tiny": {"context_tokens": 4096}}}
    assert resolve(**LOCAL, model="big", config=config).context_chars() == (32768 - 4096) * 3
    assert resolve(**LOCAL, model="tiny", config=config).context_chars() == 8000  # never below a floor that fits one request
    assert resolve(**LOCAL, model="other", config=config).context_chars() is None


def test_cached_reads_cost_less_and_writes_more_in_the_budget() -> None:
    price = resolve(provider="anthropic", model="claude-sonnet-4-5", environ={"ANTHROPIC_API_KEY": "k"}, config={}).price()
    assert price is not None
    meter = BudgetMeter(Limits(), "claude-sonnet-4-5", price)
    meter.add(Usage(10_000, 100, cache_read_tokens=9_000))
    uncached = Price(3.0, 15.0).cost(10_000, 100)
    assert meter.cost_usd is not None and meter.cost_usd < uncached / 3
    update = meter.update()
    assert (update.cache_read_tokens, update.cache_write_tokens) == (9_000, 0)
    written = BudgetMeter(Limits(), "claude-sonnet-4-5", price)
    written.add(Usage(10_000, 100, cache_write_tokens=10_000))
    assert written.cost_usd == pytest.approx(uncached + 10_000 * 0.75 / 1e6)


def test_cache_prices_come_from_the_config_and_default_to_the_input_price() -> None:
    config = {"prices": {"m": {"input": 1.0, "output": 2.0, "cache_read": 0.25}}}
    price = resolve(**LOCAL, model="m", config=config).price()
    assert price == Price(1.0, 2.0, 0.25, None)
    assert price.cost(1_000_000, 0, cache_read_tokens=1_000_000) == pytest.approx(0.25)
    assert Price(1.0, 2.0).cost(1_000_000, 0, cache_write_tokens=1_000_000) == pytest.approx(1.0)
