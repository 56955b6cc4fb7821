"""The project's Java types: where each is declared, how a name in a file resolves to one, and
which types a call chain's callee signatures name.

Name resolution follows javac's scoping: member types of the enclosing classes (innermost first),
types the file declares, single-type imports, the file's own package (no import needed), then
on-demand imports. A supertype clause is read from outside its class, so `class Builder implements
Builder<...>`-style shadowing by a member type does not apply to it.

Call-chain typing is deliberately shallow: declared types of variables and fields, static calls
on a type, `this`/`super`, `new T(...)`, casts, and return types along a chain. An overloaded
method matches by argument count; anything we cannot type is skipped rather than guessed.
"""

from __future__ import annotations

from collections import defaultdict
from functools import lru_cache
from pathlib import PurePosixPath
from ...facts import FileFacts, ProjectView
from .member_facts import NO_MEMBER_FACTS, JavaMemberFacts, Signature

TYPE_KINDS = frozenset({"class", "interface", "enum", "record", "annotation"})
_MAX_SUPERTYPE_DEPTH = 8


def type_names(facts: FileFacts) -> list[str]:
    """Qualified names of the types a file declares at top level or nested in types (a class
    local to a method is invisible to other files)."""
    types = {s.name for s in facts.symbols if s.kind in TYPE_KINDS}
    return sorted(n for n in types if all(".".join(n.split(".")[:i]) in types for i in range(1, n.count(".") + 1)))


def package_key(facts: FileFacts) -> str:
    # The unnamed package is, in practice, "the files of one folder compiled together".
    return facts.package or f"<unnamed>:{PurePosixPath(facts.path).parent}"


def qualify(facts: FileFacts, name: str) -> str:
    return f"{facts.package}.{name}" if facts.package else name


def shared_depth(a: str, b: str) -> int:
    depth = 0
    for left, right in zip(a.split("/"), b.split("/")):
        if left != right:
            break
        depth += 1
    return depth


class TypeWorld:
    def __init__(self, project: ProjectView) -> None:
        self.facts: dict[str, FileFacts] = {}
        self._by_fqn: dict[str, list[tuple[str, str]]] = defaultdict(list)  # fqn -> [(path, name in file)]
        self._by_package: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
        for path in sorted(project.paths()):
            facts = project.facts_of(path) if path.endswith(".java") else None
            if facts is None or facts.language != "java":
                continue
            self.facts[path] = facts
            for name in type_names(facts):
                self._by_fqn[qualify(facts, name)].append((path, name))
                if "." not in name:
                    self._by_package[package_key(facts)][name].append(qualify(facts, name))
        # Per-instance caches: a resolver lives for one index pass and must not outlive it.
        self.resolve_name = lru_cache(maxsize=None)(self._resolve_name)
        self.supertypes = lru_cache(maxsize=None)(self._supertypes)

    # -- where types live ---------------------------------------------------------------------

    def declaration(self, fqn: str, near: str) -> tuple[str, str] | None:
        """(path, name in file) of type `fqn`, the copy nearest `near` when declared twice."""
        found = self._by_fqn.get(fqn)
        if not found:
            return None
        if len(found) == 1:
            return found[0]
        return min(found, key=lambda item: (-shared_depth(item[0], near), item[0]))

    def is_type(self, fqn: str) -> bool:
        return fqn in self._by_fqn

    def longest_type_prefix(self, dotted: str) -> str | None:
        parts = dotted.split(".")
        for end in range(len(parts), 0, -1):
            if ".".join(parts[:end]) in self._by_fqn:
                return ".".join(parts[:end])
        return None

    # -- names in a file ----------------------------------------------------------------------

    def _resolve_name(self, path: str, context: str, name: str) -> str | None:
        """The fqn `name` (simple or dotted) means in `path` inside type `context` ("" = file level)."""
        facts = self.facts.get(path)
        if facts is None or not name:
            return None
        head, _, rest = name.partition(".")
        resolved = self._resolve_simple(facts, context, head)
        if resolved is not None:
            # `Outer.Inner` we do not know (a member type inherited from a library): Outer's file.
            return f"{resolved}.{rest}" if rest and f"{resolved}.{rest}" in self._by_fqn else resolved
        return self.longest_type_prefix(name) if rest else None

    def _resolve_simple(self, facts: FileFacts, context: str, name: str) -> str | None:
        scope = context
        while scope:
            if qualify(facts, f"{scope}.{name}") in self._by_fqn:
                return qualify(facts, f"{scope}.{name}")
            inherited = self._inherited_member_type(qualify(facts, scope), name, facts.path)
            if inherited is not None:
                return inherited
            scope = scope.rpartition(".")[0]
        own = qualify(facts, name)
        if any(path == facts.path for path, _ in self._by_fqn.get(own, ())):
            return own
        on_demand = []
        for ref in facts.imports:
            if ref.kind == "import" and ref.target.rsplit(".", 1)[-1] == name:
                return ref.target if ref.target in self._by_fqn else None
            if ref.kind == "wildcard":
                on_demand.append(ref.target)
        same_package = self._by_package.get(package_key(facts), {}).get(name)
        if same_package:
            return same_package[0]
        for target in on_demand:
            if f"{target}.{name}" in self._by_fqn:
                return f"{target}.{name}"
        return None

    def _inherited_member_type(self, fqn: str, name: str, near: str) -> str | None:
        for supertype in self.supertypes(fqn, near)[:_MAX_SUPERTYPE_DEPTH]:
            if f"{supertype}.{name}" in self._by_fqn:
                return f"{supertype}.{name}"
        return None

    # -- members ------------------------------------------------------------------------------

    def info(self, fqn: str, near: str) -> tuple[str, str, JavaMemberFacts] | None:
        found = self.declaration(fqn, near)
        if found is None:
            return None
        path, name = found
        return path, name, member_facts(self.facts[path])

    def _supertypes(self, fqn: str, near: str) -> tuple[str, ...]:
        """Project supertypes of `fqn`, nearest first (transitively)."""
        found: list[str] = []
        frontier = [fqn]
        while frontier and len(found) < 32:
            current = frontier.pop(0)
            info = self.info(current, near)
            if info is None:
                continue
            path, name, extra = info
            outer = name.rpartition(".")[0]
            for written in extra.supertypes.get(name, ()):
                resolved = self.resolve_name(path, outer, written)
                if resolved is not None and resolved not in found and resolved != fqn:
                    found.append(resolved)
                    frontier.append(resolved)
        return tuple(found)

    def members(self, fqn: str, member: str, near: str) -> list[tuple[str, str, Signature]]:
        """(declaring path, declaring type name, signature) for `member` of `fqn` or, failing
        that, of its nearest supertype that declares it."""
        for owner in (fqn, *self.supertypes(fqn, near)):
            info = self.info(owner, near)
            if info is None:
                continue
            path, name, extra = info
            signatures = extra.members.get(name, {}).get(member)
            if signatures:
                return [(path, name, signature) for signature in signatures]
        return []

    def overloads(self, fqn: str, member: str, near: str) -> list[tuple[str, str, Signature]]:
        """Every method `member` a call on `fqn` may bind to: javac looks the name up in the type
        and all its supertypes at once (an inherited overload competes with the type's own), and
        an override hides the method it overrides (same parameter types)."""
        found: list[tuple[str, str, Signature]] = []
        seen: set[tuple[str, ...]] = set()
        for owner in (fqn, *self.supertypes(fqn, near)):
            info = self.info(owner, near)
            if info is None:
                continue
            path, name, extra = info
            for signature in extra.members.get(name, {}).get(member, ()):
                if signature.is_field:
                    continue
                params = tuple(p.rsplit(".", 1)[-1] for p in signature.params)
                if params not in seen:
                    seen.add(params)
                    found.append((path, name, signature))
        return found



def member_facts(facts: FileFacts) -> JavaMemberFacts:
    """A Java file's member facts (none for a file of another language)."""
    return facts.extra if isinstance(facts.extra, JavaMemberFacts) else NO_MEMBER_FACTS
