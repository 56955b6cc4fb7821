"""Shells, and the programs that run a command as another user.

A shell given `-c STRING` runs the string (judged as a command line of its own, policy.py); the
privileged programs are peeled off to judge what they run, and refused (`privilege`): the agent never
escalates. Each privileged program's entry says how it reads its options (`Privilege`).
"""

from __future__ import annotations

from .program import Privilege, Program

PROGRAMS = (
    Program(("sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "yash", "posh"), shell=True),
    Program(("sudo", "sudoedit", "runuser"), privileged=Privilege(
        short_values="ugCDhprtUTc", shell_with=("-i", "-s", "--login", "--shell"),
        long_values=("user", "group", "close-from", "chdir", "host", "prompt", "role", "type", "other-user",
                     "command-timeout", "login-class"))),
    Program(("doas",), privileged=Privilege(short_values="uC")),
    Program(("su",), privileged=Privilege(always_shell=True, command_options=("-c", "--command"))),
    Program(("pkexec",), privileged=Privilege(long_values=("user",))),
    Program(("run0",), privileged=Privilege(long_values=(
        "user", "unit", "property", "description", "slice", "chdir", "setenv"))),
    Program(("systemd-run",), privileged=Privilege(short_values="pEMu", long_values=(
        "unit", "property", "description", "slice", "uid", "gid", "setenv", "working-directory", "machine", "host"))),
)
