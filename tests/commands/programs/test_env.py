"""env: `-S` split strings are read the way env reads them; a variable in one is never allowed."""

from __future__ import annotations

import pytest

from konstruct_tui.commands import PolicyConfig, decide


ENV_SPLIT_STRING_DENIED = ["env -S 'rm${IFS}-rf /'", "env -S 'rm\\_-rf\\_/'", "env -S '${X}rm -rf /'",
                           "timeout --signal=KILL 5 rm -rf /", "nice --adjustment 5 rm -rf /", "watch --exec rm -rf /",
                           "chroot --userspec=1:1 / rm -rf /", "npx --yes -- rm -rf /"]


@pytest.mark.parametrize("command", ENV_SPLIT_STRING_DENIED)
def test_env_split_strings_are_read_as_env_reads_them(command: str) -> None:
    decision = decide(command)
    assert (decision.decision, decision.rule) == ("refuse", "deny"), decision.reason


def test_env_split_string_with_a_variable_is_never_allowed() -> None:
    decision = decide("env -S 'pytest ${ARGS}'", PolicyConfig.build(["python"]))
    assert decision.decision == "refuse"
    assert decide("env -S 'pytest ${ARGS}'").decision == "ask"
