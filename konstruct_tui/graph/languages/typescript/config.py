"""`tsconfig.json` / `jsconfig.json` module-resolution settings: `baseUrl` and `paths`, following
relative `extends`. These files are JSON with comments and trailing commas, so they are read
leniently; a config that still does not parse is ignored (resolution falls back to relative-only)."""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

CONFIG_NAMES = ("tsconfig.json", "jsconfig.json")
_TRAILING_COMMA = re.compile(r",(\s*[}\]])")


@dataclass(frozen=True)
class PathMapping:
    """Resolved settings of one config: directories are project-relative ("" for the root)."""

    base_url: str | None = None
    paths: tuple[tuple[str, tuple[str, ...]], ...] = ()
    paths_base: str = ""

    def __bool__(self) -> bool:
        return self.base_url is not None or bool(self.paths)

    def candidates(self, specifier: str) -> list[str]:
        """Project-relative paths (without extension probing) a bare specifier may name, in the
        order TypeScript tries them: the best `paths` pattern's substitutions, then `baseUrl`."""
        found: list[str] = []
        best = _best_pattern(self.paths, specifier)
        if best is not None:
            pattern, targets = best
            star = ""
            if "*" in pattern:
                prefix, suffix = pattern.split("*", 1)
                star = specifier[len(prefix) : len(specifier) - len(suffix)]
            base = self.base_url if self.base_url is not None else self.paths_base
            for target in targets:
                found.append(_join(base, target.replace("*", star)))
            if base != self.paths_base:
                # `paths` written relative to their own config while `baseUrl` is inherited from
                # another: tsc would miss them, the bundler that the project really uses does not.
                found += [_join(self.paths_base, target.replace("*", star)) for target in targets]
        if self.base_url is not None:
            found.append(_join(self.base_url, specifier))
        return found


def _best_pattern(
    paths: tuple[tuple[str, tuple[str, ...]], ...], specifier: str
) -> tuple[str, tuple[str, ...]] | None:
    # TypeScript: an exact pattern wins; else the matching `*` pattern with the longest prefix.
    best: tuple[str, tuple[str, ...]] | None = None
    best_length = -1
    for pattern, targets in paths:
        if "*" not in pattern:
            if pattern == specifier:
                return pattern, targets
            continue
        prefix, suffix = pattern.split("*", 1)
        if (
            specifier.startswith(prefix)
            and specifier.endswith(suffix)
            and len(specifier) >= len(prefix) + len(suffix)
            and len(prefix) > best_length
        ):
            best, best_length = (pattern, targets), len(prefix)
    return best


def _join(base: str, relative: str) -> str:
    joined = posixpath.normpath(posixpath.join(base, relative))
    return "" if joined == "." else joined


def parse_lenient(text: str) -> Any:
    """JSON with `//` and `/* */` comments and trailing commas (what tsc accepts)."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        char = text[i]
        if char == '"':
            end = i + 1
            while end < n and text[end] != '"':
                end += 2 if text[end] == "\\" else 1
            out.append(text[i : end + 1])
            i = end + 1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = n if end < 0 else end + 2
        else:
            out.append(char)
            i += 1
    return json.loads(_TRAILING_COMMA.sub(r"\1", "".join(out)))


def load_mapping(config_path: str, read_text: Callable[[str], str | None]) -> PathMapping:
    """The effective `baseUrl`/`paths` of `config_path`, `extends` applied (child settings win)."""
    base_url, paths, paths_base = _load(config_path, read_text, depth=0)
    return PathMapping(base_url=base_url, paths=paths, paths_base=paths_base)


def _load(
    config_path: str, read_text: Callable[[str], str | None], depth: int
) -> tuple[str | None, tuple[tuple[str, tuple[str, ...]], ...], str]:
    here = posixpath.dirname(config_path)
    base_url: str | None = None
    paths: tuple[tuple[str, tuple[str, ...]], ...] = ()
    paths_base = here
    text = read_text(config_path)
    if text is None or depth > 8:
        return base_url, paths, paths_base
    try:
        data = parse_lenient(text)
    except ValueError:
        return base_url, paths, paths_base
    if not isinstance(data, dict):
        return base_url, paths, paths_base
    parents = data.get("extends")
    for parent in [parents] if isinstance(parents, str) else parents if isinstance(parents, list) else []:
        # Only relative parents are in the project; `@tsconfig/node18` lives in node_modules.
        if isinstance(parent, str) and parent.startswith("."):
            parent_path = _join(here, parent)
            if not parent_path.endswith(".json"):
                parent_path += ".json"
            parent_base, parent_paths, parent_paths_base = _load(parent_path, read_text, depth + 1)
            base_url = parent_base if parent_base is not None else base_url
            if parent_paths:
                paths, paths_base = parent_paths, parent_paths_base
    options = data.get("compilerOptions")
    if isinstance(options, dict):
        if isinstance(options.get("baseUrl"), str):
            base_url = _join(here, options["baseUrl"])
        if isinstance(options.get("paths"), dict):
            paths = tuple(
                (pattern, tuple(t for t in targets if isinstance(t, str)))
                for pattern, targets in options["paths"].items()
                if isinstance(targets, list)
            )
            paths_base = here
    return base_url, paths, paths_base


def custom_conditions(project: Any) -> tuple[str, ...]:
    """Every `compilerOptions.customConditions` of the project's tsconfig files (in path order):
    the export conditions tsc resolves packages with, besides the runtime ones."""
    found: list[str] = []
    for path in sorted(project.paths()):
        name = posixpath.basename(path)
        if not (name in CONFIG_NAMES or (name.startswith("tsconfig") and name.endswith(".json"))) \
                or "node_modules/" in path:
            continue
        try:
            data = parse_lenient(project.read_text(path) or "{}")
        except ValueError:
            continue
        options = data.get("compilerOptions") if isinstance(data, dict) else None
        conditions = options.get("customConditions") if isinstance(options, dict) else None
        for condition in conditions if isinstance(conditions, list) else ():
            if isinstance(condition, str) and condition not in found:
                found.append(condition)
    return tuple(found)
