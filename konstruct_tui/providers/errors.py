"""What a provider raises. The loop turns a `ProviderError` into `finished` with reason `error`.

    ProviderError               the model call failed and retrying did not (or cannot) help
     ├── ProviderRefused        the server said no for good (401, 400, 404 ...): fix the setup
     ├── TurnDeadlineExceeded   one turn took longer than its deadline; the stream was closed
     └── ScriptExhausted        the scripted provider was asked for a turn its script does not have
"""

from __future__ import annotations

from ..agent import TurnDeadlinePassed


class ProviderError(Exception):
    """The model call failed. The message is one line a person can act on."""


class ProviderRefused(ProviderError):
    pass


class TurnDeadlineExceeded(ProviderError, TurnDeadlinePassed):
    pass


class ScriptExhausted(ProviderError):
    pass


class RetryableFailure(Exception):
    """Internal: a failure worth another attempt (429, 5xx, connection trouble before any output).
    `delay_s` is what the server asked for (Retry-After), if anything."""

    def __init__(self, message: str, delay_s: float | None = None) -> None:
        super().__init__(message)
        self.delay_s = delay_s
