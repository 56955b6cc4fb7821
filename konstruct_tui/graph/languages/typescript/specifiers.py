"""Module resolution for TypeScript / JavaScript, the way `tsc` (moduleResolution bundler/node16)
and bundlers find files, limited to files of the project: anything in node_modules or not in the
project is external and gets no edge.

A specifier resolves in this order: relative (`./a`, `../b`) against the importing file; `#name`
through the nearest package.json `imports`; otherwise the `paths` then `baseUrl` of the nearest
tsconfig/jsconfig (then of the configs above it); the importing file's own package by name
(self-reference through its `exports`); optionally a workspace package (a package.json `name`
inside the project: off by default, see `TypeScriptResolver`). Each candidate is probed as a
file as written (a `.js` specifier naming no file names the `.ts` file it is compiled from), then
with extensions added, then as a directory (its package.json entry point, then `index.*`).
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable

from ...facts import FileFacts, ProjectView
from .config import CONFIG_NAMES, PathMapping, load_mapping
from .packages import WorkspacePackages

# What `./a` may be, in the order Node-style resolvers (bundlers, dependency-cruiser) try: the
# JavaScript a runtime would load first, then TypeScript sources and declarations. tsc puts `.ts`
# first, which differs only where a stem has both (`x.js` beside `x.d.ts`): the graph wants the
# implementation. JSON is not probed: an import of data names its extension.
_PROBES = (".js", ".cjs", ".mjs", ".jsx", ".ts", ".tsx", ".d.ts", ".cts", ".mts", ".d.cts", ".d.mts")
# A `.js`-family specifier that names no file names the TypeScript source it is emitted from.
_SOURCE_OF = {
    ".js": (".ts", ".tsx", ".d.ts"),
    ".jsx": (".tsx", ".d.ts"),
    ".mjs": (".mts", ".d.mts"),
    ".cjs": (".cts", ".d.cts"),
}


class SpecifierResolver:
    """Specifier -> project file, with the project's configs in view. One per index."""

    def __init__(self, project: ProjectView, files: Iterable[str], workspace_packages: bool = False,
                 conditions: tuple[str, ...] = (), own_sources: bool = False) -> None:
        """`conditions` and `own_sources` (a self-reference's build output mapped back to its
        sources) resolve as tsc does over the sources; off for the file graph (see `packages`)."""
        self._project = project
        self._own_sources = own_sources
        self._workspace_packages = workspace_packages
        self._files = frozenset(files)
        self._dirs = frozenset(_all_dirs(self._files))
        self._configs: dict[str, tuple[PathMapping, ...]] = {}
        self._resolved: dict[tuple[str, str], str | None] = {}
        self._packages = WorkspacePackages(self._files, project.read_text, conditions, typed=own_sources)

    def resolve(self, importer: str, specifier: str) -> str | None:
        # Cached per instance (not functools.lru_cache on the method, which would keep every
        # resolver of a long session alive through the class-level cache).
        key = (posixpath.dirname(importer), specifier)
        if key not in self._resolved:
            self._resolved[key] = self._resolve(*key)
        return self._resolved[key]

    def _resolve(self, directory: str, specifier: str) -> str | None:
        specifier = specifier.split("?", 1)[0]  # bundler queries: `./icon.svg?raw`
        if not specifier or specifier.startswith(("node:", "data:", "http:", "https:")):
            return None
        if specifier.startswith(("./", "../")) or specifier in (".", ".."):
            return self._probe(_join(directory, specifier))
        if specifier.startswith("/"):
            return None  # absolute filesystem path: never a project-relative module
        if specifier.startswith("#"):  # package.json subpath imports (tsconfig `paths` may use `#` too)
            for candidate in self._packages.subpath_imports(directory, specifier):
                found = self._probe(candidate)
                if found is not None:
                    return found
        for mapping in self._mappings_for(directory):
            for candidate in mapping.candidates(specifier):
                found = self._probe(candidate)
                if found is not None:
                    return found
        for candidate in self._packages.self_reference(
                directory, specifier, variants=self._workspace_packages or self._own_sources):
            found = self._probe(candidate)
            if found is not None:
                return found
        for candidate in self._packages.candidates(specifier) if self._workspace_packages else ():
            found = self._probe(candidate)
            if found is not None:
                return found
        return None

    def _probe(self, base: str) -> str | None:
        if base in self._files:
            return base
        stem, extension = posixpath.splitext(base)
        for ext in _SOURCE_OF.get(extension, ()):
            if stem + ext in self._files:
                return stem + ext
        for ext in _PROBES:
            if base + ext in self._files:
                return base + ext
        if base in self._dirs or base == "":
            for candidate in self._packages.entry_points(base):
                if candidate != base:
                    found = self._probe(candidate)
                    if found is not None:
                        return found
            prefix = f"{base}/index" if base else "index"
            for ext in _PROBES:
                if prefix + ext in self._files:
                    return prefix + ext
        return None

    def _mappings_for(self, directory: str) -> tuple[PathMapping, ...]:
        """The settings of the nearest tsconfig.json / jsconfig.json at or above `directory`, then
        of the configs further up. tsc reads only the nearest; the ones above are a fallback for a
        specifier it leaves unresolved, because in a monorepo the root config's `paths` usually
        name the workspace packages that a package's own config (or the bundler) aliases too."""
        if directory not in self._configs:
            parent = () if directory == "" else self._mappings_for(posixpath.dirname(directory))
            configs = [_join(directory, name) for name in CONFIG_NAMES if _join(directory, name) in self._files]
            mapping = self._load_config(directory, configs[0]) if configs else PathMapping()
            self._configs[directory] = (mapping, *parent) if mapping else parent
        return self._configs[directory]

    def _load_config(self, directory: str, config: str) -> PathMapping:
        mapping = load_mapping(config, self._project.read_text)
        if not mapping:
            # A "solution" tsconfig that only lists references: the settings live in a sibling
            # such as tsconfig.app.json or tsconfig.base.json.
            for sibling in self._sibling_configs(directory):
                mapping = load_mapping(sibling, self._project.read_text)
                if mapping:
                    break
        return mapping

    def _sibling_configs(self, directory: str) -> list[str]:
        prefix = f"{directory}/" if directory else ""
        return sorted(
            path
            for path in self._files
            if path.startswith(prefix)
            and "/" not in path[len(prefix) :]
            and path[len(prefix) :].startswith(("tsconfig.", "jsconfig."))
            and path.endswith(".json")
        )


def _join(directory: str, relative: str) -> str:
    joined = posixpath.normpath(posixpath.join(directory, relative))
    return "" if joined == "." else joined


def _all_dirs(files: Iterable[str]) -> set[str]:
    dirs: set[str] = set()
    for path in files:
        parent = posixpath.dirname(path)
        while parent and parent not in dirs:
            dirs.add(parent)
            parent = posixpath.dirname(parent)
    return dirs


def facts_or_none(project: ProjectView, path: str) -> FileFacts | None:
    facts = project.facts_of(path)
    return facts if facts is not None and facts.language == "typescript" else None
