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

from ...facts import Edge, FileFacts, ProjectView
from .member_facts import NO_MEMBER_FACTS, Chain, GoMemberFacts

_MODULE = re.compile(r"^\s*module\s+\"?([^\s\"]+)\"?", re.MULTILINE)
_REPLACE_LINE = re.compile(r"^\s*(?:replace\s+)?(\S+)(?:\s+\S+)?\s+=>\s+(\.{1,2}/\S*|\.{1,2})\s*$")
_UNSEEN = frozenset({"_", "init", "main"})
# Top-level standard library packages: a GOPATH-layout fallback must not take `encoding/json` for a
# project folder named `json`.
_STDLIB_ROOTS = frozenset(
    ["archive", "bufio", "builtin", "bytes", "cmp", "compress", "container", "context", "crypto", "database", "debug", "embed", "encoding", "errors", "expvar", "flag", "fmt", "go", "hash", "html", "image", "index", "internal", "io", "iter", "log", "maps", "math", "mime", "net", "os", "path", "plugin", "reflect", "regexp", "runtime", "slices", "sort", "strconv", "strings", "sync", "syscall", "testing", "text", "time", "unicode", "unique", "unsafe", "C"]
)


_LIBRARY = ("library",)


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
        self._aliases: dict[str, dict[str, GoPackage]] = {}

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

        typed, unknown = self._members(facts, members, aliases, siblings, own)
        for target, names in typed.items():
            add(target, "members", sorted(names))
        edges = [Edge(facts.path, target, kind, tuple(sorted(names))) for (target, kind), names in sorted(found.items())]
        if unknown:
            edges.append(Edge(facts.path, facts.path, "unresolved", tuple(sorted(unknown))))
        return edges

    def _members(self, facts: FileFacts, members: dict[str, set[str]], aliases: dict[str, GoPackage],
                 siblings: GoPackage, own: set[str]) -> tuple[dict[str, set[str]], set[str]]:
        """Member uses typed through the file's chains (see `members.py`):
        ({declaring file: {"T.M"}}, {member names used on receivers nobody could type})."""
        used: dict[str, set[str]] = defaultdict(set)
        own_facts = _member_facts(facts)
        unknown = set(own_facts.untyped)
        self._aliases[facts.path] = aliases
        for selector in own_facts.selectors:
            state = self._walk(selector.chain, facts.path, siblings)
            if state is None:
                unknown.update(selector.members)
            elif state[0] == "type":  # (a slice has no methods)
                for member in selector.members:
                    found = self._method(state[1], state[2], member)
                    for path, name in found:
                        used[path].add(name)
                    if not found:
                        # An interface's method (any implementation may run), a func-typed
                        # field: whose code runs stays open, by name.
                        unknown.add(member)
        used.pop(facts.path, None)
        return used, unknown

    # A chain's value while it is walked: ("type", package, type name), ("package", package), or
    # _LIBRARY (a type outside the project: its members are nobody's here); None: untypeable.
    def _walk(self, chain: Chain, path: str, package: GoPackage, depth: int = 0) -> tuple | None:
        if depth > 4:
            return None
        head = chain.head
        state: tuple | None
        if head.kind == "either":  # a name bound several times: one type, or none
            states = [self._walk(a, path, package, depth + 1) for a in head.either]
            state = states[0] if all(_same(s, states[0]) for s in states) else None
        elif head.kind == "name":
            name = head.name
            if name in self._aliases_of(path):
                state = ("package", self._aliases_of(path)[name])
            elif name in package.definers:
                state = self._global(package, name, depth)
            elif name in _import_names(self._project.facts_of(path)):
                state = _LIBRARY  # `strings.Builder`...: another module's package
            else:
                state = None
        elif head.kind == "call":
            state = self._result(head.name, path, package, depth)
        elif head.kind == "func":
            state = _LIBRARY  # a func value's result: its calls are typed where it is called
        else:
            state = self._type(head.name, path, package)
        for step in chain.steps:
            if state is None or state is _LIBRARY:
                return state
            if state[0] == "package":
                where = state[1]
                state = self._result(step.name, path, where, depth) if step.kind == "call" else \
                    self._global(where, step.name, depth) if step.kind == "field" else None
            elif step.kind == "element":
                state = state[1] if state[0] == "slice" else None
            elif state[0] == "slice":
                return None
            elif step.kind == "call":
                # A method of the type (or promoted to it), else one an interface type declares.
                found = self._method(state[1], state[2], step.name) or \
                    [(p, f"{state[2]}.{step.name}") for p in state[1].definers.get(state[2], ())]
                state = self._returned(found, depth)
            else:
                state = self._field(state[1], state[2], step.name, depth)
        return _LIBRARY if state is not None and state[0] == "package" else state  # `pkg.Name`: no member

    def _type(self, written: str, path: str, package: GoPackage, depth: int = 0) -> tuple | None:
        if written.endswith("[]"):
            element = self._type(written[:-2], path, package, depth)
            return ("slice", element) if element is not None and element[0] == "type" else _LIBRARY
        qualifier, dot, name = written.partition(".")
        where = self._aliases_of(path).get(qualifier) if dot else package
        name = name if dot else written
        if where is None or name not in where.definers:
            local = None if dot or depth >= 3 else self._facts(path).aliases.get(name)
            # An alias declared in a function (`type floatMap = MapBase[...]`), else a library
            # type (`error`, `string`, `strings.Builder`).
            return self._type(local, path, package, depth + 1) if local else _LIBRARY
        for definer in where.definers[name] if depth < 3 else ():
            target = self._facts(definer).aliases.get(name)
            if target:  # a type alias: the aliased type's methods
                return self._type(target, definer, where, depth + 1)
        return ("type", where, name)

    def _result(self, written: str, path: str, package: GoPackage, depth: int) -> tuple | None:
        qualifier, dot, name = written.partition(".")
        where = self._aliases_of(path).get(qualifier) if dot else package
        if where is None:
            return _LIBRARY if dot else None
        name = name if dot else written
        return self._returned([(p, name) for p in where.definers.get(name, ())], depth, where)

    def _global(self, package: GoPackage, name: str, depth: int) -> tuple | None:
        """A package-level variable's type; a function or type used as a value types nothing."""
        for definer in package.definers.get(name, ()):
            chain = self._facts(definer).globals.get(name)
            if chain is not None:
                return self._walk(chain, definer, package, depth + 1)
        return _LIBRARY if package.definers.get(name) else None

    def _returned(self, found: list[tuple[str, str]], depth: int, package: GoPackage | None = None
                  ) -> tuple | None:
        """The result type the declaration `found` (file, "F" or "T.M") writes."""
        for path, name in found:
            written = self._facts(path).returns.get(name)
            if written:
                where = package or self._package(posixpath.dirname(path), None, with_tests=path.endswith("_test.go"))
                return self._type(written, path, where) if depth < 4 else None
        return None

    def _field(self, package: GoPackage, type_name: str, name: str, depth: int, seen: int = 0) -> tuple | None:
        """A struct field's type, through embedded structs (promoted fields)."""
        for path in package.definers.get(type_name, ()):
            struct = self._facts(path).structs.get(type_name)
            if struct is None:
                continue
            if name in struct.fields:
                return self._type(struct.fields[name], path, package)
            for inner in struct.embedded if seen < 3 else ():
                state = self._type(inner, path, package)
                if state is not None and state is not _LIBRARY:
                    found = self._field(state[1], state[2], name, depth, seen + 1)
                    if found is not None:
                        return found
        return None

    def _method(self, package: GoPackage, type_name: str, name: str, seen: int = 0) -> list[tuple[str, str]]:
        """(declaring file, "T.M") of method `name` of `type_name`, or of the embedded type that
        promotes it (Go's method sets: a method of an embedded struct is the outer type's)."""
        key = f"{type_name}.{name}"
        if key in package.methods:
            return [(path, key) for path in package.methods[key]]
        for path in package.definers.get(type_name, ()) if seen < 3 else ():
            struct = self._facts(path).structs.get(type_name)
            for inner in struct.embedded if struct is not None else ():
                state = self._type(inner, path, package)
                if state is not None and state is not _LIBRARY:
                    found = self._method(state[1], state[2], name, seen + 1)
                    if found:
                        return found
        return []

    def _facts(self, path: str) -> GoMemberFacts:
        return _member_facts(self._project.facts_of(path))

    def _aliases_of(self, path: str) -> dict[str, GoPackage]:
        """Import name -> project package, for any Go file of the project (cached per file)."""
        if path not in self._aliases:
            aliases: dict[str, GoPackage] = {}
            facts = self._project.facts_of(path)
            for ref in facts.imports if facts is not None else ():
                directory = self._package_dir(ref.target)
                package = self._package(directory, None, with_tests=False) if directory is not None else None
                if package is not None and package.files:
                    aliases[ref.alias or package.name or posixpath.basename(ref.target)] = package
            self._aliases[path] = aliases
        return self._aliases[path]

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


def _member_facts(facts: FileFacts | None) -> GoMemberFacts:
    """A Go file's member facts (none for a file of another language)."""
    extra = facts.extra if facts is not None else None
    return extra if isinstance(extra, GoMemberFacts) else NO_MEMBER_FACTS


def _same(a: tuple | None, b: tuple | None) -> bool:
    """Two walked states name the same type (packages compare by directory)."""
    if a is None or b is None or a[0] != b[0]:
        return a is b
    if a[0] == "type":
        return a[1].directory == b[1].directory and a[2] == b[2]
    return a[0] == "library" or _same(a[1], b[1])


def _import_names(facts: FileFacts | None) -> set[str]:
    """The names a file may use for its imports: aliases, else the path's last element (skipping a
    major version, `fiber/v3`, and `.vN` / `go-` decorations: a guess, only used to tell a library
    package from an untyped name)."""
    names = set()
    for ref in facts.imports if facts is not None else ():
        parts = ref.target.split("/")
        last = parts[-2] if len(parts) > 1 and re.fullmatch(r"v\d+", parts[-1]) else parts[-1]
        names.add(ref.alias or re.sub(r"\.v\d+$", "", last).removeprefix("go-").replace("-", "_"))
    return names


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
