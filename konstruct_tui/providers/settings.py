"""Which model to call and how: flags, then the environment, then `config_dir()/config.toml`, then
defaults. Also the price table the cost budget uses.

config.toml (every key optional):

    provider = "openai"                 # openai | anthropic | scripted
    turn_deadline_s = 300               # one model turn may take at most this long

    [openai]
    model = "gpt-4.1-mini"
    base_url = "http://localhost:11434/v1"   # any OpenAI-compatible server

    [anthropic]
    model = "claude-sonnet-4-5"
    max_output_tokens = 8192

    [prices."my-local-model"]           # USD per million tokens
    input = 0.0
    output = 0.0
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..userdirs import config_dir
from . import anthropic, openai

PROVIDERS = ("openai", "anthropic", "scripted")
DEFAULT_MODELS = {"openai": "gpt-4.1-mini", "anthropic": "claude-sonnet-4-5"}
DEFAULT_BASE_URLS = {"openai": openai.DEFAULT_BASE_URL, "anthropic": anthropic.DEFAULT_BASE_URL}
KEY_VARIABLES = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY"}


@dataclass(frozen=True)
class Price:
    """USD per million tokens."""

    input: float
    output: float

    def cost(self, input_tokens: int, output_tokens: int) -> float:
        return (input_tokens * self.input + output_tokens * self.output) / 1_000_000


# Published list prices (USD per million tokens) of a few common models, so a first run can show a
# cost. The config file's [prices] table overrides and extends it; a model in neither has no price,
# and the budget says so instead of guessing.
KNOWN_PRICES: dict[str, Price] = {
    "gpt-4o": Price(2.50, 10.00),
    "gpt-4o-mini": Price(0.15, 0.60),
    "gpt-4.1": Price(2.00, 8.00),
    "gpt-4.1-mini": Price(0.40, 1.60),
    "gpt-4.1-nano": Price(0.10, 0.40),
    "claude-sonnet-4-5": Price(3.00, 15.00),
    "claude-sonnet-4": Price(3.00, 15.00),
    "claude-opus-4": Price(15.00, 75.00),
    "claude-haiku-4-5": Price(1.00, 5.00),
    "claude-3-5-haiku": Price(0.80, 4.00),
}


class ConfigInvalid(ValueError):
    """The config file or a setting is unusable; the message says which and why."""


@dataclass(frozen=True)
class ProviderSettings:
    provider: str
    model: str
    base_url: str
    api_key: str | None = field(default=None, repr=False)
    script: Path | None = None
    turn_deadline_s: float = 300.0
    max_output_tokens: int = 8192
    prices: Mapping[str, Price] = field(default_factory=dict)

    def price(self) -> Price | None:
        """The price of this model: an exact name first, then the longest known prefix (so a dated
        snapshot such as claude-sonnet-4-5-20250929 finds its family)."""
        if self.model in self.prices:
            return self.prices[self.model]
        prefixes = [name for name in self.prices if self.model.startswith(name + "-")]
        return self.prices[max(prefixes, key=len)] if prefixes else None


def config_path() -> Path:
    return config_dir() / "config.toml"


def load_config(path: Path | None = None) -> dict[str, Any]:
    path = path or config_path()
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except FileNotFoundError:
        return {}
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise ConfigInvalid(f"config file {path.name} in the konstruct config dir is unreadable: {error}") from None


def resolve(
    *,
    provider: str | None = None,
    model: str | None = None,
    base_url: str | None = None,
    script: str | None = None,
    turn_deadline_s: float | None = None,
    environ: Mapping[str, str] | None = None,
    config: Mapping[str, Any] | None = None,
) -> ProviderSettings:
    env = os.environ if environ is None else environ
    config = load_config() if config is None else config
    chosen = provider or str(config.get("provider") or "") or ("scripted" if script else "openai")
    if chosen not in PROVIDERS:
        raise ConfigInvalid(f"unknown provider {chosen!r}; choose one of {', '.join(PROVIDERS)}")
    section = config.get(chosen) or {}
    if not isinstance(section, dict):
        raise ConfigInvalid(f"[{chosen}] in the config file must be a table")
    deadline = turn_deadline_s if turn_deadline_s is not None else float(config.get("turn_deadline_s", 300))
    if deadline <= 0:
        raise ConfigInvalid("the turn deadline must be a positive number of seconds")
    prices = dict(KNOWN_PRICES)
    prices.update(_prices(config.get("prices") or {}))
    if chosen == "scripted":
        if not script:
            raise ConfigInvalid("--provider scripted needs --script FILE")
        # A replayed script calls no model and spends nothing: its price is zero, not unknown.
        name = f"scripted:{Path(script).name}"
        return ProviderSettings("scripted", name, "", script=Path(script), turn_deadline_s=deadline, prices={name: Price(0.0, 0.0)})
    if script:
        raise ConfigInvalid(f"--script is for --provider scripted, not {chosen}")
    env_base = env.get("OPENAI_BASE_URL") if chosen == "openai" else env.get("ANTHROPIC_BASE_URL")
    url = base_url or env_base or section.get("base_url") or DEFAULT_BASE_URLS[chosen]
    if not str(url).startswith(("http://", "https://")):
        raise ConfigInvalid(f"base URL {url!r} must start with http:// or https://")
    key = env.get(KEY_VARIABLES[chosen]) or None
    if key is None and url == DEFAULT_BASE_URLS[chosen]:
        raise ConfigInvalid(f"{KEY_VARIABLES[chosen]} is not set (needed for {url}; a local server via --base-url needs none)")
    return ProviderSettings(
        chosen,
        model or env.get(f"KONSTRUCT_{chosen.upper()}_MODEL") or str(section.get("model") or DEFAULT_MODELS[chosen]),
        str(url),
        key,
        turn_deadline_s=deadline,
        max_output_tokens=int(section.get("max_output_tokens", 8192)),
        prices=prices,
    )


def _prices(table: Mapping[str, Any]) -> dict[str, Price]:
    prices: dict[str, Price] = {}
    for name, entry in table.items():
        try:
            prices[name] = Price(float(entry["input"]), float(entry["output"]))
        except (KeyError, TypeError, ValueError):
            raise ConfigInvalid(f"[prices.{name!r}] needs numbers `input` and `output` (USD per million tokens)") from None
    return prices
