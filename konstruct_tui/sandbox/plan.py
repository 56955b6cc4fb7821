"""What confinement a command gets: the project's mode, what this kernel can enforce, and what
the result says about it. Pure decisions; `confine.py` turns a plan into a confined child.

Modes:
- `workspace-write` (default): reads anywhere they could before; writes only in the workspace,
  the command's private temp folder (TMPDIR), a few devices (/dev/null ...) and the toolchain
  caches that exist (~/.cache/pip, ~/.npm, ~/go/pkg, ~/.m2, ~/.gradle, ~/.cache/go-build ...).
- `read-only`: reads as before; writes only in the private temp folder and those devices.
- `full`: no confinement at all (it needs its own grant, asked every session).
Both confined modes block the network unless the project allows it, where the kernel can
(Landlock ABI >= 4): TCP connect and bind are refused by Landlock, UDP/raw/packet/SCTP sockets and
io_uring by a seccomp filter (see seccomp.py). From ABI 6 they also cannot signal processes outside
the sandbox (the workbench itself) and, with the network blocked, cannot reach abstract unix sockets.

Never claimed, never implied: on a kernel without Landlock the plan's mode is `unsandboxed`, and a
project that set `unsandboxed = refuse` gets a refusal instead of a run.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import landlock
from .seccomp import seccomp_filter
from .settings import SandboxSettings

# Toolchain caches a confined build may write (the python, node, go and java presets' tools).
# Only those that exist are granted: the sandbox never creates folders in the home directory.
TOOLCHAIN_CACHES = (
    "~/.cache/pip", "~/.cache/uv", "~/.cache/pypoetry", "~/.npm", "~/.cache/yarn", "~/.local/share/pnpm",
    "~/go/pkg", "~/.cache/go-build", "~/.m2", "~/.gradle",
)
# Character devices programs expect to write. Not /dev/shm (it outlives the command), not /dev/pts
# (other people's terminals), not /dev/tty (a command has no controlling terminal: its own session).
WRITABLE_DEVICES = ("/dev/null", "/dev/zero", "/dev/full")
ABI_OVERRIDE = "KONSTRUCT_SANDBOX_ABI"  # lowers (never raises) the ABI used: to try the fallback


def effective_abi() -> int:
    """The kernel's Landlock ABI, lowered by $KONSTRUCT_SANDBOX_ABI when that is set (a way to see
    what a machine without Landlock would get; it can only take confinement away, honestly reported)."""
    abi = landlock.kernel_abi()
    override = os.environ.get(ABI_OVERRIDE, "").strip()
    if override.isdigit():
        abi = min(abi, int(override))
    return abi


@dataclass(frozen=True)
class SandboxPlan:
    requested: str  # the project's mode
    mode: str  # what is applied: read-only, workspace-write, full, or unsandboxed
    abi: int
    network: str  # blocked (the kernel refuses TCP connect), allowed (by the project), unrestricted
    settings: SandboxSettings
    writable: tuple[str, ...] = ()  # absolute paths a confined command may write, besides its temp folder
    refusal: str | None = None  # set when the command must not run at all
    notes: tuple[str, ...] = field(default=())

    @property
    def confined(self) -> bool:
        return self.mode in ("read-only", "workspace-write")

    @property
    def blocks_network(self) -> bool:
        return self.network == "blocked"

    def report(self) -> dict[str, Any]:
        """What a tool result says: the mode actually applied, the ABI, the network."""
        out: dict[str, Any] = {"mode": self.mode, "abi": self.abi, "network": self.network}
        if self.mode != self.requested:
            out["requested_mode"] = self.requested
        if self.notes:
            out["note"] = "; ".join(self.notes)
        return out


def plan_for(root: str | os.PathLike[str], settings: SandboxSettings, abi: int | None = None) -> SandboxPlan:
    abi = effective_abi() if abi is None else abi
    if settings.mode == "full":
        return SandboxPlan("full", "full", abi, "unrestricted", settings,
                           notes=("no confinement: the project's mode is full",))
    if abi <= 0:
        note = "this kernel offers no Landlock, so nothing confines the command"
        refusal = ("this project refuses unsandboxed runs (konstruct sandbox set --unsandboxed refuse) "
                   "and this kernel offers no Landlock") if settings.refuse_unsandboxed else None
        return SandboxPlan(settings.mode, "unsandboxed", 0, "unrestricted", settings, refusal=refusal, notes=(note,))
    notes: list[str] = []
    if settings.allow_network:
        network = "allowed"
    elif abi >= 4:
        network = "blocked"
        if seccomp_filter() is None:
            notes.append("only TCP is blocked: this architecture gets no seccomp filter for UDP and raw sockets")
    else:
        network = "unrestricted"
        notes.append(f"Landlock ABI {abi} has no network rules (they need ABI 4): outbound connections are not blocked")
    writable: list[str] = []
    if settings.mode == "workspace-write":
        real = os.path.realpath(os.fspath(root))
        home = os.path.realpath(os.path.expanduser("~"))
        if real == "/" or home == real or home.startswith(real.rstrip("/") + "/"):
            notes.append("the workspace contains the home folder: workspace-write lets commands write all of it")
        writable.append(real)
        writable.extend(p for p in (os.path.expanduser(c) for c in TOOLCHAIN_CACHES) if os.path.isdir(p))
    writable.extend(d for d in WRITABLE_DEVICES if os.path.exists(d))
    return SandboxPlan(settings.mode, settings.mode, abi, network, settings, tuple(writable), notes=tuple(notes))


def describe_writable(plan: SandboxPlan, root: str | os.PathLike[str]) -> list[str]:
    """The writable places for people, the workspace named as such (its location is never shown)."""
    real = os.path.realpath(os.fspath(root))
    home = str(Path.home())
    shown = []
    for path in plan.writable:
        if path == real:
            shown.append("<workspace>")
        elif path.startswith(home + os.sep):
            shown.append("~" + path[len(home):])
        else:
            shown.append(path)
    return (["<private temp folder per command (TMPDIR)>"] + shown) if plan.confined else []
