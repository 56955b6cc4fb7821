"""A confined command cannot read the person's secrets or other projects, and cannot write the
workspace's `.git` (where a hook or `core.fsmonitor` would later run outside the sandbox)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from sandbox_helpers import needs_landlock, refused, run_confined, verdicts, writer

from konstruct_tui.sandbox import namespaces

pytestmark = needs_landlock
FAKE_KEY = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAAplanted\n-----END OPENSSH PRIVATE KEY-----\n"


@pytest.fixture
def planted_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "home"
    for relative, text in {".ssh/id_ed25519": FAKE_KEY, ".aws/credentials": "aws_secret_access_key=planted\n",
                           ".gnupg/private-keys-v1.d/k.key": FAKE_KEY, ".config/konstruct/trust.json": "{}",
                           ".netrc": "machine x password planted\n", ".cache/pip/ok.txt": "cache\n"}.items():
        (home / relative).parent.mkdir(parents=True, exist_ok=True)
        (home / relative).write_text(text)
    monkeypatch.setenv("HOME", str(home))
    return home


@pytest.mark.parametrize("mode", ["workspace-write", "read-only"])
def test_grep_over_home_finds_no_private_key(workspace_root: Path, planted_home: Path, mode: str) -> None:
    outcome = run_confined(workspace_root, ["grep", "-r", "planted", str(planted_home)], mode=mode)
    assert "planted" not in outcome.stdout
    assert refused(outcome.stderr)
    cat = run_confined(workspace_root, ["cat", str(planted_home / ".ssh" / "id_ed25519")], mode=mode)
    assert "PRIVATE KEY" not in cat.stdout and cat.status == "failed"


def test_toolchain_caches_in_home_stay_readable(workspace_root: Path, planted_home: Path) -> None:
    outcome = run_confined(workspace_root, ["cat", str(planted_home / ".cache" / "pip" / "ok.txt")])
    assert outcome.status == "ok" and outcome.stdout == "cache\n", outcome


def test_another_project_next_to_the_workspace_is_unreadable(workspace_root: Path) -> None:
    other = workspace_root.parent / "other-project"
    other.mkdir()
    (other / "secret.py").write_text("TOKEN = 'planted'\n")
    outcome = run_confined(workspace_root, ["cat", str(other / "secret.py")])
    assert outcome.status == "failed" and "planted" not in outcome.stdout


def test_etc_shadow_is_out_of_reach(workspace_root: Path) -> None:
    outcome = run_confined(workspace_root, ["cat", "/etc/shadow"])
    assert outcome.status == "failed" and outcome.stdout == ""
    assert run_confined(workspace_root, ["cat", "/etc/passwd"]).status == "ok"


@pytest.fixture
def repo(workspace_root: Path) -> Path:
    subprocess.run(["git", "init", "-q", str(workspace_root)], check=True)
    (workspace_root / "src" / "x.py").write_text("x = 1\n")
    return workspace_root


def _git_writes(repo: Path) -> list[str]:
    return [".git/config", ".git/hooks/pre-commit", ".git/HEAD", ".git/new-file", "src/x.py"]


def test_git_folder_is_read_only_while_the_rest_is_writable(repo: Path, isolated: bool) -> None:
    config_before = (repo / ".git" / "config").read_text()
    outcome = run_confined(repo, writer(*_git_writes(repo)))
    found = verdicts(outcome)
    assert found.pop("src/x.py") == "wrote", outcome
    assert set(found.values()) <= {"denied", "error"} and len(found) == 4, outcome
    assert (repo / ".git" / "config").read_text() == config_before
    assert not (repo / ".git" / "hooks" / "pre-commit").exists()
    for attack in (["rm", "-rf", ".git"], ["mv", ".git", "git-moved"], ["git", "config", "core.fsmonitor", "touch x"]):
        run_confined(repo, attack)
    assert (repo / ".git" / "config").read_text() == config_before and not (repo / "git-moved").exists()
    status = run_confined(repo, ["git", "status", "--porcelain"])
    assert status.status == "ok" and "src/" in status.stdout, status


def test_new_top_level_files_can_be_made_with_namespaces(repo: Path) -> None:
    if not namespaces.available():
        pytest.skip("private namespaces need CAP_SYS_ADMIN")
    outcome = run_confined(repo, [sys.executable, "-I", "-c", "import os; open('new.txt','w').write('x'); os.mkdir('.pytest_cache')"])
    assert outcome.status == "ok", outcome
    assert (repo / "new.txt").exists() and (repo / ".pytest_cache").is_dir()


def test_without_namespaces_the_result_says_top_level_entries_cannot_be_made(repo: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    from konstruct_tui.sandbox import SandboxSettings, plan_for

    monkeypatch.setenv(namespaces.DISABLE, "1")
    plan = plan_for(repo, SandboxSettings())
    assert "new top-level entries" in plan.report()["note"] and plan.report()["lifetime"] == "subreaper"


SOCKET_CLIENT = """
import socket, sys
s = socket.socket(socket.AF_UNIX)
try:
    s.connect(sys.argv[1]); s.sendall(b"sign this"); print("connected")
except OSError as error:
    print("unreachable", error.errno)
"""


def test_the_persons_agent_socket_cannot_be_reached_by_path(workspace_root: Path, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    import socket
    import uuid

    if not namespaces.available():
        pytest.skip("covering socket places needs private namespaces")
    agent_dir = Path("/tmp") / f"konstruct-test-ssh-{uuid.uuid4().hex[:8]}"
    agent_dir.mkdir()
    path = agent_dir / "agent.sock"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    server.listen(1)
    server.settimeout(0.3)
    monkeypatch.setenv("SSH_AUTH_SOCK", str(path))
    try:
        outcome = run_confined(workspace_root, [sys.executable, "-I", "-c", SOCKET_CLIENT, str(path)])
        assert outcome.stdout.startswith("unreachable"), outcome
        with pytest.raises(TimeoutError):
            server.accept()
    finally:
        server.close()
        path.unlink()
        agent_dir.rmdir()


def test_hardlinking_git_config_into_the_workspace_does_not_make_it_writable(repo: Path) -> None:
    before = (repo / ".git" / "config").read_text()
    run_confined(repo, ["ln", ".git/config", "src/config-link"])
    run_confined(repo, ["sh", "-c", "echo '[core] fsmonitor = touch pwned' >> src/config-link"])
    assert (repo / ".git" / "config").read_text() == before


@pytest.mark.parametrize("argv", [["node", "-e", "console.log(require('crypto').randomUUID().length)"],
                                  [sys.executable, "-c", "import ssl, sqlite3; print(36)"]])
def test_toolchains_still_start_with_reads_as_an_allow_list(workspace_root: Path, argv: list[str]) -> None:
    import shutil

    if shutil.which(argv[0]) is None:
        pytest.skip(f"{argv[0]} is not installed")
    outcome = run_confined(workspace_root, argv)
    assert outcome.status == "ok" and outcome.stdout.strip() == "36", outcome


def test_devices_are_readable_by_name_only(workspace_root: Path) -> None:
    from konstruct_tui.sandbox import SandboxSettings, plan_for

    readable = plan_for(workspace_root, SandboxSettings()).readable
    assert "/dev" not in readable and "/dev/urandom" in readable
    disks = [d for d in ("/dev/vda", "/dev/sda", "/dev/nvme0n1", "/dev/kmsg", "/dev/vcs") if Path(d).exists()]
    for device in disks:
        outcome = run_confined(workspace_root, [sys.executable, "-I", "-c", f"open({device!r}, 'rb').read(16)"])
        assert outcome.status == "failed" and refused(outcome.stderr), (device, outcome)
    ok = run_confined(workspace_root, [sys.executable, "-I", "-c", "import os; print(len(os.urandom(8)))"])
    assert ok.stdout.strip() == "8"


def test_a_worktrees_dot_git_file_cannot_be_pointed_elsewhere(workspace_root: Path, tmp_path: Path) -> None:
    main = tmp_path / "main"
    subprocess.run(["git", "init", "-q", str(main)], check=True)
    subprocess.run(["git", "-C", str(main), "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-q", "--allow-empty",
                    "-m", "one"], check=True)
    worktree = tmp_path / "wt"
    subprocess.run(["git", "-C", str(main), "worktree", "add", "-q", str(worktree)], check=True)
    before = (worktree / ".git").read_text()
    outcome = run_confined(worktree, [sys.executable, "-I", "-c", "open('.git', 'w').write('gitdir: planted\\n')"])
    assert outcome.status == "failed" and (worktree / ".git").read_text() == before
    assert run_confined(worktree, ["git", "status", "--short"]).status == "ok"


def test_a_symlink_to_git_made_inside_the_workspace_does_not_open_a_write_path(repo: Path) -> None:
    # The integrator's attack round: the read-only rule is on the folder, not on the spelling.
    before = (repo / ".git" / "config").read_text()
    run_confined(repo, ["ln", "-s", ".git", "g"])
    run_confined(repo, ["sh", "-c", "echo '[core] fsmonitor = touch pwned' >> g/config; touch g/hooks/pre-commit"])
    assert (repo / ".git" / "config").read_text() == before
    assert not (repo / ".git" / "hooks" / "pre-commit").exists()
