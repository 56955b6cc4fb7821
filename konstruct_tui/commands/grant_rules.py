"""Command grants as argv rules: what a narrow `commands` grant admits.

A person granting one command may keep it to that exact argv, or to a rule of the shape `--allow`
takes (`pytest`, `git diff`, `python -m pytest`), matched the way allowlist.py matches its entries:
word for word from the program (`pytest` never admits `pytestx`, `./pytest` or `/tmp/pytest`), with
the program's unsafe options refused (`git` never admits `git -c core.pager=… log`, `rg` never
`rg --pre`). Unlike an allowlist entry, a grant rule can never list an unsafe option: it is a trust
the person gives while reading one command, not a policy they wrote. A runner rule (`uv run`,
`timeout`) admits nothing it would start: the started program must be in the rule itself.

A rule only widens the grants. The policy, with its hard deny list and refusals, judges every
command before any grant is looked at, so `rm -rf` granted never admits `rm -rf /`.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence

from .allowlist import BadPrefix, Rule, matching_rule, parse_rule
from .programs import program
from .unsafe_options import first_unsafe, own_exact, unsafe_for
from .wrappers import is_assignment, program_name, unwrap

# Programs whose second word names what they do (`git diff`, `npm test`): a proposed rule keeps it.
_SUBCOMMANDS = frozenset({
    "git", "npm", "pnpm", "yarn", "bun", "npx", "cargo", "go", "uv", "poetry", "pdm", "hatch", "pip", "pip3",
    "docker", "podman", "kubectl", "make", "gmake", "dotnet", "mvn", "mvnw", "gradle", "gradlew", "rustup",
    "conda", "pre-commit", "tox", "nox", "just", "deno", "swift", "sbt", "mix", "bundle", "rake",
})
_PLAIN_WORD = re.compile(r"[a-z][a-z0-9:_-]*")
_PYTHON = re.compile(r"^(.*/)?python(\d+(\.\d+)*)?$")


def propose_rule(argv: Sequence[str]) -> tuple[str, ...] | None:
    """The rule a prompt offers for `argv`: the program and, where it has them, its subcommand
    (`pytest -q tests/x` → `pytest`, `git diff HEAD` → `git diff`, `python -m pytest -x` →
    `python -m pytest`). None when only the exact command can be granted: an assignment or a
    wrapper in front (`CI=1 npm test`, `timeout 60 make`), which a rule would not keep narrow."""
    argv = tuple(argv)
    if not argv or is_assignment(argv[0]) or unwrap(argv).wrappers:
        return None
    rest = argv[1:]
    if _PYTHON.match(argv[0]) and len(rest) >= 2 and rest[0] == "-m":
        return argv[:3]
    if _code_options(argv[0]):  # an interpreter: the rule names the script, never the interpreter alone
        return argv[:2] if rest and not rest[0].startswith("-") else None
    if program_name(argv[0]) in _SUBCOMMANDS and rest and _PLAIN_WORD.fullmatch(rest[0]):
        return argv[:2]
    return argv[:1]


def parse_grant_rule(text: str, argv: Sequence[str]) -> tuple[str, ...]:
    """The words of a rule the person typed for the command `argv`. Raises BadPrefix (one line)
    when it has shell syntax, starts with an assignment, names an unsafe option, or does not
    admit `argv` itself (a grant that would not cover the command asked grants nothing asked)."""
    words = parse_rule(text.strip().removesuffix("…").strip()).words
    problem = _problem(words)
    if problem is not None:
        raise BadPrefix(problem)
    if not rule_admits("prefix", words, argv):
        raise BadPrefix(f"the rule {shlex.join(words)!r} does not admit the command asked ({shlex.join(argv)}): "
                        "it must start with the same program and words, and the rest must hold no unsafe option")
    return words


def rule_admits(match: str, words: Sequence[str], argv: Sequence[str]) -> bool:
    """Whether a grant rule admits the command `argv` (already allowed to ask by the policy)."""
    words, argv = tuple(words), tuple(argv)
    if not words or not argv:
        return False  # a chain has no single argv: no rule covers it
    if match == "exact":
        return argv == words
    if match != "prefix" or argv[: len(words)] != words or _problem(words) is not None:
        return False
    if _runs_code_text(argv, words):
        return False
    rule = Rule(shlex.join(words), words, frozenset())  # lists no option: an unsafe one is never admitted
    return matching_rule(argv, [rule], lambda _inner: False).rule is not None


def _code_options(word: str) -> frozenset[str]:
    entry = program(program_name(word))
    return entry.code_options if entry is not None else frozenset()


def _runs_code_text(argv: tuple[str, ...], rule: tuple[str, ...] = ()) -> bool:
    """Whether an interpreter is given program text on its command line (`python3 -c CODE`,
    `node --eval=CODE`, `perl -we CODE`, `-cCODE`), in any spelling: only an exact grant admits that.
    Past a rule that names the script (`python3 tools/gen.py`) every word is the script's own; short
    of one, an option's value cannot be told from a script (`python3 -W ignore -c CODE`), so any word
    spelled as a code option counts."""
    options = _code_options(argv[0])
    if not options or (len(rule) == 2 and not rule[1].startswith("-")):
        return False
    for word in argv[1:]:
        if word == "--":
            return False
        if word.split("=", 1)[0] in options:
            return True
        if word.startswith("-") and not word.startswith("--") and any(o[1] in word[1:] for o in options if o[:2] != "--"):
            return True
    return False


def _problem(words: tuple[str, ...]) -> str | None:
    """Why these words can never be a grant rule (checked again on every match: a hand-edited
    trust store gets no further than the prompt would)."""
    if is_assignment(words[0]):
        return f"a rule starts with the program, not the assignment {words[0]!r}"
    if _runs_code_text(words):
        return f"{words[0]} runs the program text given on its command line: only the exact command can be granted"
    bad = first_unsafe(words[1:], unsafe_for(words), frozenset(), own_exact(words))
    if bad is not None:
        return f"{bad!r} makes {words[0]} execute, write or redirect: a grant rule never admits it"
    return None

