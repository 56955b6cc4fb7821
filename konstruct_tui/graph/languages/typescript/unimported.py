"""How TypeScript and JavaScript code runs, or is named, without an import (`SUPPORT.unimported`):
package.json entry points, frameworks that load files by their path, `import()`/`require()` of a
computed name, glob loaders, and paths written in configuration (`entry: "./src/worker.ts"`)."""

from __future__ import annotations

import json
import posixpath
import re
from typing import Any

from ...unimported import LITERAL, PROGRAMS, PROGRAMS_WHY, TEST_DATA, OnlyImported, loader_sites

_LOADER = re.compile(r"(?P<site>\bimport\(|\brequire\()\s*" + LITERAL)
_TRIGGERS = ("import(", "require(")
# `import(`../plugins/${name}.js`)`, `require("./x/" + n)`: the written prefix names a folder.
_PREFIXED = re.compile(r"""(?P<site>\bimport|\brequire)\(\s*[`'"](?P<prefix>\.{1,2}/[^`'"$]*)(?:\$\{|[`'"]\s*\+)""")
# Loaders that take every file a pattern matches: Vite's `import.meta.glob('./pages/*.ts')` (also
# a list, and root-relative `/src/...`), webpack's `require.context('./ctx', true, /\.ts$/)`.
# The folder is the pattern's written part, up to its first wildcard (all of it for a context).
_PATTERNED = re.compile(r"""(?P<site>\bimport\.meta\.glob(?:Eager)?|\brequire(?:\s+as\s+\w+\s*\))?\.context)\(\s*\[?\s*[`'"]"""
                        r"""(?P<prefix>\.{0,2}/[^`'"*?{\[]*)""")
_EXT = r"(?:\.[cm]?[jt]sx?)"
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


class TypeScriptUnimported(OnlyImported):
    loader_words: tuple[str, ...] = ("import", "require")
    test_files = r"\.(test|spec|cy)\.[cm]?[jt]sx?$|\.(test|spec)-d\.[cm]?tsx?$"
    conventions: tuple[tuple[re.Pattern[str], str], ...] = (
        TEST_DATA,
        (re.compile(r"\.d\.[cm]?ts$"), "a declaration file: the compiler reads it through tsconfig, not by import"),
        PROGRAMS,
        (re.compile(r"\.bench\.[cm]?[jt]sx?$"), PROGRAMS_WHY),
        (re.compile(r"(^|/)\.storybook/[^/]+\.[cm]?[jt]sx?$"), "Storybook's configuration, loaded by Storybook by name"),
        (re.compile(r"\.stories\.[cm]?[jt]sx?$"), "a story, loaded by Storybook through its stories patterns"),
        (re.compile(r"(^|/)([\w-]+\.)+config\.[cm]?[jt]sx?$|(^|/)(\.[\w-]+rc|gulpfile|Gruntfile)\.[cm]?[jt]s$"),
         "a tool's configuration file, loaded by its tool by name"),
    )

    def names_entry_points(self, config: str) -> bool:
        return posixpath.basename(config) == "package.json"

    def entry_points(self, config: str, text: str, own_files: set[str],
                     all_files: set[str]) -> tuple[dict[str, str], set[tuple[str, str]]]:
        """`main`, `module`, `bin`, `exports` (every string in it), and the script files its `scripts` run."""
        files: dict[str, str] = {}
        base = posixpath.dirname(config)
        for spec in _package_json_targets(text):
            target = _js_file(posixpath.normpath(posixpath.join(base, spec)), all_files)
            if target:
                files[target] = f"an entry point in {config}"
        return files, set()

    def routed(self, all_files: set[str]) -> dict[str, str]:
        """Next.js `app/**/page.tsx`, `pages/**`, `middleware.ts`; Remix's `app/routes/**`;
        SvelteKit's `+page.ts`; Nuxt's `pages/`, `plugins/`, auto-imported `composables/`; Astro's
        and Gatsby's `src/pages/**`."""
        found: dict[str, str] = {}
        for framework, config_name, loaded in _ROUTED:
            for config in sorted(f for f in all_files if config_name.search(f)):
                base = posixpath.dirname(config)
                prefix = base + "/" if base else ""
                for path in all_files:
                    if path.startswith(prefix) and loaded.match(path[len(prefix):]) and path not in found:
                        found[path] = f"loaded by {framework} by its path (beside {config})"
        return found

    def loading_sites(self, path: str, text: str) -> list[tuple[str, str | None]]:
        return loader_sites(_LOADER, _TRIGGERS, path, text)

    def loaded_folders(self, path: str, text: str) -> list[tuple[str, str]]:
        """Folders relative to the loader (Vite reads `/src/...` from the project's root)."""
        found = []
        for match in [*_PREFIXED.finditer(text), *_PATTERNED.finditer(text)]:
            prefix, site = match.group("prefix"), match.group("site").strip()
            site = "require.context" if site.endswith(".context") else site  # `(require as any).context` too
            base = posixpath.dirname(path)
            if prefix.startswith("/"):
                base, prefix = "", "./" + prefix.lstrip("/")
            if site.endswith(".context") and not prefix.endswith("/"):
                prefix += "/"  # a context's argument is the folder itself
            folder = posixpath.normpath(posixpath.join(base, prefix if prefix.endswith("/")
                                                       else posixpath.dirname(prefix)))
            if folder in ("", ".") or folder.startswith(".."):
                continue
            found.append((f"{path}:{text.count(chr(10), 0, match.start()) + 1} ({site})", folder))
        return found

    def file_spellings(self, path: str, text: str | None) -> list[str]:
        """`./src/main.ts`, `src/workers/sync`, serverless's `src/handlers/mail.handler`."""
        stem, ext = posixpath.splitext(path)
        if not ext:
            return []
        base = posixpath.basename(stem)
        folder = posixpath.basename(posixpath.dirname(stem))
        named = f"{re.escape(folder)}/{re.escape(base)}" if folder else re.escape(base) + f"(?={_EXT})"
        return [r"(?<![\w.@-])" + named + rf"{_EXT}?(?=['\"`?#\s)]|\.[A-Za-z_]|$)"]


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


UNIMPORTED = TypeScriptUnimported()
