"""`perl` in the command policy: every spelling the tests try, and what the policy answers.

Its facts: konstruct_tui/commands/programs/system.py."""

from __future__ import annotations

from policy_checks import (
    case_test,
    code_inside_strings_is_held_to_the_deny_list,
    deny_class_examples_are_refused_in_every_mode,
    hard_deny_list_refuses_every_spelling,
    inline_code_that_decodes_and_runs_a_string_is_refused_even_when_its_interpreter_is_allowed,
    issue_13_spellings_are_refused_by_the_deny_list,
    spellings_found_by_attacking_the_policy_are_refused,
)


DENIED = [
    'perl -e "fork while fork"',
    "perl -e 'system(\"rm -rf /\")'",
    # more spellings found while reviewing
    "perl -e 'fork while 1'",
]


test_hard_deny_list_refuses_every_spelling = case_test(hard_deny_list_refuses_every_spelling, "command", DENIED)


DENIED_13 = [
    "perl -e 'sub f { fork; f() } f()'",
    "perl -e 'fork; fork; fork'",
]


test_issue_13_spellings_are_refused_by_the_deny_list = case_test(
    issue_13_spellings_are_refused_by_the_deny_list, "command", DENIED_13)


SELF_ATTACK_DENIED = [
    "perl -e 'system(\"r\".\"m -rf /\")'",
    "perl -e 'fork&&fork&&fork'",
]


test_spellings_found_by_attacking_the_policy_are_refused = case_test(
    spellings_found_by_attacking_the_policy_are_refused, "command", SELF_ATTACK_DENIED)


NESTED_CODE_DENIED = [
    "perl -e 'eval q{system(\"rm -rf /\")}'",
]


test_code_inside_strings_is_held_to_the_deny_list = case_test(
    code_inside_strings_is_held_to_the_deny_list, "command", NESTED_CODE_DENIED)


DECODED_AND_RUN = [
    "perl -e 'system pack(\"H*\", \"726d202d7266202f\")'",
]


test_inline_code_that_decodes_and_runs_a_string_is_refused_even_when_its_interpreter_is_allowed = case_test(
    inline_code_that_decodes_and_runs_a_string_is_refused_even_when_its_interpreter_is_allowed, "command", DECODED_AND_RUN)


DENY_CLASS = [
    "perl -e 'sub f { fork; f() } f()'",
]


test_deny_class_examples_are_refused_in_every_mode = case_test(
    deny_class_examples_are_refused_in_every_mode, "command", DENY_CLASS)
