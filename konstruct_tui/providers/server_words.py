"""A server's own words, pulled out of whatever it sent instead of a turn: an error object in any of
the shapes the OpenAI-compatible servers and Anthropic use, an HTML error page from a proxy, or
plain text. The person reads these verbatim (trimmed, with a marker), never our paraphrase.

Shapes seen in the wild:
    {"error": {"message": "...", "type": "...", "code": ...}}       OpenAI, Ollama /v1, llama.cpp, vLLM
    {"error": "model 'x' not found"}                                Ollama's own API
    {"object": "error", "message": "...", "type": "...", "code": 400}   older vLLM
    {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}   Anthropic
    {"detail": "Not Found"} / {"detail": [{"msg": "..."}]}            FastAPI-based servers
"""

from __future__ import annotations

import html
import json
import re
from typing import Any

from .errors import clip

# Error types and codes a server uses when asking again later may succeed.
RETRYABLE_TYPES = frozenset({"overloaded_error", "rate_limit_error", "api_error", "server_error", "overloaded", "service_unavailable"})
RETRYABLE_CODES = frozenset({"429", "500", "502", "503", "504", "529", "rate_limit_exceeded", "server_error"})

_SCRIPTS = re.compile(r"<(script|style)\b.*?</\1\s*>", re.IGNORECASE | re.DOTALL)
_TAGS = re.compile(r"<[^>]+>")
_TITLE = re.compile(r"<title[^>]*>(.*?)</title\s*>", re.IGNORECASE | re.DOTALL)


def parse_json(text: str) -> Any:
    try:
        return json.loads(text)
    except (json.JSONDecodeError, ValueError):
        return None


def error_of(payload: Any) -> dict[str, Any] | None:
    """The error a JSON payload reports, as {"message", "type", "code"}, or None when it is none."""
    if not isinstance(payload, dict):
        return None
    error = payload.get("error")
    if isinstance(error, dict):
        inner = error_of(error) if "error" in error else None  # a wrapper around the real one
        return inner or {"message": _text(error.get("message") or error.get("msg") or error), "type": error.get("type"), "code": error.get("code")}
    if isinstance(error, str) and error:
        return {"message": error, "type": payload.get("type"), "code": payload.get("code")}
    if payload.get("object") == "error" or (payload.get("type") == "error" and "message" in payload):
        return {"message": _text(payload.get("message") or payload), "type": payload.get("type"), "code": payload.get("code")}
    detail = payload.get("detail")
    if detail and not payload.get("choices") and not payload.get("content"):
        if isinstance(detail, list):
            detail = "; ".join(str(d.get("msg", d)) if isinstance(d, dict) else str(d) for d in detail)
        return {"message": _text(detail), "type": None, "code": None}
    return None


def describe_error(error: dict[str, Any], with_type: bool = True) -> str:
    """The server's message first and verbatim, then its type and code in brackets; trimmed with a
    marker when long."""
    kind = error.get("type")
    code = error.get("code")
    text = clip(str(error.get("message") or "(no message)"))
    extra = [str(kind)] if with_type and kind and kind != "error" and str(kind) not in text else []
    if with_type and code not in (None, "", kind) and str(code) not in text:
        extra.append(f"code {code}")
    return f"{text} ({', '.join(extra)})" if extra else text


def retryable(error: dict[str, Any]) -> bool:
    return str(error.get("type") or "") in RETRYABLE_TYPES or str(error.get("code") or "") in RETRYABLE_CODES


def body_words(raw: str) -> str:
    """What an error body says, for a person: the error message of a JSON body, the title and text
    of an HTML page, or the text itself."""
    stripped = raw.strip()
    if not stripped:
        return "(no body)"
    payload = parse_json(stripped)
    if payload is not None:
        error = error_of(payload)
        return describe_error(error, with_type=False) if error else clip(stripped)
    if stripped[:1] == "<" and re.search(r"<(html|head|body|title|h1|!doctype)", stripped[:500], re.IGNORECASE):
        return clip(html_text(stripped))
    return clip(stripped)


def html_text(page: str) -> str:
    """An HTML error page as the words a browser would show, the title first."""
    title_match = _TITLE.search(page)
    title = html.unescape(" ".join(title_match.group(1).split())) if title_match else ""
    body = page[title_match.end():] if title_match else page
    words = " ".join(html.unescape(_TAGS.sub(" ", _SCRIPTS.sub(" ", body))).split())
    if title and words.startswith(title):
        words = words[len(title):].strip()
    return f"{title}: {words}" if title and words else title or words or "(an empty HTML page)"


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


# How servers say the conversation no longer fits the model's context window, with the window's size
# where they name it.
_WINDOW_FULL = (
    re.compile(r"maximum context length is (\d+) tokens"),  # OpenAI, vLLM
    re.compile(r"longer than the maximum model length of (\d+)"),  # vLLM
    re.compile(r"prompt is too long: \d+ tokens > (\d+) maximum"),  # Anthropic
    re.compile(r"exceeds the available context size()"),  # llama.cpp
    re.compile(r"context[_ ]length[_ ]exceeded()"),
)


def window_hint(message: str, model: str) -> str:
    """A sentence telling the person how to let compaction start before the limit, when `message`
    says the context window is full; else empty."""
    for pattern in _WINDOW_FULL:
        found = pattern.search(message)
        if found:
            size = found.group(1) or "N"
            return (f" — the conversation no longer fits the model's context window: set [models.\"{model}\"] context_tokens = {size} "
                    "in config.toml so konstruct compacts it before the limit, then resume the session")
    return ""
