"""Red team: a repository or ref that git would read as an option. `--repo=--upload-pack=CMD`
ran CMD on the submitter's machine at `ls-remote`, and (written into the team database by anyone
who can reach it) on every worker at `clone`, outside any sandbox. Refused at submit and at the
worker both; `ext::` transports stay refused too."""

from __future__ import annotations

from pathlib import Path

import pytest

from konstruct_tui.team.checkout import CheckoutFailed, fresh_checkout
from team_harness import git, make_repo, two_phase_plan


def test_a_repo_or_ref_spelled_as_a_git_option_is_refused_at_submit_and_runs_nothing(konstruct, tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    plan, scripts = two_phase_plan(tmp_path)
    url = f"sqlite:///{tmp_path / 'team.sqlite3'}"
    ran = tmp_path / "ran"
    for where in (f"--repo=--upload-pack=touch {ran};:x", f"--repo=--upload-pack=touch {ran}", f"--repo=ext::sh -c touch% {ran}"):
        code, _, err = konstruct("blueprint", "submit", str(plan), where, "--database", url, "--provider", "scripted", "--script", str(scripts))
        assert code == 2 and len(err.strip().splitlines()) == 1, (where, err)
    for ref in (f"--ref=--upload-pack=touch {ran}", f"--ref=--output={ran}"):
        code, _, err = konstruct("blueprint", "submit", str(plan), "--repo", str(repo), ref, "--database", url, "--provider", "scripted", "--script", str(scripts))
        assert code == 2 and "starts with '-'" in err, (ref, err)
    assert not ran.exists()
    assert not (tmp_path / "team.sqlite3").exists()


@pytest.mark.parametrize("repo", ["--upload-pack=touch {ran};:x", "--upload-pack=touch {ran}", "ext::sh -c touch% {ran}"])
def test_a_worker_never_runs_a_repository_written_into_the_database_as_an_option(tmp_path: Path, repo: str) -> None:
    ran = tmp_path / "ran"
    base = git("rev-parse", "HEAD", cwd=make_repo(tmp_path / "repo"))
    with pytest.raises(CheckoutFailed, match="starts with '-': refused|transport 'ext' not allowed"):
        fresh_checkout(repo.format(ran=ran), base, "bp-x", tmp_path / "work")
    assert not ran.exists()


def test_a_worker_refuses_a_base_commit_that_is_not_a_commit_id(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    ran = tmp_path / "ran"
    with pytest.raises(CheckoutFailed, match="not a commit id"):
        fresh_checkout(str(repo), f"--output={ran}", "bp-x", tmp_path / "work")
    assert not ran.exists()


def test_a_queued_runs_report_draws_no_escape_sequence_from_its_title(konstruct, tmp_path: Path) -> None:
    """A teammate's blueprint title reaches every supervisor's terminal: an OSC 52 in it would set
    their clipboard, a CSI clear would draw over what they read."""
    repo = make_repo(tmp_path / "repo")
    plan, scripts = two_phase_plan(tmp_path)
    plan.write_text(plan.read_text().replace('title = "Calc fixes"', 'title = "Calc \\u001b]52;c;cm0gLXJmIH4=\\u0007\\u001b[2J"', 1))
    url = f"sqlite:///{tmp_path / 'team.sqlite3'}"
    code, out, err = konstruct("blueprint", "submit", str(plan), "--repo", str(repo), "--database", url, "--provider", "scripted", "--script", str(scripts))
    assert code == 0, err
    for argv in (("blueprint", "report", out["run"]), ("blueprint", "status", out["run"]), ("blueprint", "status")):
        code, shown, err = konstruct(*argv, "--database", url)
        assert code == 0 and "Calc" in shown and "\x1b" not in shown and "\x07" not in shown, (argv, shown)
