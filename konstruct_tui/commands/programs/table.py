"""The program table: every entry of the family modules, indexed by name, checked when it loads.

Loading checks what a newcomer could get wrong: a program described twice (its facts would be
split again), a value run in a way the rules do not know, and each entry's own examples:
`should_match` lines must contain no option the entry refuses, each `should_not_match` line must
contain one. The check reads option spellings only (no policy, no file system): about a millisecond
for the whole table on a busy 2-core machine (bench/bench_policy_import.py).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..options import first_unsafe
from . import archives, build, disks, editors, files, git, interpreters, network, runners, search, shells, system, test_tools
from .program import RUN_KINDS, Harm, Program

FAMILIES = (git, search, archives, build, test_tools, editors, files, disks, network, runners, shells, system,
            interpreters)


class ProgramTableError(ValueError):
    """An entry of the program table contradicts itself or another entry (a bug in the table)."""


def index_programs(programs: Iterable[Program]) -> dict[str, Program]:
    by_name: dict[str, Program] = {}
    for program in programs:
        for name in program.names:
            if name in by_name:
                raise ProgramTableError(f"{name!r} is described twice in the program table: write its facts in one entry")
            by_name[name] = program
    return by_name


def check_program(program: Program) -> None:
    """Raises ProgramTableError when the entry's run kinds or its own examples contradict it."""
    for runs in (program.runs, *(sub.runs for sub in program.subcommands.values())):
        if not RUN_KINDS.issuperset(runs.values()):
            raise ProgramTableError(f"{program.name}: a run kind is not one of {sorted(RUN_KINDS)}")
    for examples, refused in ((program.should_match, False), (program.should_not_match, True)):
        for line in examples:
            words = line.split()
            sub = words[1] if len(words) > 1 and not words[1].startswith("-") else None
            found = first_unsafe(words[1:], program.unsafe_options(sub), exact=program.own_options)
            if (found is not None) != refused:
                what = f"finds {found!r} in it" if found else "finds nothing to refuse in it"
                raise ProgramTableError(f"{program.name}: example {line!r} is in "
                                        f"{'should_not_match' if refused else 'should_match'}, but the entry {what}")


PROGRAMS: tuple[Program, ...] = tuple(p for family in FAMILIES for p in family.PROGRAMS)
BY_NAME: dict[str, Program] = index_programs(PROGRAMS)
# Launchers read as another program for its options (`./gradlew` is gradle, `npx` is npm).
BY_ALIAS: dict[str, Program] = {alias: p for p in PROGRAMS for alias in p.aliases}
# Name prefixes whose every name is one program (`mkfs.` for `mkfs.ext4`, `newfs_` for `newfs_msdos`).
_VARIANTS: tuple[tuple[str, Program], ...] = tuple((prefix, p) for p in PROGRAMS for prefix in p.variants)
for _program in PROGRAMS:
    check_program(_program)


def program(name: str) -> Program | None:
    """The entry for a program name (`git`, `vi`) or a variant (`mkfs.ext4`), or None: the policy
    knows nothing special of it."""
    found = BY_NAME.get(name)
    if found is None:
        found = next((p for prefix, p in _VARIANTS if name.startswith(prefix)), None)
    return found


def harm_of(name: str) -> Harm:
    """The damage the program `name` can do (nothing known: an empty Harm)."""
    found = program(name)
    return found.harm if found is not None else _NO_HARM


_NO_HARM = Harm()


def names_where(fact: str) -> frozenset[str]:
    """Every name of every program whose boolean `fact` is set (`text`, `inspects_disks`, `uploads`,
    `shell`, `privileged`)."""
    return frozenset(name for p in PROGRAMS if getattr(p, fact) for name in p.names)
