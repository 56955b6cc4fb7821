"""TypeScript member evidence: the facts extraction keeps about the types the source writes
(`types`, read through `chains`, `written`, `scopes`, `shapes`, `signatures`, `generics`, `keyed`,
`heads`), and their resolution into member uses (`receivers` with `contexts` and `declarations`,
then `edges`)."""

from __future__ import annotations

from .edges import member_edges
from .receivers import Receivers
from .types import type_facts

__all__ = ["Receivers", "member_edges", "type_facts"]
