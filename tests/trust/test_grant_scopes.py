"""Each grant scope allows exactly what it says and nothing more: one command, a rule (never another
program, never an unsafe option, never past the deny list), one file, a glob (never `..` or a symlink
out), the project; and the trust store keeps them in a schema older files still load."""

from __future__ import annotations

import json
import os
import shlex
import warnings
from pathlib import Path

import pytest

from konstruct_tui.commands import parse_grant_rule, propose_rule, rule_admits
from konstruct_tui.commands import BadPrefix
from konstruct_tui.tools import ToolContext, call
from konstruct_tui.trust import (
    CommandRule,
    TrustDecision,
    TrustRequest,
    TrustSession,
    TrustStore,
    TrustStoreWarning,
)
from konstruct_tui.workspace import Workspace


def judge(command: str):  # type: ignore[no-untyped-def]
    argv = tuple(shlex.split(command))
    return lambda rule: rule_admits(rule.match, rule.argv, argv)


def granted(tmp_path: Path, scope: str, rule: CommandRule | None) -> TrustSession:
    session = TrustSession(tmp_path)
    session.record(TrustRequest("commands", "x"), TrustDecision(True, scope, command=rule))
    return session


# -- commands: this exact command -------------------------------------------------------------------

@pytest.mark.parametrize("scope", ["session", "always"])
def test_this_exact_command_covers_that_argv_only(tmp_path: Path, scope: str) -> None:
    session = granted(tmp_path, scope, CommandRule("exact", ("sleep", "120")))
    for _ in range(2):  # not spent by use
        assert session.use("commands", command=judge("sleep 120"))
        assert session.use("commands", command=judge("sleep  '120'"))  # the same argv, spelled otherwise
    for other in ("sleep 121", "sleep 120 5", "sleep", "./sleep 120", "/bin/sleep 120", "LD_PRELOAD=x.so sleep 120",
                  "timeout 9 sleep 120", "env sleep 120"):
        assert not session.use("commands", command=judge(other)), other
    assert not session.use("commands")  # a caller that cannot say which command gets nothing from it
    assert not session.use("scripts", command=judge("sleep 120"))  # never the project's scripts
    fresh = TrustSession(tmp_path)  # a new session: only the stored grant is left
    assert fresh.use("commands", command=judge("sleep 120")) is (scope == "always")


# -- commands: a rule -------------------------------------------------------------------------------

ADMITTED = [
    ("pytest", "pytest -q tests/x"), ("pytest", "pytest"), ("git diff", "git diff HEAD~1 -- src"),
    ("git", "git log -n 3"), ("python -m pytest", "python -m pytest -x tests"), ("make test", "make test"),
    ("python3", "python3 tools/gen.py"), ("python3 tools/gen.py", "python3 tools/gen.py -c gen.toml"),  # the script's own -c
    ("node", "node scripts/build.js"),
]
REFUSED = [
    ("pytest", "pytestx -q"),  # another program
    ("pytest", "./pytest -q"),  # a file in the project, not the program granted
    ("pytest", "/tmp/pytest -q"),
    ("pytest", "python -m pytest"),
    ("git diff", "git stash"),
    ("git", "git -c core.pager=less log"),  # git runs the pager it is handed
    ("git", "git -c core.fsmonitor=./x status"),
    ("git", "git --exec-path=/tmp log"),
    ("git", "git -C /tmp status"),
    ("git diff", "git diff --output=/tmp/x"),
    ("git diff", "git diff --ext-diff"),
    ("git log", "git log --textconv"),
    ("rg", "rg --pre cat x"),
    ("rg", "rg -z x"),
    ("find", "find . -exec rm {} ;"),
    ("find", "find . -delete"),
    ("make", "make -f evil.mk"),
    ("make", "make SHELL=/bin/evil"),
    ("uv run", "uv run rm -rf x"),  # a runner rule never admits what it starts
    ("timeout", "timeout 5 rm -rf x"),
    ("git branch", "git branch evil"),  # creates a branch
    ("npm", "npm --script-shell=/bin/evil test"),
    ("npm test", "npm test --prefix /"),
    ("pytest", "pytest -p evil_plugin"),  # loads a plugin from wherever
    ("pytest", "pytest -c /tmp/evil.ini"),
    ("pytest", "pytest -o addopts=-pevil"),
    ("pytest", "pytest --rootdir=/"),
    ("go test", "go test -exec ./evil"),
    ("go test", "go test -toolexec ./evil"),
    ("cargo test", "cargo test --config build.rustc-wrapper=./evil"),
    # an interpreter's program text on its command line: only the exact command is ever granted
    ("python3", "python3 -c 'import os'"),
    ("python3", "python3 -Ic 'import os'"),  # bundled
    ("python3", "python3 '-cimport os'"),  # glued
    ("python3", "python3 -W ignore -c 'import os'"),  # behind an option's value
    ("python3 -W ignore", "python3 -W ignore -c 'import os'"),
    ("python", "python -c 'import os'"),
    ("node", "node -e 1"), ("node", "node --eval=1"), ("node", "node -p 1"),
    ("perl", "perl -we 1"), ("ruby", "ruby -e 1"), ("php", "php -r 1"),
    ("python3", "env python3 -c 'import os'"),  # behind a runner
    ("python3", "python3 -Bc 'import os'"), ("node", "node -pe 1"), ("perl", "perl -E 'say 1'"),  # other bundles
    ("/usr/bin/python3", "/usr/bin/python3 -c 'import os'"),  # the interpreter named by its path
]


@pytest.mark.parametrize(("rule", "command"), ADMITTED)
def test_a_rule_admits_its_programs_ordinary_calls(tmp_path: Path, rule: str, command: str) -> None:
    session = granted(tmp_path, "always", CommandRule("prefix", tuple(shlex.split(rule))))
    assert session.use("commands", command=judge(command))


@pytest.mark.parametrize(("rule", "command"), REFUSED)
def test_a_rule_never_admits_another_program_or_an_unsafe_option(tmp_path: Path, rule: str, command: str) -> None:
    session = granted(tmp_path, "always", CommandRule("prefix", tuple(shlex.split(rule))))
    assert not session.use("commands", command=judge(command))


@pytest.mark.parametrize("rule", ["git -c core.pager=less", "rg --pre", "find -exec", "CC=evil make", "git diff --output=x",
                                  "python3 -c", "node --eval", "perl -e"])
def test_a_rule_naming_an_unsafe_option_is_never_made_and_never_matches(tmp_path: Path, rule: str) -> None:
    words = tuple(shlex.split(rule))
    with pytest.raises(BadPrefix):
        parse_grant_rule(rule, words + ("x",))
    # a hand-written store holding one admits nothing either
    session = granted(tmp_path, "always", CommandRule("prefix", words))
    assert not session.use("commands", command=judge(rule + " x"))


def test_a_typed_rule_must_admit_the_command_asked() -> None:
    assert parse_grant_rule("pytest …", ("pytest", "-q")) == ("pytest",)  # the ellipsis the prompt shows is no word
    for typed in ("pytestx", "py", "pytest -x", "pytest; rm -rf /", "$(evil)", ""):
        with pytest.raises(BadPrefix):
            parse_grant_rule(typed, ("pytest", "-q"))


@pytest.mark.parametrize(("argv", "proposed"), [
    ("pytest -q tests/x", ("pytest",)), ("git diff HEAD", ("git", "diff")), ("python3 -m pytest -x", ("python3", "-m", "pytest")),
    ("sleep 120", ("sleep",)), ("npm run build", ("npm", "run")), ("make", ("make",)),
    ("CI=1 npm test", None), ("timeout 60 pytest", None),  # only the exact command: a rule would not stay narrow
    ("python3 tools/gen.py --out x", ("python3", "tools/gen.py")),  # the script, never the interpreter alone
    ("python3 -c 'import os'", None), ("node -e 1", None), ("python3 -u tools/gen.py", None),
])
def test_the_proposed_rule(argv: str, proposed: tuple[str, ...] | None) -> None:
    assert propose_rule(shlex.split(argv)) == proposed


def test_a_rule_widens_the_grants_never_the_deny_list_or_the_policy(tmp_path: Path) -> None:
    """Through the real tool: `rm -rf` granted as a rule still never runs `rm -rf /` (the hard deny
    list answers first), nor a refused shape such as a chain."""
    root = tmp_path / "p"
    root.mkdir()
    (root / "build").mkdir()
    session = granted(root, "always", CommandRule("prefix", ("rm", "-rf")))
    with Workspace(root) as workspace:
        context = ToolContext(workspace)
        context.trust = session
        for command in ("rm -rf /", "rm -rf ~", "rm -rf build && curl evil", "rm -rf $HOME"):
            result = call("run_command", {"command": command}, context).to_json()
            assert result["status"] == "refused", (command, result)
        needs = call("run_command", {"command": "rmdir build"}, context).to_json()
        assert needs["status"] == "needs_grant"  # another program: asked, not run
        assert (root / "build").is_dir()


def test_a_chain_is_covered_only_by_a_grant_for_every_command() -> None:
    assert not rule_admits("prefix", ("pytest",), ())  # a chain has no single argv
    assert not rule_admits("exact", ("pytest",), ())


def test_every_command_covers_every_command_and_scripts(tmp_path: Path) -> None:
    session = granted(tmp_path, "always", None)
    assert session.use("commands", command=judge("anything at all")) and session.use("commands") and session.use("scripts")


# -- edits ------------------------------------------------------------------------------------------

def _edit_session(root: Path, scope: str, paths: tuple[str, ...], asked: tuple[str, ...]) -> TrustSession:
    session = TrustSession(root)
    session.record(TrustRequest("edit", "change", asked), TrustDecision(True, scope, paths))
    return session


@pytest.mark.parametrize("scope", ["session", "always"])
def test_this_file_covers_that_file_only(tmp_path: Path, scope: str) -> None:
    (tmp_path / "src").mkdir()
    session = _edit_session(tmp_path, scope, ("src/a.py",), ("src/a.py",))
    assert session.use("edit", "src/a.py") and session.use("edit", "src/../src/a.py")
    for other in ("src/b.py", "src/a.pyx", "src/a.py.bak", "a.py", "src", "src/a"):
        assert not session.use("edit", other), other


def test_a_file_named_like_a_glob_covers_itself_only(tmp_path: Path) -> None:
    session = _edit_session(tmp_path, "always", ("*",), ("*",))
    assert session.use("edit", "*") and not session.use("edit", "setup.py")


@pytest.mark.parametrize("scope", ["session", "always"])
def test_a_glob_never_covers_a_path_out_or_a_symlink_out(tmp_path: Path, scope: str) -> None:
    root = tmp_path / "p"
    (root / "src" / "deep").mkdir(parents=True)
    (tmp_path / "outside").mkdir()
    os.symlink(tmp_path / "outside", root / "src" / "link")
    os.symlink(root / "setup.py", root / "src" / "to_setup.py")
    session = _edit_session(root, scope, ("src/**",), ("src/a.py",))
    assert session.use("edit", "src/a.py") and session.use("edit", "src/deep/b.py")
    for other in ("../x.py", "src/../../x.py", "src/../setup.py", "src/link/x.py", "src/to_setup.py", "/etc/passwd",
                  "srcx/a.py", "setup.py"):
        assert not session.use("edit", other), other


def test_the_project_covers_every_file_and_a_file_grant_does_not(tmp_path: Path) -> None:
    # (A path outside the project is the workspace's to refuse, whatever is granted: containment, §3.)
    project = _edit_session(tmp_path, "session", (), ("a.py",))
    assert project.use("edit", "a.py") and project.use("edit", "deep/b.py")
    one_file = _edit_session(tmp_path, "session", ("a.py",), ("a.py",))
    assert not one_file.use("edit", "deep/b.py")


# -- the store --------------------------------------------------------------------------------------

def test_an_older_store_loads_as_it_was_and_is_never_widened(tmp_path: Path) -> None:
    store = TrustStore()
    store.path.parent.mkdir(parents=True, exist_ok=True)
    root = os.path.realpath(tmp_path)
    store.path.write_text(json.dumps({"version": 1, "projects": {root: {"grants": [
        {"capability": "commands", "scope": "always", "paths": [], "granted_at": "2026-01-01T00:00:00Z"},
        {"capability": "edit", "scope": "always", "paths": ["docs/**"], "granted_at": "2026-01-01T00:00:00Z"}]}}}))
    (old_commands, old_edit) = store.grants(tmp_path)
    assert old_commands.command is None and old_commands.covers("commands", command=judge("any thing"))  # as it was
    assert old_edit.covers("edit", "docs/a.md") and not old_edit.covers("edit", "src/a.py")
    store.grant(tmp_path, "edit", ("src/**",))
    assert json.loads(store.path.read_text())["version"] == 1  # no rule yet: older builds still read it
    store.grant(tmp_path, "commands", command=CommandRule("prefix", ("pytest",)))
    data = json.loads(store.path.read_text())
    assert data["version"] == 2  # a rule: a build that cannot read one refuses the file, never widens it
    assert data["projects"][root]["grants"][-1]["command"] == {"match": "prefix", "argv": ["pytest"], "text": "pytest …"}
    assert len(TrustStore().grants(tmp_path)) == 4
    store.grant(tmp_path, "commands", command=CommandRule("prefix", ("pytest",)))  # the same again changes nothing
    assert len(TrustStore().grants(tmp_path)) == 4
    store.revoke(tmp_path, "commands", command=CommandRule("prefix", ("pytest",)))
    assert json.loads(store.path.read_text())["version"] == 1 and len(store.grants(tmp_path)) == 3


@pytest.mark.parametrize("rule", [{"match": "everything", "argv": ["x"]}, {"match": "prefix", "argv": []},
                                  {"match": "prefix", "argv": [1]}, {"match": "prefix"}, "pytest"])
def test_a_damaged_rule_fails_closed_in_one_line(tmp_path: Path, rule: object) -> None:
    store = TrustStore()
    store.path.parent.mkdir(parents=True, exist_ok=True)
    store.path.write_text(json.dumps({"version": 2, "projects": {os.path.realpath(tmp_path): {"grants": [
        {"capability": "commands", "scope": "always", "paths": [], "command": rule}]}}}))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert store.grants(tmp_path) == []  # nothing granted, not every command
        assert store.command_settings(tmp_path) == {"presets": [], "allow": [], "chains": False, "locked": True}
    (warning,) = [w for w in caught if issubclass(w.category, TrustStoreWarning)][:1]
    assert "\n" not in str(warning.message) and "trust.json" in str(warning.message) and "konstruct trust reset" in str(warning.message)


def test_a_rule_on_another_capability_is_refused(tmp_path: Path) -> None:
    store = TrustStore()
    store.path.parent.mkdir(parents=True, exist_ok=True)
    store.path.write_text(json.dumps({"version": 2, "projects": {os.path.realpath(tmp_path): {"grants": [
        {"capability": "edit", "scope": "always", "paths": [], "command": {"match": "prefix", "argv": ["x"]}}]}}}))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert store.grants(tmp_path) == []
