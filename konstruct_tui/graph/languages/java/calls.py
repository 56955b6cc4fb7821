"""The project types a Java file depends on without naming them: the types in the signatures of
the methods and fields its call chains reach, and its supertypes (see `signatures.py` for
why). Returns fqn -> the member names through which each type is reached."""

from __future__ import annotations

from collections import defaultdict
from ...facts import FileFacts
from .member_facts import PRIMITIVE, Chain, Signature, Step
from .type_world import TypeWorld, member_facts, qualify

# JDK supertypes of the argument kinds a call site's hints name ("" is Object).
_CLASS_TYPES = frozenset({"Class", "Type", "GenericDeclaration", "AnnotatedElement", "Serializable", ""})
_STRING_TYPES = frozenset({"String", "CharSequence", "Comparable", "Serializable", "Constable", "ConstantDesc", ""})
_BOXED_TYPES = frozenset({"Integer", "Long", "Short", "Byte", "Character", "Boolean", "Float", "Double", "Number",
                          "Comparable", "Serializable", "Constable", "ConstantDesc", ""})
_BOXES = frozenset({"Integer", "Long", "Short", "Byte", "Character", "Boolean", "Float", "Double"})


# (path of the declaring file, the declaring type's name there, the declaration)
Hit = tuple[str, str, Signature]


def _arguments(step: Step) -> tuple[int | None, tuple[str, ...]]:
    """(argument count, hints) of a call; (None, ()) for a method reference (any overload)."""
    return (None, ()) if step.kind == "reference" else (len(step.hints), step.hints)


def _fits(signature: Signature, count: int | None) -> bool:
    if signature.is_field:
        return False
    if count is None:
        return True
    declared = signature.arity
    return count == declared or (signature.varargs and count >= declared - 1)


def _short(types: tuple[str, ...]) -> list[str]:
    return [t.rsplit(".", 1)[-1] for t in types]


def _primitives_agree(theirs: tuple[str, ...], ours: tuple[str, ...]) -> bool:
    return all((a == PRIMITIVE) == (b == PRIMITIVE) for a, b in zip(theirs, ours))


class _Chains:
    def __init__(self, world: TypeWorld, facts: FileFacts) -> None:
        self.world = world
        self.facts = facts
        self.path = facts.path
        self.variables = member_facts(facts).variables
        self.inferred = member_facts(facts).inferred  # `var` name -> initializer chains
        self.inferring = 0
        self.found: dict[str, set[str]] = defaultdict(set)
        # Member uses whose receiver's type was proven: declaring file -> {"Type.member"}; and the
        # member names called on receivers nobody could type (by-name evidence).
        self.uses: dict[str, set[str]] = defaultdict(set)
        self.unknown: set[str] = set(member_facts(facts).by_name)
        # Quiet: a field read outside a call chain is a member use, but its type is no file
        # dependency the file graph models (jdeps agreement was measured without it).
        self.quiet = False

    def _used(self, hits: list[Hit], label: str) -> None:
        for path, owner, _ in hits:
            self.uses[path].add(f"{owner}.{label}")

    def _apply(self, hits: list[Hit], label: str, agreed: bool = False) -> list[str]:
        """Record the types in the matched signatures; return the result types (the next
        receiver). `agreed`: the hits are overloads one call may bind to, and only the types they
        all name are certain, so only those count (`put(int, char)` vs `put(int, Cell)`)."""
        per_hit: list[list[str | None]] = [
            [self.world.resolve_name(path, owner, written) if written else None
             for written in (signature.type, *signature.params)]
            for path, owner, signature in hits
        ]
        certain = set.intersection(*({t for t in types if t} for types in per_hit)) if agreed and per_hit else None
        results: list[str] = []
        for types in per_hit:
            for index, resolved in enumerate(types):
                if resolved is None or (certain is not None and resolved not in certain):
                    continue
                if not self.quiet:
                    self.found[resolved].add(label)
                if index == 0 and resolved not in results:
                    results.append(resolved)
        return results

    def _compatible(self, context: str, hint: str, hit: Hit, index: int) -> bool:
        declaring_path, declaring_type, signature = hit
        params = signature.params
        if not params or hint == "?":
            return True
        param = params[min(index, len(params) - 1)]
        if param == "":
            return True  # Object or an unbounded type variable takes anything
        if param == PRIMITIVE:
            return hint == PRIMITIVE or hint in _BOXES
        param_type = self.world.resolve_name(declaring_path, declaring_type, param)
        if hint in (PRIMITIVE, "String", "λ", "Class"):
            # These arguments have a JDK type whose supertypes are known: a String is no `Type`.
            short = param.rsplit(".", 1)[-1]
            if param_type is not None:
                return False
            if hint == "String":
                return short in _STRING_TYPES
            if hint == PRIMITIVE:
                return short in _BOXED_TYPES
            if hint == "Class":
                return short in _CLASS_TYPES
            return param != "String"
        if param_type is None:
            return True  # a library type: we cannot tell
        hint_type = self.world.resolve_name(self.path, context, hint)
        return hint_type is not None and (
            hint_type == param_type or param_type in self.world.supertypes(hint_type, self.path)
        )

    def _matching(self, context: str, receiver: str, name: str, count: int | None,
                  hints: tuple[str, ...]) -> list[Hit]:
        """The overloads of `name` a call with `count` arguments may bind to: by count, then by
        the argument `hints` (falling back to count alone when no overload fits the hints)."""
        hits = [h for h in self.world.overloads(receiver, name, self.path) if _fits(h[2], count)]
        if len(hits) < 2 or not hints:
            return hits
        typed = [h for h in hits if all(self._compatible(context, hint, h, i) for i, hint in enumerate(hints))]
        if len(typed) > 1:
            # Overloads the hints fit only because a library parameter type cannot be checked
            # lose to one whose parameters the arguments are proven to match (`annotated(spec)`
            # binds `annotated(AnnotationSpec...)`, not `annotated(List)`).
            scores = [sum(self._proven(context, hint, h, i) for i, hint in enumerate(hints)) for h in typed]
            best = max(scores)
            # Nothing proven: the receiver's nearest type declaring the name (what a reader
            # assumes, and javac's pick whenever the arguments fit its overloads).
            typed = [h for h, score in zip(typed, scores) if score == best] if best else \
                [h for h in typed if h[:2] == typed[0][:2]]
        return typed or hits

    def _proven(self, context: str, hint: str, hit: Hit, index: int) -> int:
        """2: the argument's type is the parameter's; 1: a proven supertype; 0: not proven (javac
        picks the most specific overload: `get(Class)` over `get(Type)` for `get(X.class)`)."""
        params = hit[2].params
        if not params or hint in ("?", "λ"):
            return 0
        param = params[min(index, len(params) - 1)]
        short = param.rsplit(".", 1)[-1]
        if short == hint.rsplit(".", 1)[-1]:
            return 2  # the same name (a JDK type the hint and the parameter both spell)
        if hint in (PRIMITIVE, "String", "Class"):
            return 1 if short and hint != PRIMITIVE else 0
        param_type = self.world.resolve_name(hit[0], hit[1], param)
        hint_type = self.world.resolve_name(self.path, context, hint)
        if param_type is None or hint_type is None:
            return 0
        return 2 if hint_type == param_type else 1 if param_type in self.world.supertypes(hint_type, self.path) else 0

    def _step(self, context: str, receivers: list[str], step: Step) -> list[str]:
        following: list[str] = []
        label = step.name
        for receiver in receivers:
            if step.kind == "field":
                hits = [h for h in self.world.members(receiver, label, self.path) if h[2].is_field]
                if not hits and self.world.is_type(f"{receiver}.{label}"):  # `Outer.Inner.CONSTANT`
                    following.append(f"{receiver}.{label}")
                    continue
            else:
                hits = self._matching(context, receiver, label, *_arguments(step))
            self._used(hits, label)
            if hits and step.kind != "field":
                self._overridden(receiver, hits, label)
            following += [t for t in self._apply(hits, label, agreed=True) if t not in following]
        return following

    def _overridden(self, receiver: str, hits: list[Hit], label: str) -> None:
        """A call of `Sub.m` that overrides `Base.m` may run `Base.m` (`super.m()` inside it):
        `~Base.m` is by-name evidence for the base method, never a proven call of it."""
        declared = {(path, owner) for path, owner, _ in hits}
        signatures = {(s.arity, tuple(_short(s.params))) for _, _, s in hits}
        for supertype in self.world.supertypes(receiver, self.path):
            for path, owner, signature in self.world.members(supertype, label, self.path):
                # an override reads the same parameters; another overload is another method
                if (path, owner) not in declared and (signature.arity, tuple(_short(signature.params))) in signatures:
                    declared.add((path, owner))
                    self.uses[path].add(f"~{owner}.{label}")

    def _unqualified(self, context: str, step: Step) -> list[str]:
        label, arguments = step.name, _arguments(step)
        scope = context
        while scope:
            hits = self._matching(context, qualify(self.facts, scope), label, *arguments)
            if hits:
                self._used(hits, label)
                return self._apply(hits, label, agreed=True)
            scope = scope.rpartition(".")[0]
        for ref in self.facts.imports:
            if ref.kind == "static" and ref.names[0] in (label, "*"):
                owner = self.world.longest_type_prefix(ref.target)
                hits = self._matching(context, owner, label, *arguments) if owner else []
                if hits:
                    self._used(hits, label)
                    return self._apply(hits, label, agreed=True)
        return []

    def _head(self, context: str, chain: Chain) -> tuple[list[str], tuple[Step, ...]]:
        """The receiver types the chain's head denotes, and the steps left to apply."""
        world, path = self.world, self.path
        kind, head, rest = chain.head.kind, chain.head.name, chain.steps
        if kind == "this":
            return [qualify(self.facts, context)], rest
        if kind == "super":  # the superclass: an override in this class is not what `super.m()` calls
            supertypes = world.supertypes(qualify(self.facts, context), path)
            return ([supertypes[0]] if supertypes else []), rest
        if kind == "unqualified":
            return (self._unqualified(context, rest[0]), rest[1:]) if rest else ([], ())
        if kind == "new":
            created = world.resolve_name(path, context, head)
            if created is None:
                return [], ()
            self.found[created].add("<init>")
            hits = self._matching(context, created, "<init>", len(chain.head.hints), chain.head.hints)
            self._apply(hits, created.rsplit(".", 1)[-1], agreed=True)
            return [created], rest
        if kind == "cast":
            cast = world.resolve_name(path, context, head)
            return ([cast] if cast else []), rest
        if head in self.variables:
            written_types = self.variables[head]
            typed = [t for t in (world.resolve_name(path, context, w) for w in written_types if w != "var") if t]
            if "var" in written_types and head in self.inferred and self.inferring < 3:
                # `var x = a.b()`: the initializer's chain types it (each initializer of that name)
                self.inferring += 1
                for chain in self.inferred[head]:
                    typed += [t for t in self._value(context, chain) if t not in typed]
                self.inferring -= 1
            if "var" in written_types and rest and not typed:  # `var x = call()` nothing types
                self._unknown(rest[0])
            return typed, rest
        if head[:1].isupper():
            named = world.resolve_name(path, context, head)
            if named is not None:
                return [named], rest
        field = self._step(context, [qualify(self.facts, context)], Step("field", head)) if context else []
        if field:
            return field, rest
        # A package path: `com.acme.Util.run()` consumes `.acme` and `.Util` to reach the type.
        dotted, index = head, 0
        while index < len(rest) and rest[index].kind == "field":
            dotted += "." + rest[index].name
            index += 1
            if world.is_type(dotted):
                return [dotted], rest[index:]
        if rest and head[:1].islower() and rest[0].kind != "field":
            self._unknown(rest[0])  # a call on a name we cannot type (a lambda parameter, an inherited field)
        return [], ()

    def _value(self, context: str, chain: Chain) -> list[str]:
        receivers, rest = self._head(context, chain)
        for step in rest:
            if not receivers:
                return []
            receivers = self._step(context, receivers, step)
        return receivers

    def _unknown(self, step: Step) -> None:
        if step.name:
            self.unknown.add(step.name)

    def overridden(self, fqn: str, members: dict[str, tuple[Signature, ...]]) -> None:
        """A method overriding one whose erased signature differs gets a bridge method with the
        overridden descriptor (covariant returns, generic parameters); its types are ours too."""
        for supertype in self.world.supertypes(fqn, self.path):
            for member, signatures in members.items():
                if member == "<init>":
                    continue
                hits = []
                for own in (s for s in signatures if not s.is_field):
                    same_arity = [h for h in self.world.members(supertype, member, self.path)
                                  if h[2].arity == own.arity]
                    # The overridden method is the overload whose parameters read the same; failing
                    # that (generic parameters), any overload that a primitive does not rule out.
                    exact = [h for h in same_arity if _short(h[2].params) == _short(own.params)]
                    hits += exact or [h for h in same_arity if _primitives_agree(h[2].params, own.params)]
                self._apply(hits, member)

    def visibility_bridges(self, fqn: str) -> None:
        """A public class extending a non-public one gets bridges for that class's public
        methods (javac does this so reflection can call them), with their descriptors."""
        for supertype in self.world.supertypes(fqn, self.path):
            info = self.world.info(supertype, self.path)
            if info is None:
                continue
            _, name, extra = info
            for member in extra.bridged.get(name, ()):
                hits = [h for h in self.world.members(supertype, member, self.path) if h[1] == name]
                self._apply(hits, member)

    def evaluate(self, context: str, chain: Chain) -> None:
        receivers, rest = self._head(context, chain)
        # Where the chain's type is lost, what follows may be anybody's member (a library call such
        # as `List<T>.get(0)`, or a method a project type inherits from a library class, may return
        # a project type): by-name evidence. Lost at a typed head, the first step is the head's
        # own (library) type's method; lost after a call, the next step is already on the unknown.
        skip = 0 if chain.head.kind == "unqualified" else 1
        for index, step in enumerate(rest):
            if not receivers:
                for later in rest[index + skip:]:
                    if later.kind != "field" and not self.quiet:
                        self._unknown(later)
                return
            receivers = self._step(context, receivers, step)
            skip = 0


def descriptor_types(world: TypeWorld, facts: FileFacts) -> dict[str, set[str]]:
    return evaluate(world, facts).found


def evaluate(world: TypeWorld, facts: FileFacts) -> _Chains:
    """Every call chain of the file typed: `found` (descriptor types), `uses`, `unknown`."""
    chains = _Chains(world, facts)
    extra = member_facts(facts)
    for context, written_chains in extra.calls.items():
        for chain in written_chains:
            chains.evaluate(context, chain)
    chains.quiet = True
    for context, written_chains in extra.fields.items():
        for chain in written_chains:
            chains.evaluate(context, chain)
    chains.quiet = False
    for name, members in extra.members.items():
        chains.overridden(qualify(facts, name), members)
    for name in extra.public_types:
        chains.visibility_bridges(qualify(facts, name))
    for name, written_supertypes in extra.supertypes.items():
        outer = name.rpartition(".")[0]
        for written in written_supertypes:
            resolved = world.resolve_name(facts.path, outer, written)
            if resolved is not None:
                chains.found[resolved].add(written.rsplit(".", 1)[-1])
    return chains
