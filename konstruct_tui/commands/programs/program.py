"""One program's entry in the command policy's program table: everything the policy knows about it.

The policy's rules (deny.py, embedded.py, unsafe_options.py, readonly.py, allowlist.py, wrappers.py)
ask the table; none keeps a list of programs of its own. An entry is data only: what a rule does
with it stays in the rule. See docs/commands-and-trust.md, "How to describe a program".
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..options import Table

# How a program uses an option's value that it runs: `shell` a string run by a shell; `program` a
# program run with a file name appended (judged as `VALUE FILE`); `vim` an editor command (`:!cmd`
# runs cmd in a shell).
RUN_KINDS = frozenset({"shell", "program", "vim"})


@dataclass(frozen=True)
class Subcommand:
    """What a subcommand adds to its program's entry (`git rebase`, `git grep`)."""

    unsafe: frozenset[str] = frozenset()  # options that execute, write or redirect, besides `runs`
    runs: dict[str, str] = field(default_factory=dict)  # option -> RUN_KINDS: its value is run
    read_only: bool = False  # `git SUB` only looks around: on the read-only list
    in_every_preset: bool = False  # every allowlist preset admits `git SUB` (looking around)
    lists_only_with: tuple[str, ...] = ()  # `git branch NAME` creates; with one of these options it lists
    takes_value: frozenset[str] = frozenset()  # its options whose value is the next word (`--sort KEY`)
    wipes: bool = False  # it throws away work in the folder it runs in (`git clean`, `git reset`)


@dataclass(frozen=True)
class Runner:
    """A program that starts another: its options with their arities (how getopt reads them), how
    many operands of its own come before the command (`timeout 5`, `chroot DIR`); the roles of some
    options' values (`shell`, `split`, `chdir`, `write`, `output`, `path`) are in `table.roles`."""

    table: Table
    operands: int = 0
    named_by: tuple[str, ...] = ()  # names that are this runner with its operand given (`linux64`: `setarch linux64`)
    benign: bool = False  # changes nothing that matters (`timeout 60 pytest`): an allowlist matches what it runs


@dataclass(frozen=True)
class Program:
    """Everything the policy knows about one program, written once.

    `names`: the program's names (`vim`, `vi`, `nvim`); `aliases`: launchers read as the program
    for its options (`./gradlew` for gradle). `unsafe`: options that execute, write or redirect,
    which an allowlist or read-only rule admits only when the rule lists them; an option in `runs`
    is unsafe too, without being written twice. `own_options`: options under exactly that name,
    never read as an abbreviation of an unsafe one. `takes_value`: its own options whose value may be
the next word (where the policy must find the subcommand or an operand). `writes`: options whose value is a file the
    program writes (the deny list refuses one aimed at a system folder or a disk). `read_only`:
    the program alone only looks around; `in_every_preset`: every allowlist preset admits it.
    `endless`: options that make a look around never end. `text`: its arguments are text, patterns
    or data, never scanned for shell code. `inspects_disks`: it may name a disk device without
    writing it. `uploads`: it sends files off the machine. `shell`: a shell
    (`-c STRING` runs the string). `privileged`: it runs a command as another user (refused). `subcommands`: what each subcommand
    adds; `runner`: set when it starts another program (a wrapper); `runs_subcommands`: its
    subcommands that start another program (`uv run`), with their option tables.

    `should_match`: command lines the entry admits with ordinary options; `should_not_match`:
    command lines in which the entry finds an option that executes, writes or redirects. Both are
    checked when the table loads (table.py), so an entry cannot drift from its own examples."""

    names: tuple[str, ...]
    aliases: tuple[str, ...] = ()
    unsafe: frozenset[str] = frozenset()
    runs: dict[str, str] = field(default_factory=dict)
    own_options: frozenset[str] = frozenset()
    takes_value: frozenset[str] = frozenset()
    writes: tuple[str, ...] = ()
    read_only: bool = False
    in_every_preset: bool = False
    endless: frozenset[str] = frozenset()
    text: bool = False
    inspects_disks: bool = False
    uploads: bool = False
    shell: bool = False
    privileged: bool = False
    subcommands: dict[str, Subcommand] = field(default_factory=dict)
    runner: Runner | None = None
    runs_subcommands: dict[str, Table] = field(default_factory=dict)
    should_match: tuple[str, ...] = ()
    should_not_match: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return self.names[0]

    def unsafe_options(self, sub: str | None) -> frozenset[str]:
        """The options this entry refuses for `PROGRAM [SUB]`: the program's own, a subcommand's.
        git's own options come before the subcommand only; with no subcommand known every
        subcommand's count (the line may name one after a value the reading missed)."""
        own = self.unsafe | frozenset(self.runs)
        found: set[str] = set()
        if not self.subcommands or sub is None:
            found |= own
        if sub is not None and sub in self.subcommands:
            entry = self.subcommands[sub]
            found |= entry.unsafe | frozenset(entry.runs)
        if self.subcommands and sub is None:
            for entry in self.subcommands.values():
                found |= entry.unsafe | frozenset(entry.runs)
        return frozenset(found)

    def runs_in(self, sub: str | None) -> dict[str, str]:
        """The options whose value `PROGRAM [SUB]` runs, and how (a subcommand's, else the program's)."""
        if sub is not None and sub in self.subcommands and self.subcommands[sub].runs:
            return self.subcommands[sub].runs
        return self.runs


def options(short: str = "", long: str = "", roles: dict[str, str] | None = None, numeric: bool = False) -> Table:
    """An option table in getopt's spelling (options.py): `short` letters, `x:` takes a value;
    `long` names separated by spaces, `name=` takes a value, `name=?` an optional one."""
    return Table(short, tuple(long.split()), numeric, False, roles or {})
