"""Which model to call and how: flags, then the environment, then `config_dir()/config.toml`, then
defaults. Also the price table the cost budget uses.

config.toml (every key optional):

    provider = "openai"                 # openai | openai-responses | anthropic | scripted
    turn_deadline_s = 300               # one model turn may take at most this long

    [openai]
    model = "gpt-4.1-mini"
    base_url = "http://localhost:11434/v1"   # any OpenAI-compatible server

    [anthropic]
    model = "claude-sonnet-4-5"
    max_output_tokens = 8192            # for every model of this provider, unless [models] says

    [models."qwen2.5-coder:14b"]        # per model (exact name, or a prefix of dated names)
    max_output_tokens = 4096            # sent as max_tokens; a reply cut there is reported as cut
    context_tokens = 32768              # the model's context window: compaction starts near it

    [models."claude-sonnet-4-5"]
    reasoning_effort = 10000            # low | medium | high, or a thinking budget in tokens
    show_reasoning = true               # show the model's reasoning as it streams (default true)

    [prices."my-local-model"]           # USD per million tokens
    input = 0.0
    output = 0.0
    cache_read = 0.0                    # optional: prompt-cache reads and writes
    cache_write = 0.0
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..userdirs import config_dir

PROVIDERS = ("openai", "openai-responses", "anthropic", "scripted")
DEFAULT_MODELS = {"openai": "gpt-4.1-mini", "openai-responses": "gpt-5-codex", "anthropic": "claude-sonnet-4-5"}
# Here, not in each provider's module: resolving settings (every command, the workbench before its
# first frame) must not import the providers and httpx.
DEFAULT_BASE_URLS = {"openai": "https://api.openai.com/v1", "openai-responses": "https://api.openai.com/v1", "anthropic": "https://api.anthropic.com"}
KEY_VARIABLES = {"openai": "OPENAI_API_KEY", "openai-responses": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY"}
BASE_URL_VARIABLES = {"openai": "OPENAI_BASE_URL", "openai-responses": "OPENAI_BASE_URL", "anthropic": "ANTHROPIC_BASE_URL"}
EFFORTS = ("minimal", "low", "medium", "high")


@dataclass(frozen=True)
class Price:
    """USD per million tokens. Prompt-cache reads and writes have their own prices; a model without
    them pays the input price for cached tokens too (never an underestimate)."""

    input: float
    output: float
    cache_read: float | None = None
    cache_write: float | None = None

    def cost(self, input_tokens: int, output_tokens: int, cache_read_tokens: int = 0, cache_write_tokens: int = 0) -> float:
        """`input_tokens` is the whole prompt, cached parts included."""
        uncached = max(0, input_tokens - cache_read_tokens - cache_write_tokens)
        read = self.input if self.cache_read is None else self.cache_read
        write = self.input if self.cache_write is None else self.cache_write
        return (uncached * self.input + cache_read_tokens * read + cache_write_tokens * write + output_tokens * self.output) / 1_000_000


def _claude(input_price: float, output_price: float) -> Price:
    # Anthropic: a cache read costs 0.1x the input price, a (5-minute) cache write 1.25x.
    return Price(input_price, output_price, round(input_price * 0.1, 4), round(input_price * 1.25, 4))


# Published list prices (USD per million tokens) of a few common models, so a first run can show a
# cost. The config file's [prices] table overrides and extends it; a model in neither has no price,
# and the budget says so instead of guessing.
KNOWN_PRICES: dict[str, Price] = {
    "gpt-4o": Price(2.50, 10.00, 1.25),
    "gpt-4o-mini": Price(0.15, 0.60, 0.075),
    "gpt-4.1": Price(2.00, 8.00, 0.50),
    "gpt-4.1-mini": Price(0.40, 1.60, 0.10),
    "gpt-4.1-nano": Price(0.10, 0.40, 0.025),
    "gpt-5": Price(1.25, 10.00, 0.125),
    "gpt-5-mini": Price(0.25, 2.00, 0.025),
    "gpt-5-codex": Price(1.25, 10.00, 0.125),
    "claude-sonnet-4-5": _claude(3.00, 15.00),
    "claude-sonnet-4": _claude(3.00, 15.00),
    "claude-opus-4": _claude(15.00, 75.00),
    "claude-haiku-4-5": _claude(1.00, 5.00),
    "claude-3-5-haiku": _claude(0.80, 4.00),
}
# What is sent as the output limit when nothing says otherwise. Lower for OpenAI-compatible servers:
# a local server with a small context refuses a request whose limit does not fit it.
# The Responses API's models reason inside this limit too, so theirs is larger.
DEFAULT_MAX_OUTPUT = {"openai": 4096, "openai-responses": 16384, "anthropic": 8192}


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
    context_tokens: int | None = None  # the model's context window, when the config names it
    reasoning_effort: str | int | None = None  # low|medium|high (or minimal), or a thinking budget in tokens
    show_reasoning: bool = True  # the workbench shows the reasoning as it streams
    max_output_configured: bool = False  # the config names max_output_tokens (else a local server's own limit may apply)

    def price(self) -> Price | None:
        """The price of this model: an exact name first, then the longest known prefix (so a dated
        snapshot such as claude-sonnet-4-5-20250929 finds its family)."""
        return for_model(self.prices, self.model)

    def context_chars(self) -> int | None:
        """What may be sent per turn when the config names the model's context window: the window
        less the reply's room, at a cautious 3 characters a token (code tokenises densely). None:
        the loop's default budget applies."""
        if not self.context_tokens:
            return None
        return max(8_000, (self.context_tokens - self.max_output_tokens) * 3)


def for_model(table: Mapping[str, Any], model: str) -> Any:
    """A per-model entry: the exact name, else the longest name that `model` extends with `-`."""
    if model in table:
        return table[model]
    prefixes = [name for name in table if model.startswith(name + "-")]
    return table[max(prefixes, key=len)] if prefixes else None


def config_path() -> Path:
    return config_dir() / "config.toml"


def load_config(path: Path | None = None) -> dict[str, Any]:
    path = path or config_path()
    text = ""
    try:
        with path.open("rb") as handle:
            text = handle.read().decode("utf-8")
        return tomllib.loads(text)
    except FileNotFoundError:
        return {}
    except tomllib.TOMLDecodeError as error:  # its message names the line and column
        where = str(error).replace("at end of document", f"at line {text.count(chr(10)) + 1}, the end of the file")
        raise ConfigInvalid(f"config file {path} is unreadable: {where}: fix that line, or move the file aside "
                            "(every key in it is optional)") from None
    except UnicodeDecodeError:
        raise ConfigInvalid(f"config file {path} is unreadable: it is not UTF-8 text (damaged or overwritten): move it "
                            "aside and write it again (every key in it is optional)") from None
    except OSError as error:
        what = "a folder, not a file" if path.is_dir() else f"cannot be read ({error.strerror or error})"
        raise ConfigInvalid(f"config file {path} is unreadable: it is {what}: fix its permissions or move it aside "
                            "(every key in it is optional)") from None


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
        raise ConfigInvalid(f"[{chosen}] in {config_path()} must be a table")
    try:
        deadline = turn_deadline_s if turn_deadline_s is not None else float(config.get("turn_deadline_s", 300))
    except (TypeError, ValueError):
        raise ConfigInvalid(f"turn_deadline_s in {config_path()} must be a number of seconds, not {config.get('turn_deadline_s')!r}") from None
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
    env_base = env.get(BASE_URL_VARIABLES[chosen])
    url = base_url or env_base or section.get("base_url") or DEFAULT_BASE_URLS[chosen]
    if not str(url).startswith(("http://", "https://")):
        raise ConfigInvalid(f"base URL {url!r} must start with http:// or https://")
    key = env.get(KEY_VARIABLES[chosen]) or None
    if key is None and url == DEFAULT_BASE_URLS[chosen]:
        raise ConfigInvalid(f"{KEY_VARIABLES[chosen]} is not set (needed for {url}; a local server via --base-url needs none)")
    name = model or env.get(f"KONSTRUCT_{chosen.upper().replace('-', '_')}_MODEL") or str(section.get("model") or DEFAULT_MODELS[chosen])
    per_model = for_model(_table(config, "models"), name) or {}
    if not isinstance(per_model, dict):
        raise ConfigInvalid(f"[models.{name!r}] in {config_path()} must be a table")
    limit = _positive(per_model.get("max_output_tokens", section.get("max_output_tokens", DEFAULT_MAX_OUTPUT[chosen])), "max_output_tokens", name)
    window = per_model.get("context_tokens")
    effort = _effort(per_model.get("reasoning_effort", section.get("reasoning_effort")), name)
    show = per_model.get("show_reasoning", section.get("show_reasoning", True))
    if not isinstance(show, bool):
        raise ConfigInvalid(f"show_reasoning for model {name!r} must be true or false, not {show!r}")
    return ProviderSettings(
        chosen,
        name,
        str(url),
        key,
        turn_deadline_s=deadline,
        max_output_tokens=limit,
        prices=prices,
        context_tokens=_positive(window, "context_tokens", name) if window is not None else None,
        reasoning_effort=effort,
        show_reasoning=show,
        max_output_configured="max_output_tokens" in per_model or "max_output_tokens" in section,
    )


def _effort(value: Any, model: str) -> str | int | None:
    """A reasoning effort: one of EFFORTS, or a thinking budget of at least 1024 tokens (Anthropic's minimum)."""
    if value is None:
        return None
    if isinstance(value, str) and value in EFFORTS:
        return value
    if isinstance(value, int) and not isinstance(value, bool) and value >= 1024:
        return value
    raise ConfigInvalid(f"reasoning_effort for model {model!r} must be one of {', '.join(EFFORTS)} or a token budget of at least 1024, not {value!r}")


def _table(config: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    table = config.get(key) or {}
    if not isinstance(table, dict):
        raise ConfigInvalid(f"[{key}] in the config file must be a table")
    return table


def _positive(value: Any, key: str, model: str) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        number = 0
    if number <= 0 or isinstance(value, bool):
        raise ConfigInvalid(f"{key} for model {model!r} must be a whole number above 0, not {value!r}")
    return number


def _prices(table: Mapping[str, Any]) -> dict[str, Price]:
    prices: dict[str, Price] = {}
    for name, entry in table.items():
        try:
            cached = [None if entry.get(k) is None else float(entry[k]) for k in ("cache_read", "cache_write")]
            prices[name] = Price(float(entry["input"]), float(entry["output"]), *cached)
        except (AttributeError, KeyError, TypeError, ValueError):
            raise ConfigInvalid(f"[prices.{name!r}] needs numbers `input` and `output` (USD per million tokens)") from None
    return prices
