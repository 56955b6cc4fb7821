"""How a Java type names its supertypes (`SUPPORT.supertypes`): `extends` and `implements`."""

from __future__ import annotations

import re

_CLASS = re.compile(r"\b(?:class|interface|enum|record)\s+(?P<name>\w+)\b[^{;]*?"
                    r"(?:\bextends\s+(?P<extends>[\w.<>,\s?]+?))?"
                    r"(?:\bimplements\s+(?P<implements>[\w.<>,\s?]+?))?\s*\{")


class JavaSupertypes:
    registers_on_definition = False
    subclass_hook = ""

    def written(self, text: str, cls: str) -> list[str] | None:
        for match in _CLASS.finditer(text):
            if match.group("name") == cls:
                written = f"{match.group('extends') or ''},{match.group('implements') or ''}"
                return [re.sub(r"<.*", "", n).strip().rsplit(".", 1)[-1] for n in written.split(",")]
        return None

    def made_by(self, text: str, cls: str) -> str:
        return ""


SUPERTYPES = JavaSupertypes()
