"""Model providers over httpx: OpenAI-compatible chat completions, OpenAI Responses, Anthropic messages, and a
scripted replay. Each implements the agent's `ModelCallPort`.

A lazy face (`package_face.py`): `from konstruct_tui.providers import resolve` loads the settings
alone, not httpx and the wire formats; the workbench paints its first frame before those load.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..package_face import lazy_face

if TYPE_CHECKING:
    from .anthropic import Anthropic
    from .errors import (
        ProviderError,
        ProviderRefused,
        ScriptExhausted,
        TurnDeadlineExceeded,
    )
    from .openai import OpenAICompatible
    from .opening import open_provider
    from .responses import OpenAIResponses
    from .retry import DEFAULT_RETRY, RetryPolicy
    from .script_file import ScriptInvalid, load_script
    from .scripted import ScriptedProvider
    from .server_limits import server_window, with_server_window
    from .settings import (
        DEFAULT_BASE_URLS,
        DEFAULT_MODELS,
        EFFORTS,
        KEY_VARIABLES,
        PROVIDERS,
        ConfigInvalid,
        Price,
        ProviderSettings,
        config_path,
        load_config,
        resolve,
    )

__all__ = [
    "DEFAULT_BASE_URLS",
    "DEFAULT_MODELS",
    "EFFORTS",
    "KEY_VARIABLES",
    "PROVIDERS",
    "Anthropic",
    "ConfigInvalid",
    "OpenAICompatible",
    "OpenAIResponses",
    "Price",
    "ProviderError",
    "ProviderRefused",
    "ProviderSettings",
    "RetryPolicy",
    "ScriptExhausted",
    "ScriptInvalid",
    "ScriptedProvider",
    "TurnDeadlineExceeded",
    "config_path",
    "load_config",
    "load_script",
    "open_provider",
    "resolve",
    "server_window",
    "with_server_window",
]

__getattr__, __dir__ = lazy_face(__name__, __file__)
