"""Allowlist mode: only listed argv rules may run.

An entry (`--allow "git diff"`, a preset's `"rg"`) is an argv rule, not a text prefix: it names a
program and its subcommand words, matched word for word (`git status` admits `git status -s`, not
`git stash`; `git` does not admit `gitx`; `./git` is a file in the project, not the `git` the user
listed), and admits the program's ordinary options. Options that execute, write or redirect
(`rg --pre`, `git grep -O`, `git diff --output`, `git branch -D`, `find -delete`, `make -f`, ...;
see unsafe_options.py) are refused unless the entry itself lists them (`--allow "rg --pre"`).
Environment assignments in front of an allowlisted command are refused (policy.py), and a runner
entry (`uv run`, `npx`, `timeout`) admits only a command that is itself allowed.

Presets are toolchain rule lists: each turns allowlist mode on. The deny list is checked before any of this.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from .programs import BY_NAME, PROGRAMS, Subcommand
from .shellwords import ShellSyntaxError, split_words
from .unsafe_options import first_unsafe, own_exact, unsafe_for
from .wrappers import is_assignment, unwrap

Prefix = tuple[str, ...]

# Read-only looking around, shared by every preset (`in_every_preset` in the program table).
_COMMON = tuple(
    [name for p in PROGRAMS if p.in_every_preset for name in p.names]
    + [f"{p.name} {sub}" for p in PROGRAMS for sub, entry in p.subcommands.items() if entry.in_every_preset]
)

PRESETS: dict[str, tuple[str, ...]] = {
    "python": _COMMON + (
        "python", "python3", "pytest", "py.test", "tox", "nox", "ruff", "mypy", "pyright", "black", "isort",
        "flake8", "pylint", "coverage", "pip install", "pip3 install", "pip list", "pip show", "pip freeze",
        "pip check", "python -m pip", "python3 -m pip", "uv run", "uv sync", "uv pip", "uv add", "uv lock", "poetry run",
        "poetry install", "poetry add", "poetry lock", "pdm run", "pdm install", "hatch run", "hatch test", "pipenv run",
        "pipenv install", "pre-commit run",
    ),
    "node": _COMMON + (
        "node", "npm test", "npm t", "npm run", "npm ci", "npm install", "npm ls", "npm exec", "yarn test",
        "yarn run", "yarn install", "yarn build", "yarn lint", "pnpm test", "pnpm run", "pnpm install",
        "pnpm build", "pnpm lint", "bun test", "bun run", "bun install", "npx tsc", "npx jest", "npx vitest",
        "npx eslint", "npx prettier", "npx playwright test", "tsc", "jest", "vitest", "eslint", "prettier",
    ),
    "go": _COMMON + (
        "go test", "go build", "go vet", "go run", "go fmt", "go list", "go version", "go env", "go mod tidy",
        "go mod download", "go mod verify", "go generate", "go get", "go install", "go clean", "go doc", "go work", "gofmt",
        "goimports", "golangci-lint run", "staticcheck",
    ),
    "java": _COMMON + (
        "mvn", "./mvnw", "gradle", "./gradlew", "java", "javac", "jar", "ant", "kotlinc", "kotlin", "sbt test", "sbt compile",
    ),
}
# `git branch NAME` creates a branch: the look-around rule admits listing only (`lists_only_with` in
# the program table: the options that put it in list mode; `takes_value`: those whose value is the next word).
LISTING_ONLY = {(p.name, sub): entry for p in PROGRAMS for sub, entry in p.subcommands.items() if entry.lists_only_with}


class BadPrefix(ValueError):
    """An allowlist entry that is empty or contains shell syntax."""


@dataclass(frozen=True)
class Rule:
    """One allowlist entry: the words a command must start with, and the options it lists
    (options in the entry are allowed even when unsafe: the user named them)."""

    text: str
    words: Prefix
    listed: frozenset[str]

    def __len__(self) -> int:
        return len(self.words)

    def __iter__(self):  # a rule still reads as its prefix words (older callers joined them)
        return iter(self.words)


@dataclass(frozen=True)
class Match:
    rule: Rule | None
    refusal: str | None = None  # why the closest rule did not admit the command


def parse_rule(text: str) -> Rule:
    try:
        words = split_words(text)
    except ShellSyntaxError as error:
        raise BadPrefix(f"allowlist entry {text!r}: {error}") from None
    if not words or not all(words):
        raise BadPrefix(f"allowlist entry {text!r} is empty")
    listed = frozenset(w.split("=", 1)[0] for w in words if w.startswith("-"))
    return Rule(" ".join(words), tuple(words), listed)


parse_prefix = parse_rule  # the older name


def preset_rules(name: str) -> tuple[Rule, ...]:
    if name not in PRESETS:
        raise BadPrefix(f"unknown preset {name!r}; known presets: {', '.join(sorted(PRESETS))}")
    return tuple(parse_rule(entry) for entry in PRESETS[name])


preset_prefixes = preset_rules


def matching_rule(argv: Sequence[str], rules: Iterable[Rule], inner_allowed: Callable[[Sequence[str]], bool]) -> Match:
    """The longest rule that admits `argv`, or why none does. `inner_allowed` judges the command a
    runner entry starts (`uv run pytest` needs `pytest` allowed)."""
    rules = list(rules)
    best: Rule | None = None
    refusal: str | None = None
    candidates = [argv]
    run = unwrap(argv)
    if run.wrappers and not run.codes and all(w in _BENIGN for w in run.wrappers) and run.argv:
        candidates.append(run.argv)  # `timeout 60 pytest`, `nice make`: the wrapper changes nothing that matters
    for words in candidates:
        for rule in rules:
            if len(rule.words) > len(words) or tuple(words[: len(rule.words)]) != rule.words:
                continue
            why = _refusal(rule, words, run.argv if words is argv and run.wrappers else None, inner_allowed)
            if why is not None:
                refusal = refusal or why
                continue
            if best is None or len(rule) > len(best):
                best = rule
        if best is not None:
            return Match(best)
    return Match(None, refusal)


# Wrappers that change nothing that matters (`timeout 60 pytest`): `benign` in the program table.
_BENIGN = frozenset(name for p in PROGRAMS if p.runner is not None and p.runner.benign for name in p.names)


def _refusal(rule: Rule, argv: Sequence[str], inner: Sequence[str] | None, inner_allowed: Callable[[Sequence[str]], bool]) -> str | None:
    rest = argv[len(rule.words):]
    unsafe = unsafe_for(argv)
    bad = first_unsafe(rest, unsafe, rule.listed, own_exact(argv))
    if bad is not None:
        return (f"{bad!r} makes {' '.join(argv[:2])} execute, write or redirect; the allowlist entry "
                f"{rule.text!r} admits it only if the entry lists that option")
    entry = BY_NAME.get(argv[0])
    if entry is not None and entry.variables_change_runs and any(is_assignment(w) and w not in rule.words for w in rest):
        override = next(w for w in rest if is_assignment(w))
        return (f"{override!r} overrides a make variable (SHELL=, CC=, MAKEFLAGS= change what runs); the entry "
                f"{rule.text!r} admits it only if the entry lists it")
    listing = LISTING_ONLY.get(tuple(argv[:2]))  # type: ignore[arg-type]
    if listing is not None and len(rule.words) <= 2 and creates_branch(rest, listing):
        return f"{' '.join(argv)!r} changes branches; the entry {rule.text!r} admits listing them only"
    if inner is not None and inner and len(rule.words) < len(argv) - len(inner) + 1 and not inner_allowed(inner):
        return f"{rule.text!r} starts {inner[0]!r}, which is not allowed itself"
    return None


def creates_branch(rest: Sequence[str], listing: Subcommand) -> bool:
    """`git branch NAME` (a name with no listing option) creates a branch."""
    if any(w.split("=", 1)[0] in listing.lists_only_with for w in rest):
        return False
    skip = False
    for word in rest:
        if skip:
            skip = False
            continue
        if word.startswith("-"):
            skip = word in listing.takes_value
            continue
        return True
    return False


def matching_prefix(argv: Sequence[str], prefixes: Iterable[Prefix | Rule]) -> Prefix | None:
    """The longest listed prefix that `argv` starts with, word for word (no option checks)."""
    best: Prefix | None = None
    for prefix in prefixes:
        words = prefix.words if isinstance(prefix, Rule) else tuple(prefix)
        if len(words) <= len(argv) and tuple(argv[: len(words)]) == words:
            if best is None or len(words) > len(best):
                best = words
    return best
