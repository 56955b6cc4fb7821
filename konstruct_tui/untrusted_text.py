"""Untrusted text made inert before a terminal sees it.

Model text, tool arguments and results, file names and contents, command lines and output, a model
server's error words and adjudicator evidence are written by someone else. A terminal obeys some of
the characters in them: ESC and 8-bit C1 controls start sequences that clear the screen, move the
cursor, write the clipboard (OSC 52), set the window title or talk to the terminal's own features
(DCS, APC); bidi overrides and isolates reorder what is shown, so a line reads other than it is
(Trojan Source); zero-width and tag characters hide text in plain sight.

`neutralise` replaces each such character with a visible escape, one character at a time: an
escape sequence is harmless without its introducer, so `ESC ] 52 ; c ; … BEL` shows as
`␛]52;c;…␇` however it is spelled (7-bit or 8-bit, BEL- or ST-terminated, nested, or split across
stream chunks: each chunk is neutralised on its own and no character depends on its neighbours).
JSON output keeps its values exact: `inert_json` only chooses JSON's own `\\u` escapes for these
characters, so a parser reads the same strings and a terminal sees no control.
"""

from __future__ import annotations

import functools
import re

# Characters a terminal obeys or hides, besides the C0 and C1 controls and DEL.
_BIDI = (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A))
_INVISIBLE = (
    0x180E, 0x200B, 0x200C, 0x200D, *range(0x2060, 0x2065), 0xFEFF,
    0x2028, 0x2029,  # line and paragraph separators: Python splits lines on them, a terminal does not
    0xFFF9, 0xFFFA, 0xFFFB,  # interlinear annotation marks
    *range(0xE0000, 0xE0080),  # tag characters: invisible ASCII (prompt smuggling)
)
HAZARDS: frozenset[int] = frozenset((*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0), *_BIDI, *_INVISIBLE))
"""Every code point `neutralise` replaces (`\\n` and `\\t` are kept where layout needs them)."""


def _escape(code: int) -> str:
    if code < 0x20:
        return chr(0x2400 + code)  # a control picture: ␛ for ESC, ␇ for BEL, ␍ for CR
    if code == 0x7F:
        return "\u2421"  # ␡
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


_TABLE: dict[int, str] = {code: _escape(code) for code in HAZARDS}
_LAYOUT_TABLE: dict[int, str] = {**_TABLE, ord("\n"): "\n", ord("\t"): "\t"}


def _pattern(codes: frozenset[int]) -> re.Pattern[str]:
    """A character class of `codes` written as ranges: a class of 200 single characters (the tag
    block is outside the BMP) makes every search thirty times slower."""
    ranges: list[list[int]] = []
    for code in sorted(codes):
        if ranges and ranges[-1][1] == code - 1:
            ranges[-1][1] = code
        else:
            ranges.append([code, code])
    return re.compile("[" + "".join(re.escape(chr(a)) + ("-" + re.escape(chr(b)) if b > a else "") for a, b in ranges) + "]")


_HAZARD = _pattern(HAZARDS)
_LAYOUT_HAZARD = _pattern(HAZARDS - {ord("\n"), ord("\t")})
# json.dumps escapes C0 inside strings itself; outside strings, newlines and tabs are its layout.
_JSON_HAZARD = _pattern(frozenset(c for c in HAZARDS if c >= 0x20))


def neutralise(text: str, *, keep_layout: bool = True) -> str:
    """`text` with every hazard shown as a visible escape. `keep_layout` keeps newlines and tabs
    (a reply, a diff, command output) and reads a CRLF line end as a newline; without it (a file
    name in a heading, a one-line error) they show as ␊ and ␉ too."""
    if not (_LAYOUT_HAZARD if keep_layout else _HAZARD).search(text):
        return text  # the common case: a reply is neutralised again on each repaint
    if keep_layout:
        return text.replace("\r\n", "\n").translate(_LAYOUT_TABLE)
    return text.translate(_TABLE)


def has_hazards(text: str) -> bool:
    return _HAZARD.search(text) is not None


def without_hazards(text: str) -> str:
    """`text` with the hazards removed: the last line of defence where the layout is already
    measured (every hazard is zero cells wide), never the way text is meant to be shown."""
    return _HAZARD.sub("", text)


# Markdown decodes character references: `&#x202e;` or `&rlm;` in a report becomes the character
# itself in any Markdown viewer, after `neutralise` has looked. Such a reference is shown literally
# (a Markdown backslash escape before its `&`), so the viewer prints the reference, not the character.
@functools.cache
def _references() -> re.Pattern[str]:
    import html.entities  # here: 2,000 names, and only a report needs them

    names = sorted(
        (name.rstrip(";") for name, value in html.entities.html5.items() if any(ord(ch) in HAZARDS for ch in value)),
        key=len, reverse=True,
    )
    return re.compile(r"&(#[0-9]{1,8};?|#[xX][0-9a-fA-F]{1,7};?|(?:" + "|".join(map(re.escape, names)) + r");?)")


def _reference(match: re.Match[str]) -> str:
    body = match.group(1)
    if body.startswith("#"):
        digits = body[1:].rstrip(";")
        try:
            code = int(digits[1:], 16) if digits[:1] in ("x", "X") else int(digits)
        except ValueError:
            return match.group(0)
        if code not in HAZARDS:
            return match.group(0)
    return "\\" + match.group(0)


def neutralise_markdown(text: str) -> str:
    """Markdown written for people (a blueprint report): `neutralise`, and no character reference
    that a Markdown viewer would decode into a hazard."""
    return _references().sub(_reference, neutralise(text))


def inert_json(dumped: str) -> str:
    """A JSON document (from `json.dumps`) with every hazard as JSON's own `\\u` escape. Beyond C0
    (which json.dumps escapes already) the hazards can only stand inside strings, so the values a
    parser reads are unchanged."""
    return _JSON_HAZARD.sub(_json_escape, dumped)


def _json_escape(match: re.Match[str]) -> str:
    code = ord(match.group(0))
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
