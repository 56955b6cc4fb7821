"""What a provider raises. The loop turns a `ProviderError` into `finished` with reason `error`.

    ProviderError               the model call failed and retrying did not (or cannot) help
     ├── ProviderRefused        the server said no for good (401, 400, 404 ...): fix the setup
     ├── ServerReported         the server sent its own error instead of (or in the middle of) a turn
     ├── OutputCut              the reply hit the output token limit (finish_reason length / max_tokens)
     ├── StreamIncomplete       the stream ended before the turn was complete
     ├── TurnDeadlineExceeded   one turn went silent for longer than its deadline; the stream was closed
     └── ScriptExhausted        the scripted provider was asked for a turn its script does not have

Every `ProviderError` may carry `usage`: what the failed turn had cost when it failed (what the
server reported, or an estimate marked as such), so a failed turn after streamed text is never 0.
"""

from __future__ import annotations

from typing import Any

from ..agent import TurnDeadlinePassed

# A server's own words reach the person verbatim, up to this many characters; longer ones are cut at
# a word boundary and say so (an HTML error page can be 100 KB).
VERBATIM_LIMIT = 1000


class ProviderError(Exception):
    """The model call failed. The message is one line a person can act on."""

    usage: Any = None  # agent.ports.Usage of the failed turn, when anything was spent
    window_full = False  # the server said the conversation no longer fits the model's context window


class ProviderRefused(ProviderError):
    pass


class ServerReported(ProviderError):
    pass


class OutputCut(ProviderError):
    pass


class StreamIncomplete(ProviderError):
    pass


class TurnDeadlineExceeded(ProviderError, TurnDeadlinePassed):
    pass


class ScriptExhausted(ProviderError):
    pass


class RetryableFailure(Exception):
    """Internal: a failure worth another attempt (429, 5xx, an overload, connection trouble).
    `delay_s` is what the server asked for (Retry-After), if anything."""

    def __init__(self, message: str, delay_s: float | None = None) -> None:
        super().__init__(message)
        self.delay_s = delay_s


def clip(text: str, limit: int = VERBATIM_LIMIT) -> str:
    """`text` on one line, whole when it fits; else cut at the last word boundary before `limit`
    with a marker saying how much was left out. Never a silent cut, never mid-word."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    cut = flat.rfind(" ", 0, limit)
    cut = cut if cut > limit // 2 else limit
    return f"{flat[:cut].rstrip()} […trimmed, {len(flat) - cut} more characters]"


def with_prefix(provider: str, message: str) -> str:
    """`provider: message`, once: messages pass through several layers and each may add it."""
    if not provider or message.startswith((provider + ":", provider + " ")):
        return message
    return f"{provider}: {message}"
