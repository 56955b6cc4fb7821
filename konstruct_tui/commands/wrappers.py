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

from .options import Parsed, Table, parse
from .programs import PROGRAMS, Privilege, names_where
from .shellwords import ShellSyntaxError, split_words

PRIVILEGE = names_where("privileged")
SHELLS = names_where("shell")
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")


def program_name(word: str) -> str:
    """The program a word names: `/bin/rm`, `./rm` and `rm` are all `rm` for the deny list, and so
    is a package runner's `rimraf@latest` or `@scope/rimraf@1` (a version pinned)."""
    name = os.path.basename(word.rstrip("/")) or word
    if "@" in name[1:]:
        name = name[0] + name[1:].split("@", 1)[0]
    return name


def is_assignment(word: str) -> bool:
    return bool(_ASSIGNMENT.match(word))


@dataclass(frozen=True)
class Unwrapped:
    """The command that actually runs once the wrappers are peeled off."""

    argv: tuple[str, ...]
    wrappers: tuple[str, ...] = ()
    assignments: tuple[str, ...] = ()
    codes: tuple[tuple[str, str], ...] = ()  # (shell code some wrapper runs, which wrapper)
    unknown: str | None = None  # an option of a wrapper that its table does not know: ask, never allow
    probes: tuple[tuple[str, ...], ...] = ()  # other readings of the command behind an unknown option
    chdir: str | None = None  # a wrapper ran the command in another folder (`env -C`, `unshare -w`)
    writes: tuple[str, ...] = ()  # files a wrapper writes (`strace -o`, `time -o`)
    too_deep: bool = False  # wrappers were still being peeled when the budget ran out: what runs is unknown

    @property
    def privileged(self) -> bool:
        return any(w in PRIVILEGE for w in self.wrappers)

    @property
    def shell_code(self) -> str | None:
        return self.codes[0][0] if self.codes else None

    @property
    def shell_via(self) -> str | None:
        return self.codes[0][1] if self.codes else None


@dataclass
class _State:
    words: list[str]
    wrappers: list[str] = field(default_factory=list)
    assignments: list[str] = field(default_factory=list)
    codes: list[tuple[str, str]] = field(default_factory=list)
    unknown: str | None = None
    probes: list[tuple[str, ...]] = field(default_factory=list)
    chdir: str | None = None
    writes: list[str] = field(default_factory=list)
    stop: bool = False  # the wrapper runs no further program (`taskset -p`, `flock 9`)

    def code(self, text: str, via: str) -> None:
        self.codes.append((text, via))


def skip_options(words: Sequence[str], start: int, short_args: str = "", long_args: Sequence[str] = ()) -> int:
    """Index of the first operand at or after `start` (for the privilege wrappers, refused anyway).
    `short_args` are option letters taking a value; `long_args` long options taking one."""
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


def _peel_privileged(s: _State, name: str, how: Privilege) -> None:
    """`sudo -u root CMD`, `su -c 'CMD'`: what a privileged program runs, read as its entry says."""
    words = s.words
    if how.always_shell:
        longs = tuple(o for o in how.command_options if o.startswith("--"))
        for k, word in enumerate(words[1:], start=1):
            if word in how.command_options and k + 1 < len(words):
                s.code(words[k + 1], f"{name} -c")
                break
            if longs and word.startswith(tuple(o + "=" for o in longs)):
                s.code(word.split("=", 1)[1], f"{name} -c")
                break
        s.words = ["sh"]  # it starts a (root) shell
        return
    i = skip_options(words, 1, how.short_values, how.long_values)
    if any(w in how.shell_with for w in words[1:i]) and i >= len(words):
        s.words = ["sh"]  # a root shell
        return
    s.words = words[i:]


def _split(text: str) -> list[str]:
    try:
        return split_words(text)
    except ShellSyntaxError:
        return text.split()


@dataclass(frozen=True)
class Wrapper:
    """A program that starts another: its option table, how many operands of its own come before
    the command (`timeout 5`, `chroot DIR`), and what some options' values are (roles: `shell` a
    string run by a shell, `split` a string split into the command's words, `chdir` the folder it
    runs in, `write` a file it writes, `output` strace's `-o`, which may be `|command`)."""

    table: Table
    operands: int = 0
    after: Callable[[_State, Parsed], None] | None = None  # special cases, once options are read


def _env_after(s: _State, parsed: Parsed) -> None:
    words = s.words
    i = parsed.end
    while i < len(words) and (is_assignment(words[i]) or words[i] == "-"):  # a lone `-` is -i
        if words[i] == "-":
            i += 1
            continue
        s.assignments.append(words[i])
        i += 1
    split = [text.replace("\\_", " ") for text in parsed.role_values(_WRAPPERS["env"].table, "split")]  # `\_` is a blank to env -S
    if any("$" in text for text in split):
        # env -S expands ${NAME} from the environment: a value the policy cannot know.
        s.unknown = s.unknown or "env -S with a ${...} variable"
        s.probes.append(tuple(w for text in split for w in _split(re.sub(r"\$\{\w+\}", " ", text))) + tuple(words[i:]))
    s.words = [w for text in split for w in _split(text)] + words[i:]


def _xargs_after(s: _State, parsed: Parsed) -> None:
    if parsed.end >= len(s.words):
        s.words = ["echo"]  # xargs with no command runs echo


def _watch_after(s: _State, parsed: Parsed) -> None:
    if parsed.has("-x", "--exec"):
        return
    s.code(" ".join(s.words[parsed.end:]), "watch")
    s.words = ["sh"]


def _pid_mode(s: _State, parsed: Parsed) -> None:
    if parsed.has("-p", "--pid"):
        s.words, s.stop = [s.words[0]], True  # `taskset -p MASK PID`, `chrt -p PRIO PID`: changes a running process


def _flock_after(s: _State, parsed: Parsed) -> None:
    rest = s.words[parsed.end:]
    if rest[:1] and rest[0] in ("-c", "--command"):
        s.code(rest[1] if len(rest) > 1 else "", "flock -c")
        s.words = ["sh"]
        s.stop = True
    elif parsed.operands and parsed.operands[0].isdigit() and not rest:
        s.stop = True  # `flock 9`: locks a file descriptor, runs nothing


def _script_after(s: _State, parsed: Parsed) -> None:
    if not parsed.role_values(_WRAPPERS["script"].table, "shell"):
        s.words = ["sh"]  # script with no -c starts an interactive shell


def _setarch_after(s: _State, parsed: Parsed) -> None:
    """`setarch ARCH [options] [program]`: options may follow the architecture too."""
    again = parse(s.words, parsed.end, _WRAPPERS["setarch"].table, 0)
    parsed.options += again.options
    parsed.unknown = parsed.unknown or again.unknown
    parsed.end = again.end


def _ssh_after(s: _State, parsed: Parsed) -> None:
    if parsed.end + 1 < len(s.words):
        s.code(" ".join(s.words[parsed.end + 1:]), "ssh")
    s.words = s.words[:parsed.end + 1]  # the remote command is judged as shell code, not run here
    s.stop = True


# What some wrappers do besides reading their options (their option tables are in the program table).
_AFTER: dict[str, Callable[[_State, Parsed], None]] = {
    "env": _env_after, "ionice": _pid_mode, "chrt": _pid_mode, "taskset": _pid_mode, "flock": _flock_after,
    "watch": _watch_after, "script": _script_after, "ssh": _ssh_after, "setarch": _setarch_after, "xargs": _xargs_after,
}
_WRAPPERS: dict[str, Wrapper] = {
    name: Wrapper(p.runner.table, p.runner.operands, _AFTER.get(p.name)) for p in PROGRAMS if p.runner is not None
    for name in p.names
}
# `linux64 rm -rf /`: names that are a wrapper with its operand given (setarch's aliases name the architecture).
# How each privileged program reads its options (`sudo -u USER CMD`): peeled off, then refused.
_PRIVILEGED: dict[str, Privilege] = {name: p.privileged for p in PROGRAMS if p.privileged for name in p.names}
_NAMED_BY: dict[str, str] = {alias: p.name for p in PROGRAMS if p.runner is not None for alias in p.runner.named_by}
# Runners of a project's environment: `uv run CMD`, `poetry run CMD`, `npm exec -- CMD` run CMD.
_SUBCOMMAND_RUNNERS: dict[tuple[str, str], Table] = {
    (name, sub): table for p in PROGRAMS for name in p.names for sub, table in p.runs_subcommands.items()
}
# Those that hand the command's words to a shell (`yarn exec`).
_SHELL_SUBCOMMANDS = frozenset((name, sub) for p in PROGRAMS for name in p.names for sub in p.shell_subcommands)


def _peel(s: _State, name: str, wrapper: Wrapper) -> None:
    words = s.words
    parsed = parse(words, 1, wrapper.table, wrapper.operands)
    if wrapper.after is not None and parsed.unknown is None:
        s.words = words
        wrapper.after(s, parsed)
    table = wrapper.table
    for option, value in parsed.options:
        role = table.roles.get(option)
        if role == "shell":
            s.code(value or "", f"{name} {option}")
        elif role == "output" and (value or "").startswith(("|", "!")):
            s.code((value or "")[1:], f"{name} {option} |")  # strace -o '|cmd' pipes into a shell command
        elif role in ("output", "write") and value:
            s.writes.append(value)
        elif role == "chdir":
            s.chdir = value or "/"
        elif role == "path":
            s.unknown = s.unknown or f"{name} {option} (it looks the command up where the caller chooses)"
    if parsed.unknown is not None:
        s.unknown = s.unknown or f"{name} {parsed.unknown}"
        # Where the command starts is unknown: read the option as a flag, probe it as taking a value.
        s.probes.append(tuple(words[parsed.end + 2:]))
        s.words = words[parsed.end + 1:]
        return
    if s.words is words:
        s.words = words[parsed.end:]
        if s.words[:1] == ["--"] and len(s.words) > 1:
            s.probes.append(tuple(s.words[1:]))  # `timeout 5 -- rm ...`: `--` read as the command, probe past it
    if s.codes and not s.words:
        s.stop = True  # `npx -c CMD`, `script -c CMD`: the string is the command


def _peel_runner(s: _State, name: str, table: Table, shell: bool) -> None:
    """`uv run [options] CMD ...`, `npm exec [options] -- CMD ...`, `pnpm exec -c 'CMD'`."""
    words = s.words
    s.words = [name] + words[2:]
    _peel(s, name, Wrapper(table))
    own = []  # the runner's own options: up to the first word that is not one
    for word in words[2:]:
        if not word.startswith("-") or word == "--":
            break
        own.append(word)
    if shell or any(table.roles.get(w) == "shell_mode" for w in own):
        s.code(" ".join(s.words), name)  # shell mode: the words are joined and run by a shell
        s.words = ["sh"]
        s.stop = True


def _peelable(words: Sequence[str]) -> bool:
    """Whether unwrap would peel the first of `words` (after any assignments)."""
    lead = next((k for k, w in enumerate(words) if not is_assignment(w)), None)
    if lead is None:
        return False
    name = program_name(words[lead])
    runner = len(words) > lead + 1 and (name, words[lead + 1]) in _SUBCOMMAND_RUNNERS
    return bool(name in _PRIVILEGED or name in _WRAPPERS or name in _NAMED_BY or runner)


PEEL_BUDGET = 32  # wrappers peeled off one command; more is refused, never judged as the wrapper itself


def unwrap(argv: Sequence[str]) -> Unwrapped:
    """Peel wrappers off `argv` until the real program is first."""
    s = _State(list(argv))
    too_deep = False
    for _ in range(PEEL_BUDGET):  # `env env env ...`: bounded, never a loop forever
        lead = 0
        while lead < len(s.words) and is_assignment(s.words[lead]):
            lead += 1
        if lead:  # one slice, not pop(0) per word: linear in the line
            s.assignments.extend(s.words[:lead])
            s.words = s.words[lead:]
        if not s.words or s.stop:
            break
        name = program_name(s.words[0])
        runner = _SUBCOMMAND_RUNNERS.get((name, s.words[1])) if len(s.words) > 1 else None
        before = s.words
        if name in _PRIVILEGED:
            s.wrappers.append(name)
            _peel_privileged(s, name, _PRIVILEGED[name])
        elif name in _WRAPPERS:
            s.wrappers.append(name)
            _peel(s, name, _WRAPPERS[name])
        elif name in _NAMED_BY:
            s.wrappers.append(name)
            s.words = [s.words[0], "-"] + s.words[1:]  # as `setarch ARCH`, the arch being the alias
            _peel(s, _NAMED_BY[name], _WRAPPERS[_NAMED_BY[name]])
        elif runner is not None:
            s.wrappers.append(f"{name} {before[1]}")
            _peel_runner(s, f"{name} {before[1]}", runner, (name, before[1]) in _SHELL_SUBCOMMANDS)
        else:
            break
        if s.words is before:
            break
    else:  # `env env env ... rm -rf /` past the budget: never judge the rest as if `env` were the program
        too_deep = _peelable(s.words)
    if s.stop and s.codes and s.words == []:
        s.words = ["sh"]
    return Unwrapped(tuple(s.words), tuple(s.wrappers), tuple(s.assignments), tuple(s.codes), s.unknown,
                     tuple(s.probes), s.chdir, tuple(s.writes), too_deep)


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
