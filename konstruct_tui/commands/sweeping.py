"""Commands that sweep the whole machine in one stroke, for the hard deny list: `kill -1` in any
spelling, `pkill`/`killall` of every process, an output option aimed at a system folder or a disk,
unpacking an archive over one, git's wiping commands pointed at one.

Arguments are normalised the way the program reads them before they are judged: a kill target
`-01`, `' -1'` or `+1` is a number; a long option's `=value` is its value.
"""

from __future__ import annotations

import posixpath
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from .programs import BY_NAME, harm_of
from .targets import Place, is_device, place_of

DENY = "deny"
HARMLESS_SINKS = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty"})


@dataclass(frozen=True)
class Finding:
    rule: str
    reason: str


def deny_output(name: str, args: list[str], root: Path | None) -> Finding | None:
    """An option naming a file the program writes (`writes` in the program table) aimed at the
    machine's own folders or a disk: the same catastrophe as `cp x /etc/passwd`."""
    entry = BY_NAME.get(name)
    for option, target in option_values(args, entry.writes if entry is not None else ()):
        if target not in HARMLESS_SINKS and (is_device(target) or place_of(target, root).fatal):
            return Finding(DENY, f"{name} {option} {target!r} writes over {place_of(target, root).value}")
    return None


def option_values(args: Sequence[str], options: Sequence[str]) -> list[tuple[str, str]]:
    """Each value `args` give one of `options`, in getopt's spellings: `-o FILE`, `--out=FILE`, `-oFILE`."""
    found = []
    for k, word in enumerate(args):
        for option in options:
            if word == option and k + 1 < len(args):
                found.append((option, args[k + 1]))
            elif word.startswith(option + "=") and option.startswith("--"):
                found.append((option, word.split("=", 1)[1]))
            elif len(option) == 2 and word.startswith(option) and len(word) > 2 and not word.startswith("--"):
                found.append((option, word[2:]))
    return found


def deny_kill(args: list[str]) -> Finding | None:
    """`kill -1` in any spelling: `-01`, `' -1'`, `-- -1`, `-SIGKILL -1`, `-s KILL -1`, `--signal=9 -1`.
    The first option-looking word is the signal only when more words follow; every other word is
    read as a number the way kill reads it (blanks and leading zeros ignored)."""
    i = 0
    words = [w.strip() for w in args]
    while i < len(words):
        word = words[i]
        if word == "--":
            i += 1
            break
        if word in ("-s", "-n", "--signal"):
            i += 2
        elif word.startswith("--signal=") or (word.startswith("-") and not _is_pid(word) and word not in ("-",)):
            i += 1  # `-9`, `-KILL`, `-SIGKILL`, `-l`
        elif word.startswith("-") and _is_pid(word) and i + 1 < len(words) and i == 0:
            i += 1  # `kill -9 PID`: a leading number is the signal when a pid follows
        else:
            break
    if any(_pid_value(w) in (-1, 1) for w in words[i:]):
        return Finding(DENY, "kill -1 (or pid 1) signals every process you own, or init")
    return None


_MATCH_ALL = frozenset({".", ".*", ".+", "^", "$", "", "^.*$", "^.*", ".*$", "[^]", "(.*)"})
_PKILL_VALUES = frozenset({"-u", "-U", "-G", "-g", "-P", "-s", "-t", "--euid", "--uid", "--group", "--pgroup",
                           "--parent", "--session", "--terminal", "--signal", "-o", "-y", "--older-than", "--younger-than"})


def deny_pkill(name: str, args: list[str]) -> Finding | None:
    """`pkill -u $USER`, `pkill .`, `killall -r .`: every process of a user (the workbench too)."""
    patterns, by_user, k = [], False, 0
    while k < len(args):
        word = args[k]
        if word in _PKILL_VALUES or (name == "killall" and word in ("-u", "--user", "-s", "--signal")):
            by_user = by_user or word in ("-u", "-U", "--euid", "--uid", "--user", "-G", "-g", "--group")
            k += 2
            continue
        if word.startswith("-") and word != "-":
            by_user = by_user or word.startswith(("--euid=", "--uid=", "--user=", "-u", "-U"))
            k += 1
            continue
        patterns.append(word)
        k += 1
    if any(p.strip() in _MATCH_ALL for p in patterns) or (by_user and not patterns):
        return Finding(DENY, f"{name} {' '.join(args)} signals every process of a user (the workbench too), like kill -1")
    return None


def deny_extract(name: str, args: list[str], root: Path | None) -> Finding | None:
    """`tar -xf x.tar -C /`, `unzip x.zip -d /etc`: unpacking over the machine's own folders (the
    folder options are `unpacks_into` in the program table)."""
    entry = BY_NAME.get(name)
    if entry is not None and entry.name == "tar" and not any(
            w in ("--extract", "--get") or (not w.startswith("--") and "x" in w.lstrip("-") and w.lstrip("-").isalpha()
                                           and (w.startswith("-") or k == 0)) for k, w in enumerate(args)):
        return None  # creating or listing an archive only reads the folder given with -C
    for _option, target in option_values(args, harm_of(name).unpacks_into):
        if place_of(target, root).fatal:
            return Finding(DENY, f"{name} would unpack over {target!r} ({place_of(target, root).value})")
    return None


_GIT_WIPES = frozenset(sub for sub, entry in BY_NAME["git"].subcommands.items() if entry.wipes)


# git's own options that take a value, as git reads them (a separate word, or `--long=value`).
GIT_VALUED = BY_NAME["git"].takes_value


def git_places(args: Sequence[str]) -> tuple[str, int | None]:
    """Where a git command works (every `-C` applied in order, as git does, then the last
    `--work-tree`/`--git-dir`), and the index of its subcommand."""
    where, tree, k = ".", None, 0
    while k < len(args):
        word = args[k]
        if not word.startswith("-"):
            return (tree or where), k
        option, eq, value = word.partition("=")
        if option in GIT_VALUED and not eq:
            value, k = (args[k + 1] if k + 1 < len(args) else ""), k + 1
        if option == "-C" and value:
            where = value if value.startswith(("/", "~", "$")) else posixpath.join(where, value)
        elif option in ("--work-tree", "--git-dir") and value:
            tree = value if value.startswith(("/", "~", "$")) else posixpath.join(where, value)
        k += 1
    return (tree or where), None


def deny_git(args: list[str], root: Path | None) -> Finding | None:
    """`git -C / clean -fdx`, `git -C src -C / clean`, `git --work-tree=~ checkout .`: git's wiping
    commands aimed at a folder the deny list protects (or, refused as outside_workspace, elsewhere)."""
    where, sub = git_places(args)
    if sub is None or args[sub] not in _GIT_WIPES or where == ".":
        return None
    place = place_of(where, root)
    if place.fatal:
        return Finding(DENY, f"git {args[sub]} in {where!r} would wipe {place.value}")
    if place in (Place.PARENT, Place.ELSEWHERE):
        return Finding("outside_workspace", f"git {args[sub]} in {where!r} would change files outside the project")
    return None


def _is_pid(word: str) -> bool:
    return _pid_value(word) is not None


def _pid_value(word: str) -> int | None:
    try:
        return int(word.strip(), 10)
    except ValueError:
        return None
