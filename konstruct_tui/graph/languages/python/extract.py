"""Python extraction: what a file defines, imports and uses; the files those imports name are
`resolve.py`'s.

Extraction reads only the file's bytes, so it runs in worker processes. Every import is kept
wherever it sits (inside a function, under `if TYPE_CHECKING:`) because each is a real dependency
that a change can break, the same way grimp counts them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from importlib import resources
from itertools import compress, count, filterfalse, repeat, starmap
from operator import attrgetter, neg

from ... import treesitter as ts
from ...facts import FileFacts, ImportRef, Symbol
from ..fields import field
from .members import member_facts
from .scopes import ScopeTable
from .records import DEFERRED

LANGUAGE = "python"

_DOTTED_PATH = re.compile(rb"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")


_DEFINITION_KINDS = (
    ("definition.class", "class"),
    ("definition.function", "function"),
    ("definition.type", "type"),
    ("definition.variable", "variable"),
)
# C-level attribute access: `map` over these avoids a Python frame per captured node, which is most
# of extraction's own cost (a file has hundreds of identifier captures).
_START = attrgetter("start_byte")
_END = attrgetter("end_byte")
_TEXT = attrgetter("text")


def _name_node(node: ts.Node, kind: str) -> ts.Node:
    if kind == "variable":
        return field(node.child(0), "left")  # child 0: the assignment
    if kind == "type":
        return field(node, "left")
    return field(node, "name")


def _symbols(groups: dict[str, list[ts.Node]], table: ScopeTable | None = None) -> tuple[Symbol, ...]:
    """Definitions with qualified names. One sweep in byte order keeps a stack of the enclosing
    classes and functions (cheaper than walking up from every node: assignments are many). The
    classes and functions it meets also fill `table` (the member facts' scope table), so their
    names are read once."""
    # (start, -end, capture order, kind, node): the capture order keeps ties in a stable order and
    # spares the sort from ever comparing nodes.
    found: list[tuple[int, int, int, str, ts.Node]] = []
    order = count()
    for label, kind in _DEFINITION_KINDS:
        nodes = groups.get(label, ())
        found.extend(zip(map(_START, nodes), map(neg, map(_END, nodes)), order, repeat(kind), nodes))
    found.sort()
    rows: list[tuple[str, str, int, int]] = []
    # (end byte, qualified name, kind, index in `table`) of the open scopes
    scopes: list[tuple[int, str, str, int]] = []
    if table is None:
        table = ScopeTable()
    starts, ends, parents, kinds, names = table.starts, table.ends, table.parents, table.kinds, table.names
    for start, negative_end, _, kind, node in found:
        while scopes and scopes[-1][0] <= start:
            scopes.pop()
        innermost = scopes[-1][2] if scopes else None
        if kind == "variable" and innermost == "function":
            continue  # a local variable is not a definition anyone else can reach
        name = (_name_node(node, kind).text or b"").decode("utf-8", "replace")
        qualified = f"{scopes[-1][1]}.{name}" if scopes else name
        first = node
        if kind == "class" or kind == "function":
            scopes.append((-negative_end, qualified, kind, len(starts)))
            starts.append(start)
            ends.append(-negative_end)
            parents.append(scopes[-2][3] if len(scopes) > 1 else -1)
            kinds.append(_SCOPE_KINDS[kind])
            names.append(qualified)
            # A decorated definition's span starts at its first decorator: editing the span keeps
            # them. Only a class or function can be decorated (the parent lookup is not free).
            parent = node.parent
            if parent is not None and parent.type == "decorated_definition":
                first = parent
            if kind == "function" and innermost == "class":
                kind = "method"
        elif kind == "variable":
            if innermost == "class":
                kind = "attribute"
            elif name.isupper() and len(name) > 1:
                kind = "constant"
        rows.append((qualified, kind, first.start_point[0] + 1, node.end_point[0] + 1))
    return tuple(starmap(Symbol, dict.fromkeys(rows)))  # `x = 1` twice on one line is one symbol


_SCOPE_KINDS = {"class": "class_definition", "function": "function_definition"}


def _dotted(node: ts.Node | None) -> str:
    return "" if node is None else ts.text(node).replace(" ", "")


def _imports(groups: dict[str, list[ts.Node]]) -> tuple[ImportRef, ...]:
    refs: list[ImportRef] = []
    for node in groups.get("import", ()):
        refs.extend(_plain_import(node, node.start_point[0] + 1))
    for node in groups.get("from", ()):
        refs.extend(_from_import(node, node.start_point[0] + 1))
    refs.sort(key=lambda r: (r.line, r.target, r.names, r.kind, r.level, r.alias))  # total: captures have no fixed order
    return tuple(refs)


def _plain_import(node: ts.Node, line: int) -> list[ImportRef]:
    refs = []
    for child in node.children_by_field_name("name"):
        if child.type == "aliased_import":
            target = _dotted(child.child_by_field_name("name"))
            refs.append(ImportRef(target, (), line, "import", 0, _dotted(child.child_by_field_name("alias"))))
        else:
            refs.append(ImportRef(_dotted(child), (), line, "import"))
    return refs


def _from_import(node: ts.Node, line: int) -> list[ImportRef]:
    module = node.child_by_field_name("module_name")
    level = 0
    target = _dotted(module)
    if module is not None and module.type == "relative_import":
        prefix = next((c for c in module.children if c.type == "import_prefix"), None)
        level = len(ts.text(prefix).strip()) if prefix is not None else 0
        target = _dotted(next((c for c in module.children if c.type == "dotted_name"), None))
    if target == "__future__" and level == 0:
        return []  # compiler directives, not a dependency
    if any(child.type == "wildcard_import" for child in node.children):
        return [ImportRef(target, ("*",), line, "wildcard", level)]
    refs = []
    for child in node.children_by_field_name("name"):
        if child.type == "aliased_import":
            name = _dotted(child.child_by_field_name("name"))
            alias = _dotted(child.child_by_field_name("alias"))
            refs.append(ImportRef(target, (name,), line, "from", level, alias))
        else:
            refs.append(ImportRef(target, (_dotted(child),), line, "from", level))
    return refs


def _uses(groups: dict[str, list[ts.Node]], has_error: bool, chain_texts: list[bytes] | None = None) -> tuple[str, ...]:
    names: Iterable[ts.Node] = groups.get("name", ())
    not_uses = [groups.get(key, ()) for key in ("member", "keyword", "imported")]
    if has_error:
        # Filtered by start byte: a zero-width MISSING identifier (error recovery) can share its
        # start with a real one, and both are then left out.
        starts = list(map(_START, names))
        kept = set(starts).difference(*(map(_START, nodes) for nodes in not_uses))
        names = compress(names, map(kept.__contains__, starts))
    else:
        # Without errors every identifier has its own start byte, so comparing the nodes
        # themselves (hashed in C) leaves out exactly the same ones, and costs less. Kept in
        # document order: reading the texts then walks the tree's memory in order.
        names = filterfalse(set().union(*not_uses).__contains__, names)
    # Texts are deduplicated as bytes and decoded once each: most identifiers repeat. Loops in C
    # (`map`, `filter`): a file has hundreds of distinct names and dotted chains.
    # (`text` is never None: trees are always parsed from bytes.)
    distinct = set(map(_TEXT, names))
    used = set(map(str, distinct, repeat("utf-8"), repeat("replace")))
    if chain_texts is None:
        chain_texts = list(map(_TEXT, groups.get("chain", ())))
    # A dotted path is ASCII (the pattern's `\w` on bytes), so the plain decode is the same.
    used.update(map(bytes.decode, filter(_DOTTED_PATH.fullmatch, set(chain_texts))))
    return tuple(sorted(used))


# The file graph's query, then the member tier's captures: compiled together, one walk per file.
_FOLDER = resources.files(__package__)
_QUERIES = (_FOLDER.joinpath("python.scm").read_text(), _FOLDER.joinpath("python_members.scm").read_text())


def query(members: bool) -> ts.Query:
    """The file graph's query, with the member tier's captures when `members`."""
    return ts.compiled("python", "\n".join(_QUERIES if members else _QUERIES[:1]))


def extract(path: str, source: bytes, members: bool = True) -> FileFacts:
    root = ts.parse("python", source).root_node
    groups = ts.captures(query(members), root)
    # Read once, used by both the uses and the member facts (`node.text` copies the bytes)
    chain_texts = list(map(_TEXT, groups.get("chain", ())))
    scopes = ScopeTable()
    symbols = _symbols(groups, scopes)
    return FileFacts(
        path=path,
        language=LANGUAGE,
        symbols=symbols,
        imports=_imports(groups),
        uses=_uses(groups, root.has_error, chain_texts),
        extra=member_facts(groups, root.has_error, chain_texts, scopes) if members else DEFERRED,
    )
