"""Judging one command line, recursively: wrappers peeled, strings other programs run judged as
command lines of their own, inline code scanned. Answers the first refusal (`Finding`), hard deny
first; the policy (policy.py) turns the absence of one into allow or ask.

Everything here is one pass over the tokens (no regex rescans the line), so judging time grows
linearly with the line: an 80 KB line answers in milliseconds.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from .deny import (
    DENY,
    Finding,
    find_exec_commands,
    find_is_filtered,
    judge_assignments,
    judge_program,
)
from .embedded import TEXT_PROGRAMS, embedded_code
from .expansion import readings
from .inline_code import inline_code_of, scan_code
from .shellwords import (
    Operator,
    ShellSyntaxError,
    Token,
    Word,
    describe_operator,
    tokenize,
    word_runs,
)
from .targets import place_of
from .wrappers import PEEL_BUDGET, program_name, shell_code_of, unwrap

MAX_DEPTH = 6
_DENY_STARTS = frozenset({
    "rm", "rmdir", "unlink", "shred", "srm", "rimraf", "dd", "wipefs", "kill", "killall", "killall5", "pkill", "chmod",
    "chown", "chgrp", "mv", "cp", "tee", "truncate", "find", "xargs", "shutdown", "reboot", "halt", "poweroff",
    "sh", "bash", "dash", "zsh", "ksh", "busybox", "env", "sudo", "doas", "nice", "timeout", "python", "python3",
    "perl", "ruby", "node", "fdisk", "parted", "mkswap", "mke2fs", "crontab", "systemctl", "init", "telinit",
})
_MAX_PROBES = 16
_MKFS_NAME = re.compile(r"^mkfs(\.|$)")
_REDIRECT_OUT = frozenset({">", ">>", ">|", "&>", ">&", "<>"})
_SINKS = frozenset({"/dev/null", "/dev/stderr", "/dev/stdout", "/dev/tty"})


def hard_line(tokens: Sequence[Token], root: Path | None, depth: int) -> Finding | None:
    """Hard-deny findings anywhere in a line: a fork bomb, a denied piece (also as a shell would
    expand it), a write to a disk device."""
    bomb = fork_bomb(tokens)
    if bomb:
        return bomb
    for k, token in enumerate(tokens):
        if isinstance(token, Operator) and token.text in _REDIRECT_OUT and k + 1 < len(tokens):
            target = tokens[k + 1]
            if isinstance(target, Word) and ("/dev/tcp/" in target.text or "/dev/udp/" in target.text):
                return Finding(DENY, "a redirection to /dev/tcp or /dev/udp wires a shell to the network (a reverse shell)")
            if isinstance(target, Word) and target.text not in _SINKS and place_of(target.text, root).fatal:
                return Finding(DENY, f"a redirection onto {target.text!r} overwrites {place_of(target.text, root).value}")
    for run in word_runs(tokens):
        for argv in [[w.text for w in run], *readings(run)]:
            found = judge_argv(argv, root, depth, hard_only=True)
            if found:
                return found
    return None


def fork_bomb(tokens: Sequence[Token]) -> Finding | None:
    """A shell function that calls itself through a pipe or in the background (`:(){ :|:& };:`,
    `f(){ f & }`), found by recursion in its body, whatever the names and spacing. Linear: each
    token is read once."""
    i, n = 0, len(tokens)
    starts = [k for k, t in enumerate(tokens) if type(t) is Operator and t.text == "(" or type(t) is Word and t.text == "function"]
    if not starts:
        return None
    i = max(starts[0] - 1, 0)
    while i < n:
        name, body = _function_at(tokens, i)
        if name is None:
            i += 1
            continue
        depth, calls, spawns, k = 0, False, False, body
        while k < n:
            token = tokens[k]
            if isinstance(token, Operator):
                if token.text in ("{", "("):
                    depth += 1
                elif token.text in ("}", ")"):
                    depth -= 1
                    if depth <= 0:
                        break
                elif token.text in ("|", "&", "|&"):
                    spawns = True
            else:
                text = token.text.lstrip("{").rstrip("}")
                calls = calls or text == name
            k += 1
        if calls and spawns:
            return Finding(DENY, f"the function {name!r} calls itself in the background or through a pipe: a fork bomb")
        i = max(k, i + 1)
    return None


def _function_at(tokens: Sequence[Token], i: int) -> tuple[str | None, int]:
    """(name, index where the body starts) when a function definition starts at token i."""
    token = tokens[i]
    if not isinstance(token, Word):
        return None, i
    def op(k: int, text: str) -> bool:
        return k < len(tokens) and isinstance(tokens[k], Operator) and tokens[k].text == text

    if token.plain and token.text == "function" and i + 1 < len(tokens) and isinstance(tokens[i + 1], Word):
        j = i + 2
        if op(j, "(") and op(j + 1, ")"):
            j += 2
        return tokens[i + 1].text, j  # type: ignore[union-attr]
    if op(i + 1, "(") and op(i + 2, ")"):
        return token.text, i + 3
    return None, i


def judge_argv(argv: Sequence[str], root: Path | None, depth: int, hard_only: bool) -> Finding | None:
    """The first refusal for one simple command (wrappers peeled, shell strings and inline code judged)."""
    if depth > MAX_DEPTH:
        return Finding("shell_wrapper", "commands nested this deep inside shells are refused")
    found = _findings(tuple(argv), root, depth)
    if hard_only:
        return found[0] if found and found[0].rule == DENY else None
    return found[0] if found else None


@lru_cache(maxsize=128)
def _findings(argv: tuple[str, ...], root: Path | None, depth: int) -> tuple[Finding, ...]:
    """Every refusal for one argv, deny first (cached: the policy asks twice for the same line,
    once hard-only across the whole line and once for the command it may run). Nested strings are
    judged fully; the caller keeps only `deny` when it asked for the hard list."""
    hard_only = False  # what nested judgments get: all findings, filtered by the caller
    run = unwrap(argv)
    findings: list[Finding] = []

    def keep(found: Finding | None) -> None:
        if found is not None:
            findings.append(found)

    if run.too_deep:
        keep(Finding("shell_wrapper", f"more than {PEEL_BUDGET} wrappers in front of one command: the policy cannot "
                     "tell what runs"))
    for code, via in run.codes:
        keep(judge_shell_code(code, via, root, depth + 1, hard_only))
    for probe in run.probes:  # behind an unknown wrapper option: the command may start here too
        keep(judge_argv(probe, root, depth + 1, hard_only=True))
    if run.chdir is not None and run.argv:
        moved = [run.argv[0]] + [w if w.startswith(("-", "/", "~", "$")) else posixpath.join(run.chdir, w) for w in run.argv[1:]]
        keep(judge_argv(moved, root, depth + 1, hard_only))  # all of it: `env -C /etc cat shadow` reads a secret
    for target in run.writes:
        if target not in _SINKS and place_of(target, root).fatal:
            keep(Finding(DENY, f"{run.wrappers[-1]} would write its output over {target!r} ({place_of(target, root).value})"))
    code = shell_code_of(run.argv)
    if code is not None:
        keep(judge_shell_code(code, f"{program_name(run.argv[0])} -c", root, depth + 1, hard_only))
    name = program_name(run.argv[0]) if run.argv else ""
    if name == "eval":
        keep(judge_shell_code(" ".join(run.argv[1:]), "eval", root, depth + 1, hard_only))
        keep(Finding("shell_wrapper", "eval is a shell builtin that runs a string as shell code; commands run without a shell"))
    for embedded in embedded_code(run.argv):
        if embedded.argv is not None:
            keep(judge_argv(embedded.argv, root, depth + 1, hard_only or not embedded.strict))
        else:
            keep(judge_shell_code(embedded.code, embedded.via, root, depth + 1, hard_only or not embedded.strict))
    keep(judge_program(run.argv, root))
    if name not in TEXT_PROGRAMS and name not in _DENY_STARTS and depth <= 1:  # probes do not probe again
        # A program that runs the rest of its words as a command, not in the wrapper tables
        # (`valgrind rm -rf /`, `firejail`, `numactl`, `cross-env`): probe where a denied program starts.
        # Every start is probed (decoys in front, `valgrind python python python python rm -rf /`, must not
        # use up a budget); a line naming more of them than any real one does is refused instead.
        starts = [k for k, w in enumerate(run.argv[1:], 1) if program_name(w) in _DENY_STARTS or _MKFS_NAME.match(program_name(w))]
        if len(starts) > _MAX_PROBES:
            keep(Finding("shell_wrapper", f"{name} is followed by {len(starts)} words that name programs: the policy "
                         "cannot tell which of them runs"))
        for k in starts[:_MAX_PROBES]:
            keep(judge_argv(run.argv[k:], root, depth + 1, hard_only=True))
    if name == "find":
        filtered = find_is_filtered(run.argv[1:])
        for sub, starts in find_exec_commands(run.argv[1:]):
            keep(judge_argv(sub, root, depth + 1, hard_only))
            for start in starts:
                # `{}` stands for every path found: at a fatal start (or unfiltered) that is the start itself.
                if place_of(start, root).fatal or not filtered:
                    keep(judge_argv([start if w == "{}" else w for w in sub], root, depth + 1, hard_only))
    inline = inline_code_of(run.argv)
    if inline is not None:
        keep(scan_code(
            inline,
            lambda text: judge_shell_code(text, "the program", root, depth + 1, hard_only=True),
            lambda words: judge_argv(words, root, depth + 1, hard_only=True),
        ))
    if run.privileged:
        keep(Finding("privilege", f"{run.wrappers[0]} runs commands as another user (root); the agent never escalates"))
    keep(judge_assignments(run.assignments))
    deny = [f for f in findings if f.rule == DENY]
    return tuple(deny + [f for f in findings if f.rule != DENY])


def judge_shell_code(code: str, via: str, root: Path | None, depth: int, hard_only: bool) -> Finding | None:
    """Judge a string some program hands to a shell. Its hard-deny pieces are `deny`; compound
    syntax or expansions in it make the wrapper a smuggling route (`shell_wrapper`)."""
    try:
        tokens = tokenize(code)
    except ShellSyntaxError as error:
        return None if hard_only else Finding("shell_wrapper", f"{via} is given shell code that cannot be read: {error}")
    hard = hard_line(tokens, root, depth)
    if hard:
        return Finding(DENY, f"{via} runs {code.strip()[:80]!r}: {hard.reason}")
    if hard_only:
        return None
    operator = next((t for t in tokens if isinstance(t, Operator)), None)
    if operator is not None:
        return Finding("shell_wrapper", f"{via} is used to smuggle compound shell syntax ({describe_operator(operator.text)})")
    words = [t for t in tokens if isinstance(t, Word)]
    if "$" in code or any(w.expansions - {"glob"} for w in words):
        return Finding("shell_wrapper", f"{via} would expand {code.strip()[:80]!r} in a shell; run the command directly")
    found = judge_argv([w.text for w in words], root, depth, hard_only=False)
    if found:
        return Finding(found.rule, f"{via} runs {code.strip()[:80]!r}: {found.reason}")
    return None
