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

from collections.abc import Sequence

from .allowlist import LISTING_ONLY, creates_branch
from .unsafe_options import first_unsafe, unsafe_for

READ_ONLY: tuple[tuple[str, ...], ...] = tuple(tuple(entry.split()) for entry in (
    "ls", "cat", "head", "tail", "wc", "file", "stat", "pwd", "tree", "rg", "grep", "egrep", "fgrep", "find", "du",
    "which", "realpath", "readlink", "basename", "dirname", "diff", "cmp", "md5sum", "sha1sum", "sha256sum", "echo",
    "uname", "whoami", "date",
    "git status", "git log", "git show", "git diff", "git blame", "git grep", "git ls-files", "git rev-parse",
    "git branch", "git shortlog", "git describe", "git ls-tree", "git cat-file", "git reflog show",
))


def read_only_rule(argv: Sequence[str]) -> str | None:
    """The read-only rule that admits `argv` as written (no wrapper peeled), or None."""
    for words in sorted(READ_ONLY, key=len, reverse=True):
        if tuple(argv[: len(words)]) != words:
            continue
        rest = argv[len(words):]
        if first_unsafe(rest, unsafe_for(argv)) is not None:
            return None
        listing = LISTING_ONLY.get(tuple(argv[:2]))  # type: ignore[arg-type]
        if listing is not None and creates_branch(rest, listing):
            return None
        if words == ("tail",) and any(w.startswith(("-f", "-F", "--follow")) for w in rest):
            return None  # follows forever: not a look around
        return " ".join(words)
    return None
