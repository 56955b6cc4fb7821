"""What package.json files inside the project say about module resolution:

- a folder's entry point (`exports["."]`, `main`, ...) when a directory is imported;
- `#name` subpath imports through the nearest package.json `imports`;
- self-references: a file importing its own package by name (`import x from "execa"` inside execa),
  which Node resolves through that package's `exports` without any install;
- workspace packages (opt-in): a bare specifier naming another package.json in the project.

Targets are read in object order with Node's runtime conditions first (the implementation, what
Node and dependency-cruiser load), then `types`/`source`. The typed view (`typed`: what tsc reads,
for member evidence) takes the conditions tsc matches instead, in object order as tsc does (the
first whose target exists wins): the tsconfig's `customConditions`, `types`, `import`, `require`,
`node`, `default`. Only the best-matching `exports`/`imports` key counts (a `null` target excludes a
subpath, as in Node). Entry points often name build output
that is not in the repository (`dist/index.js`); where `source_variants` allows, each target is
also tried with the output folder mapped back to `src/` or dropped (`dist/index.js` ->
`src/index.js` -> `src/index.ts` by the usual extension probing).
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Callable, Iterable
from typing import Any

_OUTPUT_DIRS = ("dist/", "lib/", "build/", "out/", "esm/", "cjs/")
_RUNTIME_CONDITIONS = frozenset({"import", "require", "node", "default", "module"})
_LATER_CONDITIONS = ("types", "source")
_ENTRY_FIELDS = ("module", "main", "types", "typings", "source")
_TSC_CONDITIONS = frozenset({"types", "import", "require", "node", "default"})


class WorkspacePackages:
    """`conditions`: custom export conditions (tsconfig `customConditions`, e.g. `@zod/source`
    pointing at the sources). `typed`: exports are read the way tsc reads them (see above)."""

    def __init__(self, files: Iterable[str], read_text: Callable[[str], str | None],
                 conditions: tuple[str, ...] = (), typed: bool = False) -> None:
        self._read_text = read_text
        self._conditions = conditions
        self._typed = typed
        self._manifests: dict[str, dict[str, Any]] = {}
        self._by_name: dict[str, str] = {}
        self._manifest_dirs: set[str] = set()
        for path in sorted(files):
            if posixpath.basename(path) != "package.json" or "node_modules/" in path:
                continue
            directory = posixpath.dirname(path)
            self._manifest_dirs.add(directory)
            name = self._manifest(directory).get("name")
            if isinstance(name, str) and name and name not in self._by_name:
                self._by_name[name] = directory

    def candidates(self, specifier: str) -> list[str]:
        """Paths (to probe) a bare specifier names if it is a workspace package or a subpath of one."""
        for name in sorted(self._by_name, key=len, reverse=True):
            directory = self._by_name[name]
            if specifier == name:
                return [directory]
            if specifier.startswith(name + "/"):
                subpath = specifier[len(name) + 1 :]
                found = self._exported(directory, "./" + subpath, variants=True)
                return found + [_join(directory, subpath), _join(directory, "src/" + subpath)]
        return []

    def self_reference(self, directory: str, specifier: str, variants: bool) -> list[str]:
        """Paths a specifier naming the package that holds `directory` resolves to (Node allows it
        only for a package with `exports`)."""
        here = self._nearest(directory)
        if here is None:
            return []
        manifest = self._manifest(here)
        name = manifest.get("name")
        if not isinstance(name, str) or not name or "exports" not in manifest:
            return []
        if specifier == name:
            return self._exported(here, ".", variants)
        if specifier.startswith(name + "/"):
            return self._exported(here, "./" + specifier[len(name) + 1 :], variants)
        return []

    def subpath_imports(self, directory: str, specifier: str) -> list[str]:
        """`#internal/x` through the `imports` field of the nearest package.json above `directory`."""
        here = self._nearest(directory)
        imports = self._manifest(here).get("imports") if here is not None else None
        if here is None or not isinstance(imports, dict):
            return []
        found: list[str] = []
        for value, star in _matching(imports, specifier)[:1]:
            for target in _condition_targets(value):
                if target.startswith("./"):
                    found += [_join(here, variant.replace("*", star)) for variant in _source_variants(target)]
        return found

    def entry_points(self, directory: str) -> list[str]:
        """Where a directory holding a package.json points as its main module (source-mapped)."""
        if directory not in self._manifest_dirs:
            return []
        manifest = self._manifest(directory)
        found = self._exported(directory, ".", variants=True)
        for target in (manifest[key] for key in _ENTRY_FIELDS if isinstance(manifest.get(key), str)):
            for variant in _source_variants(target):
                path = _join(directory, variant)
                if path not in found and path != directory:
                    found.append(path)
        return found

    def _exported(self, directory: str, subpath: str, variants: bool) -> list[str]:
        exports = self._manifest(directory).get("exports")
        if isinstance(exports, (str, list)) or (isinstance(exports, dict) and not _has_subpaths(exports)):
            exports = {".": exports}
        if not isinstance(exports, dict):
            return []
        found: list[str] = []
        for value, star in _matching(exports, subpath)[:1]:
            targets = _tsc_targets(value, self._conditions) if self._typed else _condition_targets(value)
            for target in targets:
                for variant in _source_variants(target) if variants else [target]:
                    path = _join(directory, variant.replace("*", star))
                    if path not in found:
                        found.append(path)
        return found

    def _nearest(self, directory: str) -> str | None:
        here = directory
        while here not in self._manifest_dirs:
            if here == "":
                return None
            here = posixpath.dirname(here)
        return here

    def _manifest(self, directory: str) -> dict[str, Any]:
        if directory not in self._manifests:
            text = self._read_text(_join(directory, "package.json"))
            try:
                data = json.loads(text) if text else {}
            except ValueError:
                data = {}
            self._manifests[directory] = data if isinstance(data, dict) else {}
        return self._manifests[directory]


def _has_subpaths(exports: dict[str, Any]) -> bool:
    return any(key.startswith(".") for key in exports)


def _matching(mapping: dict[str, Any], key: str) -> list[tuple[Any, str]]:
    """(value, what `*` stands for) for the exact key, else the `*` patterns, longest prefix first."""
    if key in mapping:
        return [(mapping[key], "")]
    found: list[tuple[int, Any, str]] = []
    for pattern, value in mapping.items():
        if "*" in pattern:
            prefix, suffix = pattern.split("*", 1)
            if key.startswith(prefix) and key.endswith(suffix) and len(key) >= len(prefix) + len(suffix):
                found.append((len(prefix), value, key[len(prefix) : len(key) - len(suffix)]))
    return [(value, star) for _, value, star in sorted(found, key=lambda item: -item[0])]


def _condition_targets(value: Any) -> list[str]:
    """Targets of an exports/imports value: runtime conditions in object order, then types/source."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [t for item in value for t in _condition_targets(item)]
    if isinstance(value, dict):
        keys = [key for key in value if key in _RUNTIME_CONDITIONS]
        keys += [key for key in _LATER_CONDITIONS if key in value]
        return [t for key in keys for t in _condition_targets(value[key])]
    return []


def _tsc_targets(value: Any, custom: tuple[str, ...]) -> list[str]:
    """Targets of an exports value as tsc tries them: every condition it matches (its own and the
    tsconfig's `customConditions`), in object order; a target that names no file passes to the next
    (`{"types": "./dist/x.d.ts", "@x/source": "./src/x.ts"}` without a build is the source)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [t for item in value for t in _tsc_targets(item, custom)]
    if isinstance(value, dict):
        return [t for key, item in value.items() if key in _TSC_CONDITIONS or key in custom
                for t in _tsc_targets(item, custom)]
    return []


def _source_variants(target: str) -> list[str]:
    target = target.removeprefix("./")
    variants = [target]
    for output in _OUTPUT_DIRS:
        if target.startswith(output):
            rest = target[len(output) :]
            variants += [f"src/{rest}", rest]
    stripped = []
    for variant in variants:
        for suffix in (".d.ts", ".d.mts", ".d.cts"):
            if variant.endswith(suffix):
                stripped.append(variant[: -len(suffix)])
    return variants + stripped


def _join(directory: str, relative: str) -> str:
    joined = posixpath.normpath(posixpath.join(directory, relative))
    return "" if joined == "." else joined
