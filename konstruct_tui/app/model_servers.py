"""The model picker's plain half: local OpenAI-compatible servers found on this machine, where the
API key comes from, and the choice saved to the config file (providers/settings.py reads it).

Detection asks `GET /v1/models` on 127.0.0.1 at each server's usual port, all at once with a short
timeout, so a machine with nothing running answers in a fraction of a second. Keys are never
written to the config file: they stay in the environment.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from ..providers import DEFAULT_BASE_URLS, DEFAULT_MODELS, EFFORTS, KEY_VARIABLES, PROVIDERS, ConfigInvalid, ProviderSettings, config_path, load_config, resolve

# The usual ports; several servers share the OpenAI chat-completions shape, so one provider serves all.
USUAL_PORTS: tuple[tuple[str, int], ...] = (("Ollama", 11434), ("llama.cpp", 8080), ("LM Studio", 1234), ("vLLM", 8000))
DETECT_TIMEOUT_S = 0.5


@dataclass(frozen=True)
class LocalServer:
    name: str
    base_url: str
    models: tuple[str, ...]


@dataclass(frozen=True)
class ModelChoice:
    provider: str  # openai | openai-responses | anthropic
    model: str
    base_url: str | None = None  # None: the provider's own endpoint
    reasoning: str = ""  # reasoning_effort for this model: low|medium|high, a token budget, or "" for the server's default

    def problem(self) -> str | None:
        """Why this choice cannot be saved (one line), or None."""
        if self.provider not in PROVIDERS or self.provider == "scripted":
            return f"provider must be openai, openai-responses or anthropic, not {self.provider!r}"
        if self.reasoning and self.reasoning not in EFFORTS and not (self.reasoning.isdigit() and int(self.reasoning) >= 1024):
            return f"reasoning must be one of {', '.join(EFFORTS)}, a token budget of at least 1024, or empty, not {self.reasoning!r}"
        if not self.model.strip():
            return "a model name is needed"
        if self.base_url and not self.base_url.startswith(("http://", "https://")):
            return f"base URL {self.base_url!r} must start with http:// or https://"
        return None


def detect_local_servers(
    ports: Sequence[tuple[str, int]] = USUAL_PORTS, host: str = "127.0.0.1", timeout_s: float = DETECT_TIMEOUT_S,
    transport: httpx.BaseTransport | None = None,
) -> list[LocalServer]:
    """The servers that answered with a model list, in the order of `ports`."""
    def ask(entry: tuple[str, int]) -> LocalServer | None:
        name, port = entry
        base_url = f"http://{host}:{port}/v1"
        try:
            with httpx.Client(timeout=timeout_s, transport=transport) as client:
                answer = client.get(f"{base_url}/models")
            if answer.status_code != 200:
                return None
            data = answer.json().get("data")
        except (httpx.HTTPError, ValueError, AttributeError):
            return None
        if not isinstance(data, list):
            return None
        models = tuple(str(m["id"]) for m in data if isinstance(m, dict) and m.get("id"))
        return LocalServer(name, base_url, models)

    with ThreadPoolExecutor(max_workers=max(1, len(ports))) as pool:
        found = list(pool.map(ask, ports))
    return [server for server in found if server is not None]


# What the picker offers besides local servers: each provider's own endpoint with its default model.
REMOTE_CHOICES: tuple[ModelChoice, ...] = tuple(ModelChoice(name, DEFAULT_MODELS[name]) for name in ("openai", "openai-responses", "anthropic"))


def settings_for(choice: ModelChoice) -> tuple[ProviderSettings | None, str | None]:
    """The settings a saved choice gives (the environment's key included), or why it is not usable
    yet (one line: e.g. the key to export)."""
    try:
        return resolve(provider=choice.provider, model=choice.model, base_url=choice.base_url), None
    except ConfigInvalid as error:
        return None, str(error)


def key_source(provider: str, base_url: str | None, environ: Mapping[str, str] | None = None) -> str:
    """One line: where the key for this choice comes from, or that none is needed, or what to set."""
    env = os.environ if environ is None else environ
    variable = KEY_VARIABLES.get(provider)
    if variable is None:
        return "no key: nothing is called"
    local = bool(base_url) and base_url != DEFAULT_BASE_URLS.get(provider)
    if env.get(variable):
        return f"{variable} from the environment"
    if local:
        return f"none needed for {base_url} ({variable} is not set)"
    return f"{variable} is not set: export it before starting, or pick a local server"


def save_model_choice(choice: ModelChoice, path: Path | None = None) -> Path:
    """Write the choice into the config file, keeping everything else in it. Atomic; no keys."""
    problem = choice.problem()
    if problem:
        raise ValueError(problem)
    path = path or config_path()
    try:
        config: dict[str, Any] = dict(load_config(path))
    except ConfigInvalid as error:  # an unreadable config is never overwritten: the person's file stays
        raise ValueError(str(error)) from None
    config["provider"] = choice.provider
    section = dict(config.get(choice.provider) or {})
    section["model"] = choice.model
    if choice.base_url:
        section["base_url"] = choice.base_url
    else:
        section.pop("base_url", None)
    config[choice.provider] = section
    models = dict(config.get("models") or {})
    per_model = dict(models.get(choice.model) or {})
    if choice.reasoning:
        per_model["reasoning_effort"] = int(choice.reasoning) if choice.reasoning.isdigit() else choice.reasoning
    else:
        per_model.pop("reasoning_effort", None)
    if per_model:
        models[choice.model] = per_model
    else:
        models.pop(choice.model, None)
    if models:
        config["models"] = models
    else:
        config.pop("models", None)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".config-", suffix=".toml")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(to_toml(config))
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return path


def to_toml(config: Mapping[str, Any]) -> str:
    """TOML for the config's shapes (scalars, tables of scalars, tables of tables); tomllib only reads."""
    lines: list[str] = []
    _table(lines, [], config)
    return "\n".join(lines).lstrip("\n") + "\n"


def _table(lines: list[str], name: list[str], table: Mapping[str, Any]) -> None:
    scalars = {k: v for k, v in table.items() if not isinstance(v, Mapping)}
    tables = {k: v for k, v in table.items() if isinstance(v, Mapping)}
    if name and (scalars or not tables):
        lines.append("")
        lines.append("[" + ".".join(_key(part) for part in name) + "]")
    for key, value in scalars.items():
        lines.append(f"{_key(key)} = {_value(value)}")
    for key, value in tables.items():
        _table(lines, [*name, key], value)


def _key(key: str) -> str:
    return key if key and all(c.isalnum() or c in "-_" for c in key) else json.dumps(key)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    return json.dumps(str(value), ensure_ascii=False)  # a JSON string is a valid TOML basic string
