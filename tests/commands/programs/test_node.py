"""`node` in the command policy: every spelling the tests try, and what the policy answers.

Its facts: none in the program table: the rules judge it by its words."""

from __future__ import annotations

from policy_checks import (
    case_test,
    code_inside_strings_is_held_to_the_deny_list,
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant,
    hard_deny_list_refuses_every_spelling,
    more_spellings_of_the_hard_deny_list_hold,
    spellings_found_by_attacking_the_policy_are_refused,
)


DENIED = [
    "node -e \"require('fs').rmSync('/', {recursive: true})\"",
    "node -e \"require('child_process').execSync('rm -rf ~')\"",
]


test_hard_deny_list_refuses_every_spelling = case_test(hard_deny_list_refuses_every_spelling, "command", DENIED)


ASKED = [
    "node scripts/build.js",
    'node -e "console.log(process.version)"',
    "node -e \"require('fs').rmSync('dist', {recursive: true})\"",
]


test_everyday_commands_are_not_refused_and_ask_for_the_commands_grant = case_test(
    everyday_commands_are_not_refused_and_ask_for_the_commands_grant, "command", ASKED)


SELF_ATTACK_DENIED = [
    "node -e \"require('child_process').spawnSync('rm',['-rf','/'])\"",
]


test_spellings_found_by_attacking_the_policy_are_refused = case_test(
    spellings_found_by_attacking_the_policy_are_refused, "command", SELF_ATTACK_DENIED)


NESTED_CODE_DENIED = [
    "node -e \"require('fs').writeFileSync('/etc/hosts', 'x')\"",
    "node -e \"require('fs').unlinkSync('/bin/ls')\"",
    "node -e \"eval('require(\\\"child_process\\\").execSync(\\\"rm -rf /\\\")')\"",
]


test_code_inside_strings_is_held_to_the_deny_list = case_test(
    code_inside_strings_is_held_to_the_deny_list, "command", NESTED_CODE_DENIED)


# Held, not yet tested.
test_more_spellings_of_the_hard_deny_list_hold = case_test(more_spellings_of_the_hard_deny_list_hold, "command", [
    "node -e \"require('child_process').execSync('rm -rf '+'/')\"",
])
