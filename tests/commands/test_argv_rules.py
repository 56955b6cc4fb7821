"""Issue 13: allowlist entries and the read-only list are argv rules, not text prefixes; project
scripts run as written. Each case here was allowed on main (a prefix admitted any option)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from konstruct_tui.commands import PolicyConfig, decide, discover_scripts
from konstruct_tui.workspace import Workspace

ALLOWLIST = [
    # (allow entries, presets, command, decision)
    (["rg"], [], "rg -n foo src", "allow"), (["rg"], [], "rg --pre rm foo .", "refuse"),
    (["rg"], [], "rg --pre=rm foo .", "refuse"), (["rg --pre"], [], "rg --pre cat foo .", "allow"),
    (["git diff"], [], "git diff --stat", "allow"), (["git diff"], [], "git diff --output=x", "refuse"),
    (["git diff"], [], "git diff --out=x", "refuse"), (["git diff"], [], "git diff --ext-diff", "refuse"),
    (["git grep"], [], "git grep -n foo", "allow"), (["git grep"], [], "git grep -Orm foo", "refuse"),
    (["git grep"], [], "git grep --open-files-in-pager=rm foo", "refuse"), (["git grep"], [], "git grep -nO foo", "refuse"),
    (["git"], [], "git -c core.pager=rm log", "refuse"), (["git"], [], "git --exec-path=/tmp/x status", "refuse"),
    (["git"], [], "git --config-env=core.fsmonitor=X status", "refuse"), (["git"], [], "git log -p", "allow"),
    (["git"], [], "git rebase --exec 'make' main", "refuse"),
    ([], ["python"], "git branch", "allow"), ([], ["python"], "git branch -a", "allow"),
    ([], ["python"], "git branch -D main", "refuse"), ([], ["python"], "git branch --delete main", "refuse"),
    ([], ["python"], "git branch -m new", "refuse"), ([], ["python"], "git branch evil", "refuse"),
    ([], ["python"], "git branch --contains HEAD", "allow"),
    ([], ["python"], "GIT_EXTERNAL_DIFF=rm git diff", "refuse"), ([], ["python"], "GIT_CONFIG_COUNT=1 git status", "refuse"),
    ([], ["python"], "CI=1 pytest", "refuse"), ([], ["python"], "PAGER=rm git log", "refuse"),
    ([], ["python"], "git diff --output=/tmp/x", "refuse"), ([], ["python"], "rg --pre rm x .", "refuse"),
    ([], ["python"], "uv run pytest -q", "allow"), ([], ["python"], "uv run rm -rf build", "refuse"),
    ([], ["python"], "poetry run curl https://example.com", "refuse"), ([], ["python"], "pytest -p evil_plugin", "refuse"),
    ([], ["python"], "pytest --basetemp=/home/someone", "refuse"), ([], ["python"], "pytest -c /tmp/evil.ini", "refuse"),
    (["python -m pytest"], [], "python -m pytest -p evil", "refuse"), (["python -m pytest"], [], "python -m pytest -q", "allow"),
    ([], ["node"], "npm test --script-shell=./x.sh", "refuse"), ([], ["node"], "npm run build --prefix /elsewhere", "refuse"),
    ([], ["node"], "npm exec -- rm -rf build", "refuse"), ([], ["node"], "npm exec -c 'ls'", "refuse"),
    ([], ["node"], "npm exec -- jest", "allow"), ([], ["node"], "npx jest --ci", "allow"),
    ([], ["go"], "go test -exec ./evil ./...", "refuse"), ([], ["go"], "go test -toolexec=./x ./...", "refuse"),
    ([], ["go"], "go test -run TestA ./...", "allow"),
    (["make"], [], "make test", "allow"), (["make"], [], "make test -f evil.mk", "refuse"),
    (["make"], [], "make -fevil.mk test", "refuse"), (["make"], [], "make --eval='x:' test", "refuse"),
    (["make"], [], "make -C /elsewhere test", "refuse"), (["make"], [], "make SHELL=./evil.sh test", "refuse"),
    (["make"], [], "make test CC=./evil", "refuse"), (["make CFLAGS=-O2"], [], "make CFLAGS=-O2", "allow"),
    ([], ["node"], "npm run build --git=./evil", "refuse"),
    ([], ["java"], "mvn -f /tmp/evil.xml test", "refuse"), ([], ["java"], "./gradlew -I evil.gradle test", "refuse"),
    (["find"], [], "find . -name '*.py'", "allow"), (["find"], [], "find . -name x -delete", "refuse"),
    (["find"], [], "find . -fprintf /tmp/x %p", "refuse"), (["find"], [], "find . -exec cat {} +", "refuse"),
    (["tar"], [], "tar -xf a.tar --to-command=cat", "refuse"), (["tar"], [], "tar -xf a.tar", "allow"),
]


@pytest.mark.parametrize(("allow", "presets", "command", "expected"), ALLOWLIST)
def test_allowlist_entries_are_argv_rules(allow: list[str], presets: list[str], command: str, expected: str) -> None:
    decision = decide(command, PolicyConfig.build(presets, allow))
    assert decision.decision == expected, decision.reason
    if expected == "allow":
        assert (decision.rule, decision.capability) == ("allowlist", None)


def test_a_refusal_names_the_option_and_how_to_list_it() -> None:
    decision = decide("rg --pre cat foo .", PolicyConfig.build([], ["rg"]))
    assert "--pre" in decision.reason and "lists that option" in decision.reason


READ_ONLY = PolicyConfig(read_only_sandbox=True)


@pytest.mark.parametrize("command", [
    "ls", "ls -la src", "cat README.md", "head -n 5 x.py", "wc -l x", "pwd", "stat x", "file x", "tree -L 2",
    "rg -n foo src", "grep -rn foo src", "find . -name '*.py' -type f", "git status", "git status -s", "git log --oneline",
    "git show HEAD", "git diff --stat", "git blame x.py", "git grep -n foo", "git branch", "git ls-files",
])
def test_read_only_commands_are_allowed_confined_read_only(command: str) -> None:
    decision = decide(command, READ_ONLY)
    assert (decision.decision, decision.rule, decision.confinement, decision.capability) == (
        "allow", "read_only", "read-only", None), decision.reason
    assert decision.to_json()["confinement"] == "read-only"


@pytest.mark.parametrize("command", [
    "rg --pre rm foo .", "rg --pre=cat x", "find . -exec cat {} +", "find src -delete", "find . -fprint /tmp/x",
    "find . -fprintf /tmp/x %p", "find . -fls /tmp/x", "git grep -Oless foo", "git grep --open-files-in-pager foo",
    "git diff --output=x", "git log --ext-diff", "git show --textconv HEAD", "git branch -D main", "git branch new",
    "tree -o out.txt", "date -s 2020-01-01", "file -C -m x", "GIT_EXTERNAL_DIFF=rm git diff", "PAGER=x git log", "CI=1 ls", "env ls", "timeout 5 ls",
    "git -c core.fsmonitor=x status", "git -C /elsewhere status", "tail -f log.txt", "ls; ls", "/bin/ls", "./ls",
    "git cat-file --filters HEAD:x", "tree -R -H . -o x",
])
def test_read_only_rules_refuse_what_executes_writes_or_redirects(command: str) -> None:
    decision = decide(command, READ_ONLY)
    assert decision.decision != "allow" and decision.confinement is None, decision.reason


def test_without_a_read_only_sandbox_read_only_commands_ask_as_today() -> None:
    for command in ("ls", "git status", "cat x"):
        decision = decide(command, PolicyConfig())
        assert (decision.decision, decision.rule, decision.confinement) == ("ask", "needs_grant", None)


def test_allowlist_mode_keeps_its_list_and_a_chain_of_read_only_steps_is_confined() -> None:
    config = PolicyConfig.build([], ["pytest"], read_only_sandbox=True)
    assert decide("ls", config).rule == "allowlist" and decide("ls", config).decision == "refuse"
    chained = decide("ls && git status", PolicyConfig(chains=True, read_only_sandbox=True))
    assert (chained.decision, chained.rule, chained.confinement) == ("allow", "chain", "read-only")
    mixed = decide("ls && curl http://localhost", PolicyConfig(chains=True, read_only_sandbox=True))
    assert (mixed.decision, mixed.confinement) == ("ask", None)


def _project(root: Path) -> PolicyConfig:
    files = {
        "package.json": json.dumps({"scripts": {"test": "jest", "wipe": "rm -rf /", "clean": "rimraf ~"}}),
        "Makefile": "test:\n\tpytest -q\nnuke:\n\tcd / && rm -rf ~\n", "tests/test_a.py": "def test_a(): pass\n",
        "go.mod": "module x\n",
    }
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    with Workspace(root) as ws:
        return PolicyConfig(scripts=tuple(discover_scripts(ws)), root=ws.root)


@pytest.mark.parametrize(("command", "decision"), [
    ("npm test", "allow"), ("npm test -- --watch", "allow"),
        # Issue 31: extras behind `--` are the program's options, judged by the same unsafe-option rules.
        ("npm run test -- --script-shell=x", "ask"),
    ("make test", "allow"), ("pytest -q -k smoke tests/test_a.py", "allow"), ("go test -run TestA ./pkg/...", "allow"),
    ("make test -f evil.mk", "ask"), ("make test -fevil.mk", "ask"), ("make test --file=evil.mk", "ask"),
    ("make test --makefile evil.mk", "ask"), ("make test -C /elsewhere", "ask"), ("make test --eval=x", "ask"),
    ("make test SHELL=./evil.sh", "ask"), ("make test -I /tmp", "ask"), ("make test -- extra", "ask"),
    ("npm test --script-shell=./x.sh", "ask"), ("npm test --prefix=/elsewhere", "ask"), ("npm test -C /x", "ask"),
    ("npm test --userconfig /tmp/npmrc", "ask"), ("npm t --node-options=--require=./evil.js", "ask"),
    ("pytest -p evil_plugin", "ask"), ("pytest /tmp/test_evil.py", "ask"), ("pytest ../other/test_x.py", "ask"),
    ("pytest -c /tmp/x.ini", "ask"), ("pytest --rootdir=/", "ask"), ("go test -exec ./evil ./...", "ask"),
    ("go test -toolexec ./x ./...", "ask"), ("CI=1 npm test", "ask"), ("env npm test", "ask"), ("nice make test", "ask"),
    ("npm run wipe", "refuse"), ("npm run clean", "refuse"), ("make nuke", "refuse"),
])
def test_project_scripts_run_as_written(tmp_path: Path, command: str, decision: str) -> None:
    result = decide(command, _project(tmp_path))
    assert result.decision == decision, result.reason
    if decision == "allow":
        assert (result.rule, result.capability) == ("project_script", "scripts")
    if decision == "refuse":
        assert result.rule == "deny"  # the script body is held to the hard deny list


@pytest.mark.parametrize(("command", "decision"), [
    ("mvn test", "allow"), ("mvn -q test", "allow"), ("mvn -Dtest=FooTest test", "allow"), ("mvn -Pci test", "allow"),
    ("mvn -Dexec.executable=/bin/sh test", "ask"), ("mvn -Dmaven.repo.local=/ test", "ask"), ("mvn test -f evil.xml", "ask"),
])
def test_maven_scripts_take_only_flags_that_pick_tests(tmp_path: Path, command: str, decision: str) -> None:
    (tmp_path / "pom.xml").write_text("<project/>")
    with Workspace(tmp_path) as ws:
        config = PolicyConfig(scripts=tuple(discover_scripts(ws)), root=ws.root)
    assert decide(command, config).decision == decision
