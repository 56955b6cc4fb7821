"""Quote-aware splitting of a command line into words and shell operators.

Commands never run through a shell, so this parser is the only reading of the text that matters.
It follows POSIX shell quoting (single quotes literal; double quotes literal except `\\`, `$(` and
backticks; backslash escapes one character) and reports every unquoted operator instead of giving it
a meaning: `;` `&&` `||` `|` `&` redirections, here-docs, `$(`, backticks, `<(`/`>(`, `( )`, `{ }`,
newlines and comments. `shlex` alone cannot do that: it silently glues `a;b` into one word.

Command substitution inside double quotes (`"$(whoami)"`) is reported too: a shell would run it.

Expansions a shell would perform and whose value the policy cannot know are recorded on the word
(`Word.expansions`): `$VAR`, `${...}` (also inside double quotes), `$'...'` (decoded, so the deny
list sees what a shell would run), `$"..."`, brace expansion (`{a,b}`, `{1..3}`), globs, and the
tilde forms `~+` (the current folder, i.e. the project) and `~-` (the previous one). One pass over
the line, no backtracking: judging time stays linear in its length.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

# Longest first, so `&&` wins over `&` and `<<<` over `<<`.
_OPERATORS = (
    "<<<", "<<-", "&&", "||", ";;", ";&", "|&", ">>", ">&", ">|", "&>", "<<", "<&", "<>", "<(", ">(",
    ";", "&", "|", "<", ">", "(", ")",
)
_OPERATOR_START = frozenset(op[0] for op in _OPERATORS)
_OPERATOR = re.compile("|".join(re.escape(op) for op in _OPERATORS))
_FAST = re.compile(r"""(?:[^\s'"\\`$<>&|;()]|'[^']*'|"[^"\\$`]*")+""")
_PIECE = re.compile(r"""'([^']*)'|"([^"\\$`]*)"|([^'"]+)""")
_LIVE = re.compile(r"[{}*?\[~]")
_SLOW = frozenset("\\`$<>&|;()")
_QUOTED_RUN = re.compile(r'[^"\\$`]+')  # inside double quotes: characters that mean nothing there
_BLANKS = " \t"
_NEWLINES = "\n\r"


class ShellSyntaxError(ValueError):
    """The text cannot be read as a command line (an unterminated quote, a NUL byte)."""


class Word(NamedTuple):
    """One argument after quote removal. `plain` means no character of it was quoted or escaped,
    so a shell would give it a meaning (`{`, `#...`, `NAME=value`). A named tuple, not a frozen
    dataclass: an 80 KB line makes tens of thousands of them, and this is five times cheaper."""

    text: str
    plain: bool
    expansions: frozenset[str] = frozenset()  # see EXPANSION_NAMES
    shadow: str = ""  # the text with every quoted character replaced by "x": where braces/globs are live


EXPANSION_NAMES = {
    "variable": "a $VARIABLE", "parameter": "a ${...} expansion", "ansi_c": "$'...' quoting",
    "locale": '$"..." quoting', "brace": "brace expansion", "glob": "a glob", "tilde_pwd": "~+",
    "tilde_oldpwd": "~-", "special": "a special parameter ($1, $@, $?...)",
}
_BRACE = re.compile(r"\{[^{}]*(?:,|\.\.)[^{}]*\}")
_GLOB = re.compile(r"[*?]|\[[^\][]+\]")
_PLAIN_RUN = re.compile(r"[^ \t\n\r\\'\"`$<>&|;()]+")  # characters with no meaning to the tokenizer
_ORDINARY = re.compile(r"[^\n\r\\'\"`$<>&|;(){}*?\[~#\x0b\x0c\x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*\Z")
_NONE: frozenset[str] = frozenset()
# A whole line of ordinary characters, blanks, and quotes holding nothing a shell would act on.
# The alternatives start with different characters and are possessive: no backtracking, linear.
_SIMPLE_LINE = re.compile(r"""(?:[ \t]++|[^\s'"\\`$<>&|;(){}*?\[~#]++|'[^'{}*?\[~]*+'|"[^"\\$`{}*?\[~]*+")*+\Z""")
_SIMPLE_WORD = re.compile(r"""(?:[^\s'"]++|'[^']*+'|"[^"]*+")++""")
_QUOTED_PART = re.compile(r"'([^']*)'|\"([^\"]*)\"")


# No backslash, `$` or backtick anywhere, and quotes that hold nothing a shell acts on.
_OPS_LINE = re.compile(r"""(?:[^'"\\`$]++|'[^'{}*?\[~#]*+'|"[^"\\$`{}*?\[~#]*+")*+\Z""")
_OPS_TOKEN = re.compile(
    r"""(?P<b>[ \t]+)|(?P<n>[\n\r])|(?P<o><<<|<<-|&&|\|\||;;|;&|\|&|>>|>&|>\||&>|<<|<&|<>|<\(|>\(|[;&|<>()])"""
    r"""|(?P<w>(?:[^ \t\n\r'"<>&|;()]++|'[^']*+'|"[^"]*+")++)"""  # only blanks split words, as in the loop
)


def _tokenize_ops(line: str) -> list[Token]:
    """The tokenizer's answer for a line `_OPS_LINE` accepts, without the character loop. Quoted
    parts hold none of `{}*?[~#`, so the raw word shows where braces, globs and `~+` are live."""
    tokens: list[Token] = []
    for match in _OPS_TOKEN.finditer(line):
        kind = match.lastgroup
        if kind == "b":
            continue
        if kind == "n":
            tokens.append(Operator("\n"))
        elif kind == "o":
            tokens.append(Operator(match.group()))
        else:
            raw = match.group()
            if raw.isalnum():  # most words: nothing to look at
                tokens.append(Word(raw, True, _NONE, raw))
                continue
            word = _simple_word(raw)
            if word.plain and raw in ("{", "}") and (not tokens or isinstance(tokens[-1], Operator)):
                tokens.append(Operator(raw))
            elif raw[0] == "#":
                tokens.append(Operator("#"))
            elif "{" in raw or "*" in raw or "?" in raw or "[" in raw or raw[0] == "~":
                kinds = set()
                if "{" in raw and _BRACE.search(raw):
                    kinds.add("brace")
                if _GLOB.search(raw):
                    kinds.add("glob")
                if raw[0] == "~" and _TILDE.match(raw):
                    kinds.add("tilde_pwd" if raw[1] == "+" else "tilde_oldpwd")
                tokens.append(word._replace(expansions=frozenset(kinds) if kinds else _NONE,
                                            shadow=raw if word.plain else word.shadow))
            else:
                tokens.append(word)
    return tokens


def _simple_word(raw: str) -> Word:
    single, double = "'" in raw, '"' in raw
    if not single and not double:
        return Word(raw, True, _NONE, raw)
    if single != double:
        text = raw.replace("'" if single else '"', "")
    else:
        text = _QUOTED_PART.sub(lambda m: m.group(1) if m.group(1) is not None else m.group(2), raw)
    return Word(text, False, _NONE, "x" * len(text))
_TILDE = re.compile(r"~[+-](/|$)")
_NAME_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
_SPECIAL = frozenset("0123456789@*#?$!-")


class Operator(NamedTuple):
    text: str
    quoted: bool = False  # a `$(` or backtick found inside double quotes


Token = Word | Operator


def tokenize(line: str) -> list[Token]:
    """Words and operators of `line`, in order. Raises ShellSyntaxError."""
    if "\0" in line:
        raise ShellSyntaxError("the command contains a NUL byte")
    if _ORDINARY.match(line):  # the common case, in one C-level pass: blanks and ordinary characters only
        return [Word(w, True, _NONE, w) for w in line.split()]
    if _SIMPLE_LINE.match(line):  # ordinary words and plain quotes only: words found in one regex pass
        return [_simple_word(w) for w in _SIMPLE_WORD.findall(line)]
    if _OPS_LINE.match(line):  # operators too, but no backslash, `$` or backtick: one regex step per token
        return _tokenize_ops(line)
    tokens: list[Token] = []
    chars: list[str] = []
    shadow: list[str] = []  # unquoted characters as they are, quoted ones as "x"
    kinds: set[str] = set()
    started = False  # a word is open (even an empty one, from "")
    plain = True
    comment = False  # the open word began with an unquoted `#`
    i, n = 0, len(line)

    def close() -> None:
        nonlocal chars, shadow, kinds, started, plain, comment
        if not started:
            return
        if started:
            word = chars[0] if len(chars) == 1 else "".join(chars)
            if plain and word in ("{", "}") and (not tokens or isinstance(tokens[-1], Operator)):
                tokens.append(Operator(word))  # a reserved word only where a command starts: `echo {` is literal
            elif comment:
                tokens.append(Operator("#"))
            else:
                live = shadow[0] if len(shadow) == 1 else "".join(shadow)
                if "{" in live and _BRACE.search(live):
                    kinds.add("brace")
                if ("*" in live or "?" in live or "[" in live) and _GLOB.search(live):
                    kinds.add("glob")
                if live[:1] == "~" and _TILDE.match(live):
                    kinds.add("tilde_pwd" if live[1] == "+" else "tilde_oldpwd")
                tokens.append(Word(word, plain, frozenset(kinds) if kinds else _NONE, live))
        chars, shadow, kinds, started, plain, comment = [], [], set(), False, True, False

    def quoted(text: str) -> None:
        chars.append(text)
        shadow.append("x" * len(text))

    while i < n:
        c = line[i]
        if c in _BLANKS:
            close()
            i += 1
            while i < n and line[i] in _BLANKS:
                i += 1
        elif c in _NEWLINES:
            close()
            tokens.append(Operator("\n"))
            i += 1
        elif c not in _SLOW and (run := _FAST.match(line, i)) is not None:
            # A stretch of ordinary characters and simple quotes, read in one regex step.
            piece = run.group()
            if not started and piece[0] == "#":
                comment = True  # a shell would ignore the rest of the line
            single, double = "'" in piece, '"' in piece
            if (single != double) and not _LIVE.search(piece):
                text = piece.replace("'" if single else '"', "")  # only one kind of quote: drop them all
                chars.append(text)
                shadow.append("x" * len(text))  # nothing in it a shell would expand
                plain = False
            elif single or double:
                for part in _PIECE.finditer(piece):
                    if part.group(3) is not None:
                        chars.append(part.group(3))
                        shadow.append(part.group(3))
                    else:
                        quoted(part.group(1) if part.group(1) is not None else part.group(2))
                        plain = False
            else:
                chars.append(piece)
                shadow.append(piece)
            started = True
            i = run.end()
        elif c == "\\":
            if i + 1 < n and line[i + 1] == "\n":
                i += 2  # line continuation: the shell removes both characters
                continue
            started, plain = True, False
            if i + 1 < n:
                quoted(line[i + 1])
            i += 2
        elif c == "'":
            end = line.find("'", i + 1)
            if end < 0:
                raise ShellSyntaxError("unterminated single quote")
            quoted(line[i + 1 : end])
            started, plain = True, False
            i = end + 1
        elif c == '"':
            before = len(chars)
            i = _double_quoted(line, i + 1, chars, tokens, kinds)
            shadow.append("x" * sum(len(x) for x in chars[before:]))
            started, plain = True, False
        elif c == "$" and line.startswith("$'", i):
            text, i = _ansi_c(line, i + 2)
            quoted(text)
            kinds.add("ansi_c")
            started, plain = True, False
        elif c == "$" and line.startswith('$"', i):
            before = len(chars)
            i = _double_quoted(line, i + 2, chars, tokens, kinds)
            shadow.append("x" * sum(len(x) for x in chars[before:]))
            kinds.add("locale")
            started, plain = True, False
        elif c == "$" and line.startswith("$[", i):  # the old arithmetic expansion: a value only bash knows
            end = line.find("]", i)
            if end < 0:
                raise ShellSyntaxError("unterminated $[ expansion")
            chars.append(line[i:end + 1])
            shadow.append("$" + "x" * (end - i))
            kinds.add("parameter")
            started = True
            i = end + 1
        elif c == "$" and i + 1 < n and (line[i + 1] == "{" or line[i + 1] in _NAME_START or line[i + 1] in _SPECIAL):
            end = _expansion_end(line, i)
            kinds.add("parameter" if line[i + 1] == "{" else "variable" if line[i + 1] in _NAME_START else "special")
            chars.append(line[i:end])
            shadow.append("$" + "x" * (end - i - 1))  # braces inside ${...} are not brace expansion
            started = True
            i = end
        elif c == "`":
            close()
            tokens.append(Operator("`"))
            i += 1
        elif c == "$" and line.startswith("$(", i):
            close()
            tokens.append(Operator("$("))
            i += 2
        elif c in _OPERATOR_START:
            op = _OPERATOR.match(line, i).group()  # type: ignore[union-attr]
            close()
            tokens.append(Operator(op))
            i += len(op)
        else:
            if not started and c == "#":
                comment = True  # a shell would ignore the rest of the line
            run = _PLAIN_RUN.match(line, i)
            piece = run.group() if run else c
            chars.append(piece)
            shadow.append(piece)
            started = True
            i += len(piece)
    close()
    return tokens


def _double_quoted(line: str, i: int, chars: list[str], tokens: list[Token], kinds: set[str]) -> int:
    """Consume a double-quoted run starting after the opening quote; return the index after it.
    `$NAME` and `${...}` in it are still expanded by a shell: recorded in `kinds`."""
    n = len(line)
    while i < n:
        run = _QUOTED_RUN.match(line, i)
        if run:
            chars.append(run.group())
            i = run.end()
            continue
        c = line[i]
        if c == '"':
            return i + 1
        if c == "$" and i + 1 < n and (line[i + 1] == "{" or line[i + 1] in _NAME_START or line[i + 1] in _SPECIAL):
            end = _expansion_end(line, i)
            kinds.add("parameter" if line[i + 1] == "{" else "variable" if line[i + 1] in _NAME_START else "special")
            chars.append(line[i:end])
            i = end
            continue
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


def _expansion_end(line: str, i: int) -> int:
    """The index after `$NAME`, `$1`, `$@` or `${...}` (nested braces counted) starting at `i`."""
    n = len(line)
    if line[i + 1] == "{":
        depth, j = 0, i + 1
        while j < n:
            if line[j] == "{":
                depth += 1
            elif line[j] == "}":
                depth -= 1
                if depth == 0:
                    return j + 1
            elif line[j] == "\\":
                j += 1
            j += 1
        raise ShellSyntaxError("unterminated ${ expansion")
    if line[i + 1] in _SPECIAL:
        return i + 2
    j = i + 1
    while j < n and (line[j] in _NAME_START or line[j].isdigit()):
        j += 1
    return j


_ESCAPES = {"a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f", "n": "\n", "r": "\r", "t": "\t",
            "v": "\v", "\\": "\\", "'": "'", '"': '"', "?": "?"}


_HEX = {width: re.compile(f"[0-9A-Fa-f]{{1,{width}}}") for width in (2, 4, 8)}


def _ansi_c(line: str, i: int) -> tuple[str, int]:
    """Decode a `$'...'` body starting after the quote, the way bash does; return (text, next index)."""
    out: list[str] = []
    n = len(line)
    while i < n:
        c = line[i]
        if c == "'":
            return "".join(out), i + 1
        if c != "\\" or i + 1 >= n:
            out.append(c)
            i += 1
            continue
        e = line[i + 1]
        i += 2
        if e in _ESCAPES:
            out.append(_ESCAPES[e])
        elif e in "xuU":
            width = {"x": 2, "u": 4, "U": 8}[e]
            digits = _HEX[width].match(line, i, i + width)
            if digits:
                out.append(chr(min(int(digits.group(), 16), 0x10FFFF)))
                i += len(digits.group())
            else:
                out.append("\\" + e)
        elif e in "01234567":
            digits = re.match(r"[0-7]{1,3}", line[i - 1:i + 2])
            assert digits is not None
            out.append(chr(int(digits.group(), 8) & 0xFF))
            i += len(digits.group()) - 1
        elif e == "c" and i < n:
            out.append(chr(ord(line[i]) & 0x1F))
            i += 1
        else:
            out.append("\\" + e)
    raise ShellSyntaxError("unterminated $' quote")


def split_words(line: str) -> list[str]:
    """The words of a line that must be a simple command. Raises ShellSyntaxError on any operator."""
    words: list[str] = []
    for token in tokenize(line):
        if isinstance(token, Operator):
            raise ShellSyntaxError(f"shell operator {describe_operator(token.text)} is not allowed here")
        words.append(token.text)
    return words


def word_runs(tokens: Sequence[Token]) -> list[list[Word]]:
    """The words between operators: each run is one command a shell would start (or a redirection
    target). Used to look for denied commands anywhere in a compound line."""
    runs: list[list[Word]] = [[]]
    for token in tokens:
        if isinstance(token, Operator):
            if runs[-1]:
                runs.append([])
        else:
            runs[-1].append(token)
    return [run for run in runs if run]


def segments(tokens: list[Token]) -> list[list[str]]:
    """The text of each run of words between operators (word_runs)."""
    return [[word.text for word in run] for run in word_runs(tokens)]


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
