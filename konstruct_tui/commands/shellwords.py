"""Quote-aware splitting of a command line into words and shell operators.

Commands never run through a shell, so this parser is the only reading of the text that matters.
It follows POSIX shell quoting (single quotes literal; double quotes literal except `\\`, `$(` and
backticks; backslash escapes one character) and reports every unquoted operator instead of giving it
a meaning: `;` `&&` `||` `|` `&` redirections, here-docs, `$(`, backticks, `<(`/`>(`, `( )`, `{ }`,
newlines and comments. `shlex` alone cannot do that: it silently glues `a;b` into one word.

Command substitution inside double quotes (`"$(whoami)"`) is reported too: a shell would run it.
"""

from __future__ import annotations

from dataclasses import dataclass

# Longest first, so `&&` wins over `&` and `<<<` over `<<`.
_OPERATORS = (
    "<<<", "<<-", "&&", "||", ";;", ";&", "|&", ">>", ">&", ">|", "&>", "<<", "<&", "<>", "<(", ">(",
    ";", "&", "|", "<", ">", "(", ")",
)
_OPERATOR_START = frozenset(op[0] for op in _OPERATORS)
_BLANKS = " \t"
_NEWLINES = "\n\r"


class ShellSyntaxError(ValueError):
    """The text cannot be read as a command line (an unterminated quote, a NUL byte)."""


@dataclass(frozen=True)
class Word:
    """One argument after quote removal. `plain` means no character of it was quoted or escaped,
    so a shell would give it a meaning (`{`, `#...`, `NAME=value`)."""

    text: str
    plain: bool


@dataclass(frozen=True)
class Operator:
    text: str
    quoted: bool = False  # a `$(` or backtick found inside double quotes


Token = Word | Operator


def tokenize(line: str) -> list[Token]:
    """Words and operators of `line`, in order. Raises ShellSyntaxError."""
    if "\0" in line:
        raise ShellSyntaxError("the command contains a NUL byte")
    tokens: list[Token] = []
    chars: list[str] = []
    started = False  # a word is open (even an empty one, from "")
    plain = True
    comment = False  # the open word began with an unquoted `#`
    i, n = 0, len(line)

    def close() -> None:
        nonlocal chars, started, plain, comment
        if started:
            word = "".join(chars)
            if plain and word in ("{", "}") and (not tokens or isinstance(tokens[-1], Operator)):
                tokens.append(Operator(word))  # a reserved word only where a command starts: `echo {` is literal
            elif comment:
                tokens.append(Operator("#"))
            else:
                tokens.append(Word(word, plain))
        chars, started, plain, comment = [], False, True, False

    while i < n:
        c = line[i]
        if c in _BLANKS:
            close()
            i += 1
        elif c in _NEWLINES:
            close()
            tokens.append(Operator("\n"))
            i += 1
        elif c == "\\":
            if i + 1 < n and line[i + 1] == "\n":
                i += 2  # line continuation: the shell removes both characters
                continue
            started, plain = True, False
            if i + 1 < n:
                chars.append(line[i + 1])
            i += 2
        elif c == "'":
            end = line.find("'", i + 1)
            if end < 0:
                raise ShellSyntaxError("unterminated single quote")
            chars.append(line[i + 1 : end])
            started, plain = True, False
            i = end + 1
        elif c == '"':
            i = _double_quoted(line, i + 1, chars, tokens)
            started, plain = True, False
        elif c == "`":
            close()
            tokens.append(Operator("`"))
            i += 1
        elif c == "$" and line.startswith("$(", i):
            close()
            tokens.append(Operator("$("))
            i += 2
        elif c in _OPERATOR_START:
            op = next(o for o in _OPERATORS if line.startswith(o, i))
            close()
            tokens.append(Operator(op))
            i += len(op)
        else:
            if not started and c == "#":
                comment = True  # a shell would ignore the rest of the line
            chars.append(c)
            started = True
            i += 1
    close()
    return tokens


def _double_quoted(line: str, i: int, chars: list[str], tokens: list[Token]) -> int:
    """Consume a double-quoted run starting after the opening quote; return the index after it."""
    n = len(line)
    while i < n:
        c = line[i]
        if c == '"':
            return i + 1
        if c == "\\" and i + 1 < n and line[i + 1] in '"\\$`\n':
            if line[i + 1] != "\n":
                chars.append(line[i + 1])
            i += 2
            continue
        if c == "`" or line.startswith("$(", i):
            # Inside double quotes a shell still runs these: report them, keep the text literal.
            tokens.append(Operator("$(" if c == "$" else "`", quoted=True))
        chars.append(c)
        i += 1
    raise ShellSyntaxError("unterminated double quote")


def split_words(line: str) -> list[str]:
    """The words of a line that must be a simple command. Raises ShellSyntaxError on any operator."""
    words: list[str] = []
    for token in tokenize(line):
        if isinstance(token, Operator):
            raise ShellSyntaxError(f"shell operator {describe_operator(token.text)} is not allowed here")
        words.append(token.text)
    return words


def segments(tokens: list[Token]) -> list[list[str]]:
    """The words between operators: each run is one command a shell would start (or a redirection
    target). Used to look for denied commands anywhere in a compound line."""
    runs: list[list[str]] = [[]]
    for token in tokens:
        if isinstance(token, Operator):
            if runs[-1]:
                runs.append([])
        else:
            runs[-1].append(token.text)
    return [run for run in runs if run]


_NAMES = {
    "\n": "a newline", "#": "a comment", "`": "a backtick command substitution",
    "$(": "a $( ) command substitution", "<(": "a <( ) process substitution",
    ">(": "a >( ) process substitution", "<<": "a here-document", "<<-": "a here-document",
    "<<<": "a here-string", "(": "a subshell", ")": "a subshell", "{": "a { } group", "}": "a { } group",
    "|": "a pipe", "|&": "a pipe", "&": "a background job", ";": "a ; separator", "&&": "&&", "||": "||",
    ";;": "a ;; separator", ";&": "a ;& separator",
}


def describe_operator(op: str) -> str:
    if op in _NAMES:
        return _NAMES[op]
    return f"a redirection ({op})"
