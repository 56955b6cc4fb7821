"""Options that make a harmless-looking program execute, write or redirect.

`rg --pre rm` runs `rm` on every file it searches, `git grep -O...` opens them with a program of
the caller's choosing, `git diff --output=FILE` writes anywhere, `git branch -D` deletes, `find
-delete` deletes, `make -f evil.mk` runs another makefile. An allowlist entry or a read-only rule
admits a program with its ordinary options; these are refused unless the entry lists them.

What each program refuses is in its entry of the program table (commands/programs/); this module
adds the long options refused for any program, and reads them (options.first_unsafe: loosely, so
it errs towards refusing).
"""

from __future__ import annotations

from collections.abc import Sequence

from .options import first_unsafe
from .programs import BY_ALIAS, BY_NAME, program

# Any program: long options whose value is a program, a shell string, or where output goes. This is
# the net for programs with no entry (a `--upload-pack` of some other tool): it is not derived from
# the entries' `runs`, because read loosely (abbreviations) their other names would refuse ordinary
# options everywhere (`rsync --compress` as sort's `--compress-program`, `git describe --tag` as
# filter-branch's `--tag-name-filter`).
GENERIC = frozenset({
    "--exec", "--execdir", "--exec-path", "--pre", "--pre-glob", "--hostname-bin", "--script-shell", "--to-command",
    "--checkpoint-action", "--use-compress-program", "--rsh", "--rsh-command", "--rsync-path", "--upload-pack",
    "--receive-pack", "--ext-diff", "--textconv", "--open-files-in-pager", "--output", "--config-env", "--unzip-command",
    "--sendmail-cmd", "--extcmd", "--command", "--shell", "--call", "--info-script", "--new-volume-script",
    "--rmt-command", "--init-script", "--eval", "--prefix", "--makefile", "--file", "--directory", "--include-dir",
    "--basetemp", "--override-ini", "--rootdir", "--config-file", "--settings", "--global-settings", "--userconfig",
    "--globalconfig", "--node-options", "--pager", "--editor", "--upload-file", "--post-file", "--delete",
})


def unsafe_for(words: Sequence[str]) -> frozenset[str]:
    """The unsafe options of the program `words` starts with (and its subcommand, if known): the
    generic ones, and what its entry in the program table refuses (commands/programs/)."""
    if not words:
        return GENERIC
    lead = program(words[0].rsplit("/", 1)[-1])
    if lead is not None and lead.module_option and len(words) > 2 and words[1] == lead.module_option:
        words = [words[2], *words[3:]]  # `python -m pytest -p x` is pytest's own options
    entry = BY_ALIAS.get(words[0]) or BY_NAME.get(words[0].rsplit("/", 1)[-1])
    if entry is None:
        return GENERIC
    sub = words[1] if len(words) > 1 and not words[1].startswith("-") else None
    return GENERIC | entry.unsafe_options(sub)


def own_exact(words: Sequence[str]) -> frozenset[str]:
    """The long options of the program `words` starts with that it has under exactly that name."""
    entry = BY_NAME.get(words[0].rsplit("/", 1)[-1]) if words else None
    return entry.own_options if entry is not None else frozenset()


__all__ = ["GENERIC", "first_unsafe", "own_exact", "unsafe_for"]
