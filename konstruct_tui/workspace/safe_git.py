"""Our own git, hardened: every git process the workbench starts for itself (status, diff, ls-files,
check-ignore, rev-parse) runs with configuration that cannot execute a program the project controls.

Why: the agent's commands write project files (and, where the sandbox allows, could once have
written `.git/config`). A git config or `.gitattributes` can name programs git runs on its own:
`core.fsmonitor` (on every status/diff), hooks (`core.hooksPath`, `post-index-change`), pagers,
`diff.external`, diff drivers' `textconv`/`command`, filters' `clean`/`smudge`/`process`, merge
drivers, credential helpers, `core.sshCommand`, `gpg.program`, and auto-gc daemons. The workbench
runs git unconfined, so any of these would be an escape from the sandbox. So:

- every key of that kind gets a command-line override (`-c key=...`, the highest-priority config),
  both the fixed ones and, for per-driver keys, one per driver name found in any config file
  (including files pulled in by `include.path` / `includeIf`: `git config --list` follows them and
  reading config runs nothing);
- `--no-pager`, `--no-optional-locks` (status never rewrites the index, so no index hook), and
  callers add `--no-ext-diff --no-textconv` to diffs;
- the environment loses every `GIT_*` variable (GIT_DIR, GIT_EXTERNAL_DIFF, GIT_CONFIG_COUNT/KEY/
  VALUE, GIT_CONFIG_PARAMETERS, GIT_SSH_COMMAND, GIT_PAGER ...) and the system config is skipped.
`safe.directory` is never set: a repository owned by someone else stays refused, as git decides.
"""

from __future__ import annotations

import os
import re
import subprocess
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path

from .outside_programs import program_outside
from .unstall import run_unstalled

# Keys that name a program to run, or switch on something that runs one, and their safe values.
FIXED_OVERRIDES: Mapping[str, str] = {
    "core.fsmonitor": "false",
    "core.hooksPath": "/dev/null",
    "core.pager": "cat",
    "core.editor": "false",
    "sequence.editor": "false",
    "core.sshCommand": "false",
    "core.askPass": "",
    "core.gitProxy": "",
    "core.alternateRefsCommand": "",
    "credential.helper": "",
    "diff.external": "",
    "gpg.program": "false",
    "gpg.ssh.program": "false",
    "gpg.x509.program": "false",
    "log.showSignature": "false",
    "gc.auto": "0",
    "gc.autoDetach": "false",
    "maintenance.auto": "false",
    "fetch.recurseSubmodules": "false",
    "submodule.recurse": "false",
    # A submodule's `.git` is a project file naming any git folder (one the agent made, with its own
    # config and filters); `status` would run git inside it to see if it is dirty, under that config,
    # which no override here can name. `dirty` still reports a submodule moved to another commit.
    "diff.ignoreSubmodules": "dirty",
    "status.submoduleSummary": "false",
    "protocol.allow": "never",
    "core.untrackedCache": "false",
}
# Per-driver keys (`filter.NAME.clean`): overridden for every NAME any config mentions.
_DRIVER_KEY = re.compile(
    r"^(?:filter\.(.+)\.(?:clean|smudge|process)|diff\.(.+)\.(?:textconv|command)|merge\.(.+)\.driver"
    r"|pager\.(.+)|credential\.(.+)\.helper|remote\.(.+)\.(?:uploadpack|receivepack|vcs)|gpg\.(.+)\.program"
    r"|(?:mergetool|difftool|browser|man)\.(.+)\.(?:cmd|path))$",
    re.IGNORECASE,
)
# Fixed keys whose value is a program or a shell string git runs (the rest of FIXED_OVERRIDES
# switches things off). With _DRIVER_KEY, the one list the command policy judges `git -c KEY=VALUE`
# and `git config KEY VALUE` by: what our git overrides is what the agent may not set to a command.
_PROGRAM_KEYS = frozenset({
    "core.fsmonitor", "core.pager", "core.editor", "sequence.editor", "core.sshcommand", "core.askpass",
    "core.gitproxy", "core.alternaterefscommand", "credential.helper", "diff.external", "gpg.program",
    "gpg.ssh.program", "gpg.x509.program", "uploadpack.packobjectshook", "sendemail.sendmailcmd",
    "sendemail.smtpserver", "instaweb.httpd", "gpg.ssh.defaultkeycommand",
})


def names_program(key: str) -> bool:
    """Whether git runs the value of the setting `key` (`core.pager`, `filter.x.clean`, `alias.x` is
    the caller's: only a `!` value runs)."""
    return key.lower() in _PROGRAM_KEYS or bool(_DRIVER_KEY.match(key))
TIMEOUT_S = 30
_NO_GIT = "git-found-only-inside-the-workspace"  # running it fails like a missing git (OSError)
_cache: dict[str, tuple[tuple, tuple[str, ...]]] = {}
_cache_lock = threading.Lock()


def git_environment(base: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment for our git: no GIT_* variable from anywhere, no system config, no prompts."""
    env = {k: v for k, v in (os.environ if base is None else base).items() if not k.upper().startswith("GIT_")}
    env.update(GIT_CONFIG_NOSYSTEM="1", GIT_TERMINAL_PROMPT="0", GIT_OPTIONAL_LOCKS="0", GIT_PAGER="cat",
               GIT_ATTR_NOSYSTEM="1")
    return env


def _fixed_argv(root: Path) -> list[str]:
    # git found outside the workspace: an activated `.venv/bin` in the project on PATH must not make
    # a `git` a command planted there the one we run unconfined (outside_programs.py).
    out = [program_outside("git", root) or _NO_GIT, "--no-pager", "--no-optional-locks"]
    for key, value in FIXED_OVERRIDES.items():
        if value in ("false", "cat") and key != "core.fsmonitor" and names_program(key):  # a program, found like git
            value = program_outside(value, root) or f"/nonexistent/{value}"
        out += ["-c", f"{key}={value}"]
    return out


def files_key(paths: Sequence[str]) -> tuple:
    """What a cache of git's configuration is keyed by: each config file's mtime, size and inode."""
    key: list[tuple[object, ...]] = []
    for path in paths:
        try:
            found = os.stat(path)
            key.append((path, found.st_mtime_ns, found.st_size, found.st_ino))
        except OSError:
            key.append((path, None))
    return tuple(key)


def config_entries(root: str | os.PathLike[str], *, values: bool = True, system: bool = False,
                   timeout: float = TIMEOUT_S) -> tuple[set[str], list[tuple[str, str, str]]] | None:
    """git's configuration for `root`, read with our hardened git (reading configuration runs
    nothing): the config files it came from (`.git/config` always among them) and each entry as
    (its file, absolute, or "" for one given on the command line; key; value, "" without `values`).
    `system`: the system config too, as the person's own git reads it. None when git cannot run."""
    path = Path(root)
    env = git_environment()
    if system:
        env.pop("GIT_CONFIG_NOSYSTEM", None)
    argv = [*_fixed_argv(path), "-C", str(path), "config", "-z", "--list", "--show-origin", *(() if values else ("--name-only",))]
    try:
        done = run_unstalled(argv, root=path, timeout=timeout, env=env)
    except (OSError, subprocess.TimeoutExpired):
        return None
    fields = done.stdout.split(b"\0")
    origins: set[str] = {os.path.join(path, ".git", "config")}
    entries: list[tuple[str, str, str]] = []
    for origin, entry in zip(fields[0::2], fields[1::2], strict=False):
        text = os.fsdecode(origin)
        source = text[len("file:"):] if text.startswith("file:") else ""
        source = os.path.join(path, source) if source and not os.path.isabs(source) else source
        if source:
            origins.add(source)
        key, _, value = os.fsdecode(entry).partition("\n")
        entries.append((source, key, value))
    return origins, entries


def _driver_overrides(root: Path) -> tuple[str, ...]:
    """`-c key=` for every per-driver key any config file names (cached until a config file changes)."""
    cache_key = str(root)
    with _cache_lock:
        cached = _cache.get(cache_key)
    if cached is not None and files_key([p for p, *_ in cached[0]]) == cached[0]:
        return cached[1]
    found = config_entries(root, values=False)
    if found is None:
        return ()
    origins, entries = found
    overrides: list[str] = []
    for _source, key, _value in entries:
        if _DRIVER_KEY.match(key) and key.lower() not in (k.lower() for k in FIXED_OVERRIDES):
            overrides += ["-c", f"{key}="]
            if key.lower().startswith("filter."):  # a required filter with no command would stop git
                overrides += ["-c", f"{key.rsplit('.', 1)[0]}.required=false"]
    result = tuple(dict.fromkeys(overrides[1::2]))  # each `key=value` once
    flat = tuple(x for key in result for x in ("-c", key))
    with _cache_lock:
        _cache[cache_key] = (files_key(sorted(origins)), flat)
    return flat


def git_argv(root: str | os.PathLike[str], *args: str) -> list[str]:
    """The full argv of a hardened `git -C root ARGS...`."""
    path = Path(root)
    return [*_fixed_argv(path), *_driver_overrides(path), "-C", str(path), *args]


def run_git(root: str | os.PathLike[str], *args: str, timeout: float = TIMEOUT_S) -> subprocess.CompletedProcess[bytes]:
    """Run a hardened git in `root`, capturing its output. Raises OSError / TimeoutExpired like subprocess.run."""
    # Unstalled: a FIFO named `.gitignore` in the workspace must not hold git (and us) for the timeout.
    return run_unstalled(git_argv(root, *args), root=root, timeout=timeout, env=git_environment())
