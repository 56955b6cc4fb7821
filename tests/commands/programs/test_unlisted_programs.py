"""Programs without an entry in the program table (`valgrind`, `ruby`, `pv` ...): the deny list
still judges them, probes what they start, and they run only with the grant."""

from __future__ import annotations

from pathlib import Path

import pytest
from program_answers import answer
from policy_cases import check

from konstruct_tui.commands import PolicyConfig, decide


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


@pytest.mark.parametrize("command", DENIED)
def test_hard_deny_list_refuses_every_spelling(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


OTHER_REFUSALS = [
    ("printenv OPENAI_API_KEY", "secrets"),
]


@pytest.mark.parametrize(("command", "rule"), OTHER_REFUSALS)
def test_other_refusals_name_their_rule(command: str, rule: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", rule), decision.reason


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


@pytest.mark.parametrize("command", ASKED)
def test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule, decision.capability) == ("ask", "needs_grant", "commands"), decision.reason
    assert decision.argv  # what would run, word by word


DENIED_13 = [
    "linux64 rm -rf /",
    "x86_64 rm -rf /",
]


@pytest.mark.parametrize("command", DENIED_13)
def test_issue_13_spellings_are_refused_by_the_deny_list(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


SELF_ATTACK_DENIED = [
    "\uff52\uff4d -rf /",
    "ruby -e 'def f; fork; f; end; f'",
]


@pytest.mark.parametrize("command", SELF_ATTACK_DENIED)
def test_spellings_found_by_attacking_the_policy_are_refused(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


NESTED_CODE_DENIED = [
    "ruby -e 'eval %q{system(\"rm -rf /\")}'",
]


@pytest.mark.parametrize("command", NESTED_CODE_DENIED)
def test_code_inside_strings_is_held_to_the_deny_list(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


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
@pytest.mark.parametrize("command", [
    "pv /dev/zero -o /dev/sda",
    "pv -o/dev/sda /dev/zero",
    "ddrescue -f /dev/zero /dev/sda",
    "ddrescue /dev/zero /dev//nvme0n1",
    "badblocks -w /dev/sda",
    "ffmpeg -i a.mp4 -f rawvideo /dev/sda",
    "some-new-tool --target=/dev/./vda",
])
def test_any_program_naming_a_disk_device_is_on_the_hard_deny_list(command: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path) == ("refuse", "deny")


@pytest.mark.parametrize("command", [
    "pv a.txt -o /dev/null",
])
def test_inspecting_a_disk_or_writing_to_dev_null_is_not_denied(command: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path) == ("ask", "needs_grant")


# Held, not yet tested.
@pytest.mark.parametrize("command", [
    "setpriv rm -rf /",
    "tini rm -rf /",
    "catchsegv rm -rf /",
    "systemd-inhibit rm -rf /",
    "torsocks rm -rf /",
    "lua -e 'os.execute(\"rm -rf /\")'",
])
def test_more_spellings_of_the_hard_deny_list_hold(command: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path) == ("refuse", "deny")


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


@pytest.mark.parametrize("command", MORE_DENY_CLASS)
def test_more_deny_class_spellings_are_refused(command: str) -> None:
    for config in (None, PolicyConfig.build(["python", "node", "go", "java"]), PolicyConfig(read_only_sandbox=True)):
        assert decide(command, config).decision == "refuse", command
