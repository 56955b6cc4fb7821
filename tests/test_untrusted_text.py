"""The neutralising function: every spelling of a terminal control shows as a visible escape, text
without one is returned as it is, and JSON keeps its values exact."""

from __future__ import annotations

import json

import pytest

from konstruct_tui.untrusted_text import HAZARDS, has_hazards, inert_json, neutralise, neutralise_markdown, without_hazards


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("\x1b]52;c;aGk=\x07", "␛]52;c;aGk=␇"),  # OSC 52 clipboard write, BEL-terminated
        ("\x1b]52;c;aGk=\x1b\\", "␛]52;c;aGk=␛\\"),  # ST-terminated
        ("\x9d52;c;aGk=\x9c", "\\x9d52;c;aGk=\\x9c"),  # 8-bit OSC and ST
        ("\x1b[2J\x1b[1;1H", "␛[2J␛[1;1H"),  # clear the screen, home the cursor
        ("\x9b2J", "\\x9b2J"),  # 8-bit CSI
        ("\x1bP1$qm\x1b\\", "␛P1$qm␛\\"),  # DCS
        ("\x1b_Gf=100\x1b\\", "␛_Gf=100␛\\"),  # APC (kitty graphics)
        ("\x1b]0;title\x07", "␛]0;title␇"),  # window title
        ("\x1b]52;c;\x1b]52;c;eA==\x07\x07", "␛]52;c;␛]52;c;eA==␇␇"),  # nested
        ("a\x00b\x08c\x7fd", "a␀b␈c␡d"),
        ("safe\u202etxt.exe", "safe\\u202etxt.exe"),  # right-to-left override
        ("\u2066x\u2069 \u202a\u202b\u202c\u202d \u200e\u200f\u061c", "\\u2066x\\u2069 \\u202a\\u202b\\u202c\\u202d \\u200e\\u200f\\u061c"),
        ("pass\u200bwo\u200c\u200drd\u2060\ufeff", "pass\\u200bwo\\u200c\\u200drd\\u2060\\ufeff"),
        ("\U000e0069\U000e0067", "\\U000e0069\\U000e0067"),  # tag characters: invisible ASCII
        ("a\u2028b\u2029c", "a\\u2028b\\u2029c"),
        ("progress\r50%\rdone", "progress␍50%␍done"),  # a lone CR overwrites the line
    ],
)
def test_every_spelling_shows_as_a_visible_escape(raw: str, shown: str) -> None:
    assert neutralise(raw) == shown
    assert not has_hazards(neutralise(raw))


def test_layout_is_kept_where_it_is_wanted_and_shown_where_it_is_not() -> None:
    assert neutralise("a\n\tb\r\nc") == "a\n\tb\nc"
    assert neutralise("a\n\tb\r\nc", keep_layout=False) == "a␊␉b␍␊c"


def test_plain_text_is_returned_unchanged_including_other_unicode() -> None:
    text = "def f():\n\treturn 'héllo wörld — 日本語 ✓ 🙂 [b]x[/b] \\u202e'\n"
    assert neutralise(text) is text


def test_split_chunks_neutralise_to_the_same_as_the_whole() -> None:
    """A stream's chunks are neutralised one by one; no character depends on its neighbours."""
    whole = "x\x1b]52;c;eA==\x07y\x9b2J\u202ez"
    for cut in range(len(whole) + 1):
        assert neutralise(whole[:cut]) + neutralise(whole[cut:]) == neutralise(whole)


def test_every_hazard_is_zero_cells_wide_so_removing_one_keeps_a_layout() -> None:
    from rich.cells import cell_len

    assert [hex(c) for c in sorted(HAZARDS) if cell_len(chr(c))] == []
    assert without_hazards("a\x1b[2Jb\u202ec") == "a[2Jbc"


def test_markdown_character_references_to_hazards_are_shown_literally() -> None:
    text = "x &#x202E; &#8238; &#27;[2J &rlm; &ZeroWidthSpace; &amp; &#65; &copy; &#x1F600;"
    assert neutralise_markdown(text) == "x \\&#x202E; \\&#8238; \\&#27;[2J \\&rlm; \\&ZeroWidthSpace; &amp; &#65; &copy; &#x1F600;"
    assert neutralise_markdown("a\x1b]52;c;eA==\x07\n```\n\u202e\n```\n") == "a␛]52;c;eA==␇\n```\n\\u202e\n```\n"


def test_json_keeps_its_values_and_shows_no_control() -> None:
    value = {"stdout": "\x1b]52;c;eA==\x07\x9b2J\u202e\U000e0041\x7f", "path": "日本 ✓", "n": [1, "\n\t"]}
    for indent in (None, 2):
        dumped = inert_json(json.dumps(value, ensure_ascii=False, indent=indent))
        assert json.loads(dumped) == value
        assert not has_hazards(dumped.replace("\n", ""))
        assert "日本 ✓" in dumped  # only the hazards are escaped
