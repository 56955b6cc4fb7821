"""TypeScript/JavaScript's protocol methods: those the runtime calls by protocol (`toString`,
`valueOf`, `toJSON`, `then`, `[Symbol.iterator]`, custom element and React/Angular lifecycle
callbacks) and an `override` of a supertype's method."""

from __future__ import annotations

import re
from collections.abc import Callable

_PROTOCOL = frozenset({
    "toString", "valueOf", "toJSON", "then", "catch", "finally", "handleEvent", "connectedCallback",
    "disconnectedCallback", "attributeChangedCallback", "adoptedCallback", "render", "componentDidMount",
    "componentDidUpdate", "componentWillUnmount", "shouldComponentUpdate", "getSnapshotBeforeUpdate",
    "componentDidCatch", "ngOnInit", "ngOnDestroy", "ngOnChanges", "ngAfterViewInit", "ngDoCheck",
})


def runtime_caller(method: str, head: Callable[[], str]) -> str:
    if method in _PROTOCOL or method.startswith("[Symbol."):
        return f"the runtime or a framework calls {method} by protocol"
    if re.search(r"\boverride\b", head()):
        return f"{method} is an override: callers of its supertype's method run it"
    return ""
