"""Which file a dotted Python module name means, from a given importer.

A project can hold several import roots: the top level, `src/`, each folder a pyproject/setup.cfg
points at, and the parent of every top-level package (a folder with `__init__.py` whose own parent
has none). Those roots are *public*: code anywhere in the project may import from them, as it would
once the project is installed. A script folder without packages (`scripts/`, `tests/`) is its own
*private* root: Python puts a script's folder on `sys.path`, so its siblings import each other by
bare name, but nobody else can.

A name may be found under several roots (a `build/lib` copy, a vendored twin); the importer's own
root wins, then a name read as the regular package it is, then the root nearest the importer.
"""

from __future__ import annotations

import configparser
import re
import tomllib
from dataclasses import dataclass
from pathlib import PurePosixPath

from ...facts import ProjectView

SOURCE_SUFFIXES = (".py", ".pyi")
_CONFIG_NAMES = ("pyproject.toml", "setup.cfg", "setup.py")
_SETUP_PY_PACKAGE_DIR = re.compile(r"""package_dir\s*=\s*\{\s*['"]{2}\s*:\s*['"]([^'"]+)['"]""")


@dataclass(frozen=True)
class ImportBinding:
    """A local name an import created: a module (`symbol` None) or a name inside a module file."""

    target: str
    symbol: str | None
    chain: str  # the dotted prefix that reaches the binding in code (`a.b.c` for `import a.b.c`)


def parent_dir(path: str) -> str:
    # String operations on the index's own spelling (relative, no `.` or empty segments): a
    # PurePosixPath per call was 40% of resolving a cold build's imports. Anything else (a folder
    # named in a config file) takes the normalizing path.
    if "//" in path or "/./" in path or path.startswith(("/", "./")) or path.endswith(("/", "/.")) or path == ".":
        parent = str(PurePosixPath(path).parent)
        return "" if parent == "." else parent
    return path.rpartition("/")[0]


def join(directory: str, *parts: str) -> str:
    return "/".join(p for p in (directory, *parts) if p)


@dataclass(frozen=True)
class Entry:
    root: str
    path: str
    natural: bool  # the name as the file's own package chain reads it, not via a namespace folder


def _is_python(path: str) -> bool:
    return path.endswith(SOURCE_SUFFIXES)


def _module_parts(path: str) -> tuple[str, ...]:
    """A listed file's path, split: `a/b/c.py` -> (a, b, c); `a/b/__init__.py` -> (a, b)."""
    *parts, name = path.split("/")
    stem = name.rsplit(".", 1)[0]
    return tuple(parts) if stem == "__init__" else (*parts, stem)


def _config_roots(project: ProjectView, paths: list[str]) -> set[str]:
    """Folders named by packaging config as import roots (best effort: bad config is ignored)."""
    roots: set[str] = set()
    configs = {p for p in paths if _name(p) in _CONFIG_NAMES} | set(_CONFIG_NAMES)
    for config in sorted(configs):
        text = project.read_text(config)
        if not text:
            continue
        base = parent_dir(config)
        roots.add(base)
        for hinted in _hinted_dirs(config, text):
            roots.add(join(base, hinted.strip().strip("/").removeprefix("./")))
    return roots


def _hinted_dirs(config: str, text: str) -> list[str]:
    dirs: list[str] = []
    try:
        if config.endswith(".toml"):
            tool = tomllib.loads(text).get("tool", {})
            setuptools = tool.get("setuptools", {})
            dirs += [v for k, v in setuptools.get("package-dir", {}).items() if k == "" and isinstance(v, str)]
            where = setuptools.get("packages", {})
            if isinstance(where, dict):
                dirs += [w for w in where.get("find", {}).get("where", []) if isinstance(w, str)]
            for package in tool.get("poetry", {}).get("packages", []):
                if isinstance(package, dict) and isinstance(package.get("from"), str):
                    dirs.append(package["from"])
            wheel = tool.get("hatch", {}).get("build", {}).get("targets", {}).get("wheel", {})
            dirs += [parent_dir(p) for p in wheel.get("packages", []) if isinstance(p, str)]
        elif config.endswith(".cfg"):
            parser = configparser.ConfigParser()
            parser.read_string(text)
            package_dir = parser.get("options", "package_dir", fallback="")
            dirs += [line.split("=", 1)[1] for line in package_dir.splitlines() if line.strip().startswith("=")]
            dirs += parser.get("options.packages.find", "where", fallback="").split()
        else:
            dirs += _SETUP_PY_PACKAGE_DIR.findall(text)
    except (tomllib.TOMLDecodeError, configparser.Error, AttributeError, TypeError):
        return []
    return [d for d in dirs if d and ".." not in d]


class ModuleTable:
    """Dotted module names -> files, per root, built once per index from the project's paths."""

    def __init__(self, project: ProjectView) -> None:
        all_paths = sorted(project.paths())
        self.files = {p for p in all_paths if _is_python(p)}
        package_dirs = {parent_dir(p) for p in self.files if _name(p) in ("__init__.py", "__init__.pyi")}
        self._package_dirs = package_dirs
        self.natural_root = {p: self._natural_root(p) for p in self.files}
        public = {"", *_config_roots(project, all_paths)}
        public |= {parent_dir(d) for d in package_dirs if parent_dir(d) not in package_dirs}
        public |= {d for p in self.files for d in _ancestors(p) if _name(d) == "src"}
        self.public_roots = frozenset(public)
        self._entries: dict[str, list[Entry]] = {}
        for path in sorted(self.files, key=_preference):
            self._register(path)

    def _natural_root(self, path: str) -> str:
        directory = parent_dir(path)
        while directory and directory in self._package_dirs:
            directory = parent_dir(directory)
        return directory

    def _register(self, path: str) -> None:
        natural = self.natural_root[path]
        parts = _module_parts(path)
        for root in _ancestors(path):
            if root != natural and root not in self.public_roots:
                continue
            if root and not path.startswith(root + "/"):
                continue
            depth = root.count("/") + 1 if root else 0
            if len(parts) <= depth:
                continue
            name = ".".join(parts[depth:])
            self._entries.setdefault(name, []).append(Entry(root, path, natural=root == natural))

    def lookup(self, name: str, importer: str) -> str | None:
        """The file module `name` means when `importer` imports it, or None (third-party/unknown)."""
        entries = self._entries.get(name)
        if not entries:
            return None
        own_root = self.natural_root.get(importer, parent_dir(importer))
        own = [e for e in entries if e.root == own_root]
        if own:
            return own[0].path
        public = [e for e in entries if e.root in self.public_roots]
        if not public:
            return None
        best = min(public, key=lambda e: (not e.natural, -_shared_depth(e.path, importer), len(e.root), e.root))
        return best.path

    def in_directory(self, directory: str, dotted: str) -> str | None:
        """The file of module `dotted` under `directory` (relative imports are path-based)."""
        parts = [p for p in dotted.split(".") if p]
        base = join(directory, *parts)
        candidates = [join(base, "__init__.py"), base + ".py", join(base, "__init__.pyi"), base + ".pyi"]
        if not parts:
            candidates = [join(directory, "__init__.py"), join(directory, "__init__.pyi")]
        return next((c for c in candidates if c in self.files), None)


def _name(path: str) -> str:
    return path.rpartition("/")[2]


def _ancestors(path: str) -> list[str]:
    """Folders containing `path`, innermost first, ending with "" (the project root)."""
    found = []
    directory = parent_dir(path)
    while directory:
        found.append(directory)
        directory = parent_dir(directory)
    found.append("")
    return found


def _preference(path: str) -> tuple[int, str]:
    # Registration order decides ties at one root: a package (`pkg/__init__.py`) shadows a
    # same-named `pkg.py`, as in CPython, and a `.py` beats its `.pyi` stub (stubs carry no code).
    name = _name(path)
    return (0 if name.startswith("__init__.") else 1) + (2 if path.endswith(".pyi") else 0), path


def _shared_depth(a: str, b: str) -> int:
    depth = 0
    for left, right in zip(a.split("/"), b.split("/")):
        if left != right:
            break
        depth += 1
    return depth
