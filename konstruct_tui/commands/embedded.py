"""Shell code hidden in a program's arguments.

Many programs run a string they are given: `alias x='...'`, `trap '...' EXIT`, `git -c core.pager=...`,
`parallel rm -rf ::: /`, `tar --checkpoint-action=exec=...`, `ssh -o ProxyCommand=...`, `rsync -e ...`,
`vim -c '!...'`. Each string found here is judged by the policy as a command line of its own.

Two strengths: `strict` strings are certainly run by a shell (alias, trap, git's executed settings),
so compound syntax in them refuses the command; the others are any argument with a space in it,
held to the hard deny list only, because most are plain text. Programs whose arguments are text by
nature (`echo`, `grep`, `git commit -m`) are not scanned: searching for the words `rm -rf /` is fine.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .wrappers import program_name

# Programs whose arguments are text, patterns or data, never run.
TEXT_PROGRAMS = frozenset({
    "echo", "printf", "grep", "egrep", "fgrep", "rg", "ag", "ack", "sed", "jq", "yq", "cat", "head", "tail",
    "wc", "logger", "test", "[", "expr", "git", "gh", "glab", "hg", "svn", "cowsay", "figlet", "banner",
    "awk", "gawk", "mawk", "nawk",  # awk programs get their own scan (inline_code)
})
# git settings whose value git runs as a command.
_GIT_EXECUTED = frozenset({
    "core.sshcommand", "core.pager", "core.editor", "core.fsmonitor", "core.askpass", "sequence.editor",
    "diff.external", "pager.log", "pager.diff", "pager.show", "gpg.program", "credential.helper",
    "core.hookspath", "uploadpack.packobjectshook",
})


@dataclass(frozen=True)
class EmbeddedCode:
    code: str
    via: str
    strict: bool


def embedded_code(argv: Sequence[str]) -> list[EmbeddedCode]:
    if not argv:
        return []
    name = program_name(argv[0])
    args = list(argv[1:])
    found: list[EmbeddedCode] = []
    if name == "alias":
        found += [EmbeddedCode(w.split("=", 1)[1], "alias", True) for w in args if "=" in w]
    elif name == "trap" and args:
        found.append(EmbeddedCode(args[0], "trap", True))
    elif name == "git":
        found += _git_settings(args)
    elif name == "parallel" and ":::" in args:
        at = args.index(":::")
        start = next((k for k, w in enumerate(args[:at]) if not w.startswith("-")), at)
        template = args[start:at]  # parallel's own options come first, then the command
        found.append(EmbeddedCode(" ".join(template + [w for w in args[at + 1:] if w != ":::"]), "parallel", True))
    if name in TEXT_PROGRAMS:
        return found
    for word in args:
        for candidate in _candidates(word):
            if " " in candidate.strip() or "\t" in candidate:
                found.append(EmbeddedCode(candidate, f"an argument of {name}", False))
    return found


def _git_settings(args: list[str]) -> list[EmbeddedCode]:
    found = []
    for k, word in enumerate(args):
        setting = args[k + 1] if word == "-c" and k + 1 < len(args) else (word[2:] if word.startswith("-c") and "=" in word else None)
        if setting is None or "=" not in setting:
            continue
        key, value = setting.split("=", 1)
        key = key.lower()
        if key in _GIT_EXECUTED or (key.startswith("alias.") and value.startswith("!")):
            found.append(EmbeddedCode(value.removeprefix("!"), f"git -c {key}", True))
    return found


def _candidates(word: str) -> list[str]:
    """The word, what follows its first `=` (`--opt=VALUE`), what follows `exec=`, without a leading
    `!` or `:!` (vim and git run those through a shell)."""
    out = [word]
    if "=" in word:
        out.append(word.split("=", 1)[1])
    if "exec=" in word:
        out.append(word.split("exec=", 1)[1])
    for prefix in (":!", "!"):
        if word.startswith(prefix):
            out.append(word[len(prefix):])
    return out
