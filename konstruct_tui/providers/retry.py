"""Retries: 429, 5xx and connection errors, with exponential backoff that defers to `Retry-After`."""

from __future__ import annotations

import email.utils
import time
from dataclasses import dataclass

import httpx

RETRYABLE_STATUS = frozenset({408, 409, 429, 500, 502, 503, 504, 529})
CONNECTION_ERRORS = (httpx.ConnectError, httpx.ConnectTimeout, httpx.ReadError, httpx.WriteError, httpx.RemoteProtocolError, httpx.ReadTimeout, httpx.PoolTimeout)


@dataclass(frozen=True)
class RetryPolicy:
    attempts: int = 5  # in all, the first one included
    base_delay_s: float = 0.5
    max_delay_s: float = 30.0

    def backoff(self, attempt: int) -> float:
        """Delay before attempt `attempt + 1` (attempt counts from 0) when the server named none."""
        return min(self.max_delay_s, self.base_delay_s * (2**attempt))

    def delay(self, attempt: int, asked_s: float | None) -> float:
        return min(self.max_delay_s, asked_s) if asked_s is not None else self.backoff(attempt)


def retry_after(response: httpx.Response) -> float | None:
    """Seconds the server asked us to wait: `retry-after-ms` (OpenAI), `Retry-After` as seconds or
    as an HTTP date. None when absent or unreadable."""
    millis = response.headers.get("retry-after-ms")
    if millis:
        try:
            return max(0.0, float(millis) / 1000)
        except ValueError:
            pass
    value = response.headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


DEFAULT_RETRY = RetryPolicy()
