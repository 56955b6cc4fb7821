"""Parsing what the person typed: commands, unknown words with the nearest name, and requests."""

from __future__ import annotations

import pytest

from konstruct_tui.app.slash_commands import COMMANDS, complete_command, help_lines, literal_request, parse_slash

REQUIRED = {"help", "diff", "undo", "model", "new", "sessions", "compact", "cost", "quit"}


def test_every_required_command_exists_and_help_lists_each_on_one_line() -> None:
    assert REQUIRED <= {c.name for c in COMMANDS}
    lines = help_lines()
    for name in REQUIRED:
        assert sum(line.startswith(f"/{name} ") or line == f"/{name}" for line in lines) == 1
    assert all(len(line) <= 76 for line in lines)  # fits an 80-column transcript


@pytest.mark.parametrize("typed,name,argument", [
    ("/help", "help", ""), ("  /HELP ", "help", ""), ("/diff shop/", "diff", "shop/"),
    ("/exit", "quit", ""), ("/clear", "new", ""), ("/?", "help", ""),
])
def test_commands_parse(typed: str, name: str, argument: str) -> None:
    parsed = parse_slash(typed)
    assert parsed is not None and parsed.command is not None
    assert (parsed.command.name, parsed.argument) == (name, argument)


@pytest.mark.parametrize("typed,nearest", [("/hepl", "help"), ("/modle", "model"), ("/sesions", "sessions"), ("/cmpact", "compact"), ("/undoo", "undo")])
def test_an_unknown_word_is_answered_with_the_nearest_command(typed: str, nearest: str) -> None:
    parsed = parse_slash(typed)
    assert parsed is not None and parsed.command is None
    assert parsed.nearest == nearest
    assert "unknown command" in parsed.unknown_message() and f"/{nearest}" in parsed.unknown_message()


def test_an_unknown_word_with_nothing_close_still_says_unknown_command() -> None:
    parsed = parse_slash("/zzzzqqq")
    assert parsed is not None and parsed.command is None and parsed.nearest is None
    assert parsed.unknown_message().startswith("unknown command /zzzzqqq")


@pytest.mark.parametrize("typed", ["explain /help", "/usr/bin/python crashes on start", "//help me with slashes", "fix it", ""])
def test_requests_are_not_commands(typed: str) -> None:
    assert parse_slash(typed) is None


def test_a_double_slash_sends_the_text_with_one_slash() -> None:
    assert literal_request("//help is a url path here") == "/help is a url path here"
    assert literal_request("plain") == "plain"


def test_completion_ranks_prefix_matches_first() -> None:
    assert [c.name for c in complete_command("")] == [c.name for c in COMMANDS]
    assert complete_command("c")[0].name == "compact" and {"compact", "cost"} <= {c.name for c in complete_command("c")}
    assert complete_command("ses")[0].name == "sessions"
    assert complete_command("xyz") == []


@pytest.mark.parametrize("typed", ["/ help", "/", "/\thelp"])
def test_odd_spellings_are_still_answered_locally(typed: str) -> None:
    parsed = parse_slash(typed)
    assert parsed is not None and parsed.command is None and parsed.nearest == "help"
    assert "unknown command" in parsed.unknown_message()
