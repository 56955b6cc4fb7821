"""Cargo packages as the resolver sees them: where each crate's modules start, and which crate
names a file may write (`serde`, a workspace member, a `path` dependency).

Read from every `Cargo.toml` in the project: a workspace's members each have their own, so no glob
of `[workspace] members` is needed. A dependency counts when it points at a folder of the project
(`path = "../core"`, or `workspace = true` with the path in the workspace's
`[workspace.dependencies]`); a registry crate has no files here to point at.
"""

from __future__ import annotations

import posixpath
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ...facts import ProjectView

MANIFEST = "Cargo.toml"
_DEPENDENCY_TABLES = ("dependencies", "dev-dependencies", "build-dependencies")


@dataclass
class Package:
    """One Cargo package: `folder` (workspace-relative, "" at the root), its library root file
    if any, and the crates it may name (`dependencies`: the name written in code -> folder)."""

    name: str
    folder: str
    library: str | None = None
    dependencies: dict[str, str] = field(default_factory=dict)


def crate_name(name: str) -> str:
    return name.replace("-", "_")


def packages(project: ProjectView, paths: Iterable[str]) -> list[Package]:
    manifests = sorted(p for p in paths if posixpath.basename(p) == MANIFEST)
    parsed = {m: _toml(project.read_text(m)) for m in manifests}
    found: list[Package] = []
    for manifest, data in parsed.items():
        folder = posixpath.dirname(manifest)
        package = data.get("package")
        if not isinstance(package, dict) or not isinstance(package.get("name"), str):
            continue  # a virtual workspace manifest: its members have their own
        found.append(Package(crate_name(package["name"]), folder, _library(folder, data, paths),
                             _dependencies(folder, data, _workspace_of(folder, parsed))))
    by_folder = {p.folder: p for p in found}
    for package in found:  # a dependency's code name is its key; the folder must hold a package
        package.dependencies = {n: f for n, f in package.dependencies.items() if f in by_folder}
    return found


def _toml(text: str | None) -> dict[str, Any]:
    try:
        return tomllib.loads(text) if text else {}
    except tomllib.TOMLDecodeError:
        return {}  # a broken manifest: cargo refuses it too; its files still resolve by path


def _join(folder: str, relative: str) -> str:
    joined = posixpath.normpath(posixpath.join(folder, relative))
    return "" if joined == "." else joined


def _library(folder: str, data: dict[str, Any], paths: Iterable[str]) -> str | None:
    lib = data.get("lib")
    if isinstance(lib, dict) and isinstance(lib.get("path"), str):
        return _join(folder, lib["path"])
    default = _join(folder, "src/lib.rs")
    return default if default in set(paths) else None


def _workspace_of(folder: str, parsed: dict[str, dict[str, Any]]) -> tuple[str, dict[str, Any]]:
    """The nearest manifest at or above `folder` with a `[workspace]` table: (its folder, table)."""
    best: tuple[str, dict[str, Any]] = ("", {})
    for manifest, data in parsed.items():
        top = posixpath.dirname(manifest)
        table = data.get("workspace")
        inside = top == "" or folder == top or folder.startswith(top + "/")
        if isinstance(table, dict) and inside and len(top) >= len(best[0]):
            best = (top, table)
    return best


def _dependencies(folder: str, data: dict[str, Any], workspace: tuple[str, dict[str, Any]]) -> dict[str, str]:
    tables = [data.get(t) for t in _DEPENDENCY_TABLES]
    targets = data.get("target")
    if isinstance(targets, dict):  # [target.'cfg(unix)'.dependencies]
        tables += [t.get(name) for t in targets.values() if isinstance(t, dict) for name in _DEPENDENCY_TABLES]
    top, table = workspace
    shared = table.get("dependencies") if isinstance(table.get("dependencies"), dict) else {}
    found: dict[str, str] = {}
    for deps in tables:
        for key, spec in (deps or {}).items() if isinstance(deps, dict) else ():
            if isinstance(spec, dict) and isinstance(spec.get("path"), str):
                found[crate_name(key)] = _join(folder, spec["path"])
            elif isinstance(spec, dict) and spec.get("workspace") is True:
                inherited = shared.get(key) if isinstance(shared, dict) else None
                if isinstance(inherited, dict) and isinstance(inherited.get("path"), str):
                    found[crate_name(key)] = _join(top, inherited["path"])
    return found
