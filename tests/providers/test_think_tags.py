"""Inline `<think>` blocks split out of the answer wherever the chunk borders fall."""

from __future__ import annotations

import itertools

import pytest

from konstruct_tui.providers.think_tags import ThinkSplitter

STREAM = "<think>\nweigh a<b and </thin k></think>\n\nThe answer: use a <b>bold</b> tag, not <think"


def split(pieces: list[str]) -> tuple[str, str]:
    splitter = ThinkSplitter()
    runs = [run for piece in pieces for run in splitter.feed(piece)] + splitter.flush()
    return "".join(t for r, t in runs if r), "".join(t for r, t in runs if not r)


def test_every_two_and_three_way_cut_gives_the_same_reasoning_and_answer() -> None:
    expected = ("\nweigh a<b and </thin k>", "\n\nThe answer: use a <b>bold</b> tag, not <think")
    assert split([STREAM]) == expected
    for i, j in itertools.combinations(range(1, len(STREAM)), 2):
        assert split([STREAM[:i], STREAM[i:j], STREAM[j:]]) == expected, (i, j)


@pytest.mark.parametrize("size", [1, 2, 3, 7])
def test_character_by_character(size: int) -> None:
    pieces = [STREAM[i : i + size] for i in range(0, len(STREAM), size)]
    assert split(pieces) == ("\nweigh a<b and </thin k>", "\n\nThe answer: use a <b>bold</b> tag, not <think")


def test_an_unclosed_think_block_stays_reasoning() -> None:
    assert split(["<think>still thinking when the output limit came"]) == ("still thinking when the output limit came", "")


def test_plain_answers_pass_unchanged() -> None:
    assert split(["if a < b:", " return b"]) == ("", "if a < b: return b")


def test_gemini_thought_tags_too_wherever_cut() -> None:
    stream = "<thought>**Planning** read calc.py</thought>I will read calc.py."
    for i in range(1, len(stream)):
        assert split([stream[:i], stream[i:]]) == ("**Planning** read calc.py", "I will read calc.py."), i


def test_a_close_tag_of_the_other_kind_does_not_end_the_block() -> None:
    assert split(["<think>a </thought> b</think>c"]) == ("a </thought> b", "c")
