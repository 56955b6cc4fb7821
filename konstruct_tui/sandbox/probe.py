"""A live check that confinement holds on this machine: a confined child tries to write outside
its sandbox (and, where network rules exist, to connect to a listener of ours on 127.0.0.1).

Why probe rather than trust the ABI number: a container or a security policy can leave the
Landlock syscalls answering while enforcement is off, and `konstruct sandbox check` must never
claim confinement that is not in force.
"""

from __future__ import annotations

import contextlib
import os
import socket
import sys
import tempfile
from typing import Any

from ..commands import run_process
from .confine import Confinement
from .plan import plan_for
from .settings import SandboxSettings

_CHILD = """
import errno, socket, sys
target, port = sys.argv[1], int(sys.argv[2])
try:
    open(target, "w").write("escaped")
    print("write:allowed")
except OSError as error:  # Landlock answers EACCES, a read-only view EROFS
    print("write:refused" if error.errno in (errno.EACCES, errno.EPERM, errno.EROFS) else "write:error")
if port:
    try:
        s = socket.socket()  # refused here already under the seccomp filter
        s.settimeout(5)
        s.connect(("127.0.0.1", port))
        print("connect:allowed")
    except PermissionError:
        print("connect:refused")
    except OSError as error:
        print("connect:error", error)
"""


def probe(abi: int) -> dict[str, Any]:
    """Run the probe under `read-only` on this kernel (`abi` > 0). Never raises for a failed probe."""
    outside = tempfile.mkdtemp(prefix="konstruct-probe-")
    target = os.path.join(outside, "escape.txt")
    listener = socket.socket() if abi >= 4 else None
    try:
        port = 0
        if listener is not None:
            listener.bind(("127.0.0.1", 0))
            listener.listen(1)
            port = listener.getsockname()[1]
        plan = plan_for(outside, SandboxSettings(mode="read-only"), abi)
        with Confinement(plan) as confinement:
            outcome = run_process([sys.executable, "-I", "-c", _CHILD, target, str(port)], outside,
                                  timeout_s=30, confinement=confinement)
        lines = set(outcome.stdout.split())
        result: dict[str, Any] = {
            "write_outside_refused": "write:refused" in lines and not os.path.exists(target),
            "connect_refused": ("connect:refused" in lines) if port else None,
        }
        if outcome.status != "ok":
            result["problem"] = outcome.reason or outcome.stderr.strip()[-300:]
        return result
    except OSError as error:
        return {"write_outside_refused": False, "connect_refused": None, "problem": str(error)}
    finally:
        if listener is not None:
            listener.close()
        with contextlib.suppress(OSError):
            os.unlink(target)
        with contextlib.suppress(OSError):
            os.rmdir(outside)
