"""A tool's arguments or result as a person reads them: one `key: value` a line, nested things
indented, and text with line breaks shown as its lines (a file's content, a diff, a command's output)
rather than one JSON string full of `\\n` escapes. Plain Python; the transcript draws it."""

from __future__ import annotations

import json
from typing import Any

_INDENT = "  "


def result_text(value: Any) -> str:
    """Every field, in order; the caller neutralises before drawing (this is still untrusted text)."""
    return "\n".join(_lines(value, 0)) or "(empty)"


def _lines(value: Any, depth: int) -> list[str]:
    pad = _INDENT * depth
    if isinstance(value, dict):
        if not value:
            return [pad + "{}"]
        out: list[str] = []
        for key, item in value.items():
            out.extend(_field(f"{pad}{_key(key)}:", item, depth))
        return out
    if isinstance(value, (list, tuple)):
        if not value:
            return [pad + "[]"]
        out = []
        for item in value:
            out.extend(_field(f"{pad}-", item, depth))
        return out
    return [pad + _scalar(value)]


def _field(label: str, item: Any, depth: int) -> list[str]:
    if isinstance(item, str) and "\n" in item:
        # A text block: its lines as they are, under the label (`|` as YAML marks a literal block).
        body = item[:-1] if item.endswith("\n") else item
        return [f"{label} |", *(_INDENT * (depth + 1) + line for line in body.split("\n"))]
    if isinstance(item, (dict, list, tuple)) and item:
        if label.endswith("-") and isinstance(item, dict):
            # A list of records: the first field on the dash line, the rest under it.
            inner = _lines(item, depth + 1)
            return [label + " " + inner[0].lstrip(), *inner[1:]]
        return [label, *_lines(item, depth + 1)]
    return [f"{label} {_scalar(item)}"]


def _key(key: Any) -> str:
    # A key the model wrote could carry a line break and forge a field (`x\nstatus: ok`): quoted then.
    text = str(key)
    return text if text and text.isprintable() and ":" not in text and text.strip() == text else json.dumps(text, ensure_ascii=False)


def _scalar(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        # One-line text as it is, unless it would read as another kind of value.
        if value == "" or value.strip() != value or value in ("null", "true", "false", "{}", "[]") or "\r" in value:
            return json.dumps(value, ensure_ascii=False)
        return value
    if isinstance(value, (dict, list, tuple)):
        return "{}" if isinstance(value, dict) else "[]"
    return str(value)
