"""`perl` in the command policy: every spelling the tests try, and what the policy answers.

Its facts: konstruct_tui/commands/programs/system.py."""

from __future__ import annotations

import pytest
from policy_cases import check

from konstruct_tui.commands import PolicyConfig, decide


DENIED = [
    'perl -e "fork while fork"',
    "perl -e 'system(\"rm -rf /\")'",
    # more spellings found while reviewing
    "perl -e 'fork while 1'",
]


@pytest.mark.parametrize("command", DENIED)
def test_hard_deny_list_refuses_every_spelling(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


DENIED_13 = [
    "perl -e 'sub f { fork; f() } f()'",
    "perl -e 'fork; fork; fork'",
]


@pytest.mark.parametrize("command", DENIED_13)
def test_issue_13_spellings_are_refused_by_the_deny_list(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


SELF_ATTACK_DENIED = [
    "perl -e 'system(\"r\".\"m -rf /\")'",
    "perl -e 'fork&&fork&&fork'",
]


@pytest.mark.parametrize("command", SELF_ATTACK_DENIED)
def test_spellings_found_by_attacking_the_policy_are_refused(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


NESTED_CODE_DENIED = [
    "perl -e 'eval q{system(\"rm -rf /\")}'",
]


@pytest.mark.parametrize("command", NESTED_CODE_DENIED)
def test_code_inside_strings_is_held_to_the_deny_list(command: str) -> None:
    decision = check(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


DECODED_AND_RUN = [
    "perl -e 'system pack(\"H*\", \"726d202d7266202f\")'",
]


@pytest.mark.parametrize("command", DECODED_AND_RUN)
def test_inline_code_that_decodes_and_runs_a_string_is_refused_even_when_its_interpreter_is_allowed(command: str) -> None:
    for config in (None, PolicyConfig.build(["python"]), PolicyConfig.build([], ["perl"])):
        decision = decide(command, config)
        assert (decision.decision, decision.rule) == ("refuse", "unreadable_expansion"), decision.reason
    assert check("python -c \"import base64; print(base64.b64decode(b'aGk='))\"").decision == "ask"


DENY_CLASS = [
    "perl -e 'sub f { fork; f() } f()'",
]


@pytest.mark.parametrize("command", DENY_CLASS)
def test_deny_class_examples_are_refused_in_every_mode(command: str) -> None:
    for config in (None, PolicyConfig.build(["python", "node", "go", "java"]), PolicyConfig(read_only_sandbox=True)):
        decision = decide(command, config)
        assert decision.decision == "refuse", (command, decision.reason)
