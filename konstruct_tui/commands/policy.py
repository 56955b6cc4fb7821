"""The command policy: plain code that answers allow / ask / refuse for a command line.

What the three answers mean:

- `refuse`: never runs, whatever the grants. Rules: `deny` (the hard deny list; nothing lifts it),
  `compound` (shell syntax: commands run without a shell), `shell_wrapper` (`sh -c`, `eval`, ...
  used to smuggle what `compound` refuses), `privilege` (`sudo` and friends), `secrets`,
  `env_injection`, `remote_code` (inline code that downloads code and runs it), `self_grant`
  (`konstruct trust grant`, `konstruct policy set` run by the agent), `destructive`,
  `outside_workspace`, `allowlist` (allowlist mode, not listed),
  `parse_error`, `empty`.
- `allow`: runs with no `commands` grant. Rules: `allowlist` (a listed prefix: the user's standing
  permission) and `project_script` (one of the project's own scripts; the agent runs those under
  the `scripts` grant, see `capability`).
- `ask`: rule `needs_grant`: an ordinary command outside allowlist mode; the agent needs the
  `commands` grant (once, for the session, or always for this project).

Chains (`a && b`, `a || b`, `a; b`) are `compound` unless the user allowed chains
(`PolicyConfig.chains`, `policy check --chains`): then each step is judged alone and the chain gets
the neediest answer (rule `chain` when every step is allowed). Pipes and the rest stay refused.

Order: the hard deny list is checked first, on every piece of the line, so `ls; rm -rf /` is refused
by `deny`, not merely by `compound`; then compound syntax; then the per-program refusals; then
project scripts and the allowlist.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from .allowlist import Prefix, matching_prefix, parse_prefix, preset_prefixes
from .chain import CONNECTORS, ChainStep
from .deny import DENY, Finding, find_exec_commands, find_is_filtered, judge_assignments, judge_program
from .embedded import embedded_code
from .inline_code import inline_code_of, scan_code
from .scripts import ProjectScript
from .shellwords import Operator, ShellSyntaxError, Word, describe_operator, segments, tokenize
from .targets import place_of
from .wrappers import SHELLS, is_assignment, program_name, shell_code_of, unwrap

Decision = Literal["allow", "ask", "refuse"]
_MAX_DEPTH = 6
_REDIRECT_OUT = frozenset({">", ">>", ">|", "&>", ">&", "<>"})
_SINKS = frozenset({"/dev/null", "/dev/stderr", "/dev/stdout", "/dev/tty"})
# `name(){ ... name | name & ... }` in any spacing, `function name { ... }` too.
_FUNCTION = re.compile(r"(?:function\s+)?([^\s(){}|&;<>]+)\s*(?:\(\s*\))\s*\{(.*?)\}|function\s+([^\s(){}|&;<>]+)\s*\{(.*?)\}", re.S)


@dataclass(frozen=True)
class PolicyConfig:
    """What the user configured. Allowlist mode is on when any prefix or preset was given."""

    allowlist: tuple[Prefix, ...] = ()
    allowlist_mode: bool = False
    scripts: tuple[ProjectScript, ...] = ()
    root: Path | None = None
    chains: bool = False  # the user allows `a && b`, `a || b`, `a; b` of commands each allowed alone

    @classmethod
    def build(cls, presets: Sequence[str] = (), allow: Sequence[str] = (), scripts: Sequence[ProjectScript] = (),
              root: Path | None = None, chains: bool = False) -> PolicyConfig:
        """Raises BadPrefix for an unknown preset or an unusable prefix."""
        prefixes: list[Prefix] = []
        for name in presets:
            prefixes.extend(preset_prefixes(name))
        prefixes.extend(parse_prefix(text) for text in allow)
        return cls(tuple(prefixes), bool(presets or allow), tuple(scripts), root, chains)


@dataclass(frozen=True)
class PolicyDecision:
    decision: Decision
    rule: str
    reason: str
    argv: tuple[str, ...] = ()  # what would run (no shell), when it may run
    capability: str | None = None  # the grant the agent needs: "commands", "scripts", or None
    script: ProjectScript | None = field(default=None, compare=False)
    steps: tuple[ChainStep, ...] = ()  # an allowed chain: run step by step (then `argv` is empty)
    # "read-only": allowed without a grant only because it runs under the kernel sandbox in read-only
    # mode with no network; whoever runs it must confine it so, or ask instead.
    confinement: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"decision": self.decision, "rule": self.rule, "reason": self.reason, "capability": self.capability}


def decide(command: str, config: PolicyConfig | None = None) -> PolicyDecision:
    """The policy's answer for one command line."""
    config = config or PolicyConfig()
    command = command.strip()  # a trailing newline ends the line; it chains nothing
    if not command:
        return PolicyDecision("refuse", "empty", "the command is empty")
    try:
        tokens = tokenize(command)
    except ShellSyntaxError as error:
        return PolicyDecision("refuse", "parse_error", f"the command cannot be read: {error}")
    hard = _hard_line(command, tokens, config.root, 0)
    if hard:
        return PolicyDecision("refuse", hard.rule, hard.reason)
    operator = next((t for t in tokens if isinstance(t, Operator)), None)
    if operator is not None and config.chains:
        chained = _decide_chain(tokens, config)
        if chained is not None:
            return chained
    if operator is not None:
        where = " inside double quotes (a shell still runs it there)" if operator.quoted else ""
        return PolicyDecision(
            "refuse", "compound",
            f"compound shell syntax is refused: {describe_operator(operator.text)}{where}. Commands run "
            "without a shell; run one command per call, or quote the characters to pass them literally",
        )
    return _decide_simple([t.text for t in tokens if isinstance(t, Word)], config)


def _decide_simple(words: list[str], config: PolicyConfig) -> PolicyDecision:
    found = _judge_argv(words, config.root, 0, hard_only=False)
    if found:
        return PolicyDecision("refuse", found.rule, found.reason)
    if all(is_assignment(w) for w in words):
        return PolicyDecision("refuse", "empty", "only variable assignments, no command to run")
    return _permission(tuple(words), config)


def _decide_chain(tokens: list[Word | Operator], config: PolicyConfig) -> PolicyDecision | None:
    """With chains allowed: `a && b || c; d` where every step is a simple command the policy lets
    run on its own. None when the line holds other syntax (pipes, redirections, substitutions...),
    which stays `compound`. The chain needs what its neediest step needs."""
    steps: list[ChainStep] = []
    connector: str | None = None
    words: list[str] = []
    for token in [*tokens, Operator(";")]:
        if isinstance(token, Word):
            words.append(token.text)
            continue
        if token.text not in CONNECTORS:
            return None
        if not words:
            if token.text in ("&&", "||") or connector in ("&&", "||"):
                return None  # `&& b` or `a && && b`: not a chain a shell would accept
            continue
        steps.append(ChainStep(connector, tuple(words)))
        connector, words = token.text, []
    decisions = [_decide_simple(list(step.argv), config) for step in steps]
    for k, decision in enumerate(decisions):
        if decision.decision == "refuse":
            return PolicyDecision("refuse", decision.rule, f"step {k + 1} of the chain: {decision.reason}")
    asks = [d for d in decisions if d.decision == "ask"]
    capability = "commands" if asks else ("scripts" if any(d.capability == "scripts" for d in decisions) else None)
    verdict: Decision = "ask" if asks else "allow"
    reason = f"a chain of {len(steps)} commands (chains are allowed); " + (
        "it runs only with the user's 'commands' grant" if asks else "every step is allowed on its own")
    return PolicyDecision(verdict, "needs_grant" if asks else "chain", reason, (), capability, steps=tuple(steps))


def _permission(argv: tuple[str, ...], config: PolicyConfig) -> PolicyDecision:
    run = unwrap(argv)
    for script in config.scripts:
        if script.matches(argv) or (not run.wrappers and script.matches(run.argv)):
            if script.body:
                found = _judge_shell_code(script.body, f"the {script.qualified} script", config.root, 1, hard_only=True)
                if found:
                    return PolicyDecision("refuse", found.rule, found.reason)
            return PolicyDecision(
                "allow", "project_script",
                f"runs the project's {script.name!r} script ({script.source}) under the scripts grant",
                argv, "scripts", script,
            )
    if config.allowlist_mode:
        benign = all(w not in ("sudo", "doas", "su", "pkexec", "run0", "ssh", "watch", "flock", "script", "xargs")
                     for w in run.wrappers) and run.shell_code is None
        prefix = matching_prefix(argv, config.allowlist) or (matching_prefix(run.argv, config.allowlist) if benign else None)
        if prefix is not None:  # a listed shell (`--allow bash`) is the user's call: its -c string was judged above
            return PolicyDecision("allow", "allowlist", f"matches the allowlist entry {' '.join(prefix)!r}", argv)
        shown = " ".join(run.argv[:2]) if run.argv else argv[0]
        return PolicyDecision("refuse", "allowlist", f"{shown!r} matches no allowlist entry (allowlist mode is on)")
    via = " (through a shell)" if _shell_run(run.argv) else ""
    return PolicyDecision(
        "ask", "needs_grant", f"an arbitrary command{via}: it runs only with the user's 'commands' grant", argv, "commands"
    )


def _shell_run(argv: Sequence[str]) -> bool:
    return bool(argv) and (program_name(argv[0]) in SHELLS or program_name(argv[0]) in ("eval", "source", "."))


def _hard_line(line: str, tokens: list[Word | Operator], root: Path | None, depth: int) -> Finding | None:
    """Hard-deny findings anywhere in a line: a fork bomb, a denied piece, a write to a disk device."""
    bomb = _fork_bomb(line)
    if bomb:
        return bomb
    for k, token in enumerate(tokens):
        if isinstance(token, Operator) and token.text in _REDIRECT_OUT and k + 1 < len(tokens):
            target = tokens[k + 1]
            if isinstance(target, Word) and ("/dev/tcp/" in target.text or "/dev/udp/" in target.text):
                return Finding(DENY, "a redirection to /dev/tcp or /dev/udp wires a shell to the network (a reverse shell)")
            if isinstance(target, Word) and target.text not in _SINKS and place_of(target.text, root).fatal:
                return Finding(DENY, f"a redirection onto {target.text!r} overwrites {place_of(target.text, root).value}")
    for piece in segments(tokens):
        found = _judge_argv(piece, root, depth, hard_only=True)
        if found:
            return found
    return None


def _fork_bomb(line: str) -> Finding | None:
    for match in _FUNCTION.finditer(line):
        name = match.group(1) or match.group(3)
        body = match.group(2) if match.group(1) else match.group(4)
        calls = re.findall(rf"(?<![\w:.-]){re.escape(name)}(?![\w:.-])", body or "")
        if calls and ("|" in body or "&" in body):
            return Finding(DENY, f"the function {name!r} calls itself in the background or through a pipe: a fork bomb")
    return None


def _judge_argv(argv: Sequence[str], root: Path | None, depth: int, hard_only: bool) -> Finding | None:
    """The first refusal for one simple command (wrappers peeled, shell strings and inline code judged)."""
    if depth > _MAX_DEPTH:
        return Finding("shell_wrapper", "commands nested this deep inside shells are refused")
    run = unwrap(argv)
    findings: list[Finding] = []

    def keep(found: Finding | None) -> None:
        if found is not None and (not hard_only or found.rule == DENY):
            findings.append(found)

    if run.shell_code is not None:
        keep(_judge_shell_code(run.shell_code, run.shell_via or "a wrapper", root, depth + 1, hard_only))
    code = shell_code_of(run.argv)
    if code is not None:
        keep(_judge_shell_code(code, f"{program_name(run.argv[0])} -c", root, depth + 1, hard_only))
    name = program_name(run.argv[0]) if run.argv else ""
    if name == "eval":
        keep(_judge_shell_code(" ".join(run.argv[1:]), "eval", root, depth + 1, hard_only))
        keep(Finding("shell_wrapper", "eval is a shell builtin that runs a string as shell code; commands run without a shell"))
    for embedded in embedded_code(run.argv):
        keep(_judge_shell_code(embedded.code, embedded.via, root, depth + 1, hard_only or not embedded.strict))
    keep(judge_program(run.argv, root))
    if name == "find":
        filtered = find_is_filtered(run.argv[1:])
        for sub, starts in find_exec_commands(run.argv[1:]):
            keep(_judge_argv(sub, root, depth + 1, hard_only))
            for start in starts:
                # `{}` stands for every path found: at a fatal start (or unfiltered) that is the start itself.
                if place_of(start, root).fatal or not filtered:
                    keep(_judge_argv([start if w == "{}" else w for w in sub], root, depth + 1, hard_only))
    inline = inline_code_of(run.argv)
    if inline is not None:
        keep(scan_code(
            inline,
            lambda text: _judge_shell_code(text, "the program", root, depth + 1, hard_only=True),
            lambda words: _judge_argv(words, root, depth + 1, hard_only=True),
        ))
    if run.privileged:
        keep(Finding("privilege", f"{run.wrappers[0]} runs commands as another user (root); the agent never escalates"))
    keep(judge_assignments(run.assignments))
    deny = next((f for f in findings if f.rule == DENY), None)
    return deny or (findings[0] if findings else None)


def _judge_shell_code(code: str, via: str, root: Path | None, depth: int, hard_only: bool) -> Finding | None:
    """Judge a string some program hands to a shell. Its hard-deny pieces are `deny`; compound
    syntax or expansions in it make the wrapper a smuggling route (`shell_wrapper`)."""
    try:
        tokens = tokenize(code)
    except ShellSyntaxError as error:
        return None if hard_only else Finding("shell_wrapper", f"{via} is given shell code that cannot be read: {error}")
    hard = _hard_line(code, tokens, root, depth)
    if hard:
        return Finding(DENY, f"{via} runs {code.strip()[:80]!r}: {hard.reason}")
    if hard_only:
        return None
    operator = next((t for t in tokens if isinstance(t, Operator)), None)
    if operator is not None:
        return Finding("shell_wrapper", f"{via} is used to smuggle compound shell syntax ({describe_operator(operator.text)})")
    if "$" in code:
        return Finding("shell_wrapper", f"{via} would expand variables in {code.strip()[:80]!r}; run the command directly")
    words = [t.text for t in tokens if isinstance(t, Word)]
    found = _judge_argv(words, root, depth, hard_only=False)
    if found:
        return Finding(found.rule, f"{via} runs {code.strip()[:80]!r}: {found.reason}")
    return None
