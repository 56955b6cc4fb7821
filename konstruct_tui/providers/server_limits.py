"""The context window a local server says it runs a model with, for a model the config does not
size: llama.cpp `GET /props` (`n_ctx`), vLLM `GET /v1/models` (`max_model_len`), Ollama
`POST /api/show` (`num_ctx` in its parameters, else the model's `context_length`). Compaction then
starts before the server's window is full instead of at the default budget.

And the output limit it stops a reply at, for a model whose `max_output_tokens` the config does not
name: llama.cpp's `n_predict` (`/props` `default_generation_settings.n_predict`, or under its
`params` in newer servers), Ollama's `num_predict` parameter. A reply the server cuts there is then
reported with the limit that cut it. -1 (no limit) says nothing; a limit is kept to half the context
window at most, so the prompt keeps the other half.

Best effort and quick: one short request per kind to a server the person chose; anything unexpected
means "not said", and the config's `context_tokens` always wins.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx

from .settings import DEFAULT_BASE_URLS, ProviderSettings

PROBE_TIMEOUT_S = 0.5
_NUM_CTX = re.compile(r"^\s*num_ctx\s+(\d+)", re.MULTILINE)
_NUM_PREDICT = re.compile(r"^\s*num_predict\s+(\d+)", re.MULTILINE)


@dataclass(frozen=True)
class ServerLimits:
    window: int | None = None  # context tokens
    output: int | None = None  # the reply's token limit


def with_server_window(settings: ProviderSettings, transport: httpx.BaseTransport | None = None) -> ProviderSettings:
    """`settings` with `context_tokens` from the server when the config names none, and then its
    output limit too unless the config names `max_output_tokens` (OpenAI-compatible local servers
    only; the vendors' own APIs are not asked; a model the config sizes is not asked either)."""
    if settings.provider != "openai" or settings.context_tokens or settings.base_url.rstrip("/") == DEFAULT_BASE_URLS["openai"]:
        return settings
    limits = server_limits(settings.base_url, settings.model, transport)
    output = None if settings.max_output_configured else limits.output
    if output and limits.window:
        output = min(output, limits.window // 2)
    return replace(settings, context_tokens=limits.window, max_output_tokens=output or settings.max_output_tokens)


def server_window(base_url: str, model: str, transport: httpx.BaseTransport | None = None) -> int | None:
    return server_limits(base_url, model, transport).window


def server_limits(base_url: str, model: str, transport: httpx.BaseTransport | None = None) -> ServerLimits:
    parts = urlsplit(base_url)
    root = urlunsplit((parts.scheme, parts.netloc, "", "", ""))
    v1 = base_url.rstrip("/") if parts.path not in ("", "/") else root + "/v1"
    try:
        with httpx.Client(timeout=PROBE_TIMEOUT_S, transport=transport) as client:
            vllm = _vllm(client, v1, model)
            if vllm:
                return ServerLimits(vllm)
            llamacpp = _llamacpp(client, root)
            return llamacpp if llamacpp.window else _ollama(client, root, model)
    except (httpx.HTTPError, ValueError):
        return ServerLimits()


def _positive(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def _json(response: httpx.Response) -> Any:
    return response.json() if response.status_code == 200 else None


def _vllm(client: httpx.Client, v1: str, model: str) -> int | None:
    listed = _json(client.get(f"{v1}/models"))
    for entry in (listed or {}).get("data") or () if isinstance(listed, dict) else ():
        if isinstance(entry, dict) and entry.get("id") == model:
            return _positive(entry.get("max_model_len"))
    return None


def _llamacpp(client: httpx.Client, root: str) -> ServerLimits:
    props = _json(client.get(f"{root}/props"))
    if not isinstance(props, dict):
        return ServerLimits()
    given = props.get("default_generation_settings")
    settings: dict[str, Any] = given if isinstance(given, dict) else {}
    params: dict[str, Any] = settings["params"] if isinstance(settings.get("params"), dict) else {}
    window = _positive(settings.get("n_ctx")) or _positive(props.get("n_ctx"))
    return ServerLimits(window, _positive(settings.get("n_predict")) or _positive(params.get("n_predict")))


def _ollama(client: httpx.Client, root: str, model: str) -> ServerLimits:
    version = _json(client.get(f"{root}/api/version"))  # only a server that says it is Ollama gets a POST
    if not isinstance(version, dict) or "version" not in version:
        return ServerLimits()
    shown = _json(client.post(f"{root}/api/show", json={"model": model}))
    if not isinstance(shown, dict):
        return ServerLimits()
    parameters = str(shown.get("parameters") or "")
    predict = _NUM_PREDICT.search(parameters)
    output = _positive(int(predict.group(1))) if predict else None
    found = _NUM_CTX.search(parameters)
    if found:
        return ServerLimits(int(found.group(1)), output)  # what the Modelfile runs it with
    info = shown.get("model_info") or {}
    return ServerLimits(next((_positive(v) for k, v in info.items() if k.endswith(".context_length") and _positive(v)), None), output)
