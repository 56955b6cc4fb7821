"""The provider a `ProviderSettings` names, opened with its HTTP client."""

from __future__ import annotations

import httpx

from ..agent import ModelCallPort
from .anthropic import Anthropic
from .openai import OpenAICompatible
from .responses import OpenAIResponses
from .retry import DEFAULT_RETRY, RetryPolicy
from .scripted import ScriptedProvider
from .settings import ProviderSettings


def open_provider(settings: ProviderSettings, client: httpx.AsyncClient | None = None, retry: RetryPolicy = DEFAULT_RETRY) -> ModelCallPort:
    """The provider the settings name. HTTP providers get `client` (or a new one whose read timeout
    is the turn deadline, so a silent server cannot outlast it)."""
    if settings.provider == "scripted":
        assert settings.script is not None
        return ScriptedProvider(settings.script, turn_deadline_s=settings.turn_deadline_s)
    client = client or httpx.AsyncClient(timeout=httpx.Timeout(30.0, read=settings.turn_deadline_s))
    kinds: dict[str, type[OpenAICompatible | OpenAIResponses | Anthropic]] = {
        "openai": OpenAICompatible, "openai-responses": OpenAIResponses, "anthropic": Anthropic}
    return kinds[settings.provider](
        client,
        model=settings.model,
        base_url=settings.base_url,
        api_key=settings.api_key,
        retry=retry,
        turn_deadline_s=settings.turn_deadline_s,
        max_output_tokens=settings.max_output_tokens,
        reasoning_effort=settings.reasoning_effort,
    )
