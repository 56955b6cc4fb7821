"""Allowlist mode and presets: only listed prefixes run, matched on whole argv words; deny still wins."""

from __future__ import annotations

import pytest

from konstruct_tui.commands import BadPrefix, PolicyConfig, decide

CASES = [
    # (allow prefixes, presets, command, decision)
    (["git"], [], "git status", "allow"),
    (["git"], [], "gitx status", "refuse"),
    (["git status"], [], "git status -s", "allow"),
    (["git status"], [], "git stash", "refuse"),
    (["git status"], [], "git", "refuse"),
    (["git"], [], "./git status", "refuse"),
    (["git"], [], "/tmp/git status", "refuse"),
    (["pytest"], [], "timeout 60 pytest -x", "allow"),
    (["pytest"], [], "env CI=1 pytest", "refuse"),  # assignments in front of an allowlisted command
    (["pytest"], [], "sudo pytest", "refuse"),
    (["pytest"], [], "pytest; rm x", "refuse"),
    (["pytest"], [], "bash -c pytest", "refuse"),
    (["rm"], [], "rm -rf /", "refuse"),
    (["rm -rf"], [], "rm -rf build", "allow"),
    (["npm run"], [], "npm run build", "allow"),
    (["npm run"], [], "npm runx", "refuse"),
    ([], ["python"], "pytest -q tests/test_x.py", "allow"),
    ([], ["python"], "python -m pytest", "allow"),
    ([], ["python"], 'python -c "print(1)"', "allow"),
    ([], ["python"], "pip install -r requirements.txt", "allow"),
    ([], ["python"], "ruff check .", "allow"),
    ([], ["python"], "git diff --stat", "allow"),
    ([], ["python"], "npm test", "refuse"),
    ([], ["python"], "curl https://example.com", "refuse"),
    ([], ["python"], "rm -rf build", "refuse"),
    ([], ["python"], "python -c \"import os; os.system('rm -rf /')\"", "refuse"),
    ([], ["node"], "npm test", "allow"),
    ([], ["node"], "npm run build", "allow"),
    ([], ["node"], "npx tsc --noEmit", "allow"),
    ([], ["node"], "node -e \"require('child_process').execSync('rm -rf ~')\"", "refuse"),
    ([], ["node"], "pytest", "refuse"),
    ([], ["go"], "go test ./...", "allow"),
    ([], ["go"], "go vet ./...", "allow"),
    ([], ["go"], "go get example.com/x", "allow"),
    ([], ["go"], "go tool pprof x", "refuse"),
    ([], ["java"], "mvn -q test", "allow"),
    ([], ["java"], "./gradlew test", "allow"),
    ([], ["java"], "gradle build", "allow"),
    ([], ["java"], "go test ./...", "refuse"),
    (["make"], ["python"], "make test", "allow"),
    (["make"], ["python"], "pytest", "allow"),
]


@pytest.mark.parametrize(("allow", "presets", "command", "expected"), CASES)
def test_allowlist_mode(allow: list[str], presets: list[str], command: str, expected: str) -> None:
    decision = decide(command, PolicyConfig.build(presets, allow))
    assert decision.decision == expected, decision.reason
    if expected == "allow":
        assert decision.rule == "allowlist"
        assert decision.capability is None  # the user's standing permission: no grant needed


def test_outside_the_list_is_refused_by_the_allowlist_rule() -> None:
    decision = decide("curl https://example.com", PolicyConfig.build(["python"]))
    assert (decision.decision, decision.rule) == ("refuse", "allowlist")


def test_no_allowlist_entry_lifts_the_deny_list() -> None:
    for allow in (["rm"], ["rm -rf"], ["rm -rf /"], ["sudo"], ["dd"], ["mkfs.ext4"]):
        for command in ("rm -rf /", "sudo rm -rf /", "dd if=/dev/zero of=/dev/sda", "mkfs.ext4 /dev/sda1"):
            decision = decide(command, PolicyConfig.build([], allow))
            assert (decision.decision, decision.rule) == ("refuse", "deny"), (allow, command)


def test_allowlist_is_off_by_default() -> None:
    assert not PolicyConfig().allowlist_mode
    assert decide("curl https://example.com").decision == "ask"


@pytest.mark.parametrize("bad", ["", "   ", "a;b", "git && ls", "'unterminated"])
def test_unusable_prefixes_are_rejected(bad: str) -> None:
    with pytest.raises(BadPrefix):
        PolicyConfig.build([], [bad])


def test_unknown_preset_is_rejected() -> None:
    with pytest.raises(BadPrefix, match="known presets"):
        PolicyConfig.build(["cobol"])
