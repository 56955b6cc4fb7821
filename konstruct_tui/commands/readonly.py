"""The read-only list: commands that only look around, matched as argv rules.

`ls`, `cat`, `git status`, `rg`, ... need no grant, but only because whoever runs them confines
them with the kernel sandbox in read-only mode with no network (the policy answers `allow`, rule
`read_only`, `confinement="read-only"`, and only when `PolicyConfig.read_only_sandbox` says the
caller can). The rule is the first layer, the sandbox the guarantee: a rule admits a program with
its ordinary options and refuses the ones that execute, write or redirect (`rg --pre`, `find
-exec`/`-delete`/`-fprint*`, `git grep -O`, `git diff --output`, `git branch -D`, ...), a wrapper,
or an environment assignment. The hard deny list and the secrets rule have already judged the line.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
from collections.abc import Sequence
from pathlib import Path

from ..workspace import git_argv, program_outside
from .allowlist import LISTING_ONLY, creates_branch
from .programs import BY_NAME, PROGRAMS
from .unsafe_options import first_unsafe, own_exact, unsafe_for

# The read-only list: `read_only` in the program table, for a program and for a subcommand.
READ_ONLY: tuple[tuple[str, ...], ...] = tuple(
    [(name,) for p in PROGRAMS if p.read_only for name in p.names]
    + [(p.name, *sub.split()) for p in PROGRAMS for sub, entry in p.subcommands.items() if entry.read_only]
)


def read_only_rule(argv: Sequence[str], root: Path | None = None) -> str | None:
    """The read-only rule that admits `argv` as written (no wrapper peeled), or None."""
    for words in sorted(READ_ONLY, key=len, reverse=True):
        if tuple(argv[: len(words)]) != words:
            continue
        rest = argv[len(words):]
        if first_unsafe(rest, unsafe_for(argv), exact=own_exact(argv)) is not None:
            return None
        listing = LISTING_ONLY.get(tuple(argv[:2]))  # type: ignore[arg-type]
        if listing is not None and creates_branch(rest, listing):
            return None
        endless = BY_NAME[words[0]].endless  # options that make a look around never end (`tail -f`)
        if endless and first_unsafe(rest, endless) is not None:
            return None  # follows forever: not a look around
        if any(_reads_a_device(word, root) for word in rest):
            return None
        return " ".join(words)
    return None


def _reads_a_device(word: str, root: Path | None) -> bool:
    """Whether a word (a path, `--opt=path`, `-fpath`) names something other than a plain file:
    a device or a pipe other than /dev/null, or a kernel pseudo-file under /proc or /sys, judged on the
    real file (a link in the project to /dev/zero counts). Such a source has no size the kernel
    states and may never end: `tail /dev/zero` and `tail /proc/self/pagemap` keep every byte while
    they wait for a newline (1.3 GB in 3 s), a pipe waits forever. A look around reads files."""
    candidates = [word]
    if word.startswith("-"):
        candidates += [word.split("=", 1)[1]] if "=" in word else []
        candidates += [word[2:]] if len(word) > 2 and word[1] != "-" else []
    for text in candidates:
        if not text:
            continue
        path = os.path.join(str(root) if root is not None else os.getcwd(), text)
        try:
            found = os.stat(path)
        except (OSError, ValueError):
            continue
        if (stat.S_ISCHR(found.st_mode) or stat.S_ISBLK(found.st_mode) or stat.S_ISFIFO(found.st_mode)) \
                and found.st_rdev != _NULL_DEVICE:
            return True
        if stat.S_ISREG(found.st_mode) and os.path.realpath(path).startswith(("/proc/", "/sys/")):
            return True
    return False


try:
    _NULL_DEVICE = os.stat(os.devnull).st_rdev
except OSError:  # pragma: no cover - every Unix has one
    _NULL_DEVICE = -1


def read_only_argv(argv: Sequence[str], root: Path | None) -> tuple[str, ...] | None:
    """What runs for a command the read-only list admitted. git reads configuration the agent may
    have reached (a `.git` a command made in a project that had none, a submodule's `.git` file naming
    a git folder in the project) and that configuration can name programs (`core.fsmonitor`,
    `diff.external`, filters, textconv, `gpg.program`): so a read-only git runs as our own git does,
    with every such key overridden, and a program no rule admitted never starts without a grant."""
    if not argv:
        return ()
    base = root if root is not None else Path.cwd()
    if argv[0] != "git":
        # Found outside the workspace: an activated `.venv/bin` in the project on PATH must not make a
        # `cat` a command planted there the one that runs without a grant. None: ask instead.
        found = program_outside(argv[0], base)
        if found is None:  # found only in the workspace: ask; found nowhere: it will not be found when run either
            return None if shutil.which(argv[0]) else tuple(argv)
        return (found, *argv[1:])
    if program_outside("git", base) is None:
        return None
    args = list(argv[1:])
    if args[:1] == ["diff"]:
        args.insert(1, "--no-ext-diff")  # the one read-only subcommand that runs diff.external by default
    hardened = git_argv(base, *args)
    prefix = hardened[: len(hardened) - len(args)]
    # An empty override makes git stop where it would use the key ("cannot run"); a textconv of `cat`
    # is the identity, so diffs still show as git makes them.
    identity = program_outside("cat", base) or "/nonexistent/cat"
    prefix = [f"{w}{identity}" if _TEXTCONV.match(w) else w for w in prefix]
    return (*prefix, *args)


def hardened_git(argv: Sequence[str], inner: Sequence[str], root: Path | None) -> tuple[str, ...] | None:
    """`argv`, whose program is `inner` (the command behind any wrappers the allowlist admitted:
    `timeout 60 git log -p`), with a git run as our own hardened git; other programs unchanged.
    None when the only git is inside the workspace."""
    if not inner or os.path.basename(inner[0]) != "git" or tuple(argv[len(argv) - len(inner):]) != tuple(inner):
        return tuple(argv)
    git_words = ("git", *inner[1:])  # the plain spelling read_only_argv knows; it starts nothing
    runs = read_only_argv(git_words, root)
    return None if runs is None else (*argv[: len(argv) - len(inner)], *runs)


_TEXTCONV = re.compile(r"^diff\..+\.textconv=$", re.IGNORECASE)
