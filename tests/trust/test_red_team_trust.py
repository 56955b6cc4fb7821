"""Red team: grants spelled differently and a trust store tampered with. The paths an agent's
request names are paths, never patterns; a glob is spelled once (`./`, doubled slashes) before it is
matched, and matched whole; a damaged file fails closed with one line naming it, never a crash."""

from __future__ import annotations

import asyncio
import warnings
from pathlib import Path

import pytest

from konstruct_tui.sandbox import SandboxConfig
from konstruct_tui.trust import TrustDecision, TrustRequest, TrustSession, TrustStore
from konstruct_tui.trust.grants import TrustGrant


class Yes:
    """A person (or an MCP client) who grants what was asked, as it was asked."""

    def __init__(self, scope: str) -> None:
        self.scope = scope

    async def request(self, request: TrustRequest) -> TrustDecision:
        return TrustDecision(True, self.scope, request.paths)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / "src").mkdir(parents=True)
    return root


@pytest.mark.parametrize("named", ["**", "*", "src/*.py", "src/?.py", "**/x"])
def test_a_file_named_like_a_glob_is_granted_as_that_file_only(project: Path, named: str) -> None:
    """Broke before: an MCP session grant recorded the requested paths as globs, so approving an edit
    of a file named `**` granted every edit for the session."""
    session = TrustSession(project, broker=Yes("session"))
    request = TrustRequest("edit", f"create {named}", (named,))
    assert session.record(request, asyncio.run(Yes("session").request(request))) is not None
    assert session.is_granted("edit", named)
    assert not session.is_granted("edit", "src/a.py") and not session.is_granted("edit", "x")


def test_an_always_grant_of_a_requested_path_is_stored_as_that_path(project: Path) -> None:
    session = TrustSession(project, broker=Yes("always"))
    request = TrustRequest("edit", "create **", ("**",))
    session.record(request, TrustDecision(True, "always", request.paths))
    stored = TrustStore().grants(project)
    assert [g.paths for g in stored] == [("\\*\\*",)]
    assert stored[0].covers("edit", "**") and not stored[0].covers("edit", "src/a.py")


def test_a_person_s_own_glob_still_means_a_glob(project: Path) -> None:
    session = TrustSession(project, broker=Yes("session"))
    session.record(TrustRequest("edit", "edit src/a.py", ("src/a.py",)), TrustDecision(True, "session", ("src/**",)))
    assert session.is_granted("edit", "src/b/c.py")


@pytest.mark.parametrize(("glob", "path", "covered"), [
    ("./src/**", "src/a.py", True), ("src//", "src/a.py", True), ("./docs/", "docs/x.md", True),
    ("src/./x/**", "src/x/a.py", True), ("README.md", "README.md\n", False), ("src/**", "src/a\nb.py", True),
    ("./src/**", "lib/a.py", False),
])
def test_globs_are_spelled_once_and_matched_whole(glob: str, path: str, covered: bool) -> None:
    """Broke before: `./src/**` (as a person may type it) silently never matched; `$` accepted a path
    one newline longer than the glob."""
    assert TrustGrant("edit", "session", (glob,)).covers("edit", path) is covered


def test_a_trust_file_nested_past_the_parser_fails_closed_in_one_line(project: Path) -> None:
    """Broke before: `[[[[...` crashed every command with an internal RecursionError."""
    store = TrustStore()
    store.path.parent.mkdir(parents=True, exist_ok=True)
    store.path.write_text('{"version": 1, "projects": ' + "[" * 100_000 + "]" * 100_000 + "}")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert store.grants(project) == []
        assert store.command_settings(project)["locked"] is True
    message = str(caught[0].message)
    assert str(store.path) in message and "\n" not in message and "konstruct trust reset" in message
    assert list(store.path.parent.glob("trust.json.corrupt-*"))


@pytest.mark.parametrize("text", ["[" * 100_000, '{"version": 1, "projects": {"PROJECT": "yolo"}}',
                                  '{"version": 1, "projects": {"PROJECT": {"mode": "full", "network": "yes"}}}'],
                         ids=["nested-past-the-parser", "entry-not-an-object", "unknown-network-value"])
def test_a_sandbox_settings_file_tampered_with_runs_read_only(project: Path, text: str) -> None:
    config = SandboxConfig()
    config.path.parent.mkdir(parents=True, exist_ok=True)
    config.path.write_text(text.replace("PROJECT", str(project.resolve())))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        settings = config.settings(project)
    assert (settings.mode, settings.allow_network, settings.refuse_unsandboxed) == ("read-only", False, True)


def test_a_trust_file_that_is_a_folder_fails_closed(project: Path) -> None:
    store = TrustStore()
    store.path.mkdir(parents=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert store.grants(project) == []
        assert store.command_settings(project)["locked"] is True
