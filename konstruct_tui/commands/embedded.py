"""Shell code hidden in a program's arguments.

Many programs run a string they are given: `alias x='...'`, `trap '...' EXIT`, `git -c core.pager=...`,
`parallel rm -rf ::: /`, `tar --checkpoint-action=exec=...`, `ssh -o ProxyCommand=...`, `rsync -e ...`,
`vim -c '!...'`. Each string found here is judged by the policy as a command line of its own.

Two strengths: `strict` strings are certainly run by a shell (alias, trap, git's executed settings),
so compound syntax in them refuses the command; the others are any argument with a space in it,
held to the hard deny list only, because most are plain text. Programs whose arguments are text by
nature (`echo`, `grep`, `git commit -m`) are not scanned: searching for the words `rm -rf /` is fine.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..workspace import names_program
from .programs import BY_NAME, names_where
from .sweeping import git_places
from .wrappers import program_name

# Programs whose arguments are text, patterns or data, never run (`text` in the program table).
TEXT_PROGRAMS = names_where("text")
_GIT = BY_NAME["git"]
_VIM_NAMES = BY_NAME["vim"].names  # `vim +'!cmd'` runs cmd in a shell


@dataclass(frozen=True)
class EmbeddedCode:
    code: str
    via: str
    strict: bool
    argv: tuple[str, ...] | None = None  # a program run with arguments, no shell (`rg --pre CMD FILE`)


def embedded_code(argv: Sequence[str]) -> list[EmbeddedCode]:
    if not argv:
        return []
    name = program_name(argv[0])
    args = list(argv[1:])
    found: list[EmbeddedCode] = []
    if name == "alias":
        found += [EmbeddedCode(w.split("=", 1)[1], "alias", True) for w in args if "=" in w]
    elif name == "trap" and args:
        found.append(EmbeddedCode(args[0], "trap", True))
    elif name == "git":
        found += _git_settings(args) + _git_runs(args)
        # `ext::CMD ARG...` remotes: git runs CMD with ARGs (split on spaces, `% ` a space inside one);
        # judged both as git splits it and as the shell line it looks like (`ext::sh -c 'rm -rf /'`).
        for word in (w for w in args if "ext::" in w):
            spec = word.split("ext::", 1)[1]
            found.append(EmbeddedCode(spec, "git ext:: transport", True, _ext_argv(spec)))
            found.append(EmbeddedCode(spec.replace("%S", "x").replace("% ", " "), "git ext:: transport", True))
    elif name == "parallel" and ":::" in args:
        at = args.index(":::")
        start = next((k for k, w in enumerate(args[:at]) if not w.startswith("-")), at)
        template = args[start:at]  # parallel's own options come first, then the command
        found.append(EmbeddedCode(" ".join(template + [w for w in args[at + 1:] if w != ":::"]), "parallel", True))
    found += _exec_options(name, args)
    if name in _VIM_NAMES:
        found += [EmbeddedCode(w[1:].lstrip(":")[1:], f"{name} +", True) for w in args if w.startswith("+") and w[1:].lstrip(":").startswith("!")]
    if name == "sed":
        found += _sed_execute(args)
    if name in TEXT_PROGRAMS:
        return found
    for word in args:
        for candidate in _candidates(word):
            if " " in candidate.strip() or "\t" in candidate:
                found.append(EmbeddedCode(candidate, f"an argument of {name}", False))
    return found


def _exec_options(name: str, args: list[str]) -> list[EmbeddedCode]:
    """Values of options that run a program or a shell string (`runs` in the program table): `shell`
    run by a shell; `program` a program run with a file name appended (judged as `VALUE FILE`);
    `vim` an editor command, `:!cmd` running cmd."""
    entry = BY_NAME.get(name)
    sub = next((w for w in args if not w.startswith("-")), None) if entry is not None and entry.subcommands else None
    table = entry.runs_in(sub) if entry is not None else {}
    if not table:
        return []
    found = []
    for k, word in enumerate(args):
        for option, how in table.items():
            value: str | None = None
            if word == option:
                value = args[k + 1] if k + 1 < len(args) else ""
            elif word.startswith(option + "="):
                value = word.split("=", 1)[1]
            elif not option.startswith("--") and len(option) == 2 and word.startswith(option) and len(word) > 2:
                value = word[2:]  # `-Orm`, `-xCMD`
            if value is None or how == "command":  # `find -exec CMD ;`: judged with the paths `{}` stands for (judge.py)
                continue
            via = f"{name} {option}"
            if how == "vim":
                value = value.lstrip(":")
                if value.startswith("!"):
                    found.append(EmbeddedCode(value[1:], via, True))
            elif how == "program":
                found.append(EmbeddedCode(value, via, True, tuple(value.split()) + (".",)))
            else:
                found.append(EmbeddedCode(value, via, True))
    return found


def _sed_execute(args: list[str]) -> list[EmbeddedCode]:
    """GNU sed runs shell commands: the `e COMMAND` command, and the `e` flag of `s///e`."""
    found = []
    scripts = [args[k + 1] for k, w in enumerate(args[:-1]) if w in ("-e", "--expression")]
    scripts += [w.split("=", 1)[1] for w in args if w.startswith("--expression=")]
    if not scripts:
        scripts = [next((w for w in args if not w.startswith("-")), "")]
    for script in scripts:
        for line in script.replace(";", "\n").split("\n"):
            command = line.strip().lstrip("0123456789,$/ !")
            if command.startswith("e"):
                found.append(EmbeddedCode(command[1:].strip() or "sh", "sed e", True))
            elif command.startswith("s") and len(command) > 1:
                parts = _sed_parts(command[2:], command[1])
                if len(parts) == 3 and "e" in parts[2]:  # s/x/CMD/e runs the replaced line as a command
                    found.append(EmbeddedCode(parts[1] or "sh", "sed s///e", True))
    return found


def _sed_parts(text: str, delimiter: str) -> list[str]:
    """`pat/rep/flags` split on the unescaped delimiter, `\\/` unescaped."""
    parts: list[str] = []
    current: list[str] = []
    k = 0
    while k < len(text):
        if text[k] == "\\" and k + 1 < len(text):
            current.append(text[k + 1] if text[k + 1] == delimiter else text[k:k + 2])
            k += 2
            continue
        if text[k] == delimiter and len(parts) < 2:
            parts.append("".join(current))
            current = []
        else:
            current.append(text[k])
        k += 1
    return parts + ["".join(current)]


def _git_settings(args: list[str]) -> list[EmbeddedCode]:
    """`git -c KEY=VALUE` and `git config [options] KEY VALUE` of a key whose value git runs (the
    hardened git's list, workspace/safe_git.py): the value is judged as the command it will be."""
    found = []
    settings = []
    for k, word in enumerate(args):
        setting = args[k + 1] if word == "-c" and k + 1 < len(args) else (word[2:] if word.startswith("-c") and "=" in word else None)
        if setting is not None and "=" in setting:
            settings.append(tuple(setting.split("=", 1)))
    sub = _git_subcommand(args)
    if sub is not None and args[sub] == "config":
        operands = _config_operands(args[sub + 1:])
        if operands[:1] == ["set"] or operands[:1] == ["add"]:
            operands = operands[1:]
        if len(operands) >= 2:
            settings.append((operands[0], operands[1]))
    for key, value in settings:
        key = key.lower()
        if names_program(key) or (key.startswith("alias.") and value.startswith("!")):
            found.append(EmbeddedCode(value.removeprefix("!"), f"git setting {key}", True))
    return found


# `git config`'s options that take a value.
_CONFIG_VALUED = _GIT.subcommands["config"].takes_value


def _git_subcommand(args: Sequence[str]) -> int | None:
    return git_places(args)[1]  # git's own options read with their arities (sweeping.py)


def _config_operands(words: Sequence[str]) -> list[str]:
    out, k = [], 0
    while k < len(words):
        word = words[k]
        if word.startswith("-"):
            k += 2 if word in _CONFIG_VALUED else 1
            continue
        out.append(word)
        k += 1
    return out


def _git_runs(args: list[str]) -> list[EmbeddedCode]:
    """git subcommands that run what follows: `submodule foreach CMD` (a shell string), `bisect run
    CMD ARG...` (a program with its arguments)."""
    sub = _git_subcommand(args)
    if sub is None:
        return []
    rest = args[sub + 1:]
    if args[sub] == "submodule" and "foreach" in rest:
        after = [w for w in rest[rest.index("foreach") + 1:] if w not in ("--recursive", "-q", "--quiet")]
        return [EmbeddedCode(" ".join(after), "git submodule foreach", True)] if after else []
    if args[sub] == "bisect" and rest[:1] == ["run"] and len(rest) > 1:
        return [EmbeddedCode(" ".join(rest[1:]), "git bisect run", True, tuple(rest[1:]))]
    return []


def _ext_argv(spec: str) -> tuple[str, ...]:
    """git-remote-ext's reading of `CMD ARG...`: unescaped spaces split, `% ` is a space, `%%` a %,
    `%s`/`%S`/`%G`/`%V` stand for values git fills in."""
    words, current, k = [], [], 0
    while k < len(spec):
        char = spec[k]
        if char == "%" and k + 1 < len(spec):
            nxt = spec[k + 1]
            current.append({" ": " ", "%": "%"}.get(nxt, "x"))
            k += 2
            continue
        if char == " ":
            if current:
                words.append("".join(current))
            current = []
        else:
            current.append(char)
        k += 1
    if current:
        words.append("".join(current))
    return tuple(words) or ("sh",)


def _candidates(word: str) -> list[str]:
    """The word, what follows its first `=` (`--opt=VALUE`), what follows `exec=`, without a leading
    `!` or `:!` (vim and git run those through a shell)."""
    out = [word]
    if "=" in word:
        out.append(word.split("=", 1)[1])
    if "exec=" in word:
        out.append(word.split("exec=", 1)[1])
    for prefix in (":!", "!"):
        if word.startswith(prefix):
            out.append(word[len(prefix):])
    return out
