"""Kernel-enforced confinement for the commands the workbench runs (Landlock, Linux >= 5.13).

Public names: `SandboxSettings` / `SandboxConfig` / `MODES` / `BadSetting` (the project's mode, kept
outside the project), `plan_for` / `project_plan` / `SandboxPlan` (what a command gets on this kernel
and what its result says), `Confinement` (one command's private temp folder and confined launcher,
applied to the child only: `run_process(..., confinement=...)`), `LandlockError`, `kernel_abi` /
`effective_abi`.

Modules: landlock (the syscalls), seccomp (the network filter), privileges (root's capabilities),
plan (modes and decisions), confine (the launcher thread), temp_folders (TMPDIRs and the background
thread), settings (the config file), probe (the live self-test of `konstruct sandbox check`).
"""

from __future__ import annotations

import os

from .confine import Confinement
from .landlock import NEVER_GRANTED, LandlockError, handled_rights, kernel_abi, right_names, write_rights
from .namespaces import private_namespaces
from .plan import ABI_OVERRIDE, TOOLCHAIN_CACHES, SandboxPlan, describe_writable, effective_abi, plan_for
from .privileges import DROPPED
from .probe import probe
from .seccomp import seccomp_filter
from .settings import MODES, BadSetting, SandboxConfig, SandboxSettings


def project_plan(root: str | os.PathLike[str], settings: SandboxSettings | None = None,
                 abi: int | None = None) -> SandboxPlan:
    """The plan for a command in the project at `root`: its stored settings (or `settings`) on
    this kernel (or an injected `abi`, 0 meaning no Landlock)."""
    return plan_for(root, settings or SandboxConfig().settings(root), abi)


__all__ = [
    "ABI_OVERRIDE",
    "DROPPED",
    "MODES",
    "NEVER_GRANTED",
    "TOOLCHAIN_CACHES",
    "BadSetting",
    "Confinement",
    "LandlockError",
    "SandboxConfig",
    "SandboxPlan",
    "SandboxSettings",
    "describe_writable",
    "effective_abi",
    "handled_rights",
    "kernel_abi",
    "plan_for",
    "private_namespaces",
    "probe",
    "project_plan",
    "right_names",
    "seccomp_filter",
    "write_rights",
]
