"""find: its actions (`-delete`, `-exec`, `-fprint`) and the filters that must come before them."""

from __future__ import annotations

from policy_checks import (
    case_test,
    allowlist_entries_are_argv_rules,
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant,
    hard_deny_list_refuses_every_spelling,
    more_spellings_of_the_hard_deny_list_hold,
    other_refusals_name_their_rule,
    read_only_commands_are_allowed_confined_read_only,
    read_only_rules_refuse_what_executes_writes_or_redirects,
    shells_and_eval_cannot_smuggle_compound_commands,
    spellings_found_by_attacking_the_policy_are_refused,
    spellings_the_tools_themselves_reject_stay_harmless_look_arounds,
)

from konstruct_tui.commands import decide


def test_find_deletes_everything_when_the_action_comes_before_the_filter() -> None:
    assert decide("find . -delete -name x").rule == "destructive"
    assert decide("find . -name x -delete").decision == "ask"


DENIED = [
    "find . -exec sh -c 'rm -rf /' \\;",
    "find / -delete",
    "find ~ -delete",
    "find / -name x -exec rm -rf {} +",
    "find / -exec rm -rf {} \\;",
    "find $HOME -delete",
]


test_hard_deny_list_refuses_every_spelling = case_test(hard_deny_list_refuses_every_spelling, "command", DENIED)


SHELL_WRAPPED = [
    "find . -exec sh -c 'ls | wc -l' \\;",
]


test_shells_and_eval_cannot_smuggle_compound_commands = case_test(
    shells_and_eval_cannot_smuggle_compound_commands, "command", SHELL_WRAPPED)


OTHER_REFUSALS = [
    ("find . -delete", "destructive"),
    ("find . -exec rm -rf {} \\;", "destructive"),
    ("find ~/Documents -delete", "outside_workspace"),
    ("find .. -delete", "outside_workspace"),
]


test_other_refusals_name_their_rule = case_test(other_refusals_name_their_rule, ("command", "rule"), OTHER_REFUSALS)


ASKED = [
    "find . -name '*.py' -type f",
    'find . -name "*.pyc" -delete',
    "find . -name '*.pyc' -exec rm -f {} \\;",
]


test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant = case_test(
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant, "command", ASKED)


SELF_ATTACK_DENIED = [
    "find . -fprintf /etc/passwd x",
    "find / -maxdepth 0 -exec rm -rf {} \\;",
    "find ~ -execdir rm {} \\;",
]


test_spellings_found_by_attacking_the_policy_are_refused = case_test(
    spellings_found_by_attacking_the_policy_are_refused, "command", SELF_ATTACK_DENIED)


ALLOWLIST = [
    (["find"], [], "find . -name '*.py'", "allow"),
    (["find"], [], "find . -name x -delete", "refuse"),
    (["find"], [], "find . -fprintf /tmp/x %p", "refuse"),
    (["find"], [], "find . -exec cat {} +", "refuse"),
]


test_allowlist_entries_are_argv_rules = case_test(
    allowlist_entries_are_argv_rules, ("allow", "presets", "command", "expected"), ALLOWLIST)


test_read_only_commands_are_allowed_confined_read_only = case_test(
    read_only_commands_are_allowed_confined_read_only, "command", [
    "find . -name '*.py' -type f",
])


test_read_only_rules_refuse_what_executes_writes_or_redirects = case_test(
    read_only_rules_refuse_what_executes_writes_or_redirects, "command", [
    "find . -exec cat {} +",
    "find src -delete",
    "find . -fprint /tmp/x",
    "find . -fprintf /tmp/x %p",
    "find . -fls /tmp/x",
])


# Held, not yet tested.
test_more_spellings_of_the_hard_deny_list_hold = case_test(more_spellings_of_the_hard_deny_list_hold, "command", [
    "find /. -delete",
])


test_spellings_the_tools_themselves_reject_stay_harmless_look_arounds = case_test(
    spellings_the_tools_themselves_reject_stay_harmless_look_arounds, "command", [
    "find . -fprin /tmp/x",
])
