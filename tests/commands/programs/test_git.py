"""git in the command policy: options that run or write, settings whose value git runs, wiping
commands aimed elsewhere, `git branch NAME`, and the hardened git an allowed command runs as
(its facts: konstruct_tui/commands/programs/git.py)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from program_answers import answer
from policy_checks import (
    case_test,
    allowlist_entries_are_argv_rules,
    allowlist_escapes_are_never_allowed,
    deny_class_examples_are_refused_in_every_mode,
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant,
    hard_deny_list_refuses_every_spelling,
    inspecting_a_disk_or_writing_to_dev_null_is_not_denied,
    issue_13_spellings_are_refused_by_the_deny_list,
    more_deny_class_spellings_are_refused,
    output_options_aimed_at_the_machine_are_refused,
    read_only_commands_are_allowed_confined_read_only,
    read_only_rules_refuse_what_executes_writes_or_redirects,
    shells_and_eval_cannot_smuggle_compound_commands,
    spellings_found_by_attacking_the_policy_are_refused,
    spellings_the_tools_themselves_reject_stay_harmless_look_arounds,
)

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


DENIED = [
    "git -c core.pager='rm -rf /' log",
]


test_hard_deny_list_refuses_every_spelling = case_test(hard_deny_list_refuses_every_spelling, "command", DENIED)


SHELL_WRAPPED = [
    "git -c alias.x='!sh -c \"ls; ls\"' x",
]


test_shells_and_eval_cannot_smuggle_compound_commands = case_test(
    shells_and_eval_cannot_smuggle_compound_commands, "command", SHELL_WRAPPED)


ASKED = [
    "git status",
    "git diff --stat",
    "git diff HEAD~1 -- src/",
    "git log --oneline -n 20",
    'git log --format="%h %s"',
    "git show HEAD:README.md",
    "git checkout -b feature/x",
    'git commit -m "fix: a; b && c | d"',
    "git stash list",
    'git commit -m "docs: never run rm -rf / here"',
    "git -c core.pager='less -R' log",
    "git clean -fdx",
]


test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant = case_test(
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant, "command", ASKED)


DENIED_13 = [
    "git rebase --exec 'rm -rf /' HEAD~3",
    "git rebase -x 'rm -rf /' main",
    "git rebase --exec='rm -rf /' main",
    "git grep --open-files-in-pager='rm -rf /' x",
    "git grep -O'rm -rf /' x",
    "git difftool -x 'rm -rf /'",
    "git -c 'core.fsmonitor=rm -rf /' status",
    "git -c 'diff.external=rm -rf /' diff",
]


test_issue_13_spellings_are_refused_by_the_deny_list = case_test(
    issue_13_spellings_are_refused_by_the_deny_list, "command", DENIED_13)


SELF_ATTACK_DENIED = [
    "git -C / clean -fdx",
    "git --work-tree=/ checkout -f .",
]


test_spellings_found_by_attacking_the_policy_are_refused = case_test(
    spellings_found_by_attacking_the_policy_are_refused, "command", SELF_ATTACK_DENIED)


OUTPUT_OPTIONS_DENIED = [
    "git -c protocol.ext.allow=always fetch \"ext::sh -c 'rm -rf /'\"",
    "git diff --output=/etc/passwd",
]


test_output_options_aimed_at_the_machine_are_refused = case_test(
    output_options_aimed_at_the_machine_are_refused, "command", OUTPUT_OPTIONS_DENIED)


ALLOWLIST = [
    (["git diff"], [], "git diff --stat", "allow"),
    (["git diff"], [], "git diff --output=x", "refuse"),
    (["git diff"], [], "git diff --out=x", "refuse"),
    (["git diff"], [], "git diff --ext-diff", "refuse"),
    (["git grep"], [], "git grep -n foo", "allow"),
    (["git grep"], [], "git grep -Orm foo", "refuse"),
    (["git grep"], [], "git grep --open-files-in-pager=rm foo", "refuse"),
    (["git grep"], [], "git grep -nO foo", "refuse"),
    (["git"], [], "git -c core.pager=rm log", "refuse"),
    (["git"], [], "git --exec-path=/tmp/x status", "refuse"),
    (["git"], [], "git --config-env=core.fsmonitor=X status", "refuse"),
    (["git"], [], "git log -p", "allow"),
    (["git"], [], "git rebase --exec 'make' main", "refuse"),
    ([], ["python"], "git branch", "allow"),
    ([], ["python"], "git branch -a", "allow"),
    ([], ["python"], "git branch -D main", "refuse"),
    ([], ["python"], "git branch --delete main", "refuse"),
    ([], ["python"], "git branch -m new", "refuse"),
    ([], ["python"], "git branch evil", "refuse"),
    ([], ["python"], "git branch --contains HEAD", "allow"),
    ([], ["python"], "GIT_EXTERNAL_DIFF=rm git diff", "refuse"),
    ([], ["python"], "GIT_CONFIG_COUNT=1 git status", "refuse"),
    ([], ["python"], "PAGER=rm git log", "refuse"),
    ([], ["python"], "git diff --output=/tmp/x", "refuse"),
]


test_allowlist_entries_are_argv_rules = case_test(
    allowlist_entries_are_argv_rules, ("allow", "presets", "command", "expected"), ALLOWLIST)


test_read_only_commands_are_allowed_confined_read_only = case_test(
    read_only_commands_are_allowed_confined_read_only, "command", [
    "git status",
    "git status -s",
    "git log --oneline",
    "git show HEAD",
    "git diff --stat",
    "git blame x.py",
    "git grep -n foo",
    "git branch",
    "git ls-files",
])


test_read_only_rules_refuse_what_executes_writes_or_redirects = case_test(
    read_only_rules_refuse_what_executes_writes_or_redirects, "command", [
    "git grep -Oless foo",
    "git grep --open-files-in-pager foo",
    "git diff --output=x",
    "git log --ext-diff",
    "git show --textconv HEAD",
    "git branch -D main",
    "git branch new",
    "GIT_EXTERNAL_DIFF=rm git diff",
    "PAGER=x git log",
    "git -c core.fsmonitor=x status",
    "git -C /elsewhere status",
    "git cat-file --filters HEAD:x",
])


test_inspecting_a_disk_or_writing_to_dev_null_is_not_denied = case_test(
    inspecting_a_disk_or_writing_to_dev_null_is_not_denied, "command", [
    "git commit -m 'handle /dev/sda'",
])


test_spellings_the_tools_themselves_reject_stay_harmless_look_arounds = case_test(
    spellings_the_tools_themselves_reject_stay_harmless_look_arounds, "command", [
    "git log --ou=x",
    "git show -o /tmp/x HEAD",
])


DENY_CLASS = [
    "git rebase --exec 'rm -rf /' main",
    "git grep --open-files-in-pager='rm -rf /' x",
    "GIT_EXTERNAL_DIFF='rm -rf /' git diff",
]


test_deny_class_examples_are_refused_in_every_mode = case_test(
    deny_class_examples_are_refused_in_every_mode, "command", DENY_CLASS)


NEVER_ALLOWED = [
    ("git grep -Orm x", [], ["python"]),
    ("git diff --output=FILE", ["git diff"], []),
    ("GIT_EXTERNAL_DIFF=rm git diff", [], ["python"]),
    ("GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor "
                                                        "GIT_CONFIG_VALUE_0=./x git status", [], ["node"]),
    ("git branch -D main", [], ["go"]),
    ("git -c core.fsmonitor=./x status", ["git status"], []),
]


test_allowlist_escapes_are_never_allowed = case_test(
    allowlist_escapes_are_never_allowed, ("command", "allow", "presets"), NEVER_ALLOWED)


MORE_DENY_CLASS = [
    "git -c alias.x='!rm -rf /' x",
]


test_more_deny_class_spellings_are_refused = case_test(
    more_deny_class_spellings_are_refused, "command", MORE_DENY_CLASS)
