"""How Python code runs, or is named, without an import (`SUPPORT.unimported`): `python -m`, a
`__main__` guard, packaging entry points, `importlib` loaders, and module names written as text
(`pkg.mod:app` in a Procfile, `INSTALLED_APPS`)."""

from __future__ import annotations

import posixpath
import re
import tomllib
from typing import Any

from ...unimported import LITERAL, PROGRAMS, TEST_DATA, OnlyImported, loader_sites

_LOADER = re.compile(
    r"(?P<site>importlib\.import_module\(|\bimport_module\(|\b__import__\(|\bpkgutil\.(?:iter_modules|walk_packages)"
    r"|\bspec_from_file_location\(|\bSourceFileLoader\(|\brunpy\.run_(?:module|path)\(|\brun_module\("
    r"|\bentry_points\(|\bgetattr\(\s*(?:sys\.modules\[[^\]]*\]|[\w.]*mod(?:ule)?s?\b)\s*,\s*(?!['\"]))\s*"
    + LITERAL)
# A substring each loader spelling above contains: lines without one are not read by the expression.
_TRIGGERS = ("import_module", "__import__", "pkgutil", "spec_from_file_location", "SourceFileLoader", "run_module",
             "run_path", "entry_points", "getattr")
# `import_module(f"pkg.handlers.{name}")`: a computed name with a written prefix names its package.
_PREFIXED = re.compile(r"""(?P<site>\bimport_module|\b__import__)\(\s*f?['"](?P<prefix>\.*[\w.]*?)\.?(?:\{|%|['"]\s*\+)""")
_MAIN_GUARD = re.compile(r"""^\s*if\s*\(?\s*(?:__name__\s*==\s*['"]__main__['"]|['"]__main__['"]\s*==\s*__name__)\s*\)?\s*:""",
                         re.MULTILINE)
_CONFIGS = ("pyproject.toml", "setup.cfg", "setup.py")
# Modules a framework imports from every app package it is given by name: Django's `admin.py`,
# `apps.py`, `models.py` (INSTALLED_APPS), Celery's `tasks.py` (autodiscover_tasks).
_AUTODISCOVERED = frozenset({"admin", "apps", "models", "tasks"})


class PythonUnimported(OnlyImported):
    declared_entry_is_api = False  # a script's unused functions are dead
    package_init = "__init__.py"  # Python runs it before any module beneath it
    loader_words: tuple[str, ...] = ("import", "require")
    modules_read_by_name = True
    test_files = r"(^|/)test_[^/]*\.py$|_test\.py$|(^|/)tests\.py$|(^|/)conftest\.py$"
    conventions: tuple[tuple[re.Pattern[str], str], ...] = (
        (re.compile(r"(^|/)__main__\.pyi?$"), "__main__.py runs with python -m"),
        (re.compile(r"(^|/)(setup|noxfile|fabfile|hatch_build|dodo)\.py$"), "run by its build or task tool by name"),
        (re.compile(r"(^|/)docs?/(source/)?conf\.py$"), "Sphinx's configuration, run by sphinx-build"),
        TEST_DATA,
        PROGRAMS,
        (re.compile(r"(^|/)migrations/\d{4}_\w+\.py$|(^|/)(alembic|migrations)/(env\.py|versions/[^/]+\.py)$"),
         "a migration, run by its framework from its folder"),
        (re.compile(r"(^|/)management/commands/[^/]+\.py$|(^|/)templatetags/[^/]+\.py$"),
         "a Django command or template tag library, found by its folder"),
    )

    def entry_reason(self, path: str, text: str) -> str:
        return 'runs as a script (if __name__ == "__main__")' if _MAIN_GUARD.search(text) else ""

    def names_entry_points(self, config: str) -> bool:
        return posixpath.basename(config) in _CONFIGS

    def entry_points(self, config: str, text: str, own_files: set[str],
                     all_files: set[str]) -> tuple[dict[str, str], set[tuple[str, str]]]:
        """`[project.scripts]`, `[project.gui-scripts]`, `[project.entry-points.*]`, poetry
        scripts, setup.cfg and setup.py `console_scripts` (`name = pkg.mod:func`)."""
        files: dict[str, str] = {}
        symbols: set[tuple[str, str]] = set()
        base = posixpath.dirname(config)
        for value in _script_targets(posixpath.basename(config), text):
            module, _, attribute = value.partition(":")
            target = _module_file(base, module.strip(), own_files)
            if target:
                files[target] = f"an entry point in {config}"
                if attribute.strip():
                    symbols.add((target, attribute.strip().split(".")[0]))
        return files, symbols

    def loading_sites(self, path: str, text: str) -> list[tuple[str, str | None]]:
        pattern = _LOADER
        aliases = re.findall(r"\bimport_module\s+as\s+(\w+)", text)  # `import_module as load`, then `load(name)`
        if aliases:
            pattern = re.compile(pattern.pattern.replace("(?P<site>", "(?P<site>\\b(?:" + "|".join(aliases) + r")\(|", 1))
        # Loaders by file path name the module first and the file second: never a literal module.
        return loader_sites(pattern, (*_TRIGGERS, *(f"{a}(" for a in aliases)), path, text,
                            lambda match: None if any(w in match.group("site") for w in ("spec_from", "Loader", "run_path"))
                            else match.groupdict().get("literal"))

    def loaded_folders(self, path: str, text: str) -> list[tuple[str, str]]:
        """A dotted package turned into a path suffix; relative names from the loader's package."""
        found = []
        for match in _PREFIXED.finditer(text):
            prefix, site = match.group("prefix"), match.group("site").strip()
            dots = len(prefix) - len(prefix.lstrip("."))
            folder = prefix[dots:].strip(".").replace(".", "/")
            if dots:  # relative to the loader's package: one dot is its own folder
                base = posixpath.dirname(path)
                for _ in range(dots - 1):
                    base = posixpath.dirname(base)
                folder = posixpath.join(base, folder) if folder else base
            if folder in ("", ".") or folder.startswith(".."):
                continue
            found.append((f"{path}:{text.count(chr(10), 0, match.start()) + 1} ({site})", folder))
        return found

    def file_spellings(self, path: str, text: str | None) -> list[str]:
        found = [r"(?<![\w.-])" + re.escape(path) + r"(?![\w])"]  # `python tools/gen.py`
        for dotted in _dotted(posixpath.splitext(path)[0]):
            if "." in dotted:
                found.append(r"(?<![\w.])" + re.escape(dotted) + r"(?![\w])")
            else:  # a top-level module is named as `main:app`, `python -m main` or `"style.Fancy"`
                found += [r"(?<![\w.])" + re.escape(dotted) + r":(?=[A-Za-z_])",
                          r"-m\s+" + re.escape(dotted) + r"(?![\w.])",
                          r"(?<=['\"])" + re.escape(dotted) + r"\.[A-Za-z_][\w.]*(?=['\"])"]
        return found

    def symbol_spellings(self, path: str, name: str) -> list[str]:
        """`pkg.mod:func`, `pkg.mod.func`, `main:app`."""
        return [r"(?<![\w.])" + re.escape(dotted) + ("[.:]" if "." in dotted else ":") + re.escape(name) + r"(?![\w])"
                for dotted in _dotted(posixpath.splitext(path)[0]) if dotted]

    def app_package_spelling(self, path: str) -> tuple[str, list[str]] | None:
        """`shop/payments/admin.py`: its package's dotted name written as a whole string
        (`"shop.payments"`, or its AppConfig's `"shop.payments.apps.PaymentsConfig"`)."""
        stem = posixpath.splitext(path)[0]
        if posixpath.basename(stem) not in _AUTODISCOVERED or "/" not in stem:
            return None
        package = posixpath.dirname(stem)
        # the package itself, or its AppConfig (`"shop.payments.apps.PaymentsConfig"`): Django takes both
        return posixpath.basename(package), [r"(?<=['\"])" + re.escape(dotted) + r"(?:\.apps\.\w+)?(?=['\"])"
                                             for dotted in _dotted(package) if dotted]

    def does_something(self, text: str | None) -> bool:
        """Anything beyond comments and a docstring."""
        code = re.sub(r"#[^\n]*", "", text or "").strip()
        code = re.sub(r'^(?:[rRbBuU]{0,2})("""|\'\'\')(?:.|\n)*?\1', "", code, count=1).strip()
        return bool(code)


def _dotted(stem: str) -> list[str]:
    """Every rooting of a module's dotted name: `src.pkg.mod`, `pkg.mod`, `mod`."""
    parts = stem.split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return [".".join(parts[i:]) for i in range(len(parts))]


def _script_targets(name: str, text: str) -> list[str]:
    if name == "pyproject.toml":
        try:
            data = tomllib.loads(text)
        except (tomllib.TOMLDecodeError, ValueError):
            return []
        project = data.get("project", {}) if isinstance(data.get("project"), dict) else {}
        tables: list[Any] = [project.get("scripts"), project.get("gui-scripts")]
        entry = project.get("entry-points")
        tables += list(entry.values()) if isinstance(entry, dict) else []
        poetry = data.get("tool", {}).get("poetry", {}) if isinstance(data.get("tool"), dict) else {}
        tables.append(poetry.get("scripts") if isinstance(poetry, dict) else None)
        return [v for t in tables if isinstance(t, dict) for v in t.values() if isinstance(v, str)]
    if name == "setup.cfg":
        return re.findall(r"^\s*[\w.-]+\s*=\s*([\w.]+\s*:\s*[\w.]+)", text, re.MULTILINE)
    if name == "setup.py":  # entry_points={"console_scripts": ["tool = pkg.cli:main"]}
        return re.findall(r"""['"]\s*[\w.-]+\s*=\s*([\w.]+\s*:\s*[\w.]+)\s*(?:\[[^\]]*\])?\s*['"]""", text)
    return []


def _module_file(base: str, module: str, python_files: set[str]) -> str | None:
    parts = module.replace(".", "/")
    for root in (base, posixpath.join(base, "src")):
        for candidate in (f"{parts}.py", f"{parts}/__init__.py", f"{parts}/__main__.py"):
            path = posixpath.normpath(posixpath.join(root, candidate)).lstrip("./") if root else candidate
            if path in python_files:
                return path
    return None


UNIMPORTED = PythonUnimported()
