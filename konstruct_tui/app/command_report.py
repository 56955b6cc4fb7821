"""A `run_command` result read as a terminal would show it: the command, how it ended, its output
as text, how long it took and how it was confined. Plain Python (no Textual): the transcript draws
it, tests read it alone.

What the sandbox blocked is read from the command's own output, and only said when that output
names it: a blocked connection or name lookup (with the network blocked), a write refused on
`.git` (read-only inside the sandbox) or on a path outside the workspace. A message that could mean
something else (`No such file or directory` for a folder the sandbox hides) is not claimed.
"""

from __future__ import annotations

import re
import signal
from dataclasses import dataclass
from typing import Any

# `CappedOutput.text()` puts this line where it dropped the middle of a long output.
CUT_MARK = re.compile(r"^\[\.\.\. (\d+) bytes truncated \.\.\.\]$")

# Messages a program prints when it cannot reach the network (resolver, curl, Python, Node, git).
_NETWORK_WORDS = re.compile(
    r"could not resolve host|temporary failure in name resolution|name or service not known|"
    r"network is unreachable|couldn't connect to server|failed to establish a new connection|"
    r"getaddrinfo|could not resolve hostname|eai_again|connect eacces|urlopen error \[errno 13\]",
    re.IGNORECASE,
)
# Python's traceback of a refused connect: the socket module's frames, then EACCES.
_SOCKET_REFUSED = re.compile(r"socket\.py.*permission denied", re.IGNORECASE | re.DOTALL)
# A write the file system refused (Landlock answers EACCES; the read-only binds EROFS).
_REFUSED_WRITE = re.compile(r"read-only file system|permission denied|operation not permitted", re.IGNORECASE)
# A path in such a line: quoted ('x', "x", ‘x’) or after `: `.
_QUOTED_PATH = re.compile(r"['\"‘`]([^'\"’`\n]+)['\"’`]")
_WORKSPACE = "<workspace>"  # how `Workspace.scrub` spells the project's own folder


@dataclass(frozen=True)
class CommandReport:
    command: str
    status: str  # ok, failed, timeout, killed, not_found, refused, needs_grant
    exit_code: int | None
    signal: int | None
    duration_s: float | None
    stdout: str
    stderr: str
    stdout_truncated: bool
    stderr_truncated: bool
    reason: str  # why it did not run or how it ended, as the tool said
    confinement: str  # `workspace-write · Landlock 7 · network blocked`, or "" when it never ran
    blocked: str  # what the sandbox blocked, read from the output; "" when the output names nothing
    steps: tuple[dict[str, Any], ...] = ()

    @property
    def ran(self) -> bool:
        return (self.exit_code is not None or self.signal is not None or self.status in ("ok", "failed", "timeout")
                or bool(self.stdout or self.stderr))

    def ending(self) -> str:
        """`exit 0`, `exit 2`, `killed by SIGKILL`, `timeout`, `refused`."""
        if self.signal is not None:
            return f"signal {_signal_name(self.signal)}"
        if self.exit_code is not None:
            return f"exit {self.exit_code}"
        return self.status


def command_report(result: dict[str, Any]) -> CommandReport:
    sandbox = result.get("sandbox")
    duration = result.get("duration_s")
    stdout, stderr = _text(result.get("stdout")), _text(result.get("stderr"))
    exit_code = result.get("exit_code") if isinstance(result.get("exit_code"), int) else None
    signal = result.get("signal") if isinstance(result.get("signal"), int) else None
    status = str(result.get("status") or "error")
    report = CommandReport(
        command=_text(result.get("command")) or (f"script {result['script']}" if result.get("script") else ""),
        status=status,
        exit_code=exit_code,
        signal=signal,
        duration_s=float(duration) if isinstance(duration, (int, float)) else None,
        stdout=stdout,
        stderr=stderr,
        stdout_truncated=bool(result.get("stdout_truncated")),
        stderr_truncated=bool(result.get("stderr_truncated")),
        reason=_text(result.get("reason")),
        confinement=confinement(sandbox),
        blocked=sandbox_blocked(sandbox, stdout + "\n" + stderr) if status != "ok" else "",
        steps=tuple(s for s in result.get("steps") or () if isinstance(s, dict)),
    )
    return report


def confinement(sandbox: Any) -> str:
    """How a command ran: `workspace-write · Landlock 7 · network blocked`, or `unsandboxed` —
    never more than the tool result says was in force."""
    if not isinstance(sandbox, dict):
        return ""
    mode = str(sandbox.get("mode", "unknown"))
    abi = sandbox.get("abi")
    if mode in ("unsandboxed", "full") or not abi:
        return mode
    network = " · network blocked" if sandbox.get("network") == "blocked" else ""
    return f"{mode} · Landlock {abi}{network}"


def sandbox_blocked(sandbox: Any, output: str) -> str:
    """What the sandbox blocked, when the output names it; "" otherwise (and when nothing confined it)."""
    if not isinstance(sandbox, dict) or sandbox.get("mode") in ("unsandboxed", "full", None) or not sandbox.get("abi"):
        return ""
    for line in output.splitlines():
        if not _REFUSED_WRITE.search(line):
            continue
        for path in _paths_in(line):
            if _in_git(path):
                return f"the sandbox keeps .git read-only ({path})"
            if _outside(path):
                return f"the sandbox blocked {path} (outside the workspace)"
    if sandbox.get("network") == "blocked" and (_NETWORK_WORDS.search(output) or _SOCKET_REFUSED.search(output)):
        return "the sandbox blocked the network"
    return ""


def _paths_in(line: str) -> list[str]:
    found = [m.group(1).strip() for m in _QUOTED_PATH.finditer(line)]
    # `mkdir: /opt/x: Permission denied`, `cannot open /etc/x: Read-only file system`
    found += [w.rstrip(":,;") for w in line.split() if w.startswith(("/", "../", ".git", _WORKSPACE))]
    return [p for p in found if p and ("/" in p or p == ".git")]


def _in_git(path: str) -> bool:
    parts = path.replace("\\", "/").split("/")
    return ".git" in parts


def _outside(path: str) -> bool:
    if path.startswith(_WORKSPACE):
        return False
    return path.startswith("/") or path.startswith("../") or path == ".."


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return str(number)


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""
