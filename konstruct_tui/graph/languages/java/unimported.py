"""How Java code runs without an import (`SUPPORT.unimported`): a `main` method, a service
provider listed under `META-INF/services/`, `Class.forName` and `ServiceLoader`, classes a framework
finds by their annotation, and qualified class names written as text (Spring XML's `class=`)."""

from __future__ import annotations

import posixpath
import re

from ...unimported import PROGRAMS, TEST_DATA, OnlyImported, loader_sites

_LOADER = re.compile(r"(?P<site>\bClass\.forName\(|\.loadClass\(|\bServiceLoader\.load\()")
_TRIGGERS = ("forName(", "loadClass(", "ServiceLoader.load(")
_MAIN = re.compile(r"\b(?:public\s+static|static\s+public)\s+void\s+main\s*\(")
_PACKAGE = re.compile(r"^\s*package\s+([\w.]+)\s*;", re.MULTILINE)
_SERVICES = "META-INF/services/"


class JavaUnimported(OnlyImported):
    entry_runs_whole_file = True  # the class holding `main` (and its file's other types) is what runs
    annotation_scanned = True  # `@Component`, `@Entity`: found on the classpath and created
    # Maven's and Gradle's test source roots hold tests of any language built with them
    test_files = r"(Tests?|IT|TestCase)\.java$|(^|/)src/(test|it|integrationTest)/"
    conventions: tuple[tuple[re.Pattern[str], str], ...] = (
        (re.compile(r"(^|/)(package|module)-info\.java$"), "a package or module descriptor javac reads"),
        TEST_DATA,
        PROGRAMS,
    )

    def entry_reason(self, path: str, text: str) -> str:
        return "declares public static void main" if _MAIN.search(text) else ""

    def names_entry_points(self, config: str) -> bool:
        return _SERVICES in config

    def entry_points(self, config: str, text: str, own_files: set[str],
                     all_files: set[str]) -> tuple[dict[str, str], set[tuple[str, str]]]:
        """java.util.ServiceLoader instantiates each class listed."""
        files: dict[str, str] = {}
        for line in text.splitlines():
            qualified = line.split("#", 1)[0].strip().split("$", 1)[0]
            suffix = "/" + qualified.replace(".", "/") + ".java"
            target = next((f for f in sorted(all_files) if ("/" + f).endswith(suffix)), None) if qualified else None
            if target:
                files[target] = f"a service provider listed in {config}"
        return files, set()

    def loading_sites(self, path: str, text: str) -> list[tuple[str, str | None]]:
        return loader_sites(_LOADER, _TRIGGERS, path, text)

    def file_spellings(self, path: str, text: str | None) -> list[str]:
        """Its qualified class name, `a.impl.Codec`."""
        package = _PACKAGE.search(text) if text else None
        qualified = f"{package.group(1)}.{posixpath.basename(posixpath.splitext(path)[0])}" if package else ""
        return [r"(?<![\w.])" + re.escape(qualified) + r"(?![\w])"] if qualified else []


UNIMPORTED = JavaUnimported()
