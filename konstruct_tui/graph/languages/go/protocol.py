"""Go's protocol methods: those of the standard library's interfaces (`fmt.Stringer`, `error`,
`io.Reader`, `http.Handler`, `sort.Interface`, `json.Marshaler`, `sql.Scanner`, ...), which code
holding the interface calls."""

from __future__ import annotations

from collections.abc import Callable

_INTERFACES = frozenset({
    "String", "GoString", "Format", "Error", "Unwrap", "Is", "As", "Timeout", "Temporary",
    "Read", "Write", "Close", "Seek", "ReadFrom", "WriteTo", "ReadAt", "WriteAt", "ReadByte", "ReadRune",
    "WriteString", "WriteByte", "ServeHTTP", "RoundTrip", "Header", "WriteHeader", "Flush", "Hijack",
    "Len", "Less", "Swap", "Push", "Pop", "MarshalJSON", "UnmarshalJSON", "MarshalText", "UnmarshalText",
    "MarshalBinary", "UnmarshalBinary", "MarshalXML", "UnmarshalXML", "MarshalYAML", "UnmarshalYAML",
    "Scan", "Value", "Deadline", "Done", "Err",
})


def runtime_caller(method: str, head: Callable[[], str]) -> str:
    if method in _INTERFACES:
        return f"{method} implements a standard library interface that code holding the interface calls"
    return ""
