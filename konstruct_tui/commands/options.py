"""Reading a program's options with their arities, the way getopt_long does.

The deny list must find the command a wrapper runs, and an allowlist rule must know which words
are options and which are their values. Guessing goes wrong both ways: `xargs --max-args 1 rm -rf /`
hides `rm` behind a value the guess did not expect, `env -iS 'rm -rf /'` hides a command inside a
cluster of letters. So every wrapper and tool is described by a table of its options with their
arities, read like getopt_long reads them: short letters cluster (`-iS VALUE`, `-uNAME`), a letter
taking a value takes the rest of its word or the next word, `--long=value` or `--long value`,
unambiguous abbreviations of long names (`--split` is `--split-string`), `--` ends the options.
An option that is not in the table is reported, not guessed: the caller asks instead of allowing.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Table:
    """Options of one program. `short`: getopt letters, `x:` takes a value, `x::` an optional value
    (attached only). `long`: `name` a flag, `name=` takes a value, `name=?` an optional value
    (attached only). `numeric`: `-5` is an option (nice, head). `permute`: options may follow
    operands (GNU tools); wrappers stop at their first operand. `roles`: what an option's value is,
    keyed by every spelling (`-S`, `--split-string`)."""

    short: str = ""
    long: tuple[str, ...] = ()
    numeric: bool = False
    permute: bool = False
    roles: dict[str, str] = field(default_factory=dict)

    def short_arity(self, letter: str) -> int | None:
        """0 flag, 1 required value, 2 optional attached value, None unknown."""
        at = self.short.find(letter)
        if at < 0 or letter == ":":
            return None
        if self.short[at + 1:at + 3] == "::":
            return 2
        return 1 if self.short[at + 1:at + 2] == ":" else 0

    def long_option(self, name: str) -> tuple[str, int] | None:
        """(full name, arity) for a long name or its unambiguous abbreviation."""
        entries = {e.split("=", 1)[0]: (2 if e.endswith("=?") else 1 if e.endswith("=") else 0) for e in self.long}
        if name in entries:
            return name, entries[name]
        matches = [full for full in entries if full.startswith(name)]
        if len(matches) == 1 and name:
            return matches[0], entries[matches[0]]
        return None


@dataclass
class Parsed:
    """What a table made of the words: options (name, value), operands, and where it stopped."""

    options: list[tuple[str, str | None]] = field(default_factory=list)
    operands: list[str] = field(default_factory=list)
    end: int = 0  # index of the first word not read (the wrapped command, for a wrapper)
    unknown: str | None = None  # the first option the table does not know

    def role_values(self, table: Table, role: str) -> list[str]:
        return [value or "" for name, value in self.options if table.roles.get(name) == role]

    def has(self, *names: str) -> bool:
        return any(name in names for name, _ in self.options)


def parse(words: Sequence[str], start: int, table: Table, operands: int | None = 0) -> Parsed:
    """Read options from `words[start:]`. A wrapper (`permute` off) stops after `operands` operands
    of its own (`timeout`'s duration); `operands=None` reads to the end (a tool's whole argv).
    Stops at an unknown option, recording it."""
    out = Parsed()
    i, ended = start, False
    n = len(words)
    while i < n:
        word = words[i]
        if ended or word == "-" or not word.startswith("-") or (table.numeric and word[1:].isdigit()):
            if word.startswith("-") and not ended and word != "-":
                out.options.append((word, None))  # `nice -5`, `head -20`
                i += 1
                continue
            if operands is not None and len(out.operands) >= operands:
                break
            out.operands.append(word)
            i += 1
            if not table.permute and operands is not None and len(out.operands) >= operands:
                break
            continue
        if word == "--":
            ended = True
            i += 1
            if operands is not None and len(out.operands) >= operands:
                break
            continue
        if word.startswith("--"):
            name, eq, value = word[2:].partition("=")
            known = table.long_option(name)
            if known is None:
                out.unknown = word
                break
            full, arity = known
            if arity == 1 and not eq:
                if i + 1 >= n:
                    out.options.append(("--" + full, ""))
                    i += 1
                    continue
                value, i = words[i + 1], i + 1
            out.options.append(("--" + full, value if (eq or arity == 1) else None))
            i += 1
            continue
        k = 1
        while k < len(word):
            letter = word[k]
            arity = table.short_arity(letter)
            if arity is None:
                out.unknown = word if len(word) == 2 else f"-{letter} (in {word})"
                return _done(out, i)
            if arity == 0:
                out.options.append(("-" + letter, None))
                k += 1
                continue
            rest = word[k + 1:]
            if rest or arity == 2:
                out.options.append(("-" + letter, rest or None))
            elif i + 1 < n:
                out.options.append(("-" + letter, words[i + 1]))
                i += 1
            else:
                out.options.append(("-" + letter, ""))
            break
        i += 1
    return _done(out, i)


def _done(out: Parsed, i: int) -> Parsed:
    out.end = i
    return out


def first_unsafe(args: Iterable[str], unsafe: frozenset[str], listed: frozenset[str] = frozenset(),
                 exact: frozenset[str] = frozenset()) -> str | None:
    """The first word of `args` that spells an unsafe option not in `listed` (`exact`: the
    program's own long options, never read as abbreviations).

    Matching is deliberately loose, so it errs towards refusing: a long option also matches its
    abbreviations (git and GNU tools accept `--out=x` for `--output=x`), a short letter matches
    inside a cluster (`-nO`), `--opt=value` matches `--opt`."""
    for word in args:
        if word == "--":
            return None
        if not word.startswith("-") or word == "-" or word.split("=", 1)[0] in exact:
            continue
        for option in _spellings(word, unsafe):
            if option not in listed:
                return word
    return None


def _spellings(word: str, unsafe: frozenset[str]) -> list[str]:
    name = word.split("=", 1)[0]
    if name in unsafe:
        return [name]
    if word.startswith("--"):  # `--out=x` for `--output=x`; short stems (`--co`) are other options' own names
        return [o for o in unsafe if o.startswith("--") and len(name) > 4 and o.startswith(name)]
    found = []
    for option in unsafe:
        if option.startswith("-") and not option.startswith("--"):
            if len(option) == 2 and option[1] in word[1:] and not word[1:].isdigit():
                found.append(option)  # a letter inside a cluster: `-nO`
            elif len(option) > 2 and word.startswith(option + "="):
                found.append(option)  # `-out=x`; find's `-exec` and `-fprintf` matched whole above
    return found
