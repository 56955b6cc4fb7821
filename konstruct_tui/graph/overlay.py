"""A read-only map that shares its bulk with the map it was derived from.

Every graph snapshot is immutable (a query holds one for its whole answer), and a one-file change
makes a new one. Copying the per-file maps for that was O(files): 15 ms each on a 100,000-file tree
once a dict had seen a deletion (CPython then copies it entry by entry), three of them per change.
An `Overlay` is a shared `base` dict that nobody mutates plus a small `delta` of what changed since
(a value, or `_GONE`); deriving the next one copies only the delta. When the delta grows past a
fraction of the base it is folded into a fresh base, so lookups stay one or two dict probes and
the fold's O(files) is paid once per thousands of changed keys, not per change.
"""

from __future__ import annotations

import gc
from collections.abc import ItemsView, Iterable, Iterator, Mapping, ValuesView
from contextlib import contextmanager
from typing import Any, Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")

_GONE: Any = object()  # in a delta: the key was removed
_MISSING: Any = object()
# Fold the delta into a new base once it holds more than this many keys and 1/FOLD_RATIO of the
# base: copying the delta on every change then stays small next to the change itself.
FOLD_MIN = 512
FOLD_RATIO = 16


class Overlay(Mapping[K, V], Generic[K, V]):
    __slots__ = ("_base", "_delta", "_len")

    def __init__(self, base: dict[K, V] | None = None, delta: dict[K, V] | None = None, length: int | None = None) -> None:
        """`base` is taken over, not copied: the caller must never change it again."""
        self._base: dict[K, V] = {} if base is None else base
        self._delta: dict[K, V] = {} if delta is None else delta
        self._len = len(self._base) if length is None else length

    @classmethod
    def of(cls, mapping: Mapping[K, V]) -> Overlay[K, V]:
        return mapping if isinstance(mapping, Overlay) else cls(dict(mapping))

    def __getitem__(self, key: K) -> V:
        value = self._delta.get(key, _MISSING)
        if value is _MISSING:
            return self._base[key]
        if value is _GONE:
            raise KeyError(key)
        return value

    def get(self, key: K, default: Any = None) -> Any:
        value = self._delta.get(key, _MISSING)
        if value is _MISSING:
            return self._base.get(key, default)
        return default if value is _GONE else value

    def __contains__(self, key: object) -> bool:
        value = self._delta.get(key, _MISSING)  # type: ignore[arg-type]
        if value is _MISSING:
            return key in self._base
        return value is not _GONE

    def __len__(self) -> int:
        return self._len

    def __iter__(self) -> Iterator[K]:
        if not self._delta:
            return iter(self._base)
        return (key for key, _ in self._pairs())

    def items(self) -> ItemsView[K, V]:
        return _Items(self)

    def values(self) -> ValuesView[V]:
        return _Values(self)

    def _pairs(self) -> Iterator[tuple[K, V]]:
        """(key, value): the base's keys in its order, then the keys new since. Nobody relies on the
        order (everything that shows one sorts); it is stable for one overlay."""
        delta = self._delta
        if not delta:
            yield from self._base.items()
            return
        for key, value in self._base.items():
            changed = delta.get(key, _MISSING)
            if changed is _MISSING:
                yield key, value
            elif changed is not _GONE:
                yield key, changed
        base = self._base
        for key, value in delta.items():
            if value is not _GONE and key not in base:
                yield key, value

    def updated(self, changes: Mapping[K, V] | Iterable[tuple[K, V]] = (), removed: Iterable[K] = ()) -> Overlay[K, V]:
        """A new overlay: `changes` set, then `removed` gone. This one is left as it was."""
        delta = dict(self._delta)  # no deletions ever happen in a delta, so this is a flat copy
        length = self._len
        base = self._base
        pairs = changes.items() if isinstance(changes, Mapping) else changes
        for key, value in pairs:
            before = delta.get(key, _MISSING)
            if before is _GONE or (before is _MISSING and key not in base):
                length += 1
            delta[key] = value
        for key in removed:
            before = delta.get(key, _MISSING)
            if before is _GONE or (before is _MISSING and key not in base):
                continue
            length -= 1
            delta[key] = _GONE
        if len(delta) > FOLD_MIN and len(delta) * FOLD_RATIO > len(base):
            return Overlay(_folded(base, delta), None, length)
        return Overlay(base, delta, length)


def _folded(base: dict[K, V], delta: dict[K, V]) -> dict[K, V]:
    folded = dict(base)
    for key, value in delta.items():
        if value is _GONE:
            folded.pop(key, None)
        else:
            folded[key] = value
    return folded


class _Items(ItemsView[K, V]):
    _mapping: Overlay[K, V]

    def __iter__(self) -> Iterator[tuple[K, V]]:
        return self._mapping._pairs()


class _Values(ValuesView[V]):
    _mapping: Overlay[Any, V]

    def __iter__(self) -> Iterator[V]:
        return (value for _, value in self._mapping._pairs())


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cycle collector off while a big shared structure is built from scratch (a symbol index,
    the member evidence of 100,000 files): its passes would otherwise walk the growing heap again
    and again, most of the build's time, for cycles such a build does not make. In a process that
    froze its heap (a big index), what was built is frozen with it, or the next full pass walks it."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if _heap_frozen:  # the process keeps its big heap out of full passes: this too
            gc.freeze()
        if enabled:
            gc.enable()


_heap_frozen = False


def freeze_heap() -> None:
    """Take every object alive now out of the cycle collector's passes, and from now on what
    `collector_paused` builds too. For a process holding a big index (millions of long-lived
    objects, no cycles among them): a full pass walked them all, 6-7 s on 100,000 files, at a
    moment no one chose (mid-edit, mid-query). Frozen objects are still freed when unreferenced."""
    global _heap_frozen
    _heap_frozen = True
    gc.freeze()
