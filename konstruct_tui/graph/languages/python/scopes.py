"""The scopes of a Python file, for its member facts (`members/facts.py`): which class or
function encloses a node (a table of byte ranges for an error-free tree, a walk up the parents
otherwise), and names bound differently per function told apart (`scoped`)."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import defaultdict
from itertools import compress, count, repeat
from operator import attrgetter, itemgetter, methodcaller, neg

from ... import treesitter as ts
from ..fields import name_of
from .records import (
    Annotation,
    CallOn,
    CallResult,
    Chain,
    Decorated,
    Either,
    Entered,
    LocalUse,
    Name,
    OneOf,
    SameAs,
    Written,
    name_key,
)

_START = attrgetter("start_byte")
_END = attrgetter("end_byte")
_ROW_ORDER = itemgetter(0, 1, 2)
_DOTTED_BYTES = re.compile(rb"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
_SCOPES = ("class_definition", "function_definition")


def enclosing(node: ts.Node) -> tuple[str | None, list[str]]:
    """(kind of the innermost class/function around `node`, names of the enclosing scopes)."""
    kind, names = None, []
    parent = node.parent
    while parent is not None:
        if parent.type in _SCOPES:
            if kind is None:
                kind = parent.type
            name = parent.child_by_field_name("name")
            if name is not None:
                names.append(ts.text(name))
        parent = parent.parent
    return kind, names[::-1]


class ScopeTable:
    """The classes and functions of an error-free tree by byte range, in document order (parents
    before children): `enclosing` is a bisect and a step or two up the table instead of a
    `node.parent` (a new Python object) per level of the tree. Only for a tree without errors,
    where byte ranges nest exactly as the nodes do. Filled by the symbol sweep in `python.py`
    (which reads these definitions anyway) or by `scope_table`."""

    __slots__ = ("ends", "kinds", "names", "parents", "starts")

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.ends: list[int] = []
        self.parents: list[int] = []  # index of the enclosing scope, -1 at module level
        self.kinds: list[str] = []  # "class_definition" or "function_definition"
        self.names: list[str] = []  # qualified within the file: "Outer.method"

    def _around(self, node: ts.Node) -> int:
        start, end = node.start_byte, node.end_byte
        at = bisect_right(self.starts, start) - 1
        ends, starts, parents = self.ends, self.starts, self.parents
        while at >= 0 and (ends[at] < end or (starts[at] == start and ends[at] == end)):
            at = parents[at]  # not around the node (or the node itself): its enclosing scope may be
        return at

    def kind_of(self, node: ts.Node) -> str | None:
        at = self._around(node)
        return self.kinds[at] if at >= 0 else None

    def enclosing(self, node: ts.Node) -> tuple[str | None, list[str]]:
        at = self._around(node)
        return (self.kinds[at], self.names[at].split(".")) if at >= 0 else (None, [])

    def function_of(self, node: ts.Node) -> str | None:
        """The qualified name of the innermost function around `node`, if that is a function."""
        at = self._around(node)
        return self.names[at] if at >= 0 and self.kinds[at] == "function_definition" else None


def scope_table(groups: dict[str, list[ts.Node]]) -> ScopeTable:
    """The table from the captured class and function definitions (start and end read in C)."""
    rows: list[tuple[int, int, int, str, ts.Node]] = []
    for kind in _SCOPES:
        nodes = groups.get(_CAPTURE[kind], ())
        rows.extend(zip(map(_START, nodes), map(neg, map(_END, nodes)), count(), repeat(kind), nodes))
    rows.sort(key=_ROW_ORDER)
    table = ScopeTable()
    open_scopes: list[int] = []
    for start, negative_end, _, kind, node in rows:
        while open_scopes and table.ends[open_scopes[-1]] <= start:
            open_scopes.pop()
        parent = open_scopes[-1] if open_scopes else -1
        name = name_of(node)
        table.starts.append(start)
        table.ends.append(-negative_end)
        table.parents.append(parent)
        table.kinds.append(kind)
        table.names.append(f"{table.names[parent]}.{name}" if parent >= 0 else name)
        open_scopes.append(len(table.starts) - 1)
    return table


def kind_around(node: ts.Node) -> str | None:
    """`enclosing(node)[0]`, walking up only to the first class or function."""
    parent = node.parent
    while parent is not None:
        kind = parent.type
        if kind == "class_definition" or kind == "function_definition":
            return kind
        parent = parent.parent
    return None


_CAPTURE = {"class_definition": "definition.class", "function_definition": "definition.function"}


def scoped(groups: dict[str, list[ts.Node]], bound: list[tuple[str, Written, ts.Node]], conflicts: set[str],
           calls: list[tuple[str, str, ts.Node]], texts: list[bytes], walked: list[tuple[Chain, ts.Node]],
           stated: list[tuple[str, str, Written, ts.Node]], table: ScopeTable | None = None
           ) -> tuple[dict[Name, set[Written]], set[CallOn], set[LocalUse], list[tuple[Chain, ts.Node]],
                      list[tuple[str, str, Written, ts.Node]]]:
    """Names the file binds to different things (`runner = CliRunner()` in one test, a bare
    `runner` fixture parameter in another) are told apart by the function that binds them: each
    such name is keyed `Local(name, start byte of that function)` in the types, and every record
    naming it (its uses, kept as `LocalUse`s; the calls made on it; what is written from it) carries
    that function as its `scope`. A use takes the binding of the innermost enclosing function that
    binds the name, else the module's. `table`: the scope table of an error-free tree (its
    function rows nest as the functions do)."""
    starts: list[int]
    ends: list[int]
    parents: list[int]
    if table is not None:  # the functions among the scope table's rows (classes are stepped over)
        starts, ends, parents = table.starts, table.ends, table.parents
        classes = [kind == "class_definition" for kind in table.kinds]
    else:
        defined = groups.get("definition.function", ())
        functions = sorted(zip(map(_START, defined), map(_END, defined)))
        starts = [start for start, _ in functions]
        ends = [end for _, end in functions]
        parents = []
        open_scopes: list[int] = []
        for index, start in enumerate(starts):
            while open_scopes and ends[open_scopes[-1]] <= start:
                open_scopes.pop()
            parents.append(open_scopes[-1] if open_scopes else -1)
            open_scopes.append(index)
        classes = [False] * len(starts)

    def innermost(byte: int) -> int:
        """The row of the innermost function around `byte`, or -1."""
        index = bisect_right(starts, byte) - 1
        while index >= 0 and (ends[index] <= byte or classes[index]):
            index = parents[index]
        return index

    scopes: dict[str, set[int | None]] = defaultdict(set)
    placed: dict[int, int | None] = {}  # id of a binding of a conflicting name -> its function's start
    for binding in bound:
        if binding[0] in conflicts:
            index = innermost(binding[2].start_byte)
            scope = placed[id(binding)] = starts[index] if index >= 0 else None
            scopes[binding[0]].add(scope)

    def scope_of(text: str, byte: int) -> int | None:
        """The function whose binding of the head of dotted path `text` is read at `byte`."""
        head = text.partition(".")[0]
        if head not in conflicts:
            return None
        # the innermost function around `byte` that binds the name
        placed_in = scopes[head]
        index = innermost(byte)
        while index >= 0:
            scope = starts[index]
            if scope in placed_in and not classes[index]:
                return scope
            index = parents[index]
        return None

    def place(written: Written, byte: int) -> Written:
        """`written` with the scope of the name it starts from. A call's callee counts only when
        dotted: a bare `make()` is what the module's `make` gives."""
        if isinstance(written, CallResult):
            scope = scope_of(written.callee, byte) if "." in written.callee else None
            return written if scope is None else CallResult(written.callee, scope)
        if isinstance(written, SameAs):
            scope = scope_of(written.path, byte)
            return written if scope is None else SameAs(written.path, scope)
        if isinstance(written, Annotation):
            scope = scope_of(written.cls, byte)
            return written if scope is None else Annotation(written.cls, scope)
        if isinstance(written, Decorated):
            scope = scope_of(written.decorator, byte)
            return written if scope is None else Decorated(written.decorator, scope)
        if isinstance(written, Entered):
            manager = place(written.manager, byte)
            return written if manager is written.manager else Entered(_call(manager), written.method)
        # Of a conditional's branches and an annotation's alternatives only the first is placed, and
        # only when dotted, as when these facts were strings (`x.a()^B()` placed by its head): the
        # others read the module's binding. Placing them all changes `callers` answers (rich's
        # `traceback_console`), a graph-accuracy change of its own, not part of the record's.
        if isinstance(written, Either):
            first, *others = written.branches
            placed_first = _branch(place(first, byte)) if "." in _path(first) else first
            return written if placed_first is first else Either((placed_first, *others))
        if isinstance(written, OneOf):
            head, *rest = written.alternatives
            placed_head = _annotation(place(head, byte)) if "." in head.cls else head
            return written if placed_head is head else OneOf((placed_head, *rest))
        return written

    types: dict[Name, set[Written]] = defaultdict(set)
    for binding in bound:
        name, written, node = binding
        scope = placed.get(id(binding)) if name in conflicts else None
        types[name_key(name, scope)].add(place(written, node.start_byte))
    # Chains starting with one of those names, picked out in C (`startswith` over all of them)
    chains = groups.get("chain", ())
    picked = compress(zip(texts, chains), map(methodcaller("startswith", tuple(f"{c}.".encode() for c in conflicts)), texts))
    uses: set[LocalUse] = set()
    for raw, node in picked:
        if _DOTTED_BYTES.fullmatch(raw):
            text = raw.decode("utf-8", "replace")
            uses.add(LocalUse(text, scope_of(text, node.start_byte)))
    oncall = {CallOn(callee, scope_of(callee, node.start_byte), name) for callee, name, node in calls}
    walked = [(_placed_chain(chain, scope_of(chain.links[0][0], node.start_byte)), node)
              if not chain.links[0][1] else (chain, node) for chain, node in walked]
    renamed = [(kind, qualified, place(written, node.start_byte), node) for kind, qualified, written, node in stated]
    return types, oncall, uses, walked, renamed


def _path(branch: CallResult | SameAs) -> str:
    return branch.callee if isinstance(branch, CallResult) else branch.path


def _placed_chain(chain: Chain, scope: int | None) -> Chain:
    return chain if scope is None else Chain(chain.links, scope)


# What `place` gives back keeps the kind it was given: these only narrow the type.
def _call(written: Written) -> CallResult:
    assert isinstance(written, CallResult)
    return written


def _branch(written: Written) -> CallResult | SameAs:
    assert isinstance(written, (CallResult, SameAs))
    return written


def _annotation(written: Written) -> Annotation:
    assert isinstance(written, Annotation)
    return written
