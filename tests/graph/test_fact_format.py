"""The index stores each language's member facts as JSON: a record whose fields change without its
plugin's `version` moving would be read from an older index into the wrong fields. This holds each
typed record's shape beside the version it was written with."""

from __future__ import annotations

import dataclasses
import hashlib
import typing

import pytest

from konstruct_tui.graph.languages import languages

# {language: (SUPPORT.version, shape digest of its member facts record)}. When a record changes:
# bump the plugin's version, then write the new pair here (the failure message prints it).
RECORDED: dict[str, tuple[str, str]] = {
    "typescript": ("15", "45d4be7218038ffd"),
    "go": ("7", "36c6243c04a7d30f"),
    "java": ("6", "454cca95f0f938d4"),
    "rust": ("2", "c9fa2c9583398eb2"),
    "python": ("7", "d72b9f68a61c0f7e"),
}


def _shape(kind: object, seen: set[object]) -> object:
    if dataclasses.is_dataclass(kind) and isinstance(kind, type):
        if kind in seen:
            return kind.__qualname__
        seen.add(kind)
        hints = typing.get_type_hints(kind)
        return (kind.__qualname__, tuple((f.name, _shape(hints[f.name], seen)) for f in dataclasses.fields(kind)))
    arguments = typing.get_args(kind)
    if arguments:
        return (repr(typing.get_origin(kind)), tuple(_shape(a, seen) for a in arguments))
    return repr(kind)


def digest(record: type) -> str:
    return hashlib.sha256(repr(_shape(record, set())).encode()).hexdigest()[:16]


@pytest.mark.parametrize("name", sorted(languages()))
def test_a_changed_member_record_moves_the_format_version(name: str) -> None:
    support = languages()[name]
    record = support.member_facts
    if record is None:
        assert name not in RECORDED, f"{name}: its member facts are a plain dict again"
        return
    assert dataclasses.is_dataclass(record) and record.__dataclass_params__.frozen, f"{name}: a frozen dataclass"
    now = (support.version, digest(record))  # type: ignore[arg-type]
    assert RECORDED.get(name) == now, (
        f"{name}'s member facts changed shape: bump SUPPORT.version if the fields changed, then record "
        f"RECORDED[{name!r}] = {now!r}")


def test_the_digest_sees_a_field_change() -> None:
    @dataclasses.dataclass(frozen=True)
    class Before:
        returns: tuple[tuple[str, str], ...]

    @dataclasses.dataclass(frozen=True)
    class After:
        returns: tuple[tuple[str, str, int], ...]

    After.__qualname__ = Before.__qualname__
    assert digest(Before) != digest(After)
