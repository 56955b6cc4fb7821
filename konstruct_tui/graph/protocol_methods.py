"""Methods the language or its runtime calls without anyone writing their name.

`a + b` calls `Vector.__add__`; `fmt.Println(err)` calls `Error()`; a `HashMap` calls
`equals`/`hashCode`; `for (const x of bag)` calls `[Symbol.iterator]`; a framework calls the
`@Override` of its own interface. No file names these methods, so an empty `callers` answer about
them says nothing about whether they run: it must be `undeterminable`, never `no_references`.

The rule per language is the language's own contract, not a guess about the project:
- Python: every dunder (`__x__`) is a protocol method the interpreter calls through syntax;
- Java: a method marked `@Override` (its supertype's callers call it, library code included) and
  `Object`'s methods (`toString`, `equals`, `hashCode`, `compareTo`, `close`, `run`, ...);
- Go: the methods of the standard library's interfaces (`fmt.Stringer`, `error`, `io.Reader`,
  `http.Handler`, `sort.Interface`, `json.Marshaler`, `sql.Scanner`, ...), which code holding the
  interface calls;
- TypeScript/JavaScript: the methods the runtime calls by protocol (`toString`, `valueOf`,
  `toJSON`, `then`, `[Symbol.iterator]`, custom element and React/Angular lifecycle callbacks) and
  an `override` of a supertype's method.
"""

from __future__ import annotations

import re

from .evidence import declaration_head

_JAVA_OBJECT = frozenset({"toString", "equals", "hashCode", "compareTo", "clone", "finalize", "close", "run",
                          "call", "iterator", "accept", "apply", "test", "get", "compare", "uncaughtException"})
_GO_INTERFACES = frozenset({
    "String", "GoString", "Format", "Error", "Unwrap", "Is", "As", "Timeout", "Temporary",
    "Read", "Write", "Close", "Seek", "ReadFrom", "WriteTo", "ReadAt", "WriteAt", "ReadByte", "ReadRune",
    "WriteString", "WriteByte", "ServeHTTP", "RoundTrip", "Header", "WriteHeader", "Flush", "Hijack",
    "Len", "Less", "Swap", "Push", "Pop", "MarshalJSON", "UnmarshalJSON", "MarshalText", "UnmarshalText",
    "MarshalBinary", "UnmarshalBinary", "MarshalXML", "UnmarshalXML", "MarshalYAML", "UnmarshalYAML",
    "Scan", "Value", "Deadline", "Done", "Err",
})
_TS_PROTOCOL = frozenset({
    "toString", "valueOf", "toJSON", "then", "catch", "finally", "handleEvent", "connectedCallback",
    "disconnectedCallback", "attributeChangedCallback", "adoptedCallback", "render", "componentDidMount",
    "componentDidUpdate", "componentWillUnmount", "shouldComponentUpdate", "getSnapshotBeforeUpdate",
    "componentDidCatch", "ngOnInit", "ngOnDestroy", "ngOnChanges", "ngAfterViewInit", "ngDoCheck",
})
_DUNDER = re.compile(r"^__\w+__$")


def runtime_caller(language: str | None, name: str, text: str | None, start_line: int) -> str:
    """Why the runtime may call method `name` (declared at `start_line` of `text`) without any
    file writing its name, or "" when the language gives no such reason."""
    short = name.rsplit(".", 1)[-1]
    if "." not in name:
        return ""
    if language == "python" and _DUNDER.match(short):
        return f"Python calls {short} through its syntax or protocols, never by name"
    head = "\n".join(declaration_head(text, start_line, short))
    if language == "java":
        if re.search(r"@Override\b", head):
            return f"{short} is an @Override: callers of its supertype's method, library code included, run it"
        if short in _JAVA_OBJECT:
            return f"{short} is one of the methods Java's libraries call on any object"
    if language == "go" and short in _GO_INTERFACES:
        return f"{short} implements a standard library interface that code holding the interface calls"
    if language == "typescript":
        if short in _TS_PROTOCOL or short.startswith("[Symbol."):
            return f"the runtime or a framework calls {short} by protocol"
        if re.search(r"\boverride\b", head):
            return f"{short} is an override: callers of its supertype's method run it"
    return ""


__all__ = ["runtime_caller"]
