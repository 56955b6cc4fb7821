"""Allowlist mode: only listed command prefixes may run, matched on whole argv words.

`git status` admits `git status -s` but not `git stash`; `git` does not admit `gitx`. A prefix is
matched on the words exactly as written (after harmless wrappers such as `timeout 60` or `nice` are
peeled), never on a basename: `./git` is a file in the project, not the `git` the user listed.

Presets are toolchain lists: each turns allowlist mode on. The deny list is checked before any of this.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .shellwords import ShellSyntaxError, split_words

Prefix = tuple[str, ...]

# Read-only looking around, shared by every preset.
_COMMON = (
    "ls", "cat", "head", "tail", "wc", "grep", "rg", "pwd", "echo", "which", "diff", "file", "stat", "tree",
    "git status", "git diff", "git log", "git show", "git branch", "git rev-parse", "git ls-files",
    "git blame", "git grep",
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


class BadPrefix(ValueError):
    """An allowlist entry that is empty or contains shell syntax."""


def parse_prefix(text: str) -> Prefix:
    try:
        words = split_words(text)
    except ShellSyntaxError as error:
        raise BadPrefix(f"allowlist entry {text!r}: {error}") from None
    if not words or not all(words):
        raise BadPrefix(f"allowlist entry {text!r} is empty")
    return tuple(words)


def preset_prefixes(name: str) -> tuple[Prefix, ...]:
    if name not in PRESETS:
        raise BadPrefix(f"unknown preset {name!r}; known presets: {', '.join(sorted(PRESETS))}")
    return tuple(parse_prefix(entry) for entry in PRESETS[name])


def matching_prefix(argv: Sequence[str], prefixes: Iterable[Prefix]) -> Prefix | None:
    """The longest listed prefix that `argv` starts with, word for word."""
    best: Prefix | None = None
    for prefix in prefixes:
        if len(prefix) <= len(argv) and tuple(argv[: len(prefix)]) == prefix:
            if best is None or len(prefix) > len(best):
                best = prefix
    return best
