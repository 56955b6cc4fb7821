"""Shells, and the programs that run a command as another user.

A shell given `-c STRING` runs the string (judged as a command line of its own, policy.py); the
privileged programs are peeled off to judge what they run, and refused (`privilege`): the agent never
escalates. How each privileged program reads its options is code in wrappers.py.
"""

from __future__ import annotations

from .program import Program

PROGRAMS = (
    Program(("sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "yash", "posh"), shell=True),
    Program(("sudo", "sudoedit", "runuser", "doas", "su", "pkexec", "run0", "systemd-run"), privileged=True),
)
