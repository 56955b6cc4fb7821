"""The hard deny list and the other refusals judged on one program's argv (wrappers already peeled).

A `Finding` names the rule that refused and why. Rule `deny` is the hard deny list: nothing lifts it,
not a preset, not an allowlist entry, not a grant. The others (`destructive`, `outside_workspace`,
`secrets`, `env_injection`) refuse what a careful person would not let an agent do unasked either.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence
from pathlib import Path

from .environment import is_secret_name
from .own_controls import changes_own_trust
from .programs import BY_NAME, harm_of, names_where
from .sweeping import (
    DENY,
    HARMLESS_SINKS,
    Finding,
    deny_extract,
    deny_git,
    deny_kill,
    deny_output,
    deny_pkill,
)
from .targets import Place, is_device, place_of
from .wrappers import program_name

_SECRETS = re.compile(
    r"(^|/)\.ssh(/|$)|(^|/)id_(rsa|dsa|ecdsa|ed25519)(\.pub)?$|\.aws/(credentials|config)|(^|/)\.netrc$"
    r"|/etc/(shadow|gshadow|sudoers)|(^|/)\.gnupg(/|$)|\.kube/config|\.docker/config\.json"
    r"|(^|/)\.git-credentials$|\.password-store|\.config/gcloud|konstruct/trust\.json|(^|/)\.pgpass$"
    r"|(^|/)\.(bash|zsh|python|mysql|psql)_history$|^/proc/(self|thread-self|\d+)/(task/\d+/)?(environ|mem|root/)"
    r"|^/proc(/(self|thread-self|\d+))?/?$"  # a whole process folder (or all of them): `grep -r KEY /proc/1234`
)
# Every credential path holds one of these (normalising a path never creates one): a cheap filter first.
_SECRET_HINTS = (".ssh", "id_", ".aws", ".netrc", "/etc/", ".gnupg", ".kube", ".docker", ".git-credentials",
                 ".password-store", "gcloud", "trust.json", ".pgpass", "_history", "/proc")
# Sending a project's env file somewhere: `curl -d @.env`, `curl -T .env`, `wget --post-file=.env`.
_UPLOADERS = names_where("uploads")
_ENV_FILE = re.compile(r"(^|[@=/])\.env(\.[\w.-]+)?$")
# Variables that make the next program load code of the caller's choosing.
_INJECTING = re.compile(
    r"^(LD_[A-Z_]+|DYLD_[A-Z_]+|BASH_ENV|ENV|PATH|IFS|SHELLOPTS|BASHOPTS|PS4|PROMPT_COMMAND|BASH_FUNC_.*"
    r"|GIT_(?!AUTHOR_|COMMITTER_)[A-Z0-9_]+|NODE_OPTIONS|NODE_PATH|PERL5OPT|PERL5LIB|PERLLIB|RUBYOPT|RUBYLIB"
    r"|PYTHONSTARTUP|PYTHONHOME|PYTHONINSPECT|PYTHONBREAKPOINT|PYTHONUSERBASE|PAGER|[A-Z]+_PAGER|MANPAGER|EDITOR|VISUAL"
    r"|[A-Z]+_EDITOR|LESSOPEN|LESSCLOSE|LESSKEY|LESS|BROWSER|SHELL|HOME|XDG_CONFIG_HOME|XDG_CONFIG_DIRS"
    r"|(?i:npm_config_\w+|yarn_\w+|pnpm_\w+)|MAKEFLAGS|MAKEFILES|MFLAGS|GNUMAKEFLAGS|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS"
    r"|JDK_JAVA_OPTIONS|MAVEN_OPTS|MAVEN_ARGS|GRADLE_OPTS|GRADLE_USER_HOME|GOFLAGS|GOENV|GOTOOLCHAIN|RUSTC_WRAPPER"
    r"|CARGO_BUILD_RUSTC_WRAPPER|CARGO_TARGET_[A-Z0-9_]+_RUNNER|PROMPT|ZDOTDIR|ENV|TAR_OPTIONS|RSYNC_RSH|SSH_ASKPASS|SUDO_ASKPASS|PKG_CONFIG_PATH"
    r"|LD_[A-Z_]+|GCONV_PATH|LOCPATH|NLSPATH|HOSTALIASES|RESOLV_HOST_CONF|MALLOC_[A-Z_]+|GLIBC_TUNABLES)$"
)

_VARIABLE = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)")


def options_and_operands(words: Sequence[str]) -> tuple[list[str], list[str]]:
    """Split a program's arguments (after argv[0]) into options and operands; `--` ends options."""
    options: list[str] = []
    operands: list[str] = []
    ended = False
    for word in words:
        if not ended and word == "--":
            ended = True
        elif not ended and word.startswith("-") and word != "-":
            options.append(word)
        else:
            operands.append(word)
    return options, operands


def judge_program(argv: Sequence[str], root: Path | None) -> Finding | None:
    """The first refusal for this program's argv, hard deny list first."""
    if not argv:
        return None
    name = program_name(argv[0])
    args = list(argv[1:])
    for check in (_deny_words, _deny_program):
        found = check(name, list(argv) if check is _deny_words else args, root)
        if found:
            return found
    if changes_own_trust(name, args):
        return Finding("self_grant", "the agent may not grant itself trust or loosen the command policy")
    if name == "git":
        hidden = next((w for w in args if w.startswith("--config-env")), None)
        if hidden is not None:
            return Finding("env_injection", f"{hidden!r} takes a git setting from an environment variable whose value "
                           "the policy cannot see (a setting may name a program git runs)")
    secret = _secret_word(argv)
    if secret is not None:
        return Finding("secrets", f"{secret!r} is a credential file; the agent may not read or touch it")
    if name in _UPLOADERS:
        sent = next((w for w in args if _ENV_FILE.search(w) and not w.endswith((".example", ".sample", ".template"))), None)
        if sent is not None:
            return Finding("secrets", f"{name} would send the project's env file ({sent}) off this machine")
        outside = next((p for p in _sent_files(name, args) if place_of(p, root) not in (Place.INSIDE, Place.TEMP)), None)
        if outside is not None:
            return Finding("secrets", f"{name} would send {outside!r}, a file from outside the project, off this machine")
    variable = next((m.group(1) for w in argv if "$" in w for m in _VARIABLE.finditer(w) if is_secret_name(m.group(1))), None)
    if variable is None and name == "printenv":
        variable = next((w for w in args if is_secret_name(w)), None)
    if variable is not None:
        return Finding("secrets", f"{variable} names a credential; commands never see the providers' keys")
    return _destructive(name, args, root) or _device_named(name, args)


# Programs that inspect a disk they name, or whose forms that write one are judged by their own rules
# (`inspects_disks` in the program table): any other program naming a disk may write to it.
_DEVICE_READERS = names_where("inspects_disks")
# A path starting a word, after `=`, `:`, `,`, `@`, a quote or a space inside the word (`of=/dev/sda`,
# `OPEN:/dev/sda`, sed's `1w /dev/sda`, awk's `print > "/dev/sda"`).
_PATHS_IN_WORD = re.compile(r"""(?:^|[=:,@\s"'])(/[^=:,@\s"';]*)""")


def _device_named(name: str, args: list[str]) -> Finding | None:
    """A raw disk named anywhere in the argv of a program not known to only inspect it (`pv -o
    /dev/sda`, `socat - OPEN:/dev/sda`, `ddrescue src /dev/sda`, `--output=/dev/nvme0n1`) is judged
    as a write to it: the deny list need not know every tool's output option to hold."""
    if name in _DEVICE_READERS:
        return None
    for word in args:
        body = word[2:] if re.match(r"^-[A-Za-z]/", word) else word  # `-o/dev/sda`: a value attached to a letter
        for path in _PATHS_IN_WORD.findall(body):
            plain = posixpath.normpath(re.sub(r"/+", "/", path))
            if is_device(plain):
                return Finding(DENY, f"{name} names the disk device {path!r}; only a program that inspects disks may "
                               "name one, anything else could overwrite it")
    return None


def judge_assignments(assignments: Sequence[str]) -> Finding | None:
    for assignment in assignments:
        name = assignment.split("=", 1)[0]
        if _INJECTING.match(name):
            return Finding("env_injection", f"setting {name} makes the program load code of the caller's choosing")
    return None


def is_secret(text: str) -> bool:
    return bool(_SECRETS.search(text)) or bool(_SECRETS.search(_normal_path(text)))


def _normal_path(text: str) -> str:
    """`/proc/1//environ`, `/etc/./shadow`, `/x/../etc/shadow`: the path a kernel would open."""
    if "//" not in text and "/." not in text:
        return text
    head, sep, path = text.rpartition("=") if "=" in text and not text.startswith("/") else ("", "", text)
    path = re.sub(r"/+", "/", path)
    if "/." in path or path.startswith("."):
        path = posixpath.normpath(path)
    return head + sep + path


def _secret_word(argv: Sequence[str]) -> str | None:
    """The first word naming a credential file. One search over the joined words (linear), then
    the word itself; paths are normalised first, so `//` or `/./` does not hide one."""
    joined = "\n".join(argv)
    if not any(hint in joined for hint in _SECRET_HINTS):
        return None
    return next((w for w in argv if any(hint in w for hint in _SECRET_HINTS) and is_secret(w)), None)


def _deny_words(name: str, args: list[str], root: Path | None) -> Finding | None:
    for word in args:
        if "/dev/tcp/" in word or "/dev/udp/" in word:
            return Finding(DENY, "a /dev/tcp or /dev/udp path opens a network connection for a shell (a reverse shell)")
    return None


def _deny_program(name: str, args: list[str], root: Path | None) -> Finding | None:
    """The hard deny list on one program: what it can destroy is a fact of its entry (`harm` in the
    program table); how each kind is judged is here."""
    written = deny_output(name, args, root)
    if written is not None:
        return written
    options, operands = options_and_operands(args)
    if harm_of(name.lower()).windows_wipes:
        return _deny_windows(name, args)
    harm = harm_of(name)
    if harm.deletes:
        if "--no-preserve-root" in options:
            return Finding(DENY, "--no-preserve-root exists only to delete the filesystem root")
        for target in operands:
            place = place_of(target, root)
            if place.fatal:
                return Finding(DENY, f"{name} {target!r} would destroy {place.value}")
    elif harm.formats_disks:
        return Finding(DENY, f"{name} formats or wipes a disk")
    elif harm.partitions_disks:
        if not (set(harm.lists_only_with) & set(options) or any(w in harm.lists_only_with for w in operands)):
            return Finding(DENY, f"{name} rewrites a disk's partition table")
    elif name == "dd":
        if any(w.startswith(("if=", "of=")) for w in args):
            return Finding(DENY, "dd with if=/of= copies raw bytes over files or disks")
    elif harm.stops_machine or (operands[:1] and operands[0] in harm.stops_machine_with):
        what = name if harm.stops_machine or operands[0].isdigit() else f"{name} {operands[0]}"  # a runlevel is no word
        return Finding(DENY, f"{what} stops or restarts the machine")
    elif name == "kill":
        return deny_kill(args)
    elif name == "killall5":
        return Finding(DENY, "killall5 signals every process on the machine")
    elif harm.signals_by_name:
        return deny_pkill(name, args)
    elif harm.writes_next:
        for k, word in enumerate(args[:-1]):
            if word in harm.writes_next and (is_device(args[k + 1]) or place_of(args[k + 1], root).fatal):
                return Finding(DENY, f"{name} {word} {args[k + 1]!r} overwrites {place_of(args[k + 1], root).value}")
    elif name == "git":
        return deny_git(args, root)
    elif harm.unpacks_into:
        return deny_extract(name, args, root)
    elif harm.changes_permissions:
        for target in operands[1:] if not any(o.startswith("--reference") for o in options) else operands:
            place = place_of(target, root)
            if place.fatal:
                return Finding(DENY, f"{name} on {target!r} would change the permissions of {place.value}")
    elif harm.overwrites:
        return _deny_write(name, harm.overwrites, operands, root)
    elif harm.edits_in_place and any(o.startswith(("-i", "--in-place")) or _perl_in_place(name, o) for o in options):
        for target in operands[1:]:
            if place_of(target, root).fatal:
                return Finding(DENY, f"{name} -i would rewrite {target!r} ({place_of(target, root).value})")
    elif harm.peer_shell_options:
        if any(o in harm.peer_shell_options or (not o.startswith("--") and any(f"-{letter}" in harm.peer_shell_options
                                                                              for letter in o[1:])) for o in options):
            return Finding(DENY, f"{name} -e/-c hands a shell to a network peer (a reverse shell)")
    elif name == "socat":
        if any(re.match(r"(?i)^(exec|system):", w) or re.search(r"(?i)[,!]\s*(exec|system):", w) for w in operands):
            return Finding(DENY, "socat EXEC/SYSTEM connects a program to a network peer (a reverse shell)")
    elif harm.runs_containers and operands[:1] in (["run"], ["create"], ["exec"]):
        return _deny_container(args)
    elif harm.erases_disks or _erases(harm.erases_with, options, operands):
        return Finding(DENY, f"{name} {' '.join(args[:2])} erases or destroys a disk or volume")
    elif name == "crontab" and "-r" in options:
        return Finding(DENY, "crontab -r deletes your crontab")
    return None


def _erases(words: tuple[str, ...], options: list[str], operands: list[str]) -> bool:
    """An option starting with one of `words` (`--security-erase-enhanced`), or a first operand that is one (`format`)."""
    return any(o.startswith(w) for w in words if w.startswith("-") for o in options) or (
        bool(operands) and operands[0].lower() in words)


def _sent_files(name: str, args: list[str]) -> list[str]:
    """Local files an upload names: `-d @f`, `-F x=@f`, `-T f`, `--post-file=f`, scp/rsync sources."""
    sent: list[str] = []
    for k, word in enumerate(args):
        value = word.split("=", 1)[1] if word.startswith("--") and "=" in word else word
        if "@" in value and not value.startswith(("http://", "https://")) and (value.startswith("@") or "=@" in value):
            sent.append(value.rsplit("@", 1)[1])
        elif word in ("-T", "--upload-file", "--post-file", "--body-file") and k + 1 < len(args):
            sent.append(args[k + 1])
        elif word.startswith(("--post-file=", "--body-file=", "--upload-file=")):
            sent.append(value)
    if harm_of(name).copies_to_hosts:
        _, operands = options_and_operands(args)
        if len(operands) > 1 and re.match(r"^[\w.@-]+:", operands[-1]):
            sent.extend(o for o in operands[:-1] if not re.match(r"^[\w.@-]+:", o))
    return [p for p in sent if p and p != "-"]


def _perl_in_place(name: str, option: str) -> bool:
    """`perl -pi -e ...` edits files in place; `-Mstrict` merely contains an i."""
    return name == "perl" and bool(re.match(r"^-[a-zA-Z]*i", option)) and not option.startswith(("-M", "-m"))


def _deny_container(args: list[str]) -> Finding | None:
    for k, word in enumerate(args):
        mount = args[k + 1] if word in ("-v", "--volume", "--mount") and k + 1 < len(args) else word.split("=", 1)[-1]
        if word in ("--privileged", "--pid=host", "--userns=host") or (
            (word in ("-v", "--volume", "--mount") or word.startswith(("--volume=", "--mount=", "-v")))
            and re.match(r"^(/|source=/|src=/|type=bind,(source|src)=/)(:|,|$)", mount.removeprefix("-v"))
        ):
            shown = f"{word} {mount}" if word in ("-v", "--volume", "--mount") else word
            return Finding(DENY, f"{shown} hands the container the host machine: a root escape")
    return None


def _deny_windows(name: str, args: list[str]) -> Finding | None:
    """The same catastrophes in Windows spelling, for a corpus or a model that reaches for them."""
    if harm_of(name.lower()).formats_disks:
        return Finding(DENY, f"{name} formats or repartitions a disk")
    if any(re.match(r"^([A-Za-z]:[\\/]*\*?|%(USERPROFILE|HOMEPATH|SYSTEMROOT|WINDIR)%[\\/]*\*?|\$env:USERPROFILE)$", a) for a in args):
        return Finding(DENY, f"{name} on a drive root or a home folder wipes it")
    return None


def _deny_write(name: str, overwrites: str, operands: list[str], root: Path | None) -> Finding | None:
    if overwrites == "every operand":
        targets = operands
    else:  # the last operand, when there is a source before it
        targets = operands[-1:] if len(operands) > 1 else []
    for target in targets:
        if target in HARMLESS_SINKS:
            continue  # `tee /dev/null`, `cp x /dev/stdout`: nothing is overwritten
        if is_device(target):
            return Finding(DENY, f"{name} onto {target!r} overwrites a disk device")
        place = place_of(target, root)
        if place.fatal:
            return Finding(DENY, f"{name} {target!r} would overwrite or remove {place.value}")
    return None


def _destructive(name: str, args: list[str], root: Path | None) -> Finding | None:
    """Not on the hard list, still refused: wiping the whole project, deleting outside it."""
    options, operands = options_and_operands(args)
    harm = harm_of(name)
    if harm.deletes:
        targets = operands
    elif name == "mv":
        if operands[-1:] == ["/dev/null"]:
            return Finding("destructive", "mv onto /dev/null destroys the file")
        targets = operands[:-1]
    elif name == "find" and "-delete" in args:
        return _find_delete(args, root)
    elif harm.changes_permissions and any(o in ("-R", "--recursive") or (o[1:].isalpha() and "R" in o) for o in options):
        for target in operands[1:]:
            if place_of(target, root) in (Place.PARENT, Place.ELSEWHERE):
                return Finding("outside_workspace", f"{name} -R {target!r} changes permissions outside the project")
        return None
    else:
        return None
    for target in targets:
        place = place_of(target, root)
        if place is Place.PROJECT:
            return Finding("destructive", f"{name} {target!r} would delete the whole project")
        if place is Place.PARENT or (place is Place.ELSEWHERE and not _CACHE.search(target)):
            return Finding("outside_workspace", f"{name} {target!r} deletes outside the project")
        if place is Place.INSIDE and re.sub(r"[*?]+$", "", target).strip("/").removeprefix("./").rstrip("/") == ".git":
            return Finding("destructive", f"{name} {target!r} would delete the project's git history")
    return None


# Caches outside the project that a build or test may reasonably clear.
_CACHE = re.compile(
    r"(^|/)(\.cache|\.npm|\.yarn|\.pnpm-store|\.gradle/caches|\.m2/repository|Library/Caches|\.cargo/registry"
    r"|go/pkg/mod|\.pytest_cache|__pycache__|\.mypy_cache|\.ruff_cache|node_modules)(/|$)"
)


def find_starts(args: Sequence[str]) -> list[str]:
    starts: list[str] = []
    for word in args:
        if word.startswith(("-", "(", "!", ")")) or word == ",":
            break
        starts.append(word)
    return starts or ["."]


def _find_delete(args: list[str], root: Path | None) -> Finding | None:
    for start in find_starts(args):
        place = place_of(start, root)
        if place.fatal:
            return Finding(DENY, f"find {start!r} -delete would destroy {place.value}")
        if place is Place.PARENT or (place is Place.ELSEWHERE and not _CACHE.search(start)):
            return Finding("outside_workspace", f"find {start!r} -delete reaches outside the project")
        if place is Place.PROJECT and not find_is_filtered(args):
            return Finding("destructive", f"find {start!r} -delete with no filter would delete the whole project")
    return None


_FIND_FILTERS = frozenset({"-name", "-iname", "-path", "-ipath", "-wholename", "-regex", "-iregex", "-newer",
                           "-mtime", "-mmin", "-empty", "-size", "-user", "-perm", "-lname"})


def find_is_filtered(args: Sequence[str]) -> bool:
    """Whether a find expression narrows what it matches (a name, a path, an age...) before its
    first action: `find . -delete -name x` deletes everything, then tests the name."""
    for word in args:
        if word in _FIND_FILTERS:
            return True
        if word in _FIND_ACTIONS:
            return False
    return False


_FIND = BY_NAME["find"]
_FIND_ACTIONS = _FIND.unsafe_options(None)  # what it does to what it found: delete, run, write
_FIND_RUNS = tuple(option for option, how in _FIND.runs.items() if how == "command")


def find_exec_commands(args: Sequence[str]) -> list[tuple[list[str], list[str]]]:
    """The commands `find ... -exec CMD ;` runs, each with the start paths its `{}` stands for."""
    starts = find_starts(args)
    found: list[tuple[list[str], list[str]]] = []
    i = 0
    while i < len(args):
        if args[i] in _FIND_RUNS:
            j = i + 1
            while j < len(args) and args[j] not in (";", "+"):
                j += 1
            found.append((list(args[i + 1:j]), starts))
            i = j
        i += 1
    return found
