"""The environment a command runs with: the caller's, minus credentials.

The model providers' keys (`OPENAI_API_KEY`, `ANTHROPIC_API_KEY`, any `*_API_KEY`) and other
secret-shaped variables (`*_TOKEN`, `*_SECRET`, `*_PASSWORD`, cloud access keys) are removed, so a
command the agent runs cannot print or send them. A project that needs one in its tests can read it
from its own config; the workbench does not hand it over.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

_SECRET_NAME = re.compile(
    r"(API_?KEY|APIKEY|_TOKEN|^TOKEN|_SECRET|SECRET_KEY|SECRET_ACCESS_KEY|ACCESS_KEY_ID|SESSION_TOKEN|_PASSWORD"
    r"|_PASSWD|_PAT|PRIVATE_KEY|_CREDENTIALS?)$|^(OPENAI|ANTHROPIC|AZURE_OPENAI|GEMINI|MISTRAL|GROQ|COHERE)_.*KEY",
    re.IGNORECASE,
)


def is_secret_name(name: str) -> bool:
    return bool(_SECRET_NAME.search(name))


def scrubbed_environment(base: Mapping[str, str] | None = None, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """`base` (default: this process's environment) without secret-shaped variables, plus `extra`
    (assignments written before the command, `CI=1 npm test`), which are scrubbed the same way."""
    source = os.environ if base is None else base
    env = {k: v for k, v in source.items() if not is_secret_name(k)}
    for name, value in (extra or {}).items():
        if not is_secret_name(name):
            env[name] = value
    return env
