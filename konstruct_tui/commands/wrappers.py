"""Peeling off the programs that only start another program (`sudo`, `env`, `nice`, `timeout`, ...).

The deny list must judge the command that really runs: `nice -n 5 /bin/rm -rf /` is `rm -rf /`.
Some wrappers hand a *string* to a shell (`su -c`, `flock -c`, `watch`, `script -c`, `ssh host ...`);
those come back as `shell_code` so the policy can judge that string as a command line of its own.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .shellwords import ShellSyntaxError, split_words

PRIVILEGE = frozenset({"sudo", "doas", "su", "pkexec", "run0", "sudoedit", "runuser", "systemd-run"})
SHELLS = frozenset({"sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "yash", "posh"})
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")


def program_name(word: str) -> str:
    """The program a word names: `/bin/rm`, `./rm` and `rm` are all `rm` for the deny list."""
    return os.path.basename(word.rstrip("/")) or word


def is_assignment(word: str) -> bool:
    return bool(_ASSIGNMENT.match(word))


@dataclass(frozen=True)
class Unwrapped:
    """The command that actually runs once the wrappers are peeled off."""

    argv: tuple[str, ...]
    wrappers: tuple[str, ...] = ()
    assignments: tuple[str, ...] = ()
    shell_code: str | None = None  # a string some wrapper hands to a shell
    shell_via: str | None = None  # which wrapper, for the reason text

    @property
    def privileged(self) -> bool:
        return any(w in PRIVILEGE for w in self.wrappers)


@dataclass
class _State:
    words: list[str]
    wrappers: list[str] = field(default_factory=list)
    assignments: list[str] = field(default_factory=list)
    shell_code: str | None = None
    shell_via: str | None = None


def skip_options(words: Sequence[str], start: int, short_args: str = "", long_args: Sequence[str] = ()) -> int:
    """Index of the first operand at or after `start`. `short_args` are option letters taking a
    value (`-u root`, `-uroot`); `long_args` long options taking one (`--user root`, `--user=root`)."""
    i = start
    while i < len(words):
        word = words[i]
        if word == "--":
            return i + 1
        if not word.startswith("-") or word == "-":
            return i
        if word.startswith("--"):
            name = word[2:].split("=", 1)[0]
            i += 2 if name in long_args and "=" not in word else 1
            continue
        letters = word[1:]
        consumed = 1
        for k, letter in enumerate(letters):
            if letter in short_args:
                if k == len(letters) - 1:
                    consumed = 2  # the value is the next word
                break  # the rest of this word is the value
        i += consumed
    return i


def _sudo(s: _State) -> None:
    i = skip_options(s.words, 1, "ugCDhprtUTc", ("user", "group", "close-from", "chdir", "host", "prompt",
                                                 "role", "type", "other-user", "command-timeout", "login-class"))
    if any(w in ("-i", "-s", "--login", "--shell") for w in s.words[1:i]) and i >= len(s.words):
        s.words = ["sh"]  # a root shell
        return
    s.words = s.words[i:]


def _doas(s: _State) -> None:
    s.words = s.words[skip_options(s.words, 1, "uC"):]


def _su(s: _State) -> None:
    words = s.words[1:]
    for k, word in enumerate(words):
        if word in ("-c", "--command") and k + 1 < len(words):
            s.shell_code, s.shell_via = words[k + 1], "su -c"
            break
        if word.startswith("--command="):
            s.shell_code, s.shell_via = word.split("=", 1)[1], "su -c"
            break
    s.words = ["sh"]  # su starts a (root) shell


def _env(s: _State) -> None:
    words, i = s.words, 1
    rest: list[str] = []
    while i < len(words):
        word = words[i]
        if word in ("-S", "--split-string") and i + 1 < len(words):
            rest = _split(words[i + 1])
            i += 2
        elif word.startswith("--split-string="):
            rest = _split(word.split("=", 1)[1])
            i += 1
        elif word.startswith("-S") and len(word) > 2:
            rest = _split(word[2:])
            i += 1
        elif word in ("-u", "--unset", "-C", "--chdir"):
            i += 2
        elif word.startswith("-") and word != "-" and not rest:
            i += 1
            if word == "--":
                break
        elif is_assignment(word):
            s.assignments.append(word)
            i += 1
        else:
            break
    s.words = rest + words[i:]


def _split(text: str) -> list[str]:
    try:
        return split_words(text)
    except ShellSyntaxError:
        return text.split()


def _skip_then(short_args: str, long_args: Sequence[str] = (), operands: int = 0) -> Callable[[_State], None]:
    """A wrapper whose options are skipped, then `operands` words of its own (a duration, a file)."""

    def peel(s: _State) -> None:
        i = skip_options(s.words, 1, short_args, long_args)
        s.words = s.words[i + operands:]

    return peel


def _nice(s: _State) -> None:
    words, i = s.words, 1
    while i < len(words) and words[i].startswith("-") and words[i] != "--":
        i += 2 if words[i] in ("-n", "--adjustment") else 1
    if i < len(words) and words[i] == "--":
        i += 1
    s.words = words[i:]


def _chrt(s: _State) -> None:
    i = skip_options(s.words, 1, "TPD")
    if i < len(s.words) and s.words[i].lstrip("-").isdigit():
        i += 1
    s.words = s.words[i:]


def _taskset(s: _State) -> None:
    i = skip_options(s.words, 1)
    s.words = s.words[i + 1:]  # the CPU mask


def _flock(s: _State) -> None:
    words = s.words
    for k, word in enumerate(words):
        if word in ("-c", "--command") and k + 1 < len(words):
            s.shell_code, s.shell_via = words[k + 1], "flock -c"
            s.words = ["sh"]
            return
    i = skip_options(words, 1, "wEo", ("timeout", "conflict-exit-code"))
    s.words = words[i + 1:]  # the lock file


def _watch(s: _State) -> None:
    words = s.words
    i = skip_options(words, 1, "nqd", ("interval", "differences", "equexit"))
    if any(w in ("-x", "--exec") for w in words[1:i]):
        s.words = words[i:]
        return
    s.shell_code, s.shell_via = " ".join(words[i:]), "watch"
    s.words = ["sh"]


def _script(s: _State) -> None:
    words = s.words
    for k, word in enumerate(words):
        if k and word.startswith("-") and not word.startswith("--") and word.endswith("c") and k + 1 < len(words):
            s.shell_code, s.shell_via = words[k + 1], "script -c"
            break
        if word.startswith("--command"):
            s.shell_code = word.split("=", 1)[1] if "=" in word else (words[k + 1] if k + 1 < len(words) else "")
            s.shell_via = "script -c"
            break
    s.words = ["sh"]


def _ssh(s: _State) -> None:
    words = s.words
    i = skip_options(words, 1, "bcDEeFIiJLlmOopQRSWw")
    if i + 1 < len(words):
        s.shell_code, s.shell_via = " ".join(words[i + 1:]), "ssh"
        s.words = words[: i + 1]  # the remote command is judged as shell code, not run here


def _busybox(s: _State) -> None:
    s.words = s.words[1:]


_PEELERS: dict[str, Callable[[_State], None]] = {
    "sudo": _sudo, "sudoedit": _sudo, "doas": _doas, "su": _su, "pkexec": _skip_then("", ("user",)),
    "run0": _skip_then("", ("user", "unit", "property", "description", "slice", "chdir", "setenv")),
    "runuser": _sudo, "systemd-run": _skip_then("pEMu", ("unit", "property", "description", "slice", "uid", "gid",
                                                      "setenv", "working-directory", "machine", "host")),
    "fakeroot": _skip_then("ls", ("lib", "faked")), "env": _env,
    # package runners: `npx rimraf /` runs the package's program with the rest of the words
    "npx": _skip_then("pc", ("package", "call")), "pnpx": _skip_then("pc", ("package", "call")),
    "bunx": _skip_then("p", ("package",)), "uvx": _skip_then("", ("from", "with", "python")),
    "nice": _nice, "ionice": _skip_then("cnpPu", ("class", "classdata", "pid", "pgid", "uid")),
    "timeout": _skip_then("sk", ("signal", "kill-after"), operands=1),
    "nohup": _skip_then(""), "command": _skip_then(""), "builtin": _skip_then(""), "exec": _skip_then("a"),
    "time": _skip_then("fo", ("format", "output")), "stdbuf": _skip_then("ioe", ("input", "output", "error")),
    "setsid": _skip_then(""), "chrt": _chrt, "taskset": _taskset, "flock": _flock, "watch": _watch,
    "script": _script, "ssh": _ssh, "busybox": _busybox, "unbuffer": _skip_then(""),
    "strace": _skip_then("abeEIoOpPsSuUX"), "ltrace": _skip_then("aAeEnopsuxX"),
    "caffeinate": _skip_then("tw"), "nsenter": _skip_then("tSGw", ("target", "setuid", "setgid", "wd")),
    "unshare": _skip_then("", ("map-user", "map-group", "propagation", "setgroups", "wd", "root")),
    "chroot": _skip_then("", ("userspec", "groups"), operands=1),
    "xargs": _skip_then("adEILnPs", (  # -i, -e, -l take their value attached, if any"arg-file", "delimiter", "eof", "replace", "max-lines", "max-args",
                                        "max-procs", "max-chars", "process-slot-var")),
}


def unwrap(argv: Sequence[str]) -> Unwrapped:
    """Peel wrappers off `argv` until the real program is first."""
    s = _State(list(argv))
    for _ in range(32):  # `env env env ...`: bounded, never a loop forever
        while s.words and is_assignment(s.words[0]):
            s.assignments.append(s.words.pop(0))
        if not s.words:
            break
        name = program_name(s.words[0])
        peel = _PEELERS.get(name)
        if peel is None:
            break
        if name == "xargs" and len(s.words) == 1:
            s.words = ["echo"]  # xargs with no command runs echo
        s.wrappers.append(name)
        before = s.words
        peel(s)
        if s.shell_code is not None or s.words is before:
            break
    return Unwrapped(tuple(s.words), tuple(s.wrappers), tuple(s.assignments), s.shell_code, s.shell_via)


def shell_code_of(argv: Sequence[str]) -> str | None:
    """The string a shell given `argv` will run: `bash -c 'x'`, `sh -lc 'x'`, `bash -e -c 'x'`.
    None when the shell runs a script file or reads its input instead."""
    if not argv or program_name(argv[0]) not in SHELLS:
        return None
    i, seen_c = 1, False
    while i < len(argv):
        word = argv[i]
        if word == "--":
            i += 1
            break
        if word in ("-o", "+o", "-O", "+O"):
            i += 2  # `bash -o pipefail -c ...`: the option's value is not the code
            continue
        if word.startswith(("-", "+")) and len(word) > 1:
            if not word.startswith("--") and "c" in word[1:]:
                seen_c = True
            i += 1
            continue
        break
    if not seen_c:
        return None
    return argv[i] if i < len(argv) else ""
