"""Every language is a plugin of one shape: its `SUPPORT` declares what the core asks of it (see
`graph.facts.LanguageSupport`), so the core never reads an optional attribute or names a language
to decide how to treat it."""

from __future__ import annotations

import ast
import re
import types
import typing
from pathlib import Path

import pytest

from konstruct_tui.graph.facts import LanguageSupport, RunsUnimported
from konstruct_tui.graph.languages import language_for, languages

GRAPH = Path(__file__).parents[2] / "konstruct_tui" / "graph"
DECLARED = {
    name: hint for name, hint in typing.get_type_hints(LanguageSupport).items()
}


def _members(protocol: type) -> set[str]:
    """What a protocol declares: its annotated attributes and its methods."""
    return set(typing.get_type_hints(protocol)) | {
        name for name, value in vars(protocol).items() if callable(value) and not name.startswith("_")}


def _undeclared(value: object, protocol: type) -> set[str]:
    return {member for member in _members(protocol) if not hasattr(value, member)}


def _is_protocol(hint: object) -> bool:
    return isinstance(hint, type) and bool(getattr(hint, "_is_protocol", False))


@pytest.mark.parametrize("name", sorted(languages()))
def test_each_support_declares_every_attribute_of_the_protocol(name: str) -> None:
    support = languages()[name]
    assert support.name == name
    missing = _undeclared(support, LanguageSupport)
    assert not missing, f"{name} does not declare {sorted(missing)}"
    for attribute, hint in DECLARED.items():
        value = getattr(support, attribute)
        kinds = [k for k in typing.get_args(hint) if k is not type(None)] if typing.get_origin(hint) is types.UnionType else [hint]
        if value is None:
            assert type(None) in typing.get_args(hint), f"{name}.{attribute} is None, not {hint}"
        elif _is_protocol(kinds[0]):  # a sub-object (`builds`, `unimported`...): it answers every question
            lacking = _undeclared(value, kinds[0])
            assert not lacking, f"{name}.{attribute} does not declare {sorted(lacking)}"
        else:
            origin = typing.get_origin(kinds[0]) or kinds[0]
            assert isinstance(value, origin), f"{name}.{attribute} = {value!r} is not {hint}"
    assert support.extensions and all(ext.startswith(".") for ext in support.extensions)
    assert support.version, "the version is part of the index fingerprint"
    assert support.grammars, "every built-in language parses with a tree-sitter grammar it names"


def test_a_support_missing_a_question_is_caught() -> None:
    """The check above sees a plugin that forgot one of the questions a sub-object answers."""
    class Forgetful:
        entry_runs_whole_file = False

        def entry_reason(self, path: str, text: str) -> str:
            return ""

    lacking = _undeclared(Forgetful(), RunsUnimported)
    assert {"loading_sites", "load_hooks", "api"} <= lacking and "entry_reason" not in lacking


def test_only_a_language_with_build_variants_sets_callers_apart() -> None:
    with_builds = sorted(name for name, support in languages().items() if support.builds is not None)
    assert with_builds == ["go"]


def test_no_two_languages_claim_one_extension() -> None:
    claimed = [ext for support in languages().values() for ext in support.extensions]
    assert len(claimed) == len(set(claimed))


def test_rust_files_are_a_language_of_their_own() -> None:
    support = language_for("src/lib.rs")
    assert support is not None and support.name == "rust"
    # Its resolver proves member uses only where a path says so: other member names are candidates.
    assert support.typed_members is False


def test_the_core_reads_no_optional_attribute_of_a_support() -> None:
    """The attributes the protocol declares are read as attributes, never with a `getattr` default
    that would hide a plugin that forgot one."""
    for path in sorted(GRAPH.glob("*.py")):
        text = path.read_text()
        for attribute in set(DECLARED) - {"name"}:  # `getattr(x, "name")` is prose in dynamic_lookups
            assert not re.search(rf"getattr\([^)]*['\"]{attribute}['\"]", text), f"{path.name} reads {attribute} by getattr"


# A language named in the core: `"python"`, `".go"`, a Go module path, a file pattern (`_test\.go$`,
# `\.[cm]?[jt]sx?$`), a grammar wheel.
_NAMES_A_LANGUAGE = re.compile(
    r"""["'](python|typescript|tsx|java|go|rust)["']|["']\.(py|pyi|go|java|ts|tsx|js|rs)["']|golang"""
    r"""|\\\.(py|pyi|go|java|rs|tsx?|jsx?)\b|\[jt\]sx|tree_sitter_[a-z]""")


def test_no_core_module_names_a_language() -> None:
    naming = {path.name for path in GRAPH.glob("*.py") if _NAMES_A_LANGUAGE.search(path.read_text())}
    assert naming == set(), "language knowledge belongs in graph/languages/<lang>/, declared on its SUPPORT"


_REGISTRY = {"languages", "language_for", "built_in"}


def plugin_imports(source: str) -> list[str]:
    """Imports in a core module that reach a language plugin rather than the registry."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.startswith("konstruct_tui.graph.languages.")]
        elif isinstance(node, ast.ImportFrom):
            module = ("." * node.level) + (node.module or "")
            inner = module.removeprefix("konstruct_tui.graph").lstrip(".")
            if inner.startswith("languages."):
                found.append(module)
            elif inner == "languages":
                found += [f"{module}.{a.name}" for a in node.names if a.name not in _REGISTRY]
    return found


def test_no_core_module_imports_a_language_plugin() -> None:
    """The core reaches a language only through the registry (`languages()`, `language_for`):
    importing `graph.languages.go` would name it as surely as writing "go"."""
    for written in ("from .languages.go import build_constraints", "from .languages import (\n    python,\n)",
                    "import konstruct_tui.graph.languages.rust", "from konstruct_tui.graph.languages.java import SUPPORT"):
        assert plugin_imports(written), written
    assert plugin_imports("from .languages import language_for, languages\n") == []
    importing = {path.name: found for path in GRAPH.glob("*.py") if (found := plugin_imports(path.read_text()))}
    assert importing == {}


def test_the_grep_sees_a_language_named_in_the_core() -> None:
    for written in ('if language == "go":', "path.endswith('.py')", 'LANG = "rust"', "e.language in ('python', 'java')",
                    r'_TEST = re.compile(r"_test\.go$|(^|/)conftest\.py$")', r'r"\.stories\.[cm]?[jt]sx?$"',
                    '__import__("tree_sitter_typescript")'):
        assert _NAMES_A_LANGUAGE.search(written), written
    for prose in ("a file's language", "from .languages import languages", "import tree_sitter", r'r"\.d\b"'):
        assert not _NAMES_A_LANGUAGE.search(prose), prose
