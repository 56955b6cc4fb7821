"""Helpers the sandbox tests import by name (a uniquely named module: `from conftest import ...`
would find whichever conftest.py pytest put on sys.path first)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from konstruct_tui.commands import ProcessOutcome, run_process
from konstruct_tui.sandbox import Confinement, SandboxSettings, kernel_abi, plan_for

__all__ = ["refused", "needs_landlock", "needs_network_rules", "run_confined", "run_process", "verdicts", "writer"]

needs_landlock = pytest.mark.skipif(kernel_abi() == 0, reason="this kernel has no Landlock")
needs_network_rules = pytest.mark.skipif(kernel_abi() < 4, reason="Landlock network rules need ABI 4")

# A child that tries to write each path given and prints one verdict per path. Refused is any of:
# EACCES (Landlock), EROFS (a folder bound read-only into the command's own root) and ENOENT (a place
# that is not in the command's filesystem at all: /tmp, /run, the home folder).
WRITER = """
import errno, sys
for target in sys.argv[1:]:
    try:
        with open(target, "w") as out:
            out.write("written")
        print("wrote", target)
    except OSError as error:
        refused = error.errno in (errno.EACCES, errno.EPERM, errno.EROFS, errno.ENOENT)
        print("denied" if refused else "error", target, error.errno)
"""
_REFUSALS = ("Permission denied", "PermissionError", "Read-only file system", "Errno 30",
             "No such file or directory", "FileNotFoundError", "cannot access")


def refused(stderr: str) -> bool:
    """Whether a child's error output says the kernel refused: no right (EACCES), a read-only view
    (EROFS), or a path that does not exist in the command's own root (ENOENT)."""
    return any(word in stderr for word in _REFUSALS)


def run_confined(root: Path, argv: list[str], mode: str = "workspace-write", allow_network: bool = False,
                 timeout_s: float = 60) -> ProcessOutcome:
    plan = plan_for(root, SandboxSettings(mode=mode, allow_network=allow_network))
    with Confinement(plan) as confinement:
        return run_process(argv, root, timeout_s=timeout_s, confinement=confinement)


def verdicts(outcome: ProcessOutcome) -> dict[str, str]:
    """{path: "wrote" | "denied" | "error"} from the WRITER child's output."""
    out = {}
    for line in outcome.stdout.splitlines():
        verdict, _, rest = line.partition(" ")
        out[rest.split(" ")[0]] = verdict
    return out


def writer(*targets: str | Path) -> list[str]:
    return [sys.executable, "-I", "-c", WRITER, *map(str, targets)]
