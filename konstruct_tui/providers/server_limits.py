"""The context window a local server says it runs a model with, for a model the config does not
size: llama.cpp `GET /props` (`n_ctx`), vLLM `GET /v1/models` (`max_model_len`), Ollama
`POST /api/show` (`num_ctx` in its parameters, else the model's `context_length`). Compaction then
starts before the server's window is full instead of at the default budget.

Best effort and quick: one short request per kind to a server the person chose; anything unexpected
means "not said", and the config's `context_tokens` always wins.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx

from .settings import DEFAULT_BASE_URLS, ProviderSettings

PROBE_TIMEOUT_S = 0.5
_NUM_CTX = re.compile(r"^\s*num_ctx\s+(\d+)", re.MULTILINE)


def with_server_window(settings: ProviderSettings, transport: httpx.BaseTransport | None = None) -> ProviderSettings:
    """`settings` with `context_tokens` from the server when the config names none (OpenAI-compatible
    local servers only; the vendors' own APIs are not asked)."""
    if settings.provider != "openai" or settings.context_tokens or settings.base_url.rstrip("/") == DEFAULT_BASE_URLS["openai"]:
        return settings
    window = server_window(settings.base_url, settings.model, transport)
    return replace(settings, context_tokens=window) if window else settings


def server_window(base_url: str, model: str, transport: httpx.BaseTransport | None = None) -> int | None:
    parts = urlsplit(base_url)
    root = urlunsplit((parts.scheme, parts.netloc, "", "", ""))
    v1 = base_url.rstrip("/") if parts.path not in ("", "/") else root + "/v1"
    try:
        with httpx.Client(timeout=PROBE_TIMEOUT_S, transport=transport) as client:
            return _vllm(client, v1, model) or _llamacpp(client, root) or _ollama(client, root, model)
    except (httpx.HTTPError, ValueError):
        return None


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


def _llamacpp(client: httpx.Client, root: str) -> int | None:
    props = _json(client.get(f"{root}/props"))
    if not isinstance(props, dict):
        return None
    settings = props.get("default_generation_settings") or {}
    return _positive(settings.get("n_ctx")) or _positive(props.get("n_ctx"))


def _ollama(client: httpx.Client, root: str, model: str) -> int | None:
    version = _json(client.get(f"{root}/api/version"))  # only a server that says it is Ollama gets a POST
    if not isinstance(version, dict) or "version" not in version:
        return None
    shown = _json(client.post(f"{root}/api/show", json={"model": model}))
    if not isinstance(shown, dict):
        return None
    found = _NUM_CTX.search(str(shown.get("parameters") or ""))
    if found:
        return int(found.group(1))  # what the Modelfile runs it with
    info = shown.get("model_info") or {}
    return next((_positive(v) for k, v in info.items() if k.endswith(".context_length") and _positive(v)), None)
