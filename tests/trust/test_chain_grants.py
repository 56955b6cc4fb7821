"""Grants for a chain the user's policy lets ask (`a && b`, `a; b`): this exact chain admits that chain
and no other; a rule per step admits a chain only while every step that needs a grant is admitted by
a rule of its own (never another program, never an unsafe option); the store keeps chain grants in a
version older builds refuse rather than misread. Through the real run_command tool."""

from __future__ import annotations

import json
import os
import warnings
from pathlib import Path

import pytest

from konstruct_tui.app import GrantChoiceError, build_preview, chain_steps, rules_per_step, step_rules
from konstruct_tui.commands import PolicyConfig
from konstruct_tui.tools import ToolContext, call
from konstruct_tui.trust import BadGrant, CommandRule, TrustDecision, TrustRequest, TrustSession, TrustStore, TrustStoreWarning
from konstruct_tui.workspace import Workspace

CHAINS = PolicyConfig(chains=True)
ASKED = "touch a && mkdir -p d"
ASKED_STEPS = ((None, ("touch", "a")), ("&&", ("mkdir", "-p", "d")))


def project(tmp_path: Path) -> Path:
    root = tmp_path / "p"
    root.mkdir()
    return root


def session_with(root: Path, scope: str, rule: CommandRule | None = None, rules: tuple[CommandRule, ...] = ()) -> TrustSession:
    session = TrustSession(root)
    session.record(TrustRequest("commands", ASKED), TrustDecision(True, scope, command=rule, rules=rules))
    return session


def statuses(root: Path, session: TrustSession, commands: list[str], policy: PolicyConfig = CHAINS) -> dict[str, str]:
    with Workspace(root) as workspace:
        context = ToolContext(workspace)
        context.trust = session
        context.command_policy = policy
        return {command: call("run_command", {"command": command}, context).to_json()["status"] for command in commands}


@pytest.mark.parametrize("scope", ["session", "always"])
def test_this_exact_chain_admits_that_chain_and_no_other(tmp_path: Path, scope: str) -> None:
    root = project(tmp_path)
    session = session_with(root, scope, CommandRule("chain", (), ASKED_STEPS))
    same = statuses(root, session, [ASKED, "touch 'a'  &&  mkdir -p d", "touch a &&\\\n mkdir -p d"])
    assert set(same.values()) == {"ok"}, same  # the same steps joined the same way, spelled otherwise
    others = ["touch a; mkdir -p d", "touch a || mkdir -p d", "mkdir -p d && touch a", "touch a && mkdir -p d && touch b",
              "touch a && mkdir -p e", "touch b && mkdir -p d", "touch a", "mkdir -p d", "touch a && mkdir -p d; rm -r d"]
    got = statuses(root, session, others)
    assert got == {command: "needs_grant" for command in others}, got
    assert TrustSession(root).use("commands") is False  # never a grant for every command
    if scope == "always":
        assert statuses(root, TrustSession(root), [ASKED]) == {ASKED: "ok"}  # a new session: the stored grant


def test_a_chain_grant_never_admits_a_chain_the_policy_refuses(tmp_path: Path) -> None:
    root = project(tmp_path)
    session = session_with(root, "always", CommandRule("chain", (), ASKED_STEPS))
    assert statuses(root, session, [ASKED], policy=PolicyConfig()) == {ASKED: "refused"}  # chains not allowed
    pipe = statuses(root, session, ["touch a | mkdir -p d", "touch a && rm -rf /"])
    assert set(pipe.values()) == {"refused"}, pipe  # a pipe is never a chain; the deny list answers first


@pytest.mark.parametrize("scope", ["session", "always"])
def test_a_rule_per_step_admits_chains_whose_every_step_it_admits(tmp_path: Path, scope: str) -> None:
    root = project(tmp_path)
    session = session_with(root, scope, rules=(CommandRule("prefix", ("touch",)), CommandRule("prefix", ("mkdir",))))
    admitted = [ASKED, "mkdir -p d; touch b", "touch c || mkdir x", "touch e", "mkdir -p f"]
    assert statuses(root, session, admitted) == {command: "ok" for command in admitted}
    (root / "keep").mkdir()
    refused = ["touch a && rmdir keep", "touchx a && mkdir d", "touch a && ./mkdir d", "touch a && /tmp/mkdir d",
               "env mkdir d && touch a", "timeout 9 mkdir d; touch a", "touch a; python3 -c 'import os'"]
    got = statuses(root, session, refused)
    assert got == {command: "needs_grant" for command in refused}, got
    assert (root / "keep").is_dir()


def test_a_step_rule_never_admits_an_unsafe_option_of_its_program(tmp_path: Path) -> None:
    root = project(tmp_path)
    (root / "keep.txt").write_text("x")
    session = session_with(root, "always", rules=(CommandRule("prefix", ("touch",)), CommandRule("prefix", ("find",))))
    got = statuses(root, session, ["touch a && find . -delete", "touch a; find . -exec rm {} +", "touch a && find . -fprint x"])
    assert "ok" not in got.values(), got
    assert (root / "keep.txt").exists()
    assert statuses(root, session, ["touch a && find . -name keep.txt"])["touch a && find . -name keep.txt"] == "ok"


def test_steps_may_be_covered_by_a_stored_rule_and_a_session_rule_together(tmp_path: Path) -> None:
    root = project(tmp_path)
    TrustStore().grant(root, "commands", command=CommandRule("prefix", ("touch",)))
    session = session_with(root, "session", CommandRule("exact", ("mkdir", "-p", "d")))
    assert statuses(root, session, [ASKED, "touch a && mkdir -p e"]) == {ASKED: "ok", "touch a && mkdir -p e": "needs_grant"}


def test_once_covers_one_chain_call(tmp_path: Path) -> None:
    root = project(tmp_path)
    session = session_with(root, "once")
    assert statuses(root, session, [ASKED, "touch b && mkdir -p e"]) == {ASKED: "ok", "touch b && mkdir -p e": "needs_grant"}


def test_the_store_keeps_a_chain_grant_in_a_version_older_builds_refuse(tmp_path: Path) -> None:
    store = TrustStore()
    chain = CommandRule("chain", (), ASKED_STEPS)
    store.grant(tmp_path, "commands", command=chain)
    data = json.loads(store.path.read_text())
    assert data["version"] == 3
    (kept,) = data["projects"][os.path.realpath(tmp_path)]["grants"]
    assert kept["command"] == {"match": "chain", "text": "touch a && mkdir -p d",
                               "steps": [{"connector": None, "argv": ["touch", "a"]}, {"connector": "&&", "argv": ["mkdir", "-p", "d"]}]}
    assert TrustStore().grants(tmp_path)[0].command == chain
    assert TrustStore().grants(tmp_path)[0].describe() == "the chain touch a && mkdir -p d"
    store.grant(tmp_path, "commands", command=CommandRule("prefix", ("pytest",)))
    store.revoke(tmp_path, "commands", command=chain)
    assert json.loads(store.path.read_text())["version"] == 2  # no chain left: a version 2 build reads it again


@pytest.mark.parametrize("rule", [
    {"match": "chain", "steps": [{"connector": "&&", "argv": ["a"]}]},  # the first step joins nothing
    {"match": "chain", "steps": [{"connector": None, "argv": ["a"]}, {"connector": "|", "argv": ["b"]}]},  # a pipe
    {"match": "chain", "steps": [{"connector": None, "argv": ["a"]}, {"connector": None, "argv": ["b"]}]},
    {"match": "chain", "steps": []}, {"match": "chain", "argv": ["a"]}, {"match": "chain", "steps": [{"argv": []}]},
])
def test_a_damaged_chain_rule_fails_closed(tmp_path: Path, rule: object) -> None:
    store = TrustStore()
    store.path.parent.mkdir(parents=True, exist_ok=True)
    store.path.write_text(json.dumps({"version": 3, "projects": {os.path.realpath(tmp_path): {"grants": [
        {"capability": "commands", "scope": "always", "paths": [], "command": rule}]}}}))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert store.grants(tmp_path) == []
    assert any(issubclass(w.category, TrustStoreWarning) for w in caught)


def test_a_chain_rule_with_an_argv_or_a_plain_rule_with_steps_is_not_made() -> None:
    with pytest.raises(BadGrant):
        CommandRule("chain", ("a",), ASKED_STEPS)
    with pytest.raises(BadGrant):
        CommandRule("exact", ("a",), ASKED_STEPS)


# -- what the prompt offers for a chain --------------------------------------------------------------

def _preview(root: Path, command: str):  # type: ignore[no-untyped-def]
    TrustStore().set_command_settings(root, chains=True)
    with Workspace(root) as workspace:
        return build_preview(workspace, "run_command", "commands", command, {"command": command})


def test_the_preview_of_a_chain_judges_it_as_the_project_policy_does(tmp_path: Path) -> None:
    root = project(tmp_path)
    preview = _preview(root, "pytest -q tests/x && git diff HEAD; CI=1 make")
    assert preview.rule == "needs_grant" and preview.argv == ()
    assert [(p.connector, p.text(), p.needs, p.proposed_rule) for p in preview.chain] == [
        (None, "pytest -q tests/x", "commands", "pytest"), ("&&", "git diff HEAD", "commands", "git diff"),
        (";", "CI=1 make", "commands", None)]
    assert not rules_per_step(preview.chain)  # `CI=1 make` can only be granted exactly: no rule per step
    assert chain_steps(preview.chain)[1] == ("&&", ("git", "diff", "HEAD"))


def test_typed_step_rules_are_each_checked_for_their_own_step(tmp_path: Path) -> None:
    root = project(tmp_path)
    parts = _preview(root, "pytest -q && git diff HEAD").chain
    assert rules_per_step(parts)
    assert step_rules(["pytest", "git diff"], parts) == (("pytest",), ("git", "diff"))
    assert step_rules(["pytest", "pytest"], _preview(root, "pytest -q && pytest -x").chain) == (("pytest",),)
    for typed, problem in ((["pytest", "git log"], "step 2 (git diff HEAD)"), (["pytest", "git -c a=b diff"], "step 2"),
                           (["pytest && git", "git"], "step 1"), (["pytest"], "one rule for each of the 2 steps")):
        with pytest.raises(GrantChoiceError, match=problem.replace("(", r"\(").replace(")", r"\)")):
            step_rules(typed, parts)
