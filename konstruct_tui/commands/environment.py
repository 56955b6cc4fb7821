"""The environment a command runs with: the caller's, minus credentials.

The model providers' keys (`OPENAI_API_KEY`, `ANTHROPIC_API_KEY`, any `*_API_KEY`) and other
secret-shaped variables (`*_TOKEN`, `*SECRET`, `*PASSWORD`, `*_PWD`, `*_AUTH`, `*_DSN`, cloud access
keys, unlocked password-manager sessions `BW_SESSION` / `OP_SESSION_*`, `DOCKER_AUTH_CONFIG`) and any variable whose value is a URL with a password in it are removed, so a
command the agent runs cannot print or send them. A project that needs one in its tests can read it
from its own config; the workbench does not hand it over.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

_SECRET_NAME = re.compile(
    r"(API_?KEY|APIKEY|_TOKEN|^TOKEN|SECRET|SECRET_KEY|SECRET_ACCESS_KEY|ACCESS_KEY_ID|SESSION_TOKEN|PASSWORD"
    r"|PASSWD|_PWD|_PAT|PRIVATE_KEY|_CREDENTIALS?|_AUTH|_DSN|WEBHOOK_URL|_COOKIE)$"
    r"|^(OPENAI|ANTHROPIC|AZURE_OPENAI|GEMINI|MISTRAL|GROQ|COHERE)_.*KEY"
    # password managers' unlocked sessions and registry logins: each opens every secret behind it
    r"|^BW_SESSION$|^OP_SESSION_|_AUTH_CONFIG$|^DOCKER_CONFIG_JSON$",
    re.IGNORECASE,
)
# A value that carries a password whatever its name: `postgres://user:pw@host/db`, `https://x:tok@git...`.
_URL_WITH_PASSWORD = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[^/\s:@]*:[^/\s@]+@")


def is_secret_name(name: str) -> bool:
    return bool(_SECRET_NAME.search(name))


def is_secret_value(value: str) -> bool:
    """A value holding a credential in a URL (`DATABASE_URL=postgres://u:pw@db/x`)."""
    return bool(_URL_WITH_PASSWORD.search(value))


def scrubbed_environment(base: Mapping[str, str] | None = None, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """`base` (default: this process's environment) without secret-shaped variables, plus `extra`
    (assignments written before the command, `CI=1 npm test`), which are scrubbed the same way."""
    source = os.environ if base is None else base
    env = {k: v for k, v in source.items() if not is_secret_name(k) and not is_secret_value(v)}
    for name, value in (extra or {}).items():
        if not is_secret_name(name) and not is_secret_value(value):
            env[name] = value
    return env
