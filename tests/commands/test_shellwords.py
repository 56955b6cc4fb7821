"""The tokenizer's fast paths (one regex pass for plain lines, one regex step per token for lines
with operators) give exactly the tokens of the character loop, and expansions are recorded."""

from __future__ import annotations

import re

import pytest

from konstruct_tui.commands import shellwords
from konstruct_tui.commands.shellwords import Operator, Word, tokenize

LINES = [
    "ls -la src", "echo 'a b' \"c d\" e'f'g \"it's\" 'say \"hi\"' x=\"1 2\" \"\"", "ls {a,b} *.py ~+/x ~- x{1..3}",
    "echo { x }; { ls; }", "a #c d", "ls\nrm x", "ls\rrm", "cat <<EOF", "f(){ f|f& };f", ":(){:|:&};:",
    "echo 'a{b' \"c*d\"", "[ -f x ]", "echo a# b", "a && b || c; d & e | f |& g", "x >> y 2>&1 < z <> w",
    "diff <(ls a) >(cat)", "rm\u00a0-rf /; ls", "git log --format='%h %s' -- src/", "echo '}' {", "(ls) {",
]


@pytest.mark.parametrize("line", LINES)
def test_fast_paths_read_a_line_as_the_character_loop_does(line: str, monkeypatch: pytest.MonkeyPatch) -> None:
    fast = tokenize(line)
    never = re.compile(r"(?!x)x")
    for name in ("_ORDINARY", "_SIMPLE_LINE", "_OPS_LINE"):
        monkeypatch.setattr(shellwords, name, never)
    slow = tokenize(line)

    def shape(tokens):
        return [(type(t).__name__, t.text, getattr(t, "plain", None), getattr(t, "expansions", None)) for t in tokens]

    assert shape(fast) == shape(slow)


def test_expansions_are_recorded_on_their_words() -> None:
    words = [t for t in tokenize("echo $HOME \"${X}\" $'\\x72m' {a,b} /bin/r? ~+ ~- '$HOME' \\$HOME") if isinstance(t, Word)]
    kinds = [set(w.expansions) for w in words]
    assert kinds == [set(), {"variable"}, {"parameter"}, {"ansi_c"}, {"brace"}, {"glob"}, {"tilde_pwd"},
                     {"tilde_oldpwd"}, set(), set()]
    assert words[3].text == "rm"  # $'...' decoded the way bash does
    assert any(isinstance(t, Operator) and t.quoted for t in tokenize("echo \"$(id)\""))  # a shell still runs it
