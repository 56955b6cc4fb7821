"""git in the command policy: options that run or write, settings whose value git runs, wiping
commands aimed elsewhere, `git branch NAME`, and the hardened git an allowed command runs as
(its facts: konstruct_tui/commands/programs/git.py)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from program_answers import answer

from konstruct_tui.commands import PolicyConfig, decide
from konstruct_tui.commands.allowlist import parse_rule


@pytest.mark.parametrize("command", ["git -c core.pager=x log", "git --no-pager log", "git log --outp=x",
                                     "git grep --textconv x", "git log --exec=x", "git branch --edit-description"])
def test_git_options_that_run_or_write_are_not_look_arounds(command: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path) == ("ask", "needs_grant")


# Broke before: git settings whose value git runs were a short list of their own (per-driver keys,
# `remote.*.uploadpack`, `core.alternateRefsCommand` only asked), `git config KEY VALUE` was not read
# at all, and `ext::sh -c rm% -rf% /` was split as a shell would split it, not as git does. Now one
# list serves both our hardened git and the policy (workspace/safe_git.py `names_program`).
@pytest.mark.parametrize("command", [
    "git -c remote.origin.uploadpack='rm -rf /' fetch", "git -c diff.x.textconv='rm -rf /' log",
    "git -c filter.x.clean='rm -rf /' add .", "git -c merge.x.driver='rm -rf /' merge y",
    "git -c core.alternateRefsCommand='rm -rf /' fetch", "git -c mergetool.x.cmd='rm -rf /' mergetool",
    "git clone 'ext::sh -c rm% -rf% /' x", "git config core.fsmonitor 'rm -rf /'",
    "git config --global core.pager 'rm -rf /'", "git config --file x.cfg filter.y.clean 'rm -rf /'",
    "git config alias.x '!rm -rf /'", "git submodule foreach 'rm -rf /'", "git submodule foreach --recursive rm -rf /",
    "git bisect run rm -rf /", "git filter-branch --tree-filter 'rm -rf /' HEAD",
    "git filter-branch --index-filter='rm -rf /' HEAD",
])
def test_every_git_setting_or_subcommand_that_runs_a_command_is_judged(command: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path) == ("refuse", "deny")


@pytest.mark.parametrize("command", ["git config user.name 'rm -rf /'", "git config core.pager less",
                                     "git submodule foreach git status", "git bisect run pytest -x",
                                     "git commit -m 'rm -rf /'"])
def test_git_settings_and_subcommands_that_run_nothing_denied_still_ask(command: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path) == ("ask", "needs_grant")


def test_the_policy_and_our_git_share_one_list_of_program_settings() -> None:
    from konstruct_tui.workspace.safe_git import FIXED_OVERRIDES, names_program

    assert names_program("filter.anything.clean") and names_program("remote.x.uploadpack") and names_program("core.pager")
    assert not names_program("user.name") and not names_program("core.autocrlf")
    # every fixed key our git overrides because it names a program is one the policy judges
    for key in ("core.fsmonitor", "core.pager", "core.sshCommand", "diff.external", "gpg.program", "credential.helper"):
        assert key in FIXED_OVERRIDES and names_program(key)


# Broke before: git's global options were read one at a time, so a second `-C` (or a `-c` in front)
# hid where a wiping command works; a command a wrapper runs in another folder was held to the hard
# deny list only there (`env -C /etc cat shadow` asked).
@pytest.mark.parametrize("command", ["git -C src -C / clean -fdx", "git -c x=y -C / clean -fdx",
                                     "git --work-tree=src --work-tree=/ clean -fdx", "git -C ~ stash"])
def test_git_wipes_are_judged_where_every_C_leads(command: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path) == ("refuse", "deny")


@pytest.mark.parametrize("command", ["git -C .. clean -fdx", "git -C src -C .. -C .. clean -fdx"])
def test_git_wipes_above_the_project_are_outside_the_workspace(command: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path) == ("refuse", "outside_workspace")


def test_git_wipes_inside_the_project_still_ask(tmp_path: Path) -> None:
    assert answer("git -C src clean -fdx", tmp_path) == ("ask", "needs_grant")
    assert answer("git -C sub/.. reset --hard", tmp_path) == ("ask", "needs_grant")


# Broke before: options guessed to mean "list" with a name after them created the branch in git
# (`git branch -v NAME`, `--color NAME`, `--column NAME`: checked against git), and the look-around
# rule admitted them. Now a name is a listing only under an option git reads as list mode.
@pytest.mark.parametrize("command", ["git branch -v newb", "git branch -vv newb", "git branch --color newb",
                                     "git branch --column newb", "git branch -r newb", "git branch --sort=refname newb"])
def test_git_branch_with_a_name_is_a_listing_only_in_list_mode(command: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path) == ("ask", "needs_grant")
    assert answer(command, tmp_path, presets=["python"]) == ("refuse", "allowlist")


def test_git_branch_with_a_name_really_creates_it_with_those_options(tmp_path: Path) -> None:
    import subprocess

    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    subprocess.run(["git", "-C", str(tmp_path), "-c", "user.email=t@e", "-c", "user.name=t", "commit", "-q", "--allow-empty",
                    "-m", "x"], check=True)
    for option in ("-v", "--color", "--column"):
        subprocess.run(["git", "-C", str(tmp_path), "branch", option, f"made{option.strip('-')}"], capture_output=True)
    made = subprocess.run(["git", "-C", str(tmp_path), "branch", "--list", "made*"], capture_output=True, text=True).stdout
    assert made.split() == ["madecolor", "madecolumn", "madev"]  # what the rule above guards against


@pytest.mark.parametrize("command", ["git branch", "git branch -a", "git branch -vv", "git branch --list 'feat*'",
                                     "git branch --merged main", "git branch --contains HEAD", "git branch --format x",
                                     "git branch --sort refname", "git branch --show-current"])
def test_git_branch_listings_stay_look_arounds(command: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path) == ("allow", "read_only")


def _repo_with_fsmonitor(root: Path) -> Path:
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    witness = root / "pwned"
    subprocess.run(["git", "-C", str(root), "config", "core.fsmonitor", f"touch {witness}"], check=True)
    (root / "a.txt").write_text("a\n")
    return witness


@pytest.mark.parametrize("command", ["git status", "git log -p", "timeout 60 git status", "git -C . status"])
def test_an_allowlisted_git_runs_hardened(tmp_path: Path, command: str) -> None:
    witness = _repo_with_fsmonitor(tmp_path)
    rules = tuple(parse_rule(r) for r in ("git status", "git log"))
    decision = decide(command, PolicyConfig(root=tmp_path, allowlist=rules, allowlist_mode=True))
    if decision.decision == "refuse":
        assert command == "git -C . status"  # git's -C is an unsafe option for an allowlist entry
        return
    assert decision.decision == "allow" and "core.fsmonitor=false" in decision.argv, decision
    subprocess.run(list(decision.argv), cwd=tmp_path, capture_output=True, timeout=60)
    assert not witness.exists()


def test_allowlisted_git_steps_of_a_chain_run_hardened(tmp_path: Path) -> None:
    _repo_with_fsmonitor(tmp_path)
    rules = tuple(parse_rule(r) for r in ("git status", "git log"))
    decision = decide("git status && git log -p", PolicyConfig(root=tmp_path, allowlist=rules, allowlist_mode=True,
                                                                chains=True))
    assert decision.decision == "allow"
    assert all("core.fsmonitor=false" in step.argv for step in decision.steps), decision.steps


def test_an_allowlisted_program_that_only_mentions_git_is_left_as_written(tmp_path: Path) -> None:
    decision = decide("echo git status", PolicyConfig(root=tmp_path, allowlist=(parse_rule("echo"),), allowlist_mode=True))
    assert decision.argv == ("echo", "git", "status")


# Broke before: an option whose value git runs was written twice, once for the code scan and once for
# the allowlist; where the second was missing (`send-email --smtp-server`, `filter-branch --*-filter`),
# an allowlist entry for the subcommand admitted it. Now `runs` in the table is the one place.
@pytest.mark.parametrize(("command", "entry"), [
    ("git send-email --smtp-server=/tmp/evil x.patch", "git send-email"),
    ("git filter-branch --msg-filter=cat HEAD", "git filter-branch"),
    ("git filter-branch --tree-filter 'touch x' HEAD", "git filter-branch"),
    ("git rebase --exec=make main", "git rebase"), ("git grep -nOvim TODO", "git grep"),
    ("git clone --upload-pack=./x url", "git clone"), ("git push --receive-pack=./x", "git push"),
    ("git difftool --extcmd=./x", "git difftool"),
])
def test_an_allowlisted_git_subcommand_never_admits_an_option_whose_value_git_runs(command: str, entry: str,
                                                                                     tmp_path: Path) -> None:
    assert answer(command, tmp_path, allow=[entry]) == ("refuse", "allowlist")


@pytest.mark.parametrize(("command", "entry"), [("git send-email x.patch", "git send-email"),
                                                ("git filter-branch --prune-empty HEAD", "git filter-branch")])
def test_an_allowlisted_git_subcommand_keeps_its_ordinary_options(command: str, entry: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path, allow=[entry]) == ("allow", "allowlist")
