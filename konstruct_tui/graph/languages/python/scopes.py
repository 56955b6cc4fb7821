"""The scopes of a Python file, for its member facts (`members/facts.py`): which class or
function encloses a node (a table of byte ranges for an error-free tree, a walk up the parents
otherwise), and names bound differently per function told apart (`_scoped`)."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import defaultdict
from itertools import compress, count, repeat
from operator import attrgetter, itemgetter, methodcaller, neg

from ... import treesitter as ts

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
        name = ts.text(node.child_by_field_name("name"))
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


def scoped(groups: dict[str, list[ts.Node]], bound: list[tuple[str, str, ts.Node]], conflicts: set[str],
            calls: list[tuple[str, str, ts.Node]], texts: list[bytes], walked: list[tuple[str, ts.Node]],
            stated: list[tuple[str, str, str, ts.Node]], table: ScopeTable | None = None
            ) -> tuple[dict[str, set[str]], set[str], dict[str, list[str]], list[tuple[str, ts.Node]],
                       list[tuple[str, str, str, ts.Node]]]:
    """Names the file binds to different things (`runner = CliRunner()` in one test, a bare
    `runner` fixture parameter in another) are told apart by the function that binds them: each
    such name becomes `name@<start byte of that function>` in the types, in the uses of it (kept
    under "local": {"heads": [...], "uses": [...]}) and in the calls made on it. A use takes the
    binding of the innermost enclosing function that binds the name, else the module's. `table`:
    the scope table of an error-free tree (its function rows nest as the functions do)."""
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

    def rename(text: str, byte: int) -> str:
        head, dot, rest = text.partition(".")
        if head not in conflicts:
            return text
        # the innermost function around `byte` that binds the name
        placed_in = scopes[head]
        index = innermost(byte)
        while index >= 0:
            scope = starts[index]
            if scope in placed_in and not classes[index]:
                return f"{head}@{scope}{dot}{rest}"
            index = parents[index]
        return text

    types: dict[str, set[str]] = defaultdict(set)
    for binding in bound:
        name, written, node = binding
        scope = placed.get(id(binding)) if name in conflicts else None
        key = f"{name}@{scope}" if scope is not None else name
        prefix = written[0] if written[0] in "@=" else ""
        body = written[1:] if prefix else written
        if body.partition(".")[0] in conflicts:
            body = rename(body, node.start_byte)
        types[key].add(prefix + body)
    # Chains starting with one of those names, picked out in C (`startswith` over all of them)
    chains = groups.get("chain", ())
    picked = compress(zip(texts, chains), map(methodcaller("startswith", tuple(f"{c}.".encode() for c in conflicts)), texts))
    uses = {rename(raw.decode("utf-8", "replace"), node.start_byte) for raw, node in picked if _DOTTED_BYTES.fullmatch(raw)}
    oncall = {f"{rename(callee, node.start_byte)}>{name}" for callee, name, node in calls}
    walked = [(rename(chain, node.start_byte), node) for chain, node in walked]
    renamed = []
    for kind, qualified, written, node in stated:
        prefix = "=" if written[0] == "=" else ""
        body = written[len(prefix):]
        if body.partition(".")[0].partition("(")[0] in conflicts:
            written = prefix + rename(body, node.start_byte)
        renamed.append((kind, qualified, written, node))
    return types, oncall, {"heads": sorted(conflicts), "uses": sorted(uses)}, walked, renamed
