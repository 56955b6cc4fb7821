"""How a Python class names its supertypes (`SUPPORT.supertypes`): `class A(pkg.Base, Mixin,
metaclass=Meta)`. Defining a class may register it: a metaclass or an ancestor's `__init_subclass__`."""

from __future__ import annotations

import re

_CLASS = re.compile(r"^\s*class\s+(?P<name>\w+)\s*\((?P<bases>[^)]*)\)\s*:", re.MULTILINE)
# Metaclasses that make a class without keeping it anywhere: every other one may register the
# classes it makes (`registry[name] = cls` in `__new__`), as Django's models and plugin systems do.
_INERT_METACLASSES = frozenset({"type", "ABCMeta", "EnumMeta", "EnumType", "_ProtocolMeta"})
_METACLASS = re.compile(r"\bmetaclass\s*=\s*([\w.]+)")


class PythonSupertypes:
    registers_on_definition = True
    subclass_hook = "__init_subclass__"

    def written(self, text: str, cls: str) -> list[str] | None:
        header = _header(text, cls)
        return None if header is None else [b.strip().rsplit(".", 1)[-1] for b in header.split(",") if "=" not in b]

    def made_by(self, text: str, cls: str) -> str:
        meta = _METACLASS.search(_header(text, cls) or "")
        return meta.group(1) if meta and meta.group(1).rsplit(".", 1)[-1] not in _INERT_METACLASSES else ""


def _header(text: str, cls: str) -> str | None:
    """What the parentheses of `class cls(...)` hold (the first such class), or None."""
    return next((m.group("bases") for m in _CLASS.finditer(text) if m.group("name") == cls), None)


SUPERTYPES = PythonSupertypes()
