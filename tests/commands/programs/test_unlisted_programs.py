"""Programs without an entry in the program table (`valgrind`, `ruby`, `pv` ...): the deny list
still judges them, probes what they start, and they run only with the grant."""

from __future__ import annotations

from pathlib import Path

import pytest
from program_answers import answer
from policy_cases import check
from policy_checks import (
    case_test,
    any_program_naming_a_disk_device_is_on_the_hard_deny_list,
    code_inside_strings_is_held_to_the_deny_list,
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant,
    hard_deny_list_refuses_every_spelling,
    inspecting_a_disk_or_writing_to_dev_null_is_not_denied,
    issue_13_spellings_are_refused_by_the_deny_list,
    more_deny_class_spellings_are_refused,
    more_spellings_of_the_hard_deny_list_hold,
    other_refusals_name_their_rule,
    spellings_found_by_attacking_the_policy_are_refused,
)


DENIED = [
    "function b { b | b & }; b",
    "ruby -e '`rm -rf /`'",
    "crontab -r",
    "true || rm -rf ~",
    "sleep 1 & rm -rf /",
    "ruby -e 'loop { fork }'",
    "yes | rm -rf /",
    # programs that run a string they are given
    "alias ls='rm -rf /'",
    "trap 'rm -rf ~' EXIT",
    "parallel rm -rf ::: /",
]


test_hard_deny_list_refuses_every_spelling = case_test(hard_deny_list_refuses_every_spelling, "command", DENIED)


OTHER_REFUSALS = [
    ("printenv OPENAI_API_KEY", "secrets"),
]


test_other_refusals_name_their_rule = case_test(other_refusals_name_their_rule, ("command", "rule"), OTHER_REFUSALS)


ASKED = [
    "pip install -e .",
    "pip install -r requirements.txt",
    "ruff check .",
    "ruff format --check .",
    "mypy src",
    "black --check .",
    "tox -e py311",
    "gofmt -l .",
    "javac -d out src/Main.java",
    "java -jar app.jar",
    "cargo test",
    "mkdir -p build/out",
    "ps aux",
]


test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant = case_test(
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant, "command", ASKED)


DENIED_13 = [
    "linux64 rm -rf /",
    "x86_64 rm -rf /",
]


test_issue_13_spellings_are_refused_by_the_deny_list = case_test(
    issue_13_spellings_are_refused_by_the_deny_list, "command", DENIED_13)


SELF_ATTACK_DENIED = [
    "\uff52\uff4d -rf /",
    "ruby -e 'def f; fork; f; end; f'",
]


test_spellings_found_by_attacking_the_policy_are_refused = case_test(
    spellings_found_by_attacking_the_policy_are_refused, "command", SELF_ATTACK_DENIED)


NESTED_CODE_DENIED = [
    "ruby -e 'eval %q{system(\"rm -rf /\")}'",
]


test_code_inside_strings_is_held_to_the_deny_list = case_test(
    code_inside_strings_is_held_to_the_deny_list, "command", NESTED_CODE_DENIED)


UNKNOWN_RUNNERS_DENIED = [
    "valgrind rm -rf /",
    "firejail --noprofile rm -rf /",
    "numactl --cpunodebind=0 rm -rf /",
    "cross-env A=1 rm -rf /",
    "xvfb-run -a rm -rf /",
    "eatmydata rm -rf /",
    "faketime 2020-01-01 rm -rf /",
    "prlimit --nproc=1 rm -rf /",
    "bwrap --bind / / rm -rf /",
    "watchexec -- rm -rf /",
    "dotenv -- rm -rf /",
    "cgexec -g cpu:x rm -rf /",
]


@pytest.mark.parametrize("command", UNKNOWN_RUNNERS_DENIED)
def test_runners_outside_the_tables_are_probed_for_denied_commands(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason
    assert check("grep rm -rf /").decision == "ask"  # text programs: the words are a pattern and files


# Broke before: a disk device written by a tool the deny list had no table for (asked instead).
test_any_program_naming_a_disk_device_is_on_the_hard_deny_list = case_test(
    any_program_naming_a_disk_device_is_on_the_hard_deny_list, "command", [
    "pv /dev/zero -o /dev/sda",
    "pv -o/dev/sda /dev/zero",
    "ddrescue -f /dev/zero /dev/sda",
    "ddrescue /dev/zero /dev//nvme0n1",
    "badblocks -w /dev/sda",
    "ffmpeg -i a.mp4 -f rawvideo /dev/sda",
    "some-new-tool --target=/dev/./vda",
])


test_inspecting_a_disk_or_writing_to_dev_null_is_not_denied = case_test(
    inspecting_a_disk_or_writing_to_dev_null_is_not_denied, "command", [
    "pv a.txt -o /dev/null",
])


# Held, not yet tested.
test_more_spellings_of_the_hard_deny_list_hold = case_test(more_spellings_of_the_hard_deny_list_hold, "command", [
    "setpriv rm -rf /",
    "tini rm -rf /",
    "catchsegv rm -rf /",
    "systemd-inhibit rm -rf /",
    "torsocks rm -rf /",
    "lua -e 'os.execute(\"rm -rf /\")'",
])


@pytest.mark.parametrize("command", [
    "valgrind python python python python rm -rf /",
    "valgrind perl ruby node python3 rm -rf /",
])
def test_decoys_in_front_do_not_hide_a_denied_command(command: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path) == ("refuse", "deny")


MORE_DENY_CLASS = [
    "php -r 'system(\"rm -rf /\");'",
    "ruby -e 'system(%q(rm -rf /))'",
]


test_more_deny_class_spellings_are_refused = case_test(
    more_deny_class_spellings_are_refused, "command", MORE_DENY_CLASS)
