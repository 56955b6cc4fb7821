"""The run's repository on a worker: its base commit resolved at submit time, a fresh clone at
the state the last completed step recorded, a checkpoint commit after every step (pushed to
`refs/konstruct/checkpoints/RUN` in the run's repository, so a worker on another machine starts
from it), and the result pushed as branch `konstruct/RUN` when the run is done.

git runs with no terminal prompt and no user config of the worker's (a fixed committer), so a
checkout behaves the same on every machine.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import threading
import time
from pathlib import Path

from ..workspace import git_argv
from .database import DatabaseProblem

COMMITTER = {"GIT_AUTHOR_NAME": "konstruct worker", "GIT_AUTHOR_EMAIL": "konstruct@localhost",
             "GIT_COMMITTER_NAME": "konstruct worker", "GIT_COMMITTER_EMAIL": "konstruct@localhost"}


class CheckoutFailed(RuntimeError):
    """git could not fetch, check out or push; the message is git's last line."""


class GitClock:
    """Seconds spent in git by this thread's current step (the bench separates them from the engine's)."""

    spent = threading.local()

    @classmethod
    def reset(cls) -> None:
        cls.spent.seconds = 0.0

    @classmethod
    def seconds(cls) -> float:
        return float(getattr(cls.spent, "seconds", 0.0))


def _git(*args: str, cwd: Path | None = None) -> str:
    began = time.perf_counter()
    try:
        return _run_git(*args, cwd=cwd)
    finally:
        GitClock.spent.seconds = GitClock.seconds() + time.perf_counter() - began


def _run_git(*args: str, cwd: Path | None = None) -> str:
    env = {**os.environ, **COMMITTER, "GIT_TERMINAL_PROMPT": "0", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    done = subprocess.run(_hardened(cwd or Path.cwd(), args), cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["(no output)"])[-1]
        raise CheckoutFailed(f"git {args[0]}: {last}")
    return done.stdout.strip()


def _hardened(where: Path, args: tuple[str, ...]) -> list[str]:
    """Our hardened git (workspace.git_argv): the checkout is where an executor worked, and a hook,
    fsmonitor, pager or filter planted in its config must not run unconfined on the worker at the
    next `add`, `commit` or `push`. Fetching and pushing still need their transports and ssh: the hardening's `core.sshCommand=false`
    gives way to plain `ssh` (a worker's own GIT_SSH_COMMAND still wins, as git lets the environment
    win over any config), never to what the checkout's config says."""
    if args and args[0] in _PACK_OPTION:  # git takes the FIRST `remote.X.receivepack`/`uploadpack`
        # value it reads, and the checkout's config is read before `-c`: only the command's own
        # option overrides a program planted there.
        args = (args[0], _PACK_OPTION[args[0]], *args[1:])
    argv = git_argv(where, *args)
    at = argv.index("-C")
    transports = [f"protocol.{name}.allow=always" for name in _TRANSPORTS]  # `ext::` and the rest stay never
    return [*argv[:at], "-c", "core.sshCommand=ssh", *(x for t in transports for x in ("-c", t)), *argv[at:]]


_TRANSPORTS = ("file", "ssh", "https", "http", "git")
_PACK_OPTION = {"push": "--receive-pack=git-receive-pack", "fetch": "--upload-pack=git-upload-pack",
                "clone": "--upload-pack=git-upload-pack", "ls-remote": "--upload-pack=git-upload-pack"}  # a run's repository may be reached through any


_COMMIT = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")


def repo_location(repo: str) -> str:
    """A local path becomes absolute (a worker elsewhere on the machine must find it); a URL stays.
    A value starting with `-` is refused: git would read it as an option (`--upload-pack=CMD` runs
    CMD), on this machine now and on every worker that clones it."""
    if repo.startswith("-"):
        raise DatabaseProblem(f"--repo {repo!r}: not a repository URL or folder (it starts with '-')")
    if "://" in repo or (":" in repo and not os.path.exists(repo)):
        return repo
    path = Path(repo).expanduser().resolve()
    if not path.is_dir():
        raise DatabaseProblem(f"--repo {repo!r}: no such folder")
    return str(path)


def resolve_base(repo: str, ref: str | None) -> str:
    """The commit the run starts from, fixed when it is submitted (a later push to REF changes nothing)."""
    wanted = ref or "HEAD"
    if wanted.startswith("-"):
        raise DatabaseProblem(f"--ref {wanted!r}: not a branch, tag or commit (it starts with '-')")
    try:
        if os.path.isdir(repo):
            return _git("rev-parse", "--verify", "--quiet", f"{wanted}^{{commit}}", cwd=Path(repo))
        listed = _git("ls-remote", "--", repo, wanted).split()
    except CheckoutFailed as failed:
        raise DatabaseProblem(f"--repo {repo}: {'no commit ' + repr(wanted) + ' there' if os.path.isdir(repo) else failed}") from None
    if not listed:
        raise DatabaseProblem(f"--repo {repo}: no ref {wanted!r} there")
    return listed[0]


def checkpoint_ref(run_id: str) -> str:
    return f"refs/konstruct/checkpoints/{run_id}"


def fresh_checkout(repo: str, commit: str, run_id: str, dest: Path) -> bool:
    """A new clone at `commit` (the base, or a checkpoint of this run) in `dest`, replacing what was
    there. A tree this worker left at exactly that commit, with nothing changed since (the step before,
    on the same worker), is that state already and is kept: no second clone. True when it was kept."""
    if repo.startswith("-"):  # a row written into the database by hand never got repo_location's check
        raise CheckoutFailed(f"the run's repository {repo!r} starts with '-': refused")
    if not _COMMIT.fullmatch(commit):  # nor resolve_base's: git would read `--...` as an option
        raise CheckoutFailed(f"the run's commit {commit!r} is not a commit id: refused")
    if (dest / ".git").is_dir():
        try:
            if _git("rev-parse", "HEAD", cwd=dest) == commit and _git("status", "--porcelain", "--ignored", "--untracked-files=all", cwd=dest) == "":
                return True
        except CheckoutFailed:
            pass
    if dest.exists():
        shutil.rmtree(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    _git("clone", "--quiet", "--no-checkout", "--", repo, str(dest))
    try:  # the base is on a branch the clone brought; a checkpoint is under our own ref, fetched only when needed
        _git("checkout", "--quiet", "--detach", commit, cwd=dest)
    except CheckoutFailed:
        _git("fetch", "--quiet", "origin", f"+{checkpoint_ref(run_id)}:{checkpoint_ref(run_id)}", cwd=dest)
        _git("checkout", "--quiet", "--detach", commit, cwd=dest)
    return False


def checkpoint(dest: Path, run_id: str, message: str, *, result: bool = False) -> str:
    """Commit the work tree as it is and push it as the run's checkpoint; returns the commit.
    `result`: the same push also makes it the branch `konstruct/RUN` (one push, not two)."""
    _git("add", "-A", cwd=dest)
    _git("commit", "--quiet", "--allow-empty", "--no-verify", "-m", message, cwd=dest)
    commit = _detached_head(dest) or _git("rev-parse", "HEAD", cwd=dest)
    refs = [f"HEAD:{checkpoint_ref(run_id)}", *([f"HEAD:refs/heads/{result_branch(run_id)}"] if result else [])]
    _git("push", "--quiet", "--force", "origin", *refs, cwd=dest)
    return commit


def _detached_head(dest: Path) -> str | None:
    """The commit a detached HEAD names, read from the file git just wrote (one git process fewer a
    step); None when HEAD is anything else (a symlink, a branch the executor attached it to): ask git."""
    head = dest / ".git" / "HEAD"
    try:
        if head.is_symlink() or not head.is_file():
            return None
        text = head.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return text if re.fullmatch(r"[0-9a-f]{40}|[0-9a-f]{64}", text) else None


def result_branch(run_id: str) -> str:
    return f"konstruct/{run_id}"


def push_result(dest: Path, run_id: str) -> str:
    branch = result_branch(run_id)
    _git("push", "--quiet", "--force", "origin", f"HEAD:refs/heads/{branch}", cwd=dest)
    return branch
