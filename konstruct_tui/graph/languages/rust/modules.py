"""Where a Rust file sits in its crate, by Cargo's layout and the 2018 module convention.

A crate starts at its root file (`src/lib.rs`, `src/main.rs`, `src/bin/x.rs`, `tests/x.rs`,
`examples/x.rs`, `benches/x.rs`, `build.rs`); module `a::b` of a crate whose root is in folder R
is `R/a/b.rs` or `R/a/b/mod.rs`. `#[path = "..."]` attributes are not followed.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass

from .crates import Package

_TARGET_FOLDERS = ("tests", "examples", "benches")
_ROOT_NAMES = ("lib.rs", "main.rs", "mod.rs")


@dataclass(frozen=True)
class Place:
    """A file's crate (its root folder and root file, None when several crates share the folder,
    as the helpers under `tests/` do) and its module path in it."""

    folder: str
    root: str | None
    module: tuple[str, ...]


class Layout:
    def __init__(self, files: set[str], packages: list[Package]) -> None:
        self.files = files
        self.packages = sorted(packages, key=lambda p: len(p.folder), reverse=True)

    def package_of(self, path: str) -> Package | None:
        return next((p for p in self.packages if p.folder == "" or path.startswith(p.folder + "/")), None)

    def place(self, path: str) -> Place:
        package = self.package_of(path)
        if package is None:  # a loose file: it is its own crate's root
            return Place(posixpath.dirname(path), path, ())
        base = f"{package.folder}/" if package.folder else ""
        parts = path[len(base):].split("/")
        if parts[0] in _TARGET_FOLDERS or parts[:2] == ["src", "bin"]:
            depth = 2 if parts[0] != "src" else 3
            folder = base + "/".join(parts[:depth - 1])
            if len(parts) == depth:
                return Place(folder, path, ())
            main = f"{folder}/{parts[depth - 1]}/main.rs"  # `tests/it/main.rs`: a crate of its own
            if main in self.files:
                return self._within(posixpath.dirname(main), main, path)
            return self._within(folder, None, path)
        if path == base + "build.rs":
            return Place(package.folder, path, ())
        if posixpath.basename(path) == "main.rs" and posixpath.dirname(path) == base + "src":
            return Place(base + "src", path, ())
        root = package.library or (base + "src/main.rs" if base + "src/main.rs" in self.files else None)
        folder = posixpath.dirname(root) if root else base + "src"
        return self._within(folder, root, path)

    @staticmethod
    def _within(folder: str, root: str | None, path: str) -> Place:
        if path == root:
            return Place(folder, root, ())
        relative = posixpath.relpath(path, folder) if folder else path
        if relative.startswith(".."):
            return Place(posixpath.dirname(path), None, ())
        segments = relative.removesuffix(".rs").split("/")
        if segments[-1] == "mod":
            segments.pop()
        return Place(folder, root, tuple(segments))

    def file_of(self, place: Place, module: tuple[str, ...]) -> str | None:
        """The file of `module` in `place`'s crate, or None (an inline module, or none at all)."""
        if not module:
            return place.root
        stem = posixpath.join(place.folder, *module)
        for candidate in (f"{stem}.rs", f"{stem}/mod.rs"):
            if candidate in self.files:
                return candidate
        return None

    def child(self, path: str, place: Place, name: str) -> str | None:
        """The file of `mod name;` declared in `path`."""
        if place.module or posixpath.basename(path) in _ROOT_NAMES or place.root == path:
            return self.file_of(place, (*place.module, name))
        return self.file_of(Place(posixpath.dirname(path), None, ()), (name,))
