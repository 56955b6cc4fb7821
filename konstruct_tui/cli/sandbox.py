"""`konstruct sandbox check|set|clear [--root DIR]`: what confinement this machine offers, and the
mode this project's commands run in (kept in the user's config, outside the project).

check   {"landlock": {...}, "filesystem": {...}, "project": {...}, "self_test": {...}}
set     [--mode read-only|workspace-write|full] [--network allow|block] [--unsandboxed run|refuse]
clear   back to the defaults (workspace-write, network blocked, unsandboxed runs reported as such)
"""

from __future__ import annotations

import argparse
import os
from typing import Any

from ..sandbox import (
    ABI_OVERRIDE,
    DROPPED,
    MODES,
    NEVER_GRANTED,
    TOOLCHAIN_CACHES,
    BadSetting,
    SandboxConfig,
    SandboxPlan,
    describe_writable,
    effective_abi,
    handled_rights,
    kernel_abi,
    plan_for,
    private_namespaces,
    probe,
    right_names,
    seccomp_filter,
)
from .common import UsageError, add_command, command_with_actions, open_workspace, print_json


def register(commands: Any) -> None:
    actions = command_with_actions(commands, "sandbox", "the kernel sandbox commands run in (Landlock)")
    add_command(actions, "check", "what this machine supports and what mode this project uses", run_check)
    change = add_command(actions, "set", "change this project's sandbox settings", run_set)
    change.add_argument("--mode", choices=MODES, help="read-only, workspace-write (default) or full (no sandbox)")
    change.add_argument("--network", choices=("allow", "block"), help="network access from commands (TCP, UDP, raw sockets)")
    change.add_argument("--unsandboxed", choices=("run", "refuse"),
                        help="on a kernel without Landlock: run unconfined (reported) or refuse")
    add_command(actions, "clear", "back to the defaults for this project", run_clear)


def run_check(args: argparse.Namespace) -> int:
    workspace = open_workspace(args.root)
    config = SandboxConfig()
    settings = config.settings(workspace.root)
    abi = effective_abi()
    plan = plan_for(workspace.root, settings, abi)
    landlock: dict[str, Any] = {
        "available": abi > 0, "abi": abi, "network_rules": abi >= 4, "scopes": abi >= 6,
    }
    if abi != kernel_abi():
        landlock["kernel_abi"] = kernel_abi()
        landlock["note"] = f"lowered by ${ABI_OVERRIDE}"
    payload = {
        "mode": settings.mode,  # the project's mode; `applied` below is what its commands get here
        "applied": plan.report(),
        "landlock": landlock,
        "filesystem": {
            "reads": ("an allow-list: the workspace, system folders, the interpreter, PATH and named toolchain "
                      "folders; never the home folder itself (~/.ssh, ~/.aws, ~/.config/konstruct ...)")
            if plan.confined else "unrestricted",
            "readable_count": len(plan.readable) if plan.confined else None,
            "git": ("read-only (a read-only bind mount)" if plan.namespaces else
                    "read-only (every other top-level entry is writable; new top-level entries cannot be made)")
            if plan.confined else "writable",
            "unix_sockets": ("only the workspace's and the command's own TMPDIR: it runs in a root of its own "
                             "holding only what it may read and write") if plan.confined and plan.namespaces
            else "reachable by path" if plan.confined else "unrestricted",
            "lifetime": ("pid-namespace" if plan.namespaces else "subreaper") if plan.confined else "subreaper",
            "restricted_rights": right_names(handled_rights(abi)) if plan.confined else [],
            "never_granted": right_names(NEVER_GRANTED) if plan.confined else [],
            "writable": describe_writable(plan, workspace.root),
            "toolchain_caches_if_present": list(TOOLCHAIN_CACHES) if settings.mode == "workspace-write" and plan.confined else [],
            "symlinks": "judged on the resolved target: a link in the workspace cannot be written through to outside",
        },
        "network": _network(plan),
        "namespaces": _namespaces(plan),
        "always_refused": _always_refused(plan),
        "capabilities_dropped": sorted(DROPPED) if plan.confined and os.geteuid() == 0 else [],
        "project": {
            **settings.to_json(),
            "configured_in": settings.source if settings.source != "default"
            else f"default (nothing set for this project in {config.path})",
            "refuses": plan.refusal,
        },
        "applies_to": "every command run_command starts and all its descendants; never the workbench itself",
        "self_test": probe(abi) if abi > 0 else None,
    }
    if config.warnings:
        payload["warnings"] = config.warnings
    print_json(payload)
    return 0


def _network(plan: SandboxPlan) -> dict[str, Any]:
    if plan.network != "blocked":
        return {"applied": plan.network, "refused": []}
    refused = ["tcp connect", "tcp bind"]
    if seccomp_filter() is not None:
        refused += ["every socket but unix and netlink ones: tcp listen, tcp fast open, udp, raw, packet, "
                    "sctp, vsock (seccomp)", "io_uring (seccomp)"]
    if plan.abi >= 6:
        refused.append("abstract unix sockets outside the sandbox")
    if plan.namespaces and private_namespaces()["network_when_blocked"]:
        refused.append("every network interface but a loopback of its own: a network namespace of its own "
                       "(your localhost services, containers and VPN are not there)")
    still = ["unix sockets in the workspace and the command's own TMPDIR" if plan.namespaces else "unix sockets by path"]
    return {"applied": "blocked", "refused": refused, "still_allowed": still}


def _always_refused(plan: SandboxPlan) -> list[str]:
    """What the seccomp filter refuses whatever the network setting (none where no filter exists)."""
    if not plan.confined or seccomp_filter() is None:
        return []
    return ["the kernel keyring (keyctl, add_key, request_key)", "user namespaces (CLONE_NEWUSER; clone3 answers ENOSYS)",
            "set-uid and set-gid file modes (chmod, fchmod, fchmodat, and opens and mknods that create a file)",
            "openat2 (ENOSYS: callers use openat)", "io_uring"]


def _namespaces(plan: SandboxPlan) -> dict[str, bool]:
    """What each confined command gets of its own (all false where this kernel or user cannot)."""
    owned = private_namespaces() if plan.confined and plan.namespaces else dict.fromkeys(private_namespaces(), False)
    return {**owned, "network_when_blocked": owned["network_when_blocked"] and plan.network == "blocked"}


def run_set(args: argparse.Namespace) -> int:
    workspace = open_workspace(args.root)
    if args.mode is None and args.network is None and args.unsandboxed is None:
        raise UsageError("sandbox set needs at least one of --mode, --network, --unsandboxed")
    try:
        settings = SandboxConfig().update(
            workspace.root, mode=args.mode,
            allow_network=None if args.network is None else args.network == "allow",
            refuse_unsandboxed=None if args.unsandboxed is None else args.unsandboxed == "refuse",
        )
    except BadSetting as error:
        raise UsageError(str(error)) from None
    print_json({**settings.to_json(), "configured_in": settings.source})
    return 0


def run_clear(args: argparse.Namespace) -> int:
    workspace = open_workspace(args.root)
    config = SandboxConfig()
    config.clear(workspace.root)
    print_json({**config.settings(workspace.root).to_json(), "configured_in": "default"})
    return 0
