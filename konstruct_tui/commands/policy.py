"""The command policy: plain code that answers allow / ask / refuse for a command line.

What the three answers mean:

- `refuse`: never runs, whatever the grants. Rules: `deny` (the hard deny list; nothing lifts it),
  `compound` (shell syntax: commands run without a shell), `shell_wrapper` (`sh -c`, `eval`, ...
  used to smuggle what `compound` refuses), `privilege` (`sudo` and friends), `secrets`,
  `env_injection`, `remote_code` (inline code that downloads code and runs it), `self_grant`
  (`konstruct trust grant`, `konstruct policy set` run by the agent), `destructive`,
  `outside_workspace`, `allowlist` (allowlist mode, not listed), `unreadable_expansion` (a shell
  expansion whose value the policy cannot know: `$VAR`, `${...}`, `{a,b}`, a glob as the program),
  `parse_error`, `empty`.
- `allow`: runs with no `commands` grant. Rules: `allowlist` (an argv rule the user listed: their
  standing permission), `project_script` (one of the project's own scripts, as written; the agent
  runs those under the `scripts` grant, see `capability`) and `read_only` (a command on the
  read-only list, allowed only because it runs under the kernel sandbox in read-only mode with no
  network: `confinement="read-only"`; only when `PolicyConfig.read_only_sandbox` says the caller
  can confine it so, else it asks like any command).
- `ask`: rule `needs_grant`: an ordinary command outside allowlist mode; the agent needs the
  `commands` grant (once, for the session, or always for this project). So does a line with a
  wrapper option the policy's tables do not know: never allowed, since it cannot tell what runs
  (in allowlist mode it is refused).

Chains (`a && b`, `a || b`, `a; b`) are `compound` unless the user allowed chains
(`PolicyConfig.chains`, `policy check --chains`): then each step is judged alone and the chain gets
the neediest answer (rule `chain` when every step is allowed). Pipes and the rest stay refused.

Order: control characters; the hard deny list, on every piece of the line (and on the readings a
shell would make of its expansions, and on its look-alike characters read plainly), so `ls; rm -rf /`
is refused by `deny`, not merely by `compound`; then compound syntax; then the per-program
refusals; then expansions the policy cannot read; then project scripts, the allowlist and the
read-only list. The judging itself lives in judge.py; this module turns its findings into answers.
"""

from __future__ import annotations

import fnmatch
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from .allowlist import Rule, matching_rule, parse_rule, preset_rules
from .chain import CONNECTORS, ChainStep
from .deny import DENY, Finding
from .expansion import unreadable
from .programs import names_where
from .judge import hard_line, judge_argv, judge_shell_code
from .readonly import hardened_git, read_only_argv, read_only_rule
from .scripts import ProjectScript
from .shellwords import Operator, ShellSyntaxError, Word, describe_operator, tokenize
from .wrappers import SHELLS, is_assignment, program_name, unwrap

Decision = Literal["allow", "ask", "refuse"]
_SLASHES = str.maketrans({"\u2215": "/", "\u2044": "/", "\u29f8": "/", "\u2571": "/", "\u0338": "/"})
# Characters that can hide or reorder text for the person asked, by Unicode category rather than by
# a list: controls (but tab, newline and CR, which the tokenizer reads as such), format characters (bidi marks
# and overrides, zero-width ones, tags, soft hyphen), line and paragraph separators, private-use,
# surrogates and unassigned code points; and the fillers that render as nothing.
_HIDING = frozenset({"Cc", "Cf", "Zl", "Zp", "Co", "Cs", "Cn"})
_FILLERS = frozenset("\u115f\u1160\u3164\uffa0\u180e\u034f")
_SCRIPT_RUNNERS = names_where("names_scripts")  # `concurrently "npm:lint"`: the prefix names a runner of scripts


def _hidden_character(command: str) -> str | None:
    for char in command:
        if char in "\t\n\r" or (char.isascii() and char.isprintable()):
            continue
        if unicodedata.category(char) in _HIDING or char in _FILLERS:
            return char
    return None


@dataclass(frozen=True)
class PolicyConfig:
    """What the user configured. Allowlist mode is on when any rule or preset was given.
    `read_only_sandbox`: the caller can run a command under the kernel sandbox in read-only mode
    with no network (Landlock with network rules, and the project not set to run unconfined); only
    then are read-only commands allowed without a grant. The caller sets it from the machine."""

    allowlist: tuple[Rule, ...] = ()
    allowlist_mode: bool = False
    scripts: tuple[ProjectScript, ...] = ()
    root: Path | None = None
    chains: bool = False  # the user allows `a && b`, `a || b`, `a; b` of commands each allowed alone
    read_only_sandbox: bool = False

    @classmethod
    def build(cls, presets: Sequence[str] = (), allow: Sequence[str] = (), scripts: Sequence[ProjectScript] = (),
              root: Path | None = None, chains: bool = False, read_only_sandbox: bool = False) -> PolicyConfig:
        """Raises BadPrefix for an unknown preset or an unusable entry."""
        rules: list[Rule] = []
        for name in presets:
            rules.extend(preset_rules(name))
        rules.extend(parse_rule(text) for text in allow)
        return cls(tuple(rules), bool(presets or allow), tuple(scripts), root, chains, read_only_sandbox)


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
        out = {"decision": self.decision, "rule": self.rule, "reason": self.reason, "capability": self.capability}
        if self.confinement is not None:
            out["confinement"] = self.confinement
        return out


def decide(command: str, config: PolicyConfig | None = None) -> PolicyDecision:
    """The policy's answer for one command line."""
    config = config or PolicyConfig()
    command = command.strip()  # a trailing newline ends the line; it chains nothing
    if not command:
        return PolicyDecision("refuse", "empty", "the command is empty")
    hidden = _hidden_character(command)
    if hidden is not None:  # an escape sequence or a bidi override can hide text from the person asked
        return PolicyDecision("refuse", "parse_error", f"the command holds the control character U+{ord(hidden):04X}, "
                              "which can hide what it does from the person reading it")
    try:
        tokens = tokenize(command)
    except ShellSyntaxError as error:
        return PolicyDecision("refuse", "parse_error", f"the command cannot be read: {error}")
    hard = hard_line(tokens, config.root, 0) or _look_alike(command, config.root)
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
    return _decide_simple([t for t in tokens if isinstance(t, Word)], config)


def _look_alike(command: str, root: Path | None) -> Finding | None:
    """`ｒｍ -rf ／`: a line in look-alike characters (full-width letters, other slashes) is held to
    the deny list as the characters it imitates, so a person reading it is not fooled either."""
    if command.isascii():
        return None
    plain = unicodedata.normalize("NFKC", command).translate(_SLASHES)
    if plain == command:
        return None
    try:
        found = hard_line(tokenize(plain), root, 0)
    except ShellSyntaxError:
        return None
    return Finding(DENY, f"written in look-alike characters, it reads {plain[:80]!r}: {found.reason}") if found else None


def _decide_simple(words: list[Word], config: PolicyConfig) -> PolicyDecision:
    texts = [w.text for w in words]
    found = judge_argv(texts, config.root, 0, hard_only=False)
    if found:
        return PolicyDecision("refuse", found.rule, found.reason)
    if all(is_assignment(w) for w in texts):
        return PolicyDecision("refuse", "empty", "only variable assignments, no command to run")
    first = next(k for k, w in enumerate(texts) if not is_assignment(w))
    hidden = unreadable(words, first)
    if hidden is not None:
        return PolicyDecision(
            "refuse", "unreadable_expansion",
            f"{hidden[0]!r} holds {hidden[1]}, whose value only a shell knows; commands run without a shell and "
            "the policy does not judge what it cannot read. Write the value itself",
        )
    return _permission(tuple(texts), config)


def _decide_chain(tokens: list[Word | Operator], config: PolicyConfig) -> PolicyDecision | None:
    """With chains allowed: `a && b || c; d` where every step is a simple command the policy lets
    run on its own. None when the line holds other syntax (pipes, redirections, substitutions...),
    which stays `compound`. The chain needs what its neediest step needs; a chain mixing read-only
    steps with others asks for the read-only ones (one confinement applies to a whole chain)."""
    steps: list[ChainStep] = []
    runs: list[list[Word]] = []
    connector: str | None = None
    words: list[Word] = []
    for token in [*tokens, Operator(";")]:
        if isinstance(token, Word):
            words.append(token)
            continue
        if token.text not in CONNECTORS:
            return None
        if not words:
            if token.text in ("&&", "||") or connector in ("&&", "||"):
                return None  # `&& b` or `a && && b`: not a chain a shell would accept
            continue
        steps.append(ChainStep(connector, tuple(w.text for w in words)))
        runs.append(words)
        connector, words = token.text, []
    if not runs:
        return None  # `;` alone: no command at all, as a shell reads it a syntax error (compound)
    decisions = [_decide_simple(run, config) for run in runs]
    for k, decision in enumerate(decisions):
        if decision.decision == "refuse":
            return PolicyDecision("refuse", decision.rule, f"step {k + 1} of the chain: {decision.reason}")
    confined = {d.confinement for d in decisions}
    if len(confined) > 1:
        decisions = [d if d.confinement is None else PolicyDecision("ask", "needs_grant", d.reason, d.argv, "commands")
                     for d in decisions]
    asks = [d for d in decisions if d.decision == "ask"]
    capability = "commands" if asks else ("scripts" if any(d.capability == "scripts" for d in decisions) else None)
    verdict: Decision = "ask" if asks else "allow"
    reason = f"a chain of {len(steps)} commands (chains are allowed); " + (
        "it runs only with the user's 'commands' grant" if asks else "every step is allowed on its own")
    confinement = decisions[0].confinement if not asks else None
    # Each step runs what its own decision says (a read-only or allowlisted git, hardened).
    # Each step also keeps its words as written and what it needs alone: a chain grant names the
    # written steps, and a grant per step judges each step as it would judge it on its own.
    steps = [ChainStep(step.connector, d.argv or step.argv, step.argv, d.capability)
             for step, d in zip(steps, decisions, strict=True)]
    return PolicyDecision(verdict, "needs_grant" if asks else "chain", reason, (), capability, steps=tuple(steps),
                          confinement=confinement)


def _permission(argv: tuple[str, ...], config: PolicyConfig) -> PolicyDecision:
    run = unwrap(argv)
    plain = not run.wrappers and not run.assignments and not run.codes
    if plain:
        for script in config.scripts:
            if script.matches(argv):
                for part in _runs_with(script, config.scripts):
                    found = judge_shell_code(part.body or "", f"the {part.qualified} script", config.root, 1, hard_only=True)
                    if found:
                        return PolicyDecision("refuse", found.rule, found.reason)
                return PolicyDecision(
                    "allow", "project_script",
                    f"runs the project's {script.name!r} script ({script.source}) as written, under the scripts grant",
                    argv, "scripts", script,
                )
    if run.unknown is not None:
        if config.allowlist_mode:
            return PolicyDecision("refuse", "allowlist", f"{run.unknown!r} is an option the policy does not know, so "
                                  "it cannot tell what runs; allowlist mode allows only what it can read")
        return PolicyDecision("ask", "needs_grant", f"{run.unknown!r} is an option the policy does not know, so it "
                              "cannot tell what runs: it runs only with the user's 'commands' grant", argv, "commands")
    assignments = list(run.assignments)
    if config.allowlist_mode:
        if assignments:
            return PolicyDecision("refuse", "allowlist", f"{assignments[0].split('=', 1)[0]}= in front of the command "
                                  "changes how it runs; allowlist mode allows listed commands as written only")
        matched = matching_rule(argv, config.allowlist, lambda inner: _allowlisted(inner, config))
        if matched.rule is not None:
            runs = hardened_git(argv, run.argv, config.root)
            if runs is None:
                return PolicyDecision("refuse", "allowlist", "the only git to run is inside the workspace, where a "
                                      "command could have planted it")
            return PolicyDecision("allow", "allowlist", f"matches the allowlist entry {matched.rule.text!r}", runs)
        shown = " ".join(run.argv[:2]) if run.argv else argv[0]
        why = matched.refusal or f"{shown!r} matches no allowlist entry (allowlist mode is on)"
        return PolicyDecision("refuse", "allowlist", why)
    if not run.wrappers and not run.assignments and config.read_only_sandbox:
        rule = read_only_rule(argv, config.root)
        runs = read_only_argv(argv, config.root) if rule is not None else None
        if rule is not None and runs is not None:
            return PolicyDecision(
                "allow", "read_only",
                f"{rule!r} only reads: it runs without a grant, confined by the kernel sandbox to read-only with no network",
                runs, None, confinement="read-only",
            )
    via = " (through a shell)" if _shell_run(run.argv) else ""
    return PolicyDecision(
        "ask", "needs_grant", f"an arbitrary command{via}: it runs only with the user's 'commands' grant", argv, "commands"
    )


def _runs_with(script: ProjectScript, scripts: Sequence[ProjectScript]) -> list[ProjectScript]:
    """What running `script` runs with it, transitively: the scripts its runner adds (make's
    prerequisites, npm's `preNAME`/`postNAME`) and any script of the same file its body names as a
    word (`npm run wipe`, `$(MAKE) clean`). `"pretest": "rm -rf /"` refuses `npm test`."""
    same_file = {s.name: s for s in scripts if s.source == script.source and s.kind == script.kind}
    seen: dict[str, ProjectScript] = {}
    queue = [script]
    while queue:
        current = queue.pop()
        if current.name in seen:
            continue
        seen[current.name] = current
        if any("$" in need for need in current.needs) or "$(" in (current.body or "") or "${" in (current.body or ""):
            queue += [s for s in same_file.values() if s.name not in seen]  # a variable may name any of them
            continue
        named = set(current.needs) | set(re.split(r"[\s;&|()`$'\"{}]+", current.body or ""))
        queue += [same_file[name] for name in _named_scripts(named, same_file) if name not in seen]
    return [s for s in seen.values() if s.body]


def _named_scripts(words: set[str], scripts: dict[str, ProjectScript]) -> list[str]:
    """The scripts a body's words name: as written, behind a runner's prefix (`concurrently
    "npm:lint"`), or as a pattern (`npm-run-all test:*`, `run-p "build:**"`, `test:[ab]`), which names
    every script it matches (`*` is matched across `:` too, erring towards judging more)."""
    found = []
    for word in words:
        runner, _, rest = word.partition(":")
        for text in (word, rest if runner in _SCRIPT_RUNNERS else word):
            if text in scripts:
                found.append(text)
            elif any(c in text for c in "*?["):
                found += [name for name in scripts if fnmatch.fnmatchcase(name, text.replace("**", "*"))]
    return found


def _allowlisted(argv: Sequence[str], config: PolicyConfig) -> bool:
    """Whether the command a runner starts (`uv run CMD`, `npx CMD`) is itself allowed."""
    inner = _permission(tuple(argv), config)
    return inner.decision == "allow"


def _shell_run(argv: Sequence[str]) -> bool:
    return bool(argv) and (program_name(argv[0]) in SHELLS or program_name(argv[0]) in ("eval", "source", "."))
