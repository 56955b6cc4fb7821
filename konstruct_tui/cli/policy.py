"""`konstruct policy check [--root DIR] [--preset NAME] [--allow PREFIX]... -- COMMAND`, and
`konstruct policy show|set|clear [--root DIR]` for the policy run_command uses in a project.

`check` judges COMMAND with the flags given only (the stored project policy does not apply to it).

Prints `{"decision": "allow"|"ask"|"refuse", "rule": ..., "reason": ...}` (plus `"confinement":
"read-only"` for a read-only command allowed only because it runs confined so) and exits 0
whatever the decision; bad input (no command, an unknown preset, an unusable prefix) exits 2.

Read-only commands (`ls`, `git status`, ...) are allowed without a grant only where this machine can
confine them read-only with no network: a Landlock ABI with network rules (4+) and a project not set
to run unconfined (`konstruct sandbox set --mode full`). Elsewhere they ask, as any command.

COMMAND is normally one argument holding the whole command line. Given as several arguments (a
driver that split the line with a shell or shlex), they are joined back into one line: a word that
still looks like shell syntax (`&&`, `ls;`, `>out`, `2>/dev/null`, `$(id)`, `(ls)`) or like an
expansion (`$HOME`, `${X:0:1}`, `{a,b}`, `/bin/r?`, `~+`) stays syntax,
every other word is quoted, so `grep -rn 'a|b' src` keeps its literal `a|b`. When in doubt the
word stays syntax: a refusal too many beats a compound command let through.
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
from typing import Any

from ..commands import BadPrefix, PolicyConfig, decide, discover_scripts
from ..sandbox import SandboxConfig, effective_abi, seccomp_filter
from ..trust import TrustStore
from ..workspace import Workspace
from .common import UsageError, add_command, command_with_actions, open_workspace, print_json

_EDGE = frozenset(";&|<>(){}")
_EXPANSION_WORD = re.compile(r"\$[A-Za-z_{@*#?$!0-9'\"\[]|\{[^{}]*(,|\.\.)[^{}]*\}|[*?]|\[[^\][]+\]|^~[+-](/|$)")
_OPERATOR_WORD = re.compile(r"^(\d*(>>?|<<?<?|>&|<&|>\||<>)\d*|&>>?|&&|\|\|?|\|&|;;?|&|\(|\)|\{|\}|`.*|\$\(.*)$")


def register(commands: Any) -> None:
    actions = command_with_actions(commands, "policy", "ask the command policy about a command")
    check = add_command(actions, "check", "print the policy decision for COMMAND (exit 0 whatever it is)", run_check)
    check.add_argument("--preset", action="append", default=[], metavar="NAME",
                       help="a toolchain preset (python, node, go, java); turns allowlist mode on")
    check.add_argument("--allow", action="append", default=[], metavar="PREFIX",
                       help="an allowed command as an argv rule (program and subcommand words, plus any unsafe "
                            "option it should admit, e.g. 'rg --pre'); turns allowlist mode on")
    check.add_argument("--chains", action="store_true",
                       help="allow a, b chained with &&, || or ; when each is allowed alone (pipes stay refused)")
    check.add_argument("command", nargs="*", metavar="COMMAND", help="the command line (after --)")
    add_command(actions, "show", "the command policy run_command uses in this project", run_show)
    change = add_command(actions, "set", "set this project's command policy (replaces it)", run_set)
    change.add_argument("--preset", action="append", default=[], metavar="NAME", help="a toolchain preset")
    change.add_argument("--allow", action="append", default=[], metavar="PREFIX", help="an allowed command prefix")
    change.add_argument("--chains", action="store_true", help="allow &&, || and ; chains of allowed commands")
    add_command(actions, "clear", "back to the default policy (allowlist off, no chains)", run_clear)


def command_line(words: list[str]) -> str:
    """One command line from COMMAND given as one or several arguments (see the module docstring)."""
    if len(words) == 1:
        return words[0]
    joined: list[str] = []
    for k, word in enumerate(words):
        find_end = word in (";", "+") and k > 0 and words[k - 1] == "{}"
        joined.append(word if _looks_like_syntax(word) and not find_end else shlex.quote(word))
    return " ".join(joined)


def _looks_like_syntax(word: str) -> bool:
    """A word that was shell syntax before someone split the line (`ls;`, `&&`, `>out`, `$(id)`),
    not a quoted literal (`a|b`, `a && b`): judged by where the operator characters sit."""
    if not word or any(c.isspace() for c in word):
        return False  # only a quoted word can hold a blank
    if _OPERATOR_WORD.match(word) or "$(" in word or "`" in word or "<(" in word or ">(" in word:
        return True
    if _EXPANSION_WORD.search(word):
        return True  # `${HOME:0:1}`, `$IFS`, `{rm,-rf,/}`, `/bin/r?`, `~+`: what a shell would expand stays unquoted
    stripped = word.lstrip("0123456789")
    closing = word[-1] in _EDGE and not (word[-1] == ")" and "(" in word)  # `print(1)` is a literal call
    return word[0] in _EDGE or closing or stripped[:1] in ("<", ">")


def run_check(args: argparse.Namespace) -> int:
    words = [w for w in args.command]
    if words[:1] == ["--"]:
        words = words[1:]
    if not words or not "".join(words).strip():
        raise UsageError("policy check needs a COMMAND after --")
    workspace = open_workspace(args.root)
    with workspace:
        try:
            config = PolicyConfig.build(args.preset, args.allow, discover_scripts(workspace), workspace.root, args.chains,
                                        read_only_sandbox=read_only_sandbox(workspace.root))
        except BadPrefix as error:
            raise UsageError(str(error)) from None
        decision = decide(command_line(words), config)
        # The contract's three keys (DESIGN.md §10); the grant needed is named in the reason.
        answer = {"decision": decision.decision, "rule": decision.rule, "reason": decision.reason}
        if decision.confinement is not None:
            answer["confinement"] = decision.confinement
        print_json(_scrubbed(answer, workspace))
    return 0


def read_only_sandbox(root: Any) -> bool:
    """Whether a command in the project at `root` can run under the kernel sandbox read-only with
    the network blocked: Landlock ABI 4+ (network rules), the seccomp filter for the other sockets,
    and the project's mode not `full` (run_command decides the same from its plan). Any doubt
    (settings unreadable, no Landlock) means no: read-only commands then ask."""
    try:
        if SandboxConfig().settings(root).mode == "full":
            return False
        return effective_abi() >= 4 and seccomp_filter() is not None  # TCP by Landlock, the rest by seccomp
    except Exception:  # noqa: BLE001 - whatever went wrong, the answer that fails closed is "no"
        return False


def _scrubbed(payload: dict[str, Any], workspace: Workspace) -> dict[str, Any]:
    """The payload with the workspace's absolute location taken out of every string."""
    return json.loads(workspace.scrub(json.dumps(payload)))


def _settings_json(settings: dict[str, Any] | None) -> dict[str, Any]:
    settings = settings or {"presets": [], "allow": [], "chains": False}
    # A damaged trust file locks the policy: allowlist mode with nothing allowed (see trust/store.py).
    return {**settings, "allowlist_mode": bool(settings["presets"] or settings["allow"] or settings.get("locked"))}


def run_show(args: argparse.Namespace) -> int:
    workspace = open_workspace(args.root)
    with workspace:
        print_json(_settings_json(TrustStore().command_settings(workspace.root)))
    return 0


def run_set(args: argparse.Namespace) -> int:
    workspace = open_workspace(args.root)
    with workspace:
        try:
            PolicyConfig.build(args.preset, args.allow)  # validate before anything is written
        except BadPrefix as error:
            raise UsageError(str(error)) from None
        stored = TrustStore().set_command_settings(workspace.root, tuple(args.preset), tuple(args.allow), args.chains)
        print_json(_settings_json(stored))
    return 0


def run_clear(args: argparse.Namespace) -> int:
    workspace = open_workspace(args.root)
    with workspace:
        print_json(_settings_json(TrustStore().set_command_settings(workspace.root)))
    return 0
