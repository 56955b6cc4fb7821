"""Go build constraints: which of a package's files the default build compiles.

A Go package may declare one name in several files that are never compiled together: `func
Default()` in `binding.go` (`//go:build !nomsgpack`) and in `binding_nomsgpack.go`
(`//go:build nomsgpack`), `openFile` in `file_unix.go` and `file_windows.go`. The file graph keeps
every variant (a change to either may break a build of its importers), but a call binds to the one
declaration its build compiles: the compiler, and `go/types` with the default build context, see
only that one. So `callers` of the declaration in a file the default build leaves out lists the
files calling the name as `by_name` candidates marked with the constraint (they call it only when
built with it), and their proven calls go to the declaration the default build compiles.

The default build is this machine's GOOS and GOARCH, `unix` where that applies, `gc`, `cgo` and
every `go1.N` release tag; any other tag (`nomsgpack`, `integration`, `ignore`) is off.
"""

from __future__ import annotations

import platform
import posixpath
import re
import sys
from collections.abc import Callable, Iterable, Sequence

from ...facts import Symbol

_GOOS = frozenset({"aix", "android", "darwin", "dragonfly", "freebsd", "hurd", "illumos", "ios", "js", "linux",
                   "nacl", "netbsd", "openbsd", "plan9", "solaris", "wasip1", "windows", "zos"})
_GOARCH = frozenset({"386", "amd64", "amd64p32", "arm", "arm64", "arm64be", "armbe", "loong64", "mips", "mips64",
                     "mips64le", "mips64p32", "mips64p32le", "mipsle", "ppc", "ppc64", "ppc64le", "riscv", "riscv64",
                     "s390", "s390x", "sparc", "sparc64", "wasm"})
_UNIX = frozenset({"aix", "android", "darwin", "dragonfly", "freebsd", "hurd", "illumos", "ios", "linux",
                   "netbsd", "openbsd", "solaris"})
_GO_BUILD = re.compile(r"^//go:build\s+(.+?)\s*$")
_PLUS_BUILD = re.compile(r"^//\s*\+build\s+(.+?)\s*$")
_TOKEN = re.compile(r"\s*(\|\||&&|!|\(|\)|[\w.]+)")
_RELEASE = re.compile(r"go1(\.\d+)?$")


def _host() -> tuple[str, str]:
    goos = {"win32": "windows", "cygwin": "windows"}.get(sys.platform, sys.platform.rstrip("0123456789"))
    machine = platform.machine().lower()
    goarch = {"x86_64": "amd64", "amd64": "amd64", "aarch64": "arm64", "arm64": "arm64", "i386": "386",
              "i686": "386", "armv7l": "arm", "ppc64le": "ppc64le", "s390x": "s390x", "riscv64": "riscv64"}.get(machine, machine)
    return goos, goarch


GOOS, GOARCH = _host()


def constraint(path: str, text: str | None) -> str:
    """The file's build constraint as one expression ("" when it has none): its `//go:build` line
    (or its `// +build` lines), and what its name says (`_windows`, `_linux_arm64`)."""
    parts = []
    expression = _written(text or "")
    if expression:
        parts.append(expression)
    stem = posixpath.basename(path).removesuffix(".go").removesuffix("_test")
    pieces = stem.split("_")
    if len(pieces) >= 3 and pieces[-2] in _GOOS and pieces[-1] in _GOARCH:
        parts += [pieces[-2], pieces[-1]]
    elif len(pieces) >= 2 and (pieces[-1] in _GOOS or pieces[-1] in _GOARCH):
        parts.append(pieces[-1])
    return " && ".join(f"({p})" if len(parts) > 1 and re.search(r"\|\||&&", p) else p for p in parts)


def compiled_by_default(expression: str) -> bool:
    """Whether the default build (see the module's docstring) satisfies `expression`. An
    expression it cannot read counts as satisfied: the file then stays like any other."""
    if not expression:
        return True
    tokens = _TOKEN.findall(expression)
    try:
        value, rest = _or(tokens)
    except (IndexError, ValueError):
        return True
    return value if not rest else True


def _tag(name: str) -> bool:
    return (name in (GOOS, GOARCH, "gc", "cgo") or (name == "unix" and GOOS in _UNIX)
            or bool(_RELEASE.match(name)))


def _or(tokens: list[str]) -> tuple[bool, list[str]]:
    return _joined(tokens, "||", _and)


def _and(tokens: list[str]) -> tuple[bool, list[str]]:
    return _joined(tokens, "&&", _not)


def _joined(tokens: list[str], operator: str,
            operand: Callable[[list[str]], tuple[bool, list[str]]]) -> tuple[bool, list[str]]:
    """`operand (operator operand)*`, evaluated left to right."""
    value, tokens = operand(tokens)
    while tokens and tokens[0] == operator:
        right, tokens = operand(tokens[1:])
        value = (value or right) if operator == "||" else (value and right)
    return value, tokens


def _not(tokens: list[str]) -> tuple[bool, list[str]]:
    if tokens[0] == "!":
        value, rest = _not(tokens[1:])
        return not value, rest
    if tokens[0] == "(":
        value, rest = _or(tokens[1:])
        if not rest or rest[0] != ")":
            raise ValueError("unbalanced")
        return value, rest[1:]
    if tokens[0] in ("||", "&&", ")"):
        raise ValueError("operand expected")
    return _tag(tokens[0]), tokens[1:]


def _written(text: str) -> str:
    """The `//go:build` expression among the comments before the package clause, else the legacy
    `// +build` lines turned into one (space: or, comma: and, lines: and)."""
    legacy = []
    for line in text.splitlines()[:60]:
        stripped = line.strip()
        if stripped.startswith("package ") or (stripped and not stripped.startswith("//") and not stripped.startswith("/*")):
            break
        found = _GO_BUILD.match(stripped)
        if found:
            return found.group(1)
        old = _PLUS_BUILD.match(stripped)
        if old:
            alternatives = [" && ".join(("!" + t[1:]) if t.startswith("!") else t for t in option.split(","))
                            for option in old.group(1).split()]
            legacy.append(alternatives[0] if len(alternatives) == 1 else " || ".join(f"({a})" for a in alternatives))
    return " && ".join(f"({line})" if len(legacy) > 1 else line for line in legacy)


def other_build_callers(under: Callable[[str], Iterable[str]], found: Sequence[tuple[str, Symbol]], callers: list[str],
                        defines: Callable[[str, str], bool], read: Callable[[str], str | None],
                        ) -> tuple[dict[str, tuple[str, str]], set[str]]:
    """`under(folder)`: the files beneath a folder. ({caller: (constraint, declaration the
    default build binds it to, or "")}, {caller}): the
    proven Go callers that call the asked-for declaration only in another build (a caller the
    default build leaves out, `file_windows.go`; any caller of a declaration the default build
    leaves out when another file of its package declares the name for the default build), and
    the callers whose own build compiles another declaration of the name (they never call this
    one). A caller built under the same constraint as the declaration stays proven: the two are
    compiled together."""
    go = [(path, symbol) for path, symbol in found if path.endswith(".go")]
    if not go or len(go) != len(found):
        return {}, set()
    constraints = {path: constraint(path, read(path)) for path, _ in go}
    asked = {path for path, _ in go}
    # the other declarations of the same names in the same packages, by their constraints
    variants: dict[str, str] = {}
    for path, symbol in go:
        folder = posixpath.dirname(path)
        for other in sorted(under(folder)):
            if (other not in asked and other.endswith(".go") and posixpath.dirname(other) == folder
                    and defines(other, symbol.name)):
                variants.setdefault(constraint(other, read(other)), other)
    default_twin = next((other for c, other in variants.items() if compiled_by_default(c)), "")
    if any(compiled_by_default(c) for c in constraints.values()):
        default_twin = ""  # the asked-for declaration is the one the default build compiles
    apart: dict[str, tuple[str, str]] = {}
    elsewhere: set[str] = set()
    for caller in callers:
        if not caller.endswith(".go"):
            continue
        own = constraint(caller, read(caller))
        if own in constraints.values():
            continue  # compiled together with a declaration asked for
        if own in variants:
            elsewhere.add(caller)  # its build compiles another declaration of the name
        elif not compiled_by_default(own):
            apart[caller] = (own, "")
        elif default_twin:
            why = next(iter(constraints.values()))
            apart[caller] = (why, default_twin)
    return apart, elsewhere


__all__ = ["compiled_by_default", "constraint", "other_build_callers"]
