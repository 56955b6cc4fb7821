"""Programs that search files: their arguments are patterns, and some can be told to run a program."""

from __future__ import annotations

from .program import Program

# grep's `--include=GLOB` is its own option, not an abbreviation of make's `--include-dir`.
_GREP_OWN = frozenset({"--include"})

PROGRAMS = (
    Program(("grep",), own_options=_GREP_OWN, text=True, read_only=True, in_every_preset=True, inspects_disks=True,
            should_match=("grep -rn --include=*.py TODO .",)),
    Program(("egrep", "fgrep"), own_options=_GREP_OWN, text=True, read_only=True, inspects_disks=True),
    Program(("zgrep",), own_options=_GREP_OWN),
    # `--pre CMD` runs CMD on every file searched; `-z` starts gzip, xz, zstd ... found on PATH (which may
    # name a folder in the project).
    Program(("rg",), unsafe=frozenset({"--pre-glob", "-z", "--search-zip"}),
            runs={"--pre": "program", "--hostname-bin": "program"},
            text=True, read_only=True, in_every_preset=True, inspects_disks=True,
            should_match=("rg -n TODO src", "rg --files", "rg -uu --hidden -i x"),
            should_not_match=("rg --pre rm x", "rg --pre=./x y", "rg -z x", "rg --hostname-bin=./x y", "rg -nz x")),
    Program(("ag",), text=True),
    Program(("ack",), text=True),
)
