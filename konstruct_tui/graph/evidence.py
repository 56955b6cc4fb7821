"""What keeps an empty answer honest: call-site lines, code loaded by a computed name, and entry points.

A graph built from imports and typed member uses cannot see a module loaded with
`importlib.import_module(f"...{name}")`, a class found with `Class.forName`, or a script run as
`python -m pkg.tool`: nothing imports them, yet they run. `unreferenced` must not call them dead,
so it asks here whether a loader sits near a file (its own folder or the folder above) and whether
the file is an entry point (a `__main__` guard, `[project.scripts]`, package.json `bin`, a Java
`main`, Go `package main`, a test file).
"""

from __future__ import annotations

import json
import posixpath
import re
import tomllib
from collections.abc import Callable
from typing import Any

Reader = Callable[[str], "str | None"]

# Loading code by a computed name, per language. Each pattern names what it found in the reason.
# A loader whose argument is a plain string literal names one module (`__import__("pydoc")`): it
# is not a computed name, and only a file of that name is concerned (group `literal`).
_LITERAL = r"""(?:['"](?P<literal>[\w./@-]*)['"]\s*[,)])?"""
_LOADERS = {
    "python": re.compile(
        r"(?P<site>importlib\.import_module\(|\bimport_module\(|\b__import__\(|\bpkgutil\.(?:iter_modules|walk_packages)"
        r"|\bspec_from_file_location\(|\bSourceFileLoader\(|\brunpy\.run_(?:module|path)\(|\brun_module\("
        r"|\bentry_points\(|\bgetattr\(\s*(?:sys\.modules\[[^\]]*\]|[\w.]*mod(?:ule)?s?\b)\s*,\s*(?!['\"]))\s*"
        + _LITERAL),
    "typescript": re.compile(r"(?P<site>\bimport\(|\brequire\()\s*" + _LITERAL),
    "java": re.compile(r"(?P<site>\bClass\.forName\(|\.loadClass\(|\bServiceLoader\.load\()"),
    "go": re.compile(r"(?P<site>\bplugin\.Open\()"),
}
# A substring each loader spelling above contains: lines without one are not read by the expression.
_TRIGGERS = {
    "python": ("import_module", "__import__", "pkgutil", "spec_from_file_location", "SourceFileLoader", "run_module",
               "run_path", "entry_points", "getattr"),
    "typescript": ("import(", "require("),
    "java": ("forName(", "loadClass(", "ServiceLoader.load("),
    "go": ("plugin.Open(",),
}
DECORATOR_LINE = re.compile(r"^\s*@\s*([\w.]+)")
_MAIN_GUARD = re.compile(r"""^\s*if\s*\(?\s*(?:__name__\s*==\s*['"]__main__['"]|['"]__main__['"]\s*==\s*__name__)\s*\)?\s*:""",
                         re.MULTILINE)
_JAVA_MAIN = re.compile(r"\b(?:public\s+static|static\s+public)\s+void\s+main\s*\(")
_GO_MAIN = re.compile(r"^\s*package\s+main\b", re.MULTILINE)
_GO_COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)
# a package clause and nothing but blank imports (`import _ "golang.org/x/tools/cmd/stringer"`)
_GO_PINS = re.compile(r"""\s*package\s+\w+\s*(?:import\s*(?:_\s*"[^"]+"|\(\s*(?:_\s*"[^"]+"\s*)+\))\s*)+""")
# Files a tool runs or reads by their name, never imported by the project's own code.
_BY_CONVENTION = (
    (re.compile(r"(^|/)(package|module)-info\.java$"), "a package or module descriptor javac reads"),
    (re.compile(r"(^|/)(setup|noxfile|fabfile|hatch_build|dodo)\.py$"), "run by its build or task tool by name"),
    (re.compile(r"(^|/)docs?/(source/)?conf\.py$"), "Sphinx's configuration, run by sphinx-build"),
    (re.compile(r"(^|/)doc\.go$"), "a Go package's documentation, read by go doc"),
    (re.compile(r"(^|/)(fixtures?|__fixtures__|testdata|__mocks__)/"), "test data, read or mocked in by tests by its path"),
    (re.compile(r"\.d\.[cm]?ts$"), "a declaration file: the compiler reads it through tsconfig, not by import"),
    (re.compile(r"(^|/)(examples?|benchmarks?|bench|__benchmarks__|bin)/|\.bench\.[cm]?[jt]sx?$"),
     "a program of its own, by its folder's convention"),
    (re.compile(r"(^|/)migrations/\d{4}_\w+\.py$|(^|/)(alembic|migrations)/(env\.py|versions/[^/]+\.py)$"),
     "a migration, run by its framework from its folder"),
    (re.compile(r"(^|/)management/commands/[^/]+\.py$|(^|/)templatetags/[^/]+\.py$"),
     "a Django command or template tag library, found by its folder"),
    (re.compile(r"(^|/)\.storybook/[^/]+\.[cm]?[jt]sx?$"), "Storybook's configuration, loaded by Storybook by name"),
    (re.compile(r"\.stories\.[cm]?[jt]sx?$"), "a story, loaded by Storybook through its stories patterns"),
    (re.compile(r"(^|/)([\w-]+\.)+config\.[cm]?[jt]sx?$|(^|/)(\.[\w-]+rc|gulpfile|Gruntfile)\.[cm]?[jt]s$"),
     "a tool's configuration file, loaded by its tool by name"),
)


def member_lines(text: str | None, name: str) -> list[int] | None:
    """1-based lines where `name` is used as a member (`x.name`), or None when the text is unknown."""
    if text is None:
        return None
    word = re.compile(rf"\.\s*{re.escape(name)}(?![\w$])")
    return [i for i, line in enumerate(text.splitlines(), 1) if word.search(line)]


def name_lines(text: str | None, name: str) -> list[int] | None:
    if text is None:
        return None
    word = re.compile(rf"(?<![\w$]){re.escape(name)}(?![\w$])")
    return [i for i, line in enumerate(text.splitlines(), 1) if word.search(line)]


def declaration_head(text: str | None, start_line: int, name: str) -> list[str]:
    """The lines of `name`'s declaration at `start_line` up to the one that names it, with the
    decorator or annotation lines right above it (a grammar may start a declaration below them):
    where its decorators, annotations and modifiers are written."""
    if not text:
        return []
    lines = text.splitlines()
    first = max(start_line - 1, 0)
    while first > 0 and DECORATOR_LINE.match(lines[first - 1]):
        first -= 1
    named = re.compile(rf"(?<![\w$]){re.escape(name)}(?![\w$])")
    head: list[str] = []
    for line in lines[first:start_line + 40]:
        head.append(line)
        decorator = DECORATOR_LINE.match(line)
        if named.search(line[decorator.end():] if decorator else line):
            break
    return head


def loading_sites(language: str, path: str, text: str | None) -> list[tuple[str, str | None]]:
    """(`path:line (what)`, the literal module name or None when computed) for every place `text`
    loads code at run time by a name the graph does not resolve."""
    pattern = _LOADERS.get(language)
    if pattern is None or text is None:
        return []
    found = []
    if language == "python":  # `from importlib import import_module as load`, then `load(name)`
        aliases = re.findall(r"\bimport_module\s+as\s+(\w+)", text)
        if aliases:
            pattern = re.compile(pattern.pattern.replace("(?P<site>", "(?P<site>\\b(?:" + "|".join(aliases) + r")\(|", 1))
    triggers = (*_TRIGGERS.get(language, ()), *(f"{a}(" for a in (aliases if language == "python" else ())))
    for start, end in _lines_holding(text, triggers):  # the expression is slow; these substrings are not
        for match in pattern.finditer(text, start, end):
            line = text.count("\n", 0, match.start()) + 1
            site = match.group("site")
            # Loaders by file path name the module first and the file second: never a literal module.
            literal = None if "spec_from" in site or "Loader" in site or "run_path" in site else match.groupdict().get("literal")
            found.append((f"{path}:{line} ({match.group('site').strip().rstrip('(').strip()})", literal))
    return found


def _lines_holding(text: str, words: tuple[str, ...]) -> list[tuple[int, int]]:
    """(start, end) of each line holding one of `words`, with the line after it (a call's argument
    may follow on the next line), merged and in order."""
    spans = []
    for word in words:
        at = text.find(word)
        while at >= 0:
            start = text.rfind("\n", 0, at) + 1
            end = text.find("\n", text.find("\n", at) + 1)
            spans.append((start, len(text) if end < 0 or text.find("\n", at) < 0 else end))
            at = text.find(word, at + len(word))
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


# A computed name with a written prefix names the folder it loads from, wherever that folder is:
# `import_module(f"pkg.handlers.{name}")`, `import(`../plugins/${name}.js`)`, `require("./x/" + n)`.
_PREFIXED = {
    "python": re.compile(r"""(?P<site>\bimport_module|\b__import__)\(\s*f?['"](?P<prefix>\.*[\w.]*?)\.?(?:\{|%|['"]\s*\+)"""),
    "typescript": re.compile(r"""(?P<site>\bimport|\brequire)\(\s*[`'"](?P<prefix>\.{1,2}/[^`'"$]*)(?:\$\{|[`'"]\s*\+)"""),
}
# Loaders that take every file a pattern matches: Vite's `import.meta.glob('./pages/*.ts')` (also
# a list, and root-relative `/src/...`), webpack's `require.context('./ctx', true, /\.ts$/)`.
# The folder is the pattern's written part, up to its first wildcard (all of it for a context).
_PATTERNED = re.compile(r"""(?P<site>\bimport\.meta\.glob(?:Eager)?|\brequire(?:\s+as\s+\w+\s*\))?\.context)\(\s*\[?\s*[`'"]"""
                        r"""(?P<prefix>\.{0,2}/[^`'"*?{\[]*)""")


def loaded_folders(language: str, path: str, text: str | None) -> list[tuple[str, str]]:
    """(`path:line (what)`, folder) for every loader in `text` whose computed name starts with a
    written folder: the folder (workspace-relative for TS/JS and relative Python names, a dotted
    package turned into a path suffix otherwise) whose files it may load."""
    pattern = _PREFIXED.get(language)
    if pattern is None or text is None:
        return []
    found = []
    matches = [*pattern.finditer(text), *(_PATTERNED.finditer(text) if language == "typescript" else ())]
    for match in matches:
        prefix, site = match.group("prefix"), match.group("site").strip()
        site = "require.context" if site.endswith(".context") else site  # `(require as any).context` too
        if language == "typescript":
            base = posixpath.dirname(path)
            if prefix.startswith("/"):  # Vite reads `/src/...` from the project's root
                base, prefix = "", "./" + prefix.lstrip("/")
            if site.endswith(".context") and not prefix.endswith("/"):
                prefix += "/"  # a context's argument is the folder itself
            folder = posixpath.normpath(posixpath.join(base, prefix if prefix.endswith("/")
                                                       else posixpath.dirname(prefix)))
        else:
            dots = len(prefix) - len(prefix.lstrip("."))
            dotted = prefix[dots:].strip(".").replace(".", "/")
            if dots:  # relative to the loader's package: one dot is its own folder
                base = posixpath.dirname(path)
                for _ in range(dots - 1):
                    base = posixpath.dirname(base)
                dotted = posixpath.join(base, dotted) if dotted else base
            folder = dotted
        if folder in ("", ".") or folder.startswith(".."):
            continue
        line = text.count("\n", 0, match.start()) + 1
        found.append((f"{path}:{line} ({site})", folder))
    return found


def in_folder(path: str, folder: str) -> bool:
    """Whether `path` is under `folder`, or under a folder ending with it (a dotted package)."""
    return path.startswith(folder + "/") or f"/{folder}/" in f"/{path}"


def loads(literal: str | None, path: str) -> bool:
    """Whether a loader with this literal argument (None: a computed name) may load `path`."""
    if literal is None:
        return True
    stem = posixpath.splitext(posixpath.basename(path))[0]
    last = re.split(r"[./]", literal.rstrip("/"))[-1] if literal else ""
    return bool(last) and (last == stem or (stem in ("__init__", "index") and
                                            last == posixpath.basename(posixpath.dirname(path))))


def near(path: str) -> tuple[str, str]:
    """The folders whose loaders may load `path`: its own and the one above."""
    folder = posixpath.dirname(path)
    return folder, posixpath.dirname(folder) if folder else ""


def is_entry_file(path: str, language: str, text: str | None) -> str:
    """Why `path` is run without being imported ("" when it is not an entry point)."""
    if posixpath.basename(path) in ("__main__.py", "__main__.pyi"):
        return "__main__.py runs with python -m"
    for pattern, why in _BY_CONVENTION:
        if pattern.search(path):
            return why
    if text is None:
        return ""
    if language == "python" and _MAIN_GUARD.search(text):
        return 'runs as a script (if __name__ == "__main__")'
    if language == "java" and _JAVA_MAIN.search(text):
        return "declares public static void main"
    if language == "go" and _GO_MAIN.search(text):
        return "package main"
    if language == "go" and _GO_PINS.fullmatch(_GO_COMMENTS.sub("", text)):
        return "holds only blank imports: it pins its module's dependencies (the tools.go convention)"
    return ""


def declared_entry_points(config_paths: list[str], read: Reader, python_files: set[str],
                          all_files: set[str]) -> tuple[dict[str, str], set[tuple[str, str]]]:
    """({file: why} from packaging metadata, {(file, symbol)} named as script targets).

    Python: `[project.scripts]`, `[project.gui-scripts]`, `[project.entry-points.*]`, poetry
    scripts, setup.cfg and setup.py `console_scripts` (`name = pkg.mod:func`). package.json: `main`,
    `module`, `bin`, `exports` (every string in it), and the script files its `scripts` run."""
    files: dict[str, str] = {}
    symbols: set[tuple[str, str]] = set()
    for config in config_paths:
        text = read(config)
        if not text:
            continue
        base = posixpath.dirname(config)
        name = posixpath.basename(config)
        if "META-INF/services/" in config:  # java.util.ServiceLoader instantiates each class listed
            for line in text.splitlines():
                qualified = line.split("#", 1)[0].strip().split("$", 1)[0]
                suffix = "/" + qualified.replace(".", "/") + ".java"
                target = next((f for f in sorted(all_files) if ("/" + f).endswith(suffix)), None) if qualified else None
                if target:
                    files[target] = f"a service provider listed in {config}"
            continue
        if name == "package.json":
            for spec in _package_json_targets(text):
                target = _js_file(posixpath.normpath(posixpath.join(base, spec)), all_files)
                if target:
                    files[target] = f"an entry point in {config}"
            continue
        for value in _python_script_targets(name, text):
            module, _, attribute = value.partition(":")
            target = _python_file(base, module.strip(), python_files)
            if target:
                files[target] = f"an entry point in {config}"
                if attribute.strip():
                    symbols.add((target, attribute.strip().split(".")[0]))
    return files, symbols


_JS = r"\.[cm]?[jt]sx?$"
# Frameworks that load files by where they are, beside their configuration file:
# (name, configuration file, files under the configuration's folder).
_ROUTED = (
    ("Next.js", re.compile(r"(^|/)next\.config\.[cm]?[jt]s$"), re.compile(
        r"^(src/)?app/(.+/)?(page|layout|route|loading|error|global-error|not-found|template|default"
        r"|opengraph-image|twitter-image|icon|apple-icon|sitemap|robots|manifest)" + _JS
        + r"|^(src/)?(pages/.+|middleware|instrumentation)" + _JS)),
    ("Remix / React Router", re.compile(r"(^|/)(remix|react-router)\.config\.[cm]?[jt]s$"), re.compile(
        r"^app/(routes/.+|root|routes|entry\.client|entry\.server)" + _JS)),
    ("SvelteKit", re.compile(r"(^|/)svelte\.config\.[cm]?js$"), re.compile(
        r"^src/(routes/(.+/)?\+(page|layout|server|error)(\.server)?|hooks(\.server|\.client)?|params/[^/]+)" + _JS)),
    ("Nuxt", re.compile(r"(^|/)nuxt\.config\.[cm]?[jt]s$"), re.compile(
        r"^(app/)?(pages|layouts|middleware|plugins|server|composables|utils|components|modules)/.+" + _JS
        + r"|^(app/)?(app|error)\.config" + _JS)),
    ("Astro", re.compile(r"(^|/)astro\.config\.[cm]?[jt]s$"), re.compile(
        r"^src/(pages/.+|middleware|content/config|content\.config|actions/index)" + _JS)),
    ("Gatsby", re.compile(r"(^|/)gatsby-config\.[cm]?[jt]s$"), re.compile(
        r"^(gatsby-(node|browser|ssr)|src/pages/.+|src/api/.+)" + _JS)),
)


def framework_routes(all_files: set[str]) -> dict[str, str]:
    """{file: why} for files a framework loads by their path, beside its configuration: Next.js
    `app/**/page.tsx`, `pages/**`, `middleware.ts`; Remix's `app/routes/**`; SvelteKit's
    `+page.ts`; Nuxt's `pages/`, `plugins/`, auto-imported `composables/`; Astro's and Gatsby's
    `src/pages/**`."""
    found: dict[str, str] = {}
    for framework, config_name, loaded in _ROUTED:
        for config in sorted(f for f in all_files if config_name.search(f)):
            base = posixpath.dirname(config)
            prefix = base + "/" if base else ""
            for path in all_files:
                if path.startswith(prefix) and loaded.match(path[len(prefix):]) and path not in found:
                    found[path] = f"loaded by {framework} by its path (beside {config})"
    return found


def _python_script_targets(name: str, text: str) -> list[str]:
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


def _python_file(base: str, module: str, python_files: set[str]) -> str | None:
    parts = module.replace(".", "/")
    for root in (base, posixpath.join(base, "src")):
        for candidate in (f"{parts}.py", f"{parts}/__init__.py", f"{parts}/__main__.py"):
            path = posixpath.normpath(posixpath.join(root, candidate)).lstrip("./") if root else candidate
            if path in python_files:
                return path
    return None


def _package_json_targets(text: str) -> list[str]:
    try:
        data = json.loads(text)
    except ValueError:
        return []
    if not isinstance(data, dict):
        return []
    found: list[str] = []

    def strings(value: Any) -> None:
        if isinstance(value, str):
            found.append(value)
        elif isinstance(value, dict):
            for inner in value.values():
                strings(inner)
        elif isinstance(value, list):
            for inner in value:
                strings(inner)

    for key in ("main", "module", "bin", "exports", "browser", "types", "typings"):
        strings(data.get(key))
    scripts = data.get("scripts")
    if isinstance(scripts, dict):  # "build": "node scripts/build.mjs && tsx tools/gen.ts"
        for command in scripts.values():
            if isinstance(command, str):
                found += re.findall(r"(?<![\w@:/=-])(\.{0,2}/?[\w.@-]+(?:/[\w.@-]+)*\.[cm]?[jt]sx?)(?![\w/])", command)
    return [s for s in found if s.startswith(".") or "/" in s or "." in s]


def _js_file(spec: str, files: set[str]) -> str | None:
    spec = spec.lstrip("./") if spec.startswith("./") else spec
    stem, dot, ext = spec.rpartition(".")
    candidates = [spec, *(f"{spec}{e}" for e in (".ts", ".tsx", ".js", ".mjs", ".cjs")),
                  *(f"{spec}/index{e}" for e in (".ts", ".tsx", ".js"))]
    if dot and ext in ("js", "mjs", "cjs", "jsx"):
        candidates += [f"{stem}.ts", f"{stem}.tsx", f"{stem}.mts", f"{stem}.cts"]
        for out in ("dist/", "lib/", "build/"):
            if stem.startswith(out):
                candidates += [f"src/{stem[len(out):]}.ts", f"src/{stem[len(out):]}.tsx"]
    return next((c for c in candidates if c in files), None)
