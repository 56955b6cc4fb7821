"""How Go code runs without an import (`SUPPORT.unimported`): `package main`, a tools.go that pins
dependencies, `init` functions, `plugin.Open`, and exported names of an importable package."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ...facts import Symbol
from ...unimported import PROGRAMS, TEST_DATA, OnlyImported, loader_sites

_LOADER = re.compile(r"(?P<site>\bplugin\.Open\()")
_TRIGGERS = ("plugin.Open(",)
_MAIN = re.compile(r"^\s*package\s+main\b", re.MULTILINE)
_COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)
# a package clause and nothing but blank imports (`import _ "golang.org/x/tools/cmd/stringer"`)
_PINS = re.compile(r"""\s*package\s+\w+\s*(?:import\s*(?:_\s*"[^"]+"|\(\s*(?:_\s*"[^"]+"\s*)+\))\s*)+""")


class GoUnimported(OnlyImported):
    load_hooks = frozenset({"init"})  # the runtime calls every `init` when its package loads
    test_files = r"_test\.go$"
    conventions: tuple[tuple[re.Pattern[str], str], ...] = (
        (re.compile(r"(^|/)doc\.go$"), "a Go package's documentation, read by go doc"),
        TEST_DATA,
        PROGRAMS,
    )

    def entry_reason(self, path: str, text: str) -> str:
        if _MAIN.search(text):
            return "package main"
        if _PINS.fullmatch(_COMMENTS.sub("", text)):
            return "holds only blank imports: it pins its module's dependencies (the tools.go convention)"
        return ""

    def loading_sites(self, path: str, text: str) -> list[tuple[str, str | None]]:
        return loader_sites(_LOADER, _TRIGGERS, path, text)

    def api(self, path: str, symbols: Sequence[Symbol]) -> list[Symbol]:
        """Exported top-level names, when the package can be imported by other modules (not `internal/`)."""
        if "/internal/" in f"/{path}":
            return []
        return [s for s in symbols if "." not in s.name and s.name[:1].isupper()]

    def api_reason(self, name: str) -> str:
        return f"{name} is exported from an importable Go package: another module may use it"


UNIMPORTED = GoUnimported()
