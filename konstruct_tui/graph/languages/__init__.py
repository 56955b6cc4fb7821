"""The languages the graph understands structurally. Each module here exposes `SUPPORT`, an object
satisfying `graph.facts.LanguageSupport`; any other file is indexed as text only."""

from __future__ import annotations

from functools import lru_cache
from importlib import import_module
from pathlib import PurePosixPath

from ..facts import LanguageSupport

__all__ = ["built_in", "language_for", "languages"]

_MODULES = ("python", "typescript", "java", "go", "rust")


def built_in() -> tuple[str, ...]:
    """The names of the built-in languages (each plugin's `SUPPORT.name` is its module's)."""
    return _MODULES


@lru_cache(maxsize=1)
def languages() -> dict[str, LanguageSupport]:
    found: dict[str, LanguageSupport] = {}
    for name in _MODULES:
        try:
            module = import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as missing:
            if missing.name == f"{__name__}.{name}":
                continue  # not written yet; never hides an import error inside a module
            raise
        found[module.SUPPORT.name] = module.SUPPORT
    return found


@lru_cache(maxsize=1)
def _by_extension() -> dict[str, LanguageSupport]:
    return {ext: support for support in languages().values() for ext in support.extensions}


def language_for(path: str) -> LanguageSupport | None:
    """The structural language of `path`, or None (text only)."""
    return _by_extension().get(PurePosixPath(path).suffix.lower())
