"""@file mentions: `explain @shop/pricing.py` attaches that file to the request.

The file is read through `read_code` (the same containment, byte budget and statuses as the agent's
own reads) and its content goes into the request with its revision, so the model can edit it
without reading it again. Completion ranks the project's files (what git would list, .gitignore
honoured; a plain folder's .gitignore is read here) by a fuzzy match on what follows the `@`.
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..workspace import Workspace, list_files

# `@` at the start or after whitespace or an opening bracket/quote: `me@example.com` is not a mention.
MENTION = re.compile(r"(?<![^\s(\[{'\"`])@([^\s@'\"`)\]}]+)")
MAX_ATTACHED_BYTES = 128 * 1024  # per request: a mention is for a few files, not the project


@dataclass(frozen=True)
class Attachment:
    """A request with its mentioned files attached: `text` goes to the model; `attached` are
    (path, revision) pairs for the transcript; `problems` are one line per mention not attached."""

    text: str
    attached: tuple[tuple[str, str], ...] = ()
    problems: tuple[str, ...] = field(default_factory=tuple)


def project_files(root: Path) -> list[str]:
    """Workspace-relative paths of the project's files for completion, .gitignore honoured."""
    files = list_files(root)
    if (root / ".git").exists():
        return files  # git already applied every .gitignore
    rules = _ignore_rules(root / ".gitignore")
    return [f for f in files if not _ignored(f, rules)] if rules else files


def mention_at(text: str, cursor: int) -> tuple[int, str] | None:
    """The mention being typed at `cursor`: (position of its `@`, what follows it), or None."""
    start = text.rfind("@", 0, cursor)
    if start < 0:
        return None
    typed = text[start + 1 : cursor]
    if any(c.isspace() for c in typed):
        return None
    if start > 0 and not (text[start - 1].isspace() or text[start - 1] in "([{'\"`"):
        return None
    return start, typed


def fuzzy_files(query: str, files: list[str], limit: int = 12) -> list[str]:
    """Files matching `query` as a subsequence, best first: a match in the file name beats one in
    its folders, contiguous beats scattered, shorter paths break ties."""
    query = query.lower()
    if not query:
        return sorted(files, key=lambda f: (f.count("/"), len(f), f))[:limit]
    scored = []
    for path in files:
        score = _score(query, path.lower())
        if score is not None:
            scored.append((score, len(path), path))
    scored.sort()
    return [path for _, _, path in scored[:limit]]


def _score(query: str, path: str) -> float | None:
    name = path.rsplit("/", 1)[-1]
    if query == path:
        return -100.0
    if query in name:
        return -50.0 + name.index(query) * 0.1 - (10 if name.startswith(query) else 0)
    if query in path:
        return -25.0 + path.index(query) * 0.01
    position, gaps, last = 0, 0, -1
    for char in query:
        found = path.find(char, position)
        if found < 0:
            return None
        if last >= 0 and found != last + 1:
            gaps += 1
        last, position = found, found + 1
    return float(gaps)


def attach_mentions(workspace: Workspace, text: str) -> Attachment:
    """`text` with every mentioned file that exists attached (read through read_code)."""
    wanted: list[str] = []
    problems: list[str] = []
    for match in MENTION.finditer(text):
        path = match.group(1).rstrip(".,:;!?")
        if path not in wanted:
            wanted.append(path)
    if not wanted:
        return Attachment(text)
    from ..tools import ToolContext, ToolError, call  # here: completing @paths must not load the tools

    try:
        answer: dict[str, Any] = call("read_code", {"paths": wanted, "max_bytes": MAX_ATTACHED_BYTES}, ToolContext(workspace)).to_json()
    except ToolError as error:
        return Attachment(text, problems=(f"mentions not attached: {error}",))
    blocks: list[str] = []
    attached: list[tuple[str, str]] = []
    for entry in answer.get("results") or []:
        path = str(entry.get("path"))
        if entry.get("status") != "ok":
            if entry.get("status") != "not_found" or "/" in path or "." in path:
                problems.append(f"@{path} not attached: {entry.get('status')} — {entry.get('reason', '')}".rstrip(" —"))
            continue
        attached.append((path, str(entry["revision"])))
        blocks.append(
            f'<file path="{path}" revision="{entry["revision"]}" lines="{entry.get("start_line")}-{entry.get("end_line")}" '
            f'total_lines="{entry.get("total_lines")}">\n{entry.get("content", "")}\n</file>'
        )
    if not blocks:
        return Attachment(text, problems=tuple(problems))
    preface = (
        "\n\nThe person attached these files, read just now with read_code. Each carries its revision: "
        "edit them with write_code using that revision, without reading them again.\n"
    )
    return Attachment(text + preface + "\n".join(blocks), tuple(attached), tuple(problems))


def _ignore_rules(path: Path) -> list[tuple[str, bool, bool]]:
    """(pattern, negated, directory-only) from a .gitignore; unreadable means none."""
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return []
    rules = []
    for line in lines:
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        negated = line.startswith("!")
        line = line.lstrip("!")
        rules.append((line.rstrip("/"), negated, line.endswith("/")))
    return rules


def _ignored(path: str, rules: list[tuple[str, bool, bool]]) -> bool:
    # Later rules win, as in git. A pattern without a slash matches any component; one with a
    # slash is anchored at the root.
    parts = path.split("/")
    ignored = False
    for pattern, negated, directory_only in rules:
        anchored = pattern.lstrip("/")
        if "/" in pattern.strip("/"):
            candidates = ["/".join(parts[: i + 1]) for i in range(len(parts))]
            hit = any(fnmatch.fnmatchcase(c, anchored) for c in (candidates[:-1] if directory_only else candidates))
        else:
            components = parts[:-1] if directory_only else parts
            hit = any(fnmatch.fnmatchcase(c, anchored) for c in components)
        if hit:
            ignored = not negated
    return ignored
