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
# runs cmd in a shell); `command` the words after it, up to `;` or `+` (`find -exec CMD ARG ;`).
RUN_KINDS = frozenset({"shell", "program", "vim", "command"})


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
class Harm:
    """What the hard deny list and the destructive rule (deny.py) read about a program: the damage it
    can do. How each kind is judged stays code in deny.py; which programs do it is written here."""

    deletes: bool = False  # its operands are files it deletes (`rm`, `shred`, `rimraf`)
    writes_next: tuple[str, ...] = ()  # words whose next word is a file it writes (`find -fprint FILE`: not getopt's)
    overwrites: str = ""  # "every operand" (`tee`, `touch`, `mv`) or "last operand" (`cp`, `rsync`): what it writes over
    changes_permissions: bool = False  # its operands after the first get new permissions or owners (`chmod`)
    edits_in_place: bool = False  # `-i` rewrites the files it names (`sed -i`, `perl -pi`)
    unpacks_into: tuple[str, ...] = ()  # options naming the folder it unpacks an archive into (`tar -C`)
    formats_disks: bool = False  # formats or wipes a disk whatever its arguments (`mkfs.ext4`, `wipefs`)
    partitions_disks: bool = False  # rewrites a partition table, unless a word of `lists_only_with` is there
    lists_only_with: tuple[str, ...] = ()  # words with which it only lists (`fdisk -l`, `parted DISK print`)
    erases_disks: bool = False  # erases a disk or volume whatever its arguments (`lvremove`)
    erases_with: tuple[str, ...] = ()  # an option prefix (`--security-erase`) or a first operand (`format`) that erases
    signals_by_name: bool = False  # signals the processes a pattern or a user names (`pkill -u $USER`, `killall -r .`)
    stops_machine: bool = False  # shuts the machine down or restarts it (`reboot`)
    stops_machine_with: tuple[str, ...] = ()  # first operands with which it does (`init 0`, `systemctl reboot`)
    peer_shell_options: tuple[str, ...] = ()  # options handing a shell to a network peer (`nc -e`); short ones in a cluster too
    runs_containers: bool = False  # `run`, `create`, `exec` start a container (host mounts, --privileged judged)
    copies_to_hosts: bool = False  # its last operand may be `host:path`: the operands before it leave the machine
    windows_wipes: bool = False  # a Windows command that wipes a drive or folder (matched in any case: `Remove-Item`)


@dataclass(frozen=True)
class Privilege:
    """How a program that runs a command as another user reads its options, so wrappers.py can peel
    it off and judge what it runs (the line is refused anyway: the agent never escalates). Options
    it does not list are read as flags; the command starts at its first operand (or after `--`)."""

    short_values: str = ""  # option letters taking a value (`sudo -u USER`): the rest of the word or the next
    long_values: tuple[str, ...] = ()  # long options taking a value (`--user USER`, `--user=USER`)
    shell_with: tuple[str, ...] = ()  # options that start a shell when no command follows (`sudo -i`)
    always_shell: bool = False  # it starts a shell whatever follows (`su`)
    command_options: tuple[str, ...] = ()  # options whose value is a string its shell runs (`su -c`, `--command=`)


@dataclass(frozen=True)
class Runner:
    """A program that starts another: its options with their arities (how getopt reads them), how
    many operands of its own come before the command (`timeout 5`, `chroot DIR`); the roles of some
    options' values (`shell`, `split`, `chdir`, `write`, `output`, `path`, `shell_mode`) are in `table.roles`."""

    table: Table
    operands: int = 0
    named_by: tuple[str, ...] = ()  # names that are this runner with its operand given (`linux64`: `setarch linux64`)
    benign: bool = False  # changes nothing that matters (`timeout 60 pytest`): an allowlist matches what it runs


@dataclass(frozen=True)
class Program:
    """Everything the policy knows about one program, written once.

    `names`: the program's names (`vim`, `vi`, `nvim`); `aliases`: launchers read as the program
    for its options (`./gradlew` for gradle); `variants`: name prefixes whose every name is this
    program for the deny list (`mkfs.` for `mkfs.ext4`). `unsafe`: options that execute, write or redirect,
    which an allowlist or read-only rule admits only when the rule lists them; an option in `runs`
    is unsafe too, without being written twice. `own_options`: options under exactly that name,
    never read as an abbreviation of an unsafe one. `takes_value`: its own options whose value may be
the next word (where the policy must find the subcommand or an operand). `writes`: options whose value is a file the
    program writes (the deny list refuses one aimed at a system folder or a disk). `read_only`:
    the program alone only looks around; `in_every_preset`: every allowlist preset admits it.
    `endless`: options that make a look around never end. `text`: its arguments are text, patterns
    or data, never scanned for shell code. `inspects_disks`: it may name a disk device without
    writing it. `uploads`: it sends files off the machine. `shell`: a shell
    (`-c STRING` runs the string). `privileged`: it runs a command as another user (refused), and how it reads its options (`Privilege`). `subcommands`: what each subcommand
    adds; `runner`: set when it starts another program (a wrapper); `runs_subcommands`: its
    subcommands that start another program (`uv run`), with their option tables;
    `variables_change_runs`: an allowlist entry admits `NAME=VALUE` operands only when it lists them. `harm`: the
    damage it can do, as the deny list reads it (`Harm`).

    `should_match`: command lines the entry admits with ordinary options; `should_not_match`:
    command lines in which the entry finds an option that executes, writes or redirects. Both are
    checked when the table loads (table.py), so an entry cannot drift from its own examples."""

    names: tuple[str, ...]
    aliases: tuple[str, ...] = ()
    variants: tuple[str, ...] = ()
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
    privileged: Privilege | None = None
    # Options whose value is program text it runs (`python -c CODE`, `node -e CODE`): an interpreter.
    # A grant rule never admits them (only that exact command is granted), and a proposed rule names
    # the script it runs (`python3 tools/gen.py`), never the interpreter alone.
    code_options: frozenset[str] = frozenset()
    # The option running a module as a program (`python -m pytest`): what follows is read as that program's options.
    module_option: str = ""
    subcommands: dict[str, Subcommand] = field(default_factory=dict)
    runner: Runner | None = None
    runs_subcommands: dict[str, Table] = field(default_factory=dict)
    # Of `runs_subcommands`, those that join the command's words and run them in a shell (`yarn exec`);
    # an option with the role `shell_mode` does so for one run (`pnpm exec -c`).
    shell_subcommands: frozenset[str] = frozenset()
    names_scripts: bool = False  # `NAME:SCRIPT` names one of its project's scripts (`concurrently "npm:lint"`)
    variables_change_runs: bool = False  # an operand `NAME=VALUE` sets a variable that changes what runs (`make SHELL=x`)
    harm: Harm = Harm()
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
