"""`unreferenced`: files and top-level symbols nothing refers to, without crying wolf.

Three kinds of code run without anything importing them, and are never reported dead:
- entry points (roots): test files, `__main__.py`, a `__main__` guard, packaging entry points,
  a Java `main`, Go `package main`;
- code loaded by a computed name (`importlib.import_module(f"...{v}")`, `Class.forName`, `import()`
  of an expression...) near it: such a file or symbol is `undeterminable`, with the loading site;
- a symbol used by name as a member on a receiver nobody could type: `undeterminable` too.
"""

from __future__ import annotations

import posixpath
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from .dynamic_lookups import lookup_sites
from .evidence import (
    declared_entry_points,
    entry_configs,
    framework_routes,
    in_folder,
    is_entry_file,
    loaded_folders,
    loading_sites,
    loads,
    near,
    reads_loaders,
    scans_loaders,
)
from .facts import RunsUnimported
from .languages import language_for, languages
from .named_in_text import anchor, find_named, registering_decorator
from .records import TEXT
from .snapshot import GraphSnapshot
from .supertypes import registered_on_definition, registers_on_definition
from .unimported import OnlyImported

# Test folders of any language; each language adds its own test files (`unimported.test_files`).
_TEST_FOLDER = r"(^|/)(tests?|__tests__|spec|testing|test-d)/"
_FOLDER_WORD = re.compile(r"""['"`](?:\.{0,2}/)?([A-Za-z_][\w-]*)/?['"`]""")
# What a file of no structural language (or of a test's own) runs by: only by being imported.
_IMPORTED_ONLY = OnlyImported()
_PREFIXED_SCAN = 5000


@cache
def _test_file() -> re.Pattern[str]:
    files = [s.unimported.test_files for s in languages().values() if s.unimported.test_files]
    return re.compile("|".join([_TEST_FOLDER, *files]))


def is_test_file(path: str) -> bool:
    return bool(_test_file().search(path))


@dataclass
class Findings:
    dead: list[dict[str, Any]] = field(default_factory=list)
    uncertain: list[dict[str, Any]] = field(default_factory=list)
    roots: list[dict[str, Any]] = field(default_factory=list)


class DeadCode:
    def __init__(self, snap: GraphSnapshot, read: Callable[[str], str | None],
                 used_in_own_file: Callable[[str, list[Any]], set[str]]) -> None:
        self.snap = snap
        self._read_file = read
        self._used_in_own_file = used_in_own_file
        self._texts: dict[str, str | None] = {}
        self._loaders: dict[str, list[tuple[str, str | None]]] = {}
        self._prefixed: list[tuple[str, str]] | None = None
        self._literals: list[tuple[str, str]] = []  # (site, the module a loader names), project-wide
        self.entry_files, self.entry_symbols = declared_entry_points(
            sorted(entry_configs(list(snap.files))), self.read,
            lambda language: {p for p, e in snap.files.items() if e.language == language}, set(snap.files))
        self.entry_files = {**framework_routes(set(snap.files)), **self.entry_files}

    def read(self, path: str) -> str | None:
        if path not in self._texts:
            self._texts[path] = self._read_file(path)
        return self._texts[path]

    def loaders_near(self, path: str) -> list[str]:
        """Loading-by-computed-name sites in `path`'s folder and the folder above (not in itself)."""
        folder_name = posixpath.basename(posixpath.dirname(path))
        found = [site for site, folder in self._prefixed_loaders()
                 if in_folder(path, folder) or (folder.startswith("?") and folder[1:] == folder_name)]
        for folder in dict.fromkeys(near(path)):
            if folder not in self._loaders:
                sites = []
                for other in self._folder_files(folder):
                    entry = self.snap.files[other]
                    if entry.parsed:
                        sites += loading_sites(entry.language, other, self.read(other))
                self._loaders[folder] = sites
            found += [site for site, literal in self._loaders[folder]
                      if not site.startswith(path + ":") and loads(literal, path)]
        return found

    def loaders_of(self, path: str) -> list[str]:
        """The loaders near `path`, and those anywhere whose literal names it (`import_module(
        "pkg.heavy")`, `import('../lib/heavy')`): what `callers` must rule out before "nothing".
        A literal names a module by its last part only, so this is for questions that also look
        for the symbol's name at the site, not for `unreferenced` on its own."""
        self._prefixed_loaders()
        return [*self.loaders_near(path), *(site for site, literal in self._literals if loads(literal, path)
                                            and not site.startswith(path + ":"))]

    def _prefixed_loaders(self) -> list[tuple[str, str]]:
        """Loaders anywhere in the project whose computed name starts with a written folder
        (`import_module(f"pkg.handlers.{name}")`): they may load any file of that folder. Read once
        per question, from at most `_PREFIXED_SCAN` files (a bigger tree keeps the nearby rule).
        The same reading keeps every loader of a literal name (`loaders_of`)."""
        if self._prefixed is None:
            self._prefixed = []
            scanned = [p for p, e in self.snap.files.items() if e.parsed and scans_loaders(e.language)]
            if len(scanned) <= _PREFIXED_SCAN:
                for other in sorted(scanned):
                    text = self.read(other)
                    language = self.snap.files[other].language
                    if text and reads_loaders(language, text):
                        self._prefixed += loaded_folders(language, other, text)
                        sites = loading_sites(language, other, text)
                        self._literals += [(site, literal) for site, literal in sites if literal]
                        # A wholly computed loader reaches the folders its file names as strings:
                        # `import_module(name)` over `os.listdir(here / "plugins")`. ("?" marks a
                        # folder named anywhere, by its last part.)
                        computed = [site for site, literal in sites if literal is None]
                        if computed:
                            self._prefixed += [(computed[0], "?" + word) for word in
                                               sorted(set(_FOLDER_WORD.findall(text)))]
        return self._prefixed

    def _folder_files(self, folder: str) -> list[str]:
        prefix = folder + "/" if folder else ""
        return [p for p in self.snap.files_under(folder) if "/" not in p[len(prefix):]]

    def find(self, files: list[str]) -> Findings:
        snap, out = self.snap, Findings()
        for path in files:
            entry = snap.files[path]
            if is_test_file(path):
                continue
            runs = _unimported(entry.language)
            why = self.entry_files.get(path) or is_entry_file(path, entry.language, self.read(path))
            inbound = snap.predecessors(path)
            # a TypeScript file's own edge says which of its members override others beside them
            members_in = [e for e in snap.side.members_in.get(path, ()) if e.source != path]
            loaders = self.loaders_near(path)
            if why:
                out.roots.append({"path": path, "kind": "file", "reason": f"entry point: {why}"})
            elif not inbound and not members_in and not self._package_runs(path):
                registered = self._registered_type(path, entry)
                if loaders:
                    out.uncertain.append({"path": path, "kind": "file",
                                          "reason": f"may be loaded by a computed name at {loaders[0]}"})
                elif registered:
                    out.uncertain.append({"path": path, "kind": "file", "reason": registered})
                elif api := runs.api(path, entry.symbols()):
                    out.uncertain.append({"path": path, "kind": "file", "reason": runs.api_reason(api[0].name)})
                else:
                    out.dead.append({"path": path, "kind": "file"})
            named = {n.rsplit(".", 1)[-1] for e in (*inbound, *members_in) for n in e.names if not n.startswith("~")}
            candidates = [s for s in entry.symbols()
                          if "." not in s.name and not s.name.startswith("__") and s.name not in named and s.name != "_"
                          and (path, s.name) not in self.entry_symbols]
            # A program's top-level variables are its statements: they run, used or not. A module
            # with a `__main__` guard is a library first: its unused variables are dead.
            if why and not why.startswith("runs as a script"):
                candidates = [s for s in candidates if s.kind not in ("constant", "variable")]
            if runs.load_hooks:  # the runtime calls them when the package loads
                candidates = [s for s in candidates if s.name not in runs.load_hooks]
            if why and runs.entry_runs_whole_file:
                candidates = []  # the class holding `main` (and its file's other types) is what runs
            elif why and path in self.entry_files and runs.declared_entry_is_api:
                candidates = []  # a package's entry file: what it declares is the package's API
            exported = runs.api(path, entry.symbols()) if candidates else []
            used_locally = self._used_in_own_file(path, candidates)
            by_name = self._by_name_users(path) if candidates else {}
            for s in candidates:
                if s.name in used_locally:
                    continue
                item = {"path": path, "symbol": s.name, "kind": s.kind, "start_line": s.start_line}
                users = [p for p, names in by_name.items() if s.name in names]
                decorator = registering_decorator(self.read(path), s.start_line, s.name)
                if loaders:
                    out.uncertain.append({**item, "reason": f"may be loaded by a computed name at {loaders[0]}"})
                elif users:
                    out.uncertain.append({**item, "reason": f"{users[0]} uses .{s.name} on a receiver whose type "
                                                            f"could not be proven (evidence by_name)"})
                elif s in exported:
                    out.uncertain.append({**item, "reason": runs.api_reason(s.name)})
                elif decorator:
                    out.uncertain.append({**item, "reason": f"decorated with @{decorator}, which may register it "
                                                            f"to be called by name"})
                elif s.kind == "class" and registers_on_definition(self.snap, path) and (
                        registered := registered_on_definition(self.snap, path, s.name, self.read)):
                    out.uncertain.append({**item, "reason": registered})
                elif lookups := lookup_sites(s.name, [path, *sorted({e.source for e in inbound})], {path}, self.read, 1):
                    where, line, what = lookups[0]  # `globals()["cmd_" + name]`, `getattr(mod, "helper")`
                    out.uncertain.append({**item, "reason": f"may be looked up at run time at {where}:{line} ({what})"})
                else:
                    out.dead.append(item)
        self._drop_named_in_text(out)
        return out

    def _drop_named_in_text(self, out: Findings) -> None:
        """Move to `undeterminable` what the project's text names outside its own file (a module in
        `pytest_plugins`, a Procfile's `app.main:app`, a bundler's `entry`, Spring XML's class).
        What loads a module by its name reads its attributes by name too (Django reads a settings
        module's `INSTALLED_APPS`, a URL conf's `urlpatterns`): the symbols of a file named so go
        with it. A framework imports an app's conventional modules (`admin.py`, `apps.py`) when the
        app's package is named. Read from at most `_PREFIXED_SCAN` files; a bigger tree keeps the
        import-only rule."""
        if not out.dead or len(self.snap.files) > _PREFIXED_SCAN:
            return
        wanted: dict[object, tuple[str, list[str]]] = {}
        for i, item in enumerate(out.dead):
            path, symbol = item["path"], item.get("symbol")
            runs = _unimported(self.snap.files[path].language)
            wanted[i] = (anchor(path, symbol), runs.symbol_spellings(path, symbol) if symbol
                         else runs.file_spellings(path, self.read(path)))
            if not symbol and runs.modules_read_by_name:
                # named as a module (not only by its path, `python tools/gen.py`: a script, whose
                # unused functions stay dead): what loads it may read its attributes by name
                wanted[(i, "module")] = (wanted[i][0], wanted[i][1][1:])  # [0]: its path
                package = runs.app_package_spelling(path)
                if package is not None:
                    wanted[(i, "app")] = package
        named = find_named(wanted, sorted(self.snap.files), self.read,
                           lambda key: out.dead[key if isinstance(key, int) else key[0]]["path"])
        files: dict[str, str] = {}  # a module loaded by its name (or by its app package's) -> where
        moved: dict[int, str] = {}
        for key in sorted(named, key=str):
            i = key if isinstance(key, int) else key[0]
            if key == (i, "module"):
                files.setdefault(out.dead[i]["path"], named[key])
            elif isinstance(key, tuple):
                module = posixpath.splitext(posixpath.basename(out.dead[i]["path"]))[0]
                moved.setdefault(i, f"its package is named as text at {named[key]}: a framework imports its "
                                    f"{module} module by convention (Django, Celery autodiscovery)")
                files.setdefault(out.dead[i]["path"], named[key])
            else:
                moved[i] = f"named as text at {named[key]}: a tool or framework may load it by that name"
        for i, item in enumerate(out.dead):
            if i not in moved and item.get("symbol") and item["path"] in files:
                moved[i] = (f"its module is loaded by name (named at {files[item['path']]}), and what loads it "
                            f"may read {item['symbol']} by name")
        for i in sorted(moved):
            out.uncertain.append({**out.dead[i], "reason": moved[i]})
        out.dead = [item for i, item in enumerate(out.dead) if i not in moved]

    def _package_runs(self, path: str) -> str:
        """For a file with a load hook (Go's `init`: it runs when its package loads,
        `context_appengine.go` setting a default), a file of its folder's package that is imported
        or run; for a package's init file (Python runs `__init__.py` before any module beneath it),
        a module of the package that is; else ""."""
        support = language_for(path)
        if support is None:
            return ""
        runs = support.unimported
        if path.endswith(support.extensions) and any(s.name in runs.load_hooks for s in self.snap.files[path].symbols()):
            folder = posixpath.dirname(path)
            return next((other for other in self._folder_files(folder)
                         if other != path and other.endswith(support.extensions) and (
                             self.snap.predecessors(other) or is_test_file(other) or other in self.entry_files
                             or is_entry_file(other, support.name, self.read(other)))), "")
        if posixpath.basename(path) != runs.package_init or not runs.does_something(self.read(path)):
            return ""  # an empty `__init__.py` can go without changing what runs
        for other in self.snap.files_under(posixpath.dirname(path)):
            entry = self.snap.files[other]
            if other != path and entry.language == support.name and (
                    self.snap.predecessors(other) or is_test_file(other) or other in self.entry_files
                    or is_entry_file(other, entry.language, self.read(other))):
                return other
        return ""

    def _registered_type(self, path: str, entry: Any) -> str:
        """Why a file nothing imports may still be instantiated: its class carries an annotation
        a framework finds by scanning the classpath (`@Component`, `@Entity`)."""
        if not _unimported(entry.language).annotation_scanned:
            return ""
        for s in entry.symbols():
            decorator = registering_decorator(self.read(path), s.start_line, s.name.rsplit(".", 1)[-1])
            if "." not in s.name and decorator:
                return f"{s.name} is annotated @{decorator}: a framework may find it by scanning and create it"
        return ""

    def _by_name_users(self, path: str) -> dict[str, tuple[str, ...]]:
        """Files that import `path` directly and use members by name on untyped receivers (a module
        passed around as a value: `mod.helper()` with `mod` untyped)."""
        unresolved = self.snap.side.unresolved
        return {e.source: unresolved[e.source] for e in self.snap.predecessors(path) if e.source in unresolved}


def _unimported(language: str) -> RunsUnimported:
    """How code of `language` runs without an import (only by being imported, for one the graph
    does not know)."""
    support = languages().get(language)
    return support.unimported if support is not None else _IMPORTED_ONLY


def used_in_text(text: str, candidates: list[Any], defined_names: list[str]) -> set[str]:
    """Names among `candidates` that `text` mentions beyond their definitions (a mention in a
    comment or string counts as a use: it errs towards "referenced")."""
    names = sorted({s.name.rsplit(".", 1)[-1] for s in candidates}, key=len, reverse=True)
    found = Counter(re.findall(r"(?<![\w$])(" + "|".join(map(re.escape, names)) + r")(?![\w$])", text))
    defined = Counter(defined_names)
    return {name for name in names if found[name] > defined[name]}


__all__ = ["TEXT", "DeadCode", "Findings", "is_test_file", "used_in_text"]
