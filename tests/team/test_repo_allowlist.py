"""A worker told which repositories it serves (`--allow-repo`) never fetches another one a run names:
not a sibling with a longer name, not one reached through `..`, an encoded dot or a symlink."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from konstruct_tui.team.repo_allowlist import RepoRefused, check_repo

from team_processes import cli
from team_harness import make_repo, two_phase_plan

TEAM = ("/srv/git/team", "git@git.example:team", "https://git.example/team/")


@pytest.mark.parametrize("repo", ["/srv/git/team/app", "/srv/git/team", "git@git.example:team/app.git", "https://git.example/team/app.git"])
def test_a_repository_under_an_allowed_prefix_is_served(repo: str) -> None:
    check_repo(repo, TEAM)


@pytest.mark.parametrize("repo", [
    "/srv/git/team-secret/app",  # a sibling that shares the prefix's letters
    "/srv/git/team/../payroll",
    "/srv/git/other",
    "git@git.example:team-secret/app.git",
    "git@git.example:team/../payroll.git",
    "git@evil.example:team/app.git",
    "https://git.example/team/%2e%2e/payroll.git",
    "https://git.example/team/..%2fpayroll.git",
    "https://git.example/teams/app.git",
    "https://git.example.evil.example/team/app.git",
    "file:///srv/git/payroll",
])
def test_anything_else_is_refused_in_one_line(repo: str) -> None:
    with pytest.raises(RepoRefused) as refused:
        check_repo(repo, TEAM)
    assert "--allow-repo" in str(refused.value) and len(str(refused.value).splitlines()) == 1


def test_no_prefix_serves_any_repository() -> None:
    check_repo("/anywhere/at/all", ())


def test_a_symlink_inside_an_allowed_folder_does_not_reach_outside(tmp_path: Path) -> None:
    allowed, outside = tmp_path / "team", tmp_path / "payroll"
    allowed.mkdir()
    outside.mkdir()
    os.symlink(outside, allowed / "innocent")
    with pytest.raises(RepoRefused):
        check_repo(str(allowed / "innocent"), (str(allowed),))
    check_repo(str(allowed), (str(allowed),))


def test_a_worker_parks_a_run_of_a_repository_it_does_not_serve(tmp_path: Path) -> None:
    from konstruct_tui.team.database import default_url

    repo = make_repo(tmp_path / "payroll")
    plan, scripts = two_phase_plan(tmp_path, phases=1)
    done = cli("blueprint", "submit", str(plan), "--repo", str(repo), "--provider", "scripted", "--script", str(scripts))
    run_id = json.loads(done.stdout)["run"]
    served = cli("worker", "--once", "--workdir", str(tmp_path / "w"), "--heartbeat", "0.3", "--allow-repo", str(tmp_path / "team"))
    assert served.returncode == 0, served.stderr
    status = json.loads(cli("blueprint", "status", run_id, "--json", "--database", default_url()).stdout)
    assert status["status"] == "parked" and "--allow-repo" in status["message"]
    assert not (tmp_path / "w" / run_id).exists()  # nothing was fetched
    assert f"run {run_id} error" in served.stderr and "--allow-repo" in served.stderr  # the operator's log says why
