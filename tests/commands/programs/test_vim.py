"""vim and its other names (vi, nvim, ex, view, gvim): editor commands given on the line run a shell
(`-c ':!cmd'`, `--cmd`, `+'!cmd'`), `-S FILE` sources a script (its facts: commands/programs/editors.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from program_answers import answer
from policy_checks import (
    case_test,
    hard_deny_list_refuses_every_spelling,
    issue_13_spellings_are_refused_by_the_deny_list,
    spellings_found_by_attacking_the_policy_are_refused,
)


@pytest.mark.parametrize("command", ["vim -c ':!rm -rf /' x", "view -c ':!rm -rf /' x", "gvim --cmd '!rm -rf ~' x",
                                     "ex +'!rm -rf /' f"])
def test_a_shell_command_given_to_any_vim_is_held_to_the_deny_list(command: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path) == ("refuse", "deny")


# Broke before: only vim, vi and nvim had their unsafe options listed; `view`, `gvim` and `ex` (the same
# program under other names) were admitted by an allowlist entry with `-c`/`-S` in any form.
@pytest.mark.parametrize(("command", "entry"), [("view -c ':!touch x' f", "view"), ("ex -S evil.vim f", "ex"),
                                                ("gvim -c q f", "gvim"), ("vim -S evil.vim f", "vim")])
def test_an_allowlist_entry_for_any_vim_refuses_its_commands_and_scripts(command: str, entry: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path, allow=[entry]) == ("refuse", "allowlist")


@pytest.mark.parametrize(("command", "entry"), [("view README.md", "view"), ("vi -R notes.txt", "vi")])
def test_an_allowlist_entry_for_any_vim_still_opens_files(command: str, entry: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path, allow=[entry]) == ("allow", "allowlist")


DENIED = [
    "vim -c ':!rm -rf /'",
]


test_hard_deny_list_refuses_every_spelling = case_test(hard_deny_list_refuses_every_spelling, "command", DENIED)


DENIED_13 = [
    "vim -c '!rm -rf /'",
    "nvim --cmd ':!rm -rf /'",
]


test_issue_13_spellings_are_refused_by_the_deny_list = case_test(
    issue_13_spellings_are_refused_by_the_deny_list, "command", DENIED_13)


SELF_ATTACK_DENIED = [
    "vim '+!rm -rf /' x",
]


test_spellings_found_by_attacking_the_policy_are_refused = case_test(
    spellings_found_by_attacking_the_policy_are_refused, "command", SELF_ATTACK_DENIED)
