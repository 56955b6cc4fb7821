"""The worker's git in a checkout where an executor worked: what the executor could plant in the
checkout's git config (a hook folder, an fsmonitor, a clean filter, an ssh command) never runs on
the worker at the checkpoint's `add`, `commit` and `push`, and the push still reaches the repository."""

from __future__ import annotations

import subprocess
from pathlib import Path

from konstruct_tui.team.checkout import checkpoint, checkpoint_ref, fresh_checkout


def _git(*args: str, cwd: Path) -> str:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True).stdout.strip()


def test_programs_planted_in_the_checkouts_config_never_run_at_the_checkpoint(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    _git("init", "-q", "-b", "main", cwd=repo)
    (repo / "a.txt").write_text("one\n")
    _git("add", "a.txt", cwd=repo)
    _git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "base", cwd=repo)
    base = _git("rev-parse", "HEAD", cwd=repo)
    work = tmp_path / "work"
    fresh_checkout(str(repo), base, "bp-x", work)

    ran = tmp_path / "ran"
    hook = tmp_path / "hooks"
    hook.mkdir()
    for name in ("pre-commit", "post-commit", "pre-push", "reference-transaction"):
        (hook / name).write_text(f"#!/bin/sh\necho {name} >> {ran}\n")
        (hook / name).chmod(0o755)
    planted = {"core.hooksPath": str(hook), "core.fsmonitor": f"echo fsmonitor >> {ran}; true",
               "filter.evil.clean": f"sh -c 'echo filter >> {ran}; cat'", "core.sshCommand": f"echo ssh >> {ran}; false"}
    for key, value in planted.items():
        _git("config", key, value, cwd=work)
    (work / ".gitattributes").write_text("*.txt filter=evil\n")
    (work / "a.txt").write_text("two\n")

    commit = checkpoint(work, "bp-x", "step 1")
    assert not ran.exists(), ran.read_text()  # nothing planted ran
    assert _git("rev-parse", checkpoint_ref("bp-x"), cwd=repo) == commit  # and the push landed
    assert _git("show", f"{commit}:a.txt", cwd=repo) == "two"


def test_a_planted_receive_pack_or_ext_push_url_runs_nothing_on_the_worker(tmp_path: Path) -> None:
    """Red team: the push itself as the route. `remote.origin.receivepack` names the program a local
    push starts; `remote.origin.pushurl = ext::sh -c …` makes git run a shell as the transport."""
    repo = tmp_path / "repo"
    repo.mkdir()
    _git("init", "-q", "-b", "main", cwd=repo)
    (repo / "a.txt").write_text("one\n")
    _git("add", "a.txt", cwd=repo)
    _git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "base", cwd=repo)
    ran = tmp_path / "ran"
    for n, (key, value) in enumerate([("remote.origin.receivepack", f"sh -c 'echo receivepack >> {ran}; git-receive-pack \"$@\"' x"),
                                      ("remote.origin.pushurl", f"ext::sh -c 'echo ext >> {ran}' %S")]):
        work = tmp_path / f"work{n}"
        fresh_checkout(str(repo), _git("rev-parse", "HEAD", cwd=repo), "bp-x", work)
        _git("config", key, value, cwd=work)
        (work / "a.txt").write_text(f"change {n}\n")
        try:
            checkpoint(work, "bp-x", "step")
        except Exception:  # noqa: BLE001 - refusing the planted transport is a fine outcome too
            pass
        assert not ran.exists(), f"{key}: {ran.read_text()}"
