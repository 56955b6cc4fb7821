"""What confinement a command gets: the project's mode, what this kernel can enforce, and what
the result says about it. Pure decisions; `confine.py` turns a plan into a confined child.

Modes:
- `workspace-write` (default): reads only the workspace, the system folders, the interpreter and
  the toolchains (see READABLE_*); writes only in the workspace except its `.git` (read-only), the
  command's private temp folder (TMPDIR), a few devices (/dev/null ...) and the toolchain caches
  that exist (~/.cache/pip, ~/.npm, ~/go/pkg/mod, ~/.m2/repository, ~/.cache/go-build ...).
- `read-only`: reads the same; writes only in the private temp folder and those devices.
- `full`: no confinement at all (it needs its own grant, asked every session).
Reads are an allow-list so that the person's home folder (~/.ssh, ~/.gnupg, ~/.aws, keychains,
~/.config/konstruct, other projects) is out of reach: only named toolchain folders in it are readable.
Both confined modes block the network unless the project allows it: no socket but unix and netlink
ones can be made (seccomp, see seccomp.py), and TCP connect and bind are refused by Landlock too
(ABI >= 4). From ABI 6 they also cannot signal processes outside the sandbox (the workbench itself)
and, with the network blocked, cannot reach abstract unix sockets.

`.git` read-only and "nothing outlives the call" use private namespaces where this process may make
them (namespaces.py). Elsewhere `.git` is kept read-only by granting writes on each top-level entry
but `.git` (so new top-level entries cannot be made; the result's note says so), and lifetime falls
back to the subreaper (commands/process_tree.py).

Never claimed, never implied: on a kernel without Landlock the plan's mode is `unsandboxed`, and a
project that set `unsandboxed = refuse` gets a refusal instead of a run.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from . import landlock, namespaces, project_code
from .seccomp import seccomp_filter
from .settings import SandboxSettings

# Toolchain caches a confined build may write (the python, node, go and java presets' tools).
# Only those that exist are granted: the sandbox never creates folders in the home directory.
# Never a whole ~/.m2, ~/.gradle or ~/.cargo: settings.xml, gradle.properties and credentials.toml hold tokens.
TOOLCHAIN_CACHES = (
    "~/.cache/pip", "~/.cache/uv", "~/.cache/pypoetry", "~/.npm", "~/.cache/yarn", "~/.local/share/pnpm",
    "~/go/pkg/mod", "~/.cache/go-build", "~/.m2/repository", "~/.gradle/caches", "~/.gradle/wrapper",
    "~/.cargo/registry", "~/.cargo/git",
)
# Toolchains installed in the home folder: readable (and runnable), never writable.
TOOLCHAIN_HOMES = (
    "~/.pyenv", "~/.local/bin", "~/.local/lib", "~/.nvm", "~/.volta", "~/.bun", "~/.deno", "~/.rbenv",
    "~/.rustup", "~/.cargo/bin", "~/go/bin", "~/.sdkman/candidates", "~/.gradle/wrapper",
)
# The person's git settings: git stops with "unable to access" on a config file it may not read.
READABLE_HOME_FILES = ("~/.gitconfig", "~/.config/git")
TOOLCHAIN_VARIABLES = ("PYENV_ROOT", "NVM_DIR", "RUSTUP_HOME", "GOROOT", "JAVA_HOME", "VOLTA_HOME", "VIRTUAL_ENV")
# System folders a program needs to start and run. /etc is granted entry by entry, without these:
READABLE_SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt", "/nix", "/snap",
                   "/proc", "/sys", "/var/lib/dpkg", "/run/current-system")
# Devices by name, never all of /dev: root could read a raw disk (/dev/sda: every file, the home
# folder's included), the kernel log, other people's terminals (/dev/pts, /dev/tty*, /dev/vcs*).
# /dev/fd, /dev/stdin ... are links into /proc, which is readable.
READABLE_DEVICES = ("/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom")
# "a/b": only that entry of the folder a is withheld (programs need /etc/ssl/openssl.cnf and the certs).
ETC_SECRETS = frozenset({"shadow", "shadow-", "gshadow", "gshadow-", "ssh", "sudoers", "sudoers.d", "ssl/private",
                         "pki/tls/private", "letsencrypt",
                         "krb5.keytab", "security", "NetworkManager", "wireguard", "docker", "containers",
                         "credstore", "credstore.encrypted", "libvirt", "openvpn", "ipsec.secrets", "ppp"})
# Character devices programs expect to write. Not /dev/shm (it outlives the command), not /dev/pts
# (other people's terminals), not /dev/tty (a command has no controlling terminal: its own session).
WRITABLE_DEVICES = ("/dev/null", "/dev/zero", "/dev/full")
ABI_OVERRIDE = "KONSTRUCT_SANDBOX_ABI"  # lowers (never raises) the ABI used: to try the fallback


def effective_abi() -> int:
    """The kernel's Landlock ABI, lowered by $KONSTRUCT_SANDBOX_ABI when that is set (a way to see
    what a machine without Landlock would get; it can only take confinement away, honestly reported)."""
    abi = landlock.kernel_abi()
    override = os.environ.get(ABI_OVERRIDE, "").strip()
    if override.isdigit():
        abi = min(abi, int(override))
    return abi


@dataclass(frozen=True)
class SandboxPlan:
    requested: str  # the project's mode
    mode: str  # what is applied: read-only, workspace-write, full, or unsandboxed
    abi: int
    network: str  # blocked (the kernel refuses TCP connect), allowed (by the project), unrestricted
    settings: SandboxSettings
    writable: tuple[str, ...] = ()  # absolute paths a confined command may write, besides its temp folder
    readable: tuple[str, ...] = ()  # absolute paths it may read and run (writable ones are readable too)
    read_only: tuple[str, ...] = ()  # folders inside `writable` kept read-only (the workspace's .git)
    root: str = ""  # the workspace's real path
    namespaces: bool = False  # private mount + PID namespaces (read_only by mount; the call's lifetime)
    refusal: str | None = None  # set when the command must not run at all
    notes: tuple[str, ...] = field(default=())

    @property
    def confined(self) -> bool:
        return self.mode in ("read-only", "workspace-write")

    @property
    def blocks_network(self) -> bool:
        return self.network == "blocked"

    def report(self) -> dict[str, Any]:
        """What a tool result says: the mode actually applied, the ABI, the network."""
        out: dict[str, Any] = {"mode": self.mode, "abi": self.abi, "network": self.network}
        if self.confined:
            out["home"] = "hidden"  # only the named toolchain folders in it are readable
            out["git"] = "read-only"
            out["lifetime"] = "pid-namespace" if self.namespaces else "subreaper"
        if self.mode != self.requested:
            out["requested_mode"] = self.requested
        if self.notes:
            out["note"] = "; ".join(self.notes)
        return out


def plan_for(root: str | os.PathLike[str], settings: SandboxSettings, abi: int | None = None) -> SandboxPlan:
    abi = effective_abi() if abi is None else abi
    if settings.mode == "full":
        return SandboxPlan("full", "full", abi, "unrestricted", settings,
                           notes=("no confinement: the project's mode is full",))
    if abi <= 0:
        note = "this kernel offers no Landlock, so nothing confines the command"
        refusal = ("this project refuses unsandboxed runs (konstruct sandbox set --unsandboxed refuse) "
                   "and this kernel offers no Landlock") if settings.refuse_unsandboxed else None
        return SandboxPlan(settings.mode, "unsandboxed", 0, "unrestricted", settings, refusal=refusal, notes=(note,))
    notes: list[str] = []
    if settings.allow_network:
        network = "allowed"
    elif abi >= 4:
        network = "blocked"
        if seccomp_filter() is None:
            notes.append("only TCP is blocked: this architecture gets no seccomp filter for UDP and raw sockets")
    else:
        network = "unrestricted"
        notes.append(f"Landlock ABI {abi} has no network rules (they need ABI 4): outbound connections are not blocked")
    real = os.path.realpath(os.fspath(root))
    home = os.path.realpath(os.path.expanduser("~"))
    isolated = namespaces.available()
    writable: list[str] = []
    outside = _readable_outside(home, os.environ.get("PATH", ""), tuple(os.environ.get(v, "") for v in TOOLCHAIN_VARIABLES))
    readable = list(outside)
    read_only: list[str] = []
    git_dir = os.path.join(real, ".git")
    readable.extend(_outside_git_dirs(real))
    own = project_code.own_environment_inside(real)
    if own is not None:
        notes.append(f"konstruct runs from a virtualenv inside this project ({own}): commands may not write it, "
                     "but install konstruct outside the project so nothing in it runs unconfined")
    if settings.mode == "workspace-write":
        if real == "/" or home == real or home.startswith(real.rstrip("/") + "/"):
            notes.append("the workspace contains the home folder: workspace-write lets commands write all of it")
        # Files unconfined programs run (virtualenvs, git's include files and hooks folder): read-only.
        held = project_code.held_read_only(real)
        if isolated:
            writable.append(real)
            if os.path.exists(git_dir):  # a folder, a worktree's `.git` file, or a link to either inside
                target = os.path.realpath(git_dir)
                if target.startswith(real.rstrip("/") + "/"):
                    read_only.append(target)
            read_only.extend(held)
        else:
            # Landlock only adds rights beneath a folder: "all but .git" is every other top-level entry.
            readable.append(real)
            kept = {os.path.join(real, ".git"), *held}
            writable.extend(os.path.join(real, name) for name in sorted(_entries(real))
                            if os.path.join(real, name) not in kept)
            notes.append("no private namespaces here: new top-level entries of the workspace cannot be made")
            nested = [p for p in held if os.path.dirname(p) != real]
            if nested:
                notes.append("no private namespaces here: " + ", ".join(os.path.relpath(p, real) for p in nested)
                             + " stay writable (only top-level entries can be held read-only)")
        writable.extend(p for p in (os.path.expanduser(c) for c in TOOLCHAIN_CACHES) if os.path.isdir(p))
    else:
        readable.append(real)
        readable.extend(p for p in (os.path.expanduser(c) for c in TOOLCHAIN_CACHES) if os.path.isdir(p))
    writable.extend(d for d in WRITABLE_DEVICES if os.path.exists(d))
    if not isolated:
        notes.append("no private namespaces here: unix sockets reachable by path (tmux, ssh-agent, dbus, docker) "
                     "are not out of reach, and chmod, chown and utime outside the workspace are not refused")
    return SandboxPlan(settings.mode, settings.mode, abi, network, settings, writable=tuple(writable),
                       readable=tuple(dict.fromkeys(readable)), read_only=tuple(dict.fromkeys(read_only)),
                       namespaces=isolated, notes=tuple(notes), root=real)


def _within(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def _without_secrets(folder: str, secrets: frozenset[str]) -> list[str]:
    """The entries of `folder` except `secrets`; a folder holding a nested secret ("ssl/private")
    is granted entry by entry in turn."""
    out = []
    for name in sorted(_entries(folder)):
        if name in secrets:
            continue
        nested = frozenset(s[len(name) + 1:] for s in secrets if s.startswith(name + "/"))
        path = os.path.join(folder, name)
        out.extend(_without_secrets(path, nested) if nested and os.path.isdir(path) else [path])
    return out


def _entries(folder: str) -> list[str]:
    try:
        return os.listdir(folder)
    except OSError:
        return []


@lru_cache(maxsize=8)
def _readable_outside(home: str, path_variable: str, toolchains: tuple[str, ...]) -> tuple[str, ...]:
    """What a confined command may read outside the workspace: the system, the interpreter, the
    toolchains. Never the home folder itself, nor a folder that holds it. Cached per home, PATH and
    toolchain variables: it walks /etc and resolves every candidate (milliseconds per command)."""
    out = [p for p in READABLE_SYSTEM + READABLE_DEVICES if os.path.exists(p)]
    out.extend(p for p in (os.path.expanduser(f) for f in READABLE_HOME_FILES) if os.path.exists(p))
    out.extend(_without_secrets("/etc", ETC_SECRETS))
    candidates = [sys.base_prefix, sys.prefix, sys.exec_prefix, os.path.dirname(os.path.realpath(sys.executable))]
    candidates.extend(os.path.expanduser(t) for t in TOOLCHAIN_HOMES)
    candidates.extend(v for v in toolchains if v)
    candidates.extend(p for p in path_variable.split(os.pathsep) if os.path.isabs(p))
    for path in candidates:
        real = os.path.realpath(path)
        if not os.path.isdir(real) or real == "/" or home == real or home.startswith(real.rstrip("/") + "/"):
            continue  # "/" or the home folder itself would open everything
        if real in (os.path.realpath(os.path.expanduser(s)) for s in _SECRET_HOMES):
            continue
        out.append(real)
    return tuple(out)


_SECRET_HOMES = ("~/.ssh", "~/.gnupg", "~/.aws", "~/.config", "~/.kube", "~/.docker", "~/.azure")


def _outside_git_dirs(real: str) -> list[str]:
    """A worktree's `.git` is a file naming its git folder elsewhere: git needs to read it (and the
    shared folder of the main checkout); it is never writable from the sandbox."""
    marker = os.path.join(real, ".git")
    if not os.path.isfile(marker):
        return []
    try:
        with open(marker, encoding="utf-8") as handle:
            text = handle.read(4096)
    except OSError:
        return []
    if not text.startswith("gitdir:"):
        return []
    git_dir = os.path.realpath(os.path.join(real, text[len("gitdir:"):].strip()))
    out = [git_dir]
    try:
        with open(os.path.join(git_dir, "commondir"), encoding="utf-8") as handle:
            out.append(os.path.realpath(os.path.join(git_dir, handle.read().strip())))
    except OSError:
        pass
    return [p for p in out if os.path.isdir(p)]


def describe_writable(plan: SandboxPlan, root: str | os.PathLike[str]) -> list[str]:
    """The writable places for people, the workspace named as such (its location is never shown)."""
    real = os.path.realpath(os.fspath(root))
    home = str(Path.home())
    shown = []
    for path in plan.writable:
        if path == real:
            shown.append("<workspace>")
        elif path.startswith(home + os.sep):
            shown.append("~" + path[len(home):])
        else:
            shown.append(path)
    return (["<private temp folder per command (TMPDIR)>"] + shown) if plan.confined else []
