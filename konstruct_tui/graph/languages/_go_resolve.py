"""Go import paths to files, the way `go list` sees packages, kept precise at file level.

- An import path resolves through the project's go.mod files (several for nested modules, plus
  `replace` directives that point inside the project) to a package directory; stdlib and other
  modules are external. A project without any go.mod (GOPATH layout) falls back to the longest
  suffix of the import path that is a directory holding Go files.
- A package is the non-test `.go` files of its directory (build tags are ignored: every variant
  counts). `pkg.Name` goes to the file that defines `Name`: `imports` and `references` edges both
  point at those defining files, so the file graph stays precise; an import none of whose names
  resolves (blank `_` import, names from cgo or generated code) points at one representative file
  of the package, so every import still shows up when lifted to directories.
- Bare names refer to package-level definitions in sibling files of the same package; `_test.go`
  files see test and non-test siblings, non-test files only non-test ones.
"""

from __future__ import annotations

import posixpath
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from ..facts import Edge, FileFacts, ProjectView

_MODULE = re.compile(r"^\s*module\s+\"?([^\s\"]+)\"?", re.MULTILINE)
_REPLACE_LINE = re.compile(r"^\s*(?:replace\s+)?(\S+)(?:\s+\S+)?\s+=>\s+(\.{1,2}/\S*|\.{1,2})\s*$")
_UNSEEN = frozenset({"_", "init", "main"})
# Top-level standard library packages: a GOPATH-layout fallback must not take `encoding/json` for a
# project folder named `json`.
_STDLIB_ROOTS = frozenset(
    "archive bufio builtin bytes cmp compress container context crypto database debug embed encoding errors "
    "expvar flag fmt go hash html image index internal io iter log maps math mime net os path plugin reflect "
    "regexp runtime slices sort strconv strings sync syscall testing text time unicode unique unsafe C".split()
)


@dataclass(frozen=True)
class GoPackage:
    """One directory's package as importers see it."""

    directory: str
    name: str | None
    files: tuple[str, ...]
    definers: dict[str, tuple[str, ...]]  # package-level name -> files that define it
    methods: dict[str, tuple[str, ...]] = field(default_factory=dict)  # "T.M" -> files that declare it

    @property
    def representative(self) -> str:
        # The file a reader opens first: named after the package, else doc.go, else the first.
        for candidate in (f"{self.name}.go", "doc.go"):
            path = f"{self.directory}/{candidate}" if self.directory else candidate
            if path in self.files:
                return path
        return self.files[0]


class GoResolver:
    def __init__(self, project: ProjectView) -> None:
        self._project = project
        paths = list(project.paths())
        self._go_files: dict[str, list[str]] = {}
        for path in sorted(paths):
            if path.endswith(".go"):
                self._go_files.setdefault(posixpath.dirname(path), []).append(path)
        self._modules = _modules(paths, project)
        self._packages: dict[tuple[str, str | None, bool], GoPackage] = {}
        self._import_dirs: dict[str, str | None] = {}

    def resolve(self, facts: FileFacts) -> list[Edge]:
        found: dict[tuple[str, str], set[str]] = {}

        def add(target: str, kind: str, names: list[str]) -> None:
            if target != facts.path:
                found.setdefault((target, kind), set()).update(names)

        bare: set[str] = set()
        members: dict[str, set[str]] = {}
        for use in facts.uses:
            qualifier, dot, member = use.partition(".")
            if dot:
                members.setdefault(qualifier, set()).add(member)
            else:
                bare.add(use)
        own = {s.name for s in facts.symbols if "." not in s.name}
        aliases: dict[str, GoPackage] = {}

        for ref in facts.imports:
            directory = self._package_dir(ref.target)
            if directory is None:
                continue
            package = self._package(directory, None, with_tests=False)
            if not package.files:
                continue
            aliases[ref.alias or package.name or posixpath.basename(ref.target)] = package
            if ref.alias == ".":
                used = bare - own
            elif ref.alias == "_":
                used = set()
            else:
                used = members.get(ref.alias or package.name or posixpath.basename(ref.target), set())
            resolved = False
            for name in sorted(used):
                for definer in package.definers.get(name, ()):
                    add(definer, "imports", [name])
                    add(definer, "references", [name])
                    resolved = True
            if not resolved:
                add(package.representative, "imports", [])

        directory = posixpath.dirname(facts.path)
        siblings = self._package(directory, facts.package, with_tests=facts.path.endswith("_test.go"))
        for name in sorted(bare - own):
            for definer in siblings.definers.get(name, ()):
                add(definer, "references", [name])

        used, unknown = self._members(facts, members, aliases, siblings, own)
        for target, names in used.items():
            add(target, "members", sorted(names))
        edges = [Edge(facts.path, target, kind, tuple(sorted(names))) for (target, kind), names in sorted(found.items())]
        if unknown:
            edges.append(Edge(facts.path, facts.path, "unresolved", tuple(sorted(unknown))))
        return edges

    def _members(self, facts: FileFacts, members: dict[str, set[str]], aliases: dict[str, GoPackage],
                 siblings: GoPackage, own: set[str]) -> tuple[dict[str, set[str]], set[str]]:
        """Method uses `x.M` typed by what the file writes for `x` (see `_go_members.py`):
        ({declaring file: {"T.M"}}, {method names used on receivers nobody could type})."""
        types: dict[str, list[str]] = facts.extra.get("types", {})
        used: dict[str, set[str]] = defaultdict(set)
        unknown = set(facts.extra.get("untyped", ()))

        def type_in(written: str, package: GoPackage, depth: int = 0) -> tuple[GoPackage, str] | None:
            called = written.endswith("()")
            qualifier, dot, name = (written[:-2] if called else written).partition(".")
            where = aliases.get(qualifier) if dot else package
            name = name if dot else qualifier
            if where is None:
                return None
            if not called:
                return (where, name) if name in where.definers else None
            for definer in where.definers.get(name, ()) if depth < 3 else ():
                definer_facts = self._project.facts_of(definer)
                result = definer_facts.extra.get("returns", {}).get(name) if definer_facts else None
                if result:
                    return type_in(result, where, depth + 1)
            return None

        for qualifier, names in members.items():
            if qualifier in aliases:
                continue
            if qualifier in types:
                typed = [type_in(w, siblings) for w in types[qualifier]]
                keys = {(t[0].directory, t[0].name, t[1]) if t else None for t in typed}
                if len(keys) != 1 or None in keys:
                    unknown.update(names)  # typed several ways: whose method it is stays open
                    continue
                package, type_name = typed[0]  # type: ignore[misc]
                for name in names:
                    declared = package.methods.get(f"{type_name}.{name}", ())
                    for path in declared:
                        used[path].add(f"{type_name}.{name}")
                    if not declared:
                        unknown.add(name)  # promoted from an embedded type, or a field: by name
            elif qualifier not in own and qualifier not in siblings.definers:
                unknown.update(names)
        used.pop(facts.path, None)
        return used, unknown

    def _package_dir(self, import_path: str) -> str | None:
        if import_path not in self._import_dirs:
            self._import_dirs[import_path] = self._find_package_dir(import_path)
        return self._import_dirs[import_path]

    def _find_package_dir(self, import_path: str) -> str | None:
        for module_path, module_dir in self._modules:
            if import_path == module_path or import_path.startswith(module_path + "/"):
                rest = import_path[len(module_path) :].lstrip("/")
                directory = posixpath.normpath(posixpath.join(module_dir, rest)) if rest else module_dir
                directory = "" if directory == "." else directory
                if directory in self._go_files:
                    return directory
        if self._modules:
            return None
        parts = import_path.split("/")
        if parts[0] in _STDLIB_ROOTS:
            return None
        for start in range(1, len(parts)):  # GOPATH layout: github.com/o/r/pkg/x -> pkg/x
            candidate = "/".join(parts[start:])
            if candidate in self._go_files:
                return candidate
        return None

    def _package(self, directory: str, name: str | None, with_tests: bool) -> GoPackage:
        """The package in `directory` named `name` (None: the one importers get, the non-test
        package most files declare)."""
        key = (directory, name, with_tests)
        if key in self._packages:
            return self._packages[key]
        members: list[tuple[str, FileFacts]] = []
        for path in self._go_files.get(directory, ()):
            if path.endswith("_test.go") and not with_tests:
                continue
            facts = self._project.facts_of(path)
            if facts is not None and facts.language == "go":
                members.append((path, facts))
        if name is None:
            counts = Counter(f.package for _, f in members if f.package)
            name = counts.most_common(1)[0][0] if counts else None
        definers: dict[str, list[str]] = {}
        methods: dict[str, list[str]] = {}
        files: list[str] = []
        for path, facts in members:
            if facts.package != name:
                continue
            files.append(path)
            for symbol in facts.symbols:
                if "." not in symbol.name and symbol.name not in _UNSEEN:
                    definers.setdefault(symbol.name, []).append(path)
                elif symbol.kind == "method":
                    methods.setdefault(symbol.name, []).append(path)
        package = GoPackage(directory, name, tuple(files), {k: tuple(dict.fromkeys(v)) for k, v in definers.items()},
                            {k: tuple(dict.fromkeys(v)) for k, v in methods.items()})
        self._packages[key] = package
        return package


def _modules(paths: list[str], project: ProjectView) -> list[tuple[str, str]]:
    """(module path, directory) for every go.mod and in-project `replace`, longest path first."""
    modules: dict[str, str] = {}
    replaced: dict[str, str] = {}
    for path in paths:
        if posixpath.basename(path) != "go.mod":
            continue
        text = project.read_text(path) or ""
        directory = posixpath.dirname(path)
        match = _MODULE.search(text)
        if match:
            modules.setdefault(match.group(1), directory)
        for line in text.splitlines():
            replace = _REPLACE_LINE.match(line)
            if replace:
                target = posixpath.normpath(posixpath.join(directory, replace.group(2)))
                replaced[replace.group(1)] = "" if target == "." else target
    for module_path, directory in replaced.items():
        modules.setdefault(module_path, directory)
    return sorted(modules.items(), key=lambda item: len(item[0]), reverse=True)
