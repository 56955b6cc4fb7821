"""Which model server a worker sends its API key to.

A run names its model server (the submitter's `--base-url`, or what their environment chose); the
key is the worker's own (`OPENAI_API_KEY`, ... in the worker's environment: runs never carry keys).
Anyone who may submit a run could otherwise have every build machine send its key to a server of
theirs. So a worker that holds a key for the run's provider uses it only with the server it would
use itself (its own environment or config.toml, else the vendor's default), or with one its operator
listed (`konstruct worker --allow-base-url URL`); any other server refuses the step in one line and
the run parks, resumable once the worker is set up for it. A worker without a key for the provider
has nothing to give away and goes to the server the run names (a local model server needs no key).

Servers are compared by their parts (scheme, host, port, path; a trailing slash and letter case
of scheme and host aside): `https://api.openai.com/v1@evil.example` or a look-alike host is another
server, and a URL with a user or password in it is never the worker's own.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from ..providers import KEY_VARIABLES, ProviderSettings, resolve
from .database import redact


class ModelServerRefused(RuntimeError):
    """The run's model server is not one this worker sends its key to (one line)."""


def run_settings(model: dict[str, Any], allowed: frozenset[str] = frozenset()) -> ProviderSettings:
    """The run's model settings as this worker will use them (ConfigInvalid, ModelServerRefused)."""
    settings = resolve(provider=model.get("provider"), model=model.get("model"), base_url=model.get("base_url"),
                       script=model.get("script"), turn_deadline_s=model.get("turn_deadline_s"))
    if settings.provider == "scripted" or not settings.api_key:
        return settings
    own = resolve(provider=settings.provider, model=settings.model).base_url
    if any(same_server(settings.base_url, trusted) for trusted in (own, *allowed)):
        return settings
    raise ModelServerRefused(
        f"the run's model server {redact(settings.base_url)} is not where this worker sends its {KEY_VARIABLES[settings.provider]} "
        f"(it uses {redact(own)}): start the worker with --allow-base-url {redact(settings.base_url)}, or submit without --base-url")


def same_server(url: str, trusted: str) -> bool:
    a, b = urlsplit(url.strip()), urlsplit(trusted.strip())
    if a.username is not None or a.password is not None:
        return False
    try:
        ports = (a.port or _DEFAULT_PORTS.get(a.scheme.lower()), b.port or _DEFAULT_PORTS.get(b.scheme.lower()))
    except ValueError:  # a port that is not a number: not a server we know
        return False
    return (a.scheme.lower(), (a.hostname or "").lower(), ports[0], a.path.rstrip("/"), a.query) == \
           (b.scheme.lower(), (b.hostname or "").lower(), ports[1], b.path.rstrip("/"), b.query)


_DEFAULT_PORTS = {"http": 80, "https": 443}
