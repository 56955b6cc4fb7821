"""`rm` in the command policy: every spelling the tests try, and what the policy answers.

Its facts: konstruct_tui/commands/programs/system.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from program_answers import answer
from policy_checks import (
    case_test,
    deny_class_examples_are_refused_in_every_mode,
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant,
    hard_deny_list_refuses_every_spelling,
    issue_13_spellings_are_refused_by_the_deny_list,
    more_deny_class_spellings_are_refused,
    more_spellings_of_the_hard_deny_list_hold,
    other_refusals_name_their_rule,
    quoting_tricks_and_unpacking_over_the_machine_are_refused,
    spellings_found_by_attacking_the_policy_are_refused,
)


DENIED = [
    # rm -rf / in every spelling
    "rm -rf /",
    "rm -fr /",
    "rm -r -f /",
    "rm -R -f /",
    "rm -Rf /",
    "rm --recursive --force /",
    "rm -rf --no-preserve-root /",
    "rm --no-preserve-root -rf /",
    "rm -rf / --no-preserve-root",
    "rm -rf /*",
    "rm -rf //",
    "rm -rf /.",
    "rm -rf /..",
    "rm -rf /./",
    "rm -rf '/'",
    'rm -rf "/"',
    "rm -rf /tmp/../",
    "rm -rf -- /",
    "rm -vrf /",
    'r""m -rf /',
    "\\rm -rf /",
    "/bin/rm -rf /",
    "/usr/bin/rm -rf /",
    "rm -rf /{,}",
    "rm -rf . /",
    "rm -f /",
    "rm -rf ~",
    "rm -rf ~/",
    "rm -rf ~/*",
    "rm -rf $HOME",
    'rm -rf "$HOME"',
    "rm -rf ${HOME}",
    "rm -rf /home",
    "rm -rf /home/*",
    "rm -rf /etc",
    "rm -rf /usr/bin",
    "rm -rf /root",
    "rm -rf /mnt/c",
    "rm -rf ~root",
    'rm -rf "${HOME:-/}"',
    "rm -rf /home/$USER",
    "rm -rf /bin/..",
    "rm -rf ''/",
    "r\\m -rf /",
    "rm -rf C:/",
]


test_hard_deny_list_refuses_every_spelling = case_test(hard_deny_list_refuses_every_spelling, "command", DENIED)


OTHER_REFUSALS = [
    ("rm -rf .", "destructive"),
    ("rm -rf ./", "destructive"),
    ("rm -rf *", "destructive"),
    ("rm -rf ./*", "destructive"),
    ("rm -rf ..", "outside_workspace"),
    ("rm -rf ../", "outside_workspace"),
    ("rm -rf ../other-project", "outside_workspace"),
    ("rm -rf ../../", "outside_workspace"),
    ("rm -rf ~/Documents", "outside_workspace"),
    ("rm -rf /opt/app/build", "outside_workspace"),
    ("rm -rf /work/other-project", "outside_workspace"),
    ("rm -rf .git", "destructive"),
    ("rm -rf ./.git/", "destructive"),
    ("rm -rf $PWD", "destructive"),
]


test_other_refusals_name_their_rule = case_test(other_refusals_name_their_rule, ("command", "rule"), OTHER_REFUSALS)


ASKED = [
    "rm src/old.py",
    "rm -rf build",
    "rm -rf ./node_modules",
    "rm -rf dist/",
    "rm -rf build dist *.egg-info",
    "rm -rf __pycache__",
    "rm -f /tmp/test.db",
    "rm -rf /tmp/build-cache",
    "rm -rf ~/.cache/pip",
    "rm -rf ~/.npm/_cacache",
    "rm -f .git/index.lock",
    "rm -rf .github",
]


test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant = case_test(
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant, "command", ASKED)


DENIED_13 = [
    "rm -rf $'/'",
    "rm -rf /proc/..",
]


test_issue_13_spellings_are_refused_by_the_deny_list = case_test(
    issue_13_spellings_are_refused_by_the_deny_list, "command", DENIED_13)


SELF_ATTACK_DENIED = [
    "rm -rf \uff0f",
    "rm -rf \u2215",
    "rm -rf /{bin,etc}",
    "rm -rf /bi?",
    "rm -rf \"/\"''",
    "rm -rf $'\\057'",
    "rm -rf $'\\x2f'",
]


test_spellings_found_by_attacking_the_policy_are_refused = case_test(
    spellings_found_by_attacking_the_policy_are_refused, "command", SELF_ATTACK_DENIED)


QUOTING_AND_UNPACKING_DENIED = [
    "rm -r\\\nf /",
    "rm -rf $'\\x2f'etc",
    "/bin//rm -rf /",
    "/bin/./rm -rf /",
]


test_quoting_tricks_and_unpacking_over_the_machine_are_refused = case_test(
    quoting_tricks_and_unpacking_over_the_machine_are_refused, "command", QUOTING_AND_UNPACKING_DENIED)


# Held, not yet tested.
test_more_spellings_of_the_hard_deny_list_hold = case_test(more_spellings_of_the_hard_deny_list_hold, "command", [
    "rm -rf /proc/self/cwd/..",
    "rm -rf /dev/fd/../../",
])


DENY_CLASS = [
    "rm -rf ~+",
    "rm -rf ${HOME:0:1}",
]


test_deny_class_examples_are_refused_in_every_mode = case_test(
    deny_class_examples_are_refused_in_every_mode, "command", DENY_CLASS)


MORE_DENY_CLASS = [
    "rm -rf /[u]sr",
    "rm -rf /??r",
    "rm -r --no-preserve-root /",
]


test_more_deny_class_spellings_are_refused = case_test(
    more_deny_class_spellings_are_refused, "command", MORE_DENY_CLASS)


# Broke before: rimraf, del-cli and gio were on the hard deny list (a fatal target) but not judged
# by the destructive rule: `rimraf ..` deleted outside the project with the commands grant alone.
@pytest.mark.parametrize("command", ["rimraf ..", "del-cli ../x", "gio trash ../x", "gio remove ~/notes"])
def test_every_program_that_deletes_is_kept_inside_the_project(command: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path) == ("refuse", "outside_workspace")


@pytest.mark.parametrize("command", ["rimraf dist", "del-cli build/x", "gio trash old.txt"])
def test_deleting_inside_the_project_asks_for_the_grant(command: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path) == ("ask", "needs_grant")
