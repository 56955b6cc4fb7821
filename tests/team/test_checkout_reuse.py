"""A run's checkout between steps: the same worker keeps the tree the last step left when its HEAD
is the recorded checkpoint and nothing changed since; any difference (a changed file, an untracked
or ignored one, another commit) gets a fresh clone at the recorded state, and a worker that never had
the run fetches the checkpoint from the run's own ref."""

from __future__ import annotations

import subprocess
from pathlib import Path

from konstruct_tui.team.checkout import checkpoint, fresh_checkout


def _git(*args: str, cwd: Path) -> str:
    return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=cwd, capture_output=True, text=True,
                          check=True).stdout.strip()


def _repo(tmp_path: Path) -> tuple[Path, str]:
    repo = tmp_path / "repo"
    repo.mkdir()
    _git("init", "-q", "-b", "main", cwd=repo)
    (repo / "a.txt").write_text("one\n")
    (repo / ".gitignore").write_text("*.log\n")
    _git("add", "-A", cwd=repo)
    _git("commit", "-qm", "base", cwd=repo)
    return repo, _git("rev-parse", "HEAD", cwd=repo)


def test_the_tree_the_last_step_left_is_kept_and_any_difference_is_cloned_afresh(tmp_path: Path) -> None:
    repo, base = _repo(tmp_path)
    tree = tmp_path / "w" / "tree"
    assert fresh_checkout(str(repo), base, "bp-x", tree) is False
    (tree / "a.txt").write_text("two\n")
    recorded = checkpoint(tree, "bp-x", "step 1")
    assert fresh_checkout(str(repo), recorded, "bp-x", tree) is True  # the same worker, next step: no clone
    marker = tree / ".git" / "kept-marker"
    marker.write_text("")

    for change in (lambda: (tree / "a.txt").write_text("changed after the checkpoint\n"),
                   lambda: (tree / "new.txt").write_text("untracked\n"),
                   lambda: (tree / "build.log").write_text("ignored\n")):
        change()
        assert fresh_checkout(str(repo), recorded, "bp-x", tree) is False, change
        assert (tree / "a.txt").read_text() == "two\n" and not marker.exists()
        assert {p.name for p in tree.iterdir()} == {".git", ".gitignore", "a.txt"}
        marker.write_text("")
    # The recorded state is another commit than the tree's (the run moved on elsewhere): cloned afresh.
    assert fresh_checkout(str(repo), base, "bp-x", tree) is False
    assert (tree / "a.txt").read_text() == "one\n"


def test_a_worker_that_never_had_the_run_starts_from_its_checkpoint_ref(tmp_path: Path) -> None:
    repo, base = _repo(tmp_path)
    first = tmp_path / "w1" / "tree"
    fresh_checkout(str(repo), base, "bp-x", first)
    (first / "a.txt").write_text("step one's work\n")
    recorded = checkpoint(first, "bp-x", "step 1")
    other = tmp_path / "w2" / "tree"
    assert fresh_checkout(str(repo), recorded, "bp-x", other) is False
    assert (other / "a.txt").read_text() == "step one's work\n" and _git("rev-parse", "HEAD", cwd=other) == recorded
    # Done: one push makes the checkpoint and the result branch.
    (other / "a.txt").write_text("done\n")
    final = checkpoint(other, "bp-x", "done", result=True)
    assert _git("rev-parse", "konstruct/bp-x", cwd=repo) == final == _git("rev-parse", "refs/konstruct/checkpoints/bp-x", cwd=repo)


def test_the_recorded_checkpoint_is_the_commit_pushed_whatever_the_executor_did_to_head(tmp_path: Path) -> None:
    repo, base = _repo(tmp_path)
    for n, tamper in enumerate((lambda tree: None,
                                lambda tree: _git("checkout", "-q", "-b", "attached", cwd=tree),  # HEAD on a branch
                                lambda tree: ((tree / ".git" / "HEAD").unlink(), (tree / ".git" / "HEAD").symlink_to(tree / ".git" / "real-head"),
                                              (tree / ".git" / "real-head").write_text(base + "\n")))):
        tree = tmp_path / f"w{n}" / "tree"
        fresh_checkout(str(repo), base, f"bp-{n}", tree)
        tamper(tree)
        (tree / "a.txt").write_text(f"work {n}\n")
        try:
            recorded = checkpoint(tree, f"bp-{n}", "step")
        except Exception:  # noqa: BLE001 - git refusing a tampered HEAD is fine: nothing recorded then
            continue
        assert recorded == _git("rev-parse", f"refs/konstruct/checkpoints/bp-{n}", cwd=repo), n
