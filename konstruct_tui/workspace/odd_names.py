"""File names that are not valid UTF-8 (bytes a Latin-1 era tool wrote, a broken unzip): shown as
visible `\\xNN` escapes everywhere a path is shown or stored, and found again on disk from that
spelling.

Python hands such a name over as a string with surrogate escapes (U+DC80..U+DCFF for the bytes
0x80..0xFF), which cannot be written to SQLite, JSON as UTF-8, or a terminal: one such file used to
break the code graph of the whole project. The escaped spelling is plain text; the workspace's walk
(`containment`) turns it back into the name on disk when no file has the escaped spelling itself
(if both exist, the literal one wins: the escape is a display form, not a guarantee of uniqueness).
"""

from __future__ import annotations

import re

_ESCAPE = re.compile(r"\\x([89a-fA-F][0-9a-fA-F])")


def shown(path: str) -> str:
    """`path` with every undecodable byte as a visible `\\xNN`; unchanged when it is clean."""
    if path.isascii():
        return path
    try:
        path.encode("utf-8")
        return path
    except UnicodeEncodeError:
        return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def on_disk(name: str) -> str:
    """The name the file system knows for a shown spelling (`\\xNN` escapes back to raw bytes)."""
    if "\\x" not in name:
        return name
    return _ESCAPE.sub(lambda m: chr(0xDC00 + int(m.group(1), 16)), name)
