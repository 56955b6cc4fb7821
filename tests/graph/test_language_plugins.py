"""Every language is a plugin of one shape: its `SUPPORT` declares what the core asks of it (see
`graph.facts.LanguageSupport`), so the core never reads an optional attribute or names a language
to decide how to treat it."""

from __future__ import annotations

import re
import typing
from pathlib import Path

import pytest

from konstruct_tui.graph.facts import LanguageSupport
from konstruct_tui.graph.languages import language_for, languages

GRAPH = Path(__file__).parents[2] / "konstruct_tui" / "graph"
DECLARED = {
    name: hint for name, hint in typing.get_type_hints(LanguageSupport).items()
}


@pytest.mark.parametrize("name", sorted(languages()))
def test_each_support_declares_every_attribute_of_the_protocol(name: str) -> None:
    support = languages()[name]
    assert support.name == name
    for attribute, hint in DECLARED.items():
        value = getattr(support, attribute)  # missing: AttributeError names it
        if attribute == "builds":  # a BuildVariants, or None
            assert value is None or callable(value.other_build_callers)
            continue
        if attribute == "member_facts":  # a frozen record class with from_json, or None (still a dict)
            assert value is None or callable(value.from_json)
            continue
        origin = typing.get_origin(hint) or hint
        assert isinstance(value, origin), f"{name}.{attribute} = {value!r} is not {hint}"
    assert support.extensions and all(ext.startswith(".") for ext in support.extensions)
    assert support.version, "the version is part of the index fingerprint"


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


# A language named in the core: `"python"`, `".go"`, a Go file pattern.
_NAMES_A_LANGUAGE = re.compile(
    r"""["'](python|typescript|tsx|java|go|rust)["']|["']\.(py|pyi|go|java|ts|tsx|js|rs)["']|golang""")
# Core modules that still hold language knowledge, to move into the plugins' SUPPORT (the list may
# only shrink): treesitter's table names the one grammar wheel whose module is not
# `tree_sitter_<grammar>`; the others are listed in docs/code-graph.md, "How to add a language".
_NOT_MOVED_YET = frozenset({"callers.py", "dead_code.py", "evidence.py", "named_in_text.py", "query.py",
                           "supertypes.py", "treesitter.py"})


def test_no_other_core_module_names_a_language() -> None:
    naming = {path.name for path in GRAPH.glob("*.py") if _NAMES_A_LANGUAGE.search(path.read_text())}
    assert naming - _NOT_MOVED_YET == set(), "language knowledge belongs in graph/languages/<lang>/"
    assert _NOT_MOVED_YET - naming == set(), "moved out: take it off _NOT_MOVED_YET"


def test_the_grep_sees_a_language_named_in_the_core() -> None:
    for written in ('if language == "go":', "path.endswith('.py')", 'LANG = "rust"'):
        assert _NAMES_A_LANGUAGE.search(written), written
