"""Nothing a command starts outlives its call: daemons that `setsid` and double-fork die on normal
exit, on timeout, on the kill switch and when the workbench itself is SIGKILLed. Checked from
outside, by looking for the real processes (each carries a unique token in its command line)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from konstruct_tui.commands import Cancellation, run_process
from konstruct_tui.sandbox import Confinement, SandboxSettings, kernel_abi, namespaces, plan_for

# Double fork + setsid: the classic daemon. The grandchild sleeps with the token in its argv.
DAEMON = """
import os, subprocess, sys, time
token, linger = sys.argv[1], float(sys.argv[2])
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(120)", token + "-d"])
    os._exit(0)
os.wait()
print("daemon started", flush=True)
time.sleep(linger)
"""


def _alive(token: str) -> list[int]:
    """Pids of live (not zombie) processes whose command line holds `token`."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{name}/cmdline").read_bytes()
            state = Path(f"/proc/{name}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if token.encode() in cmdline and state != "Z" and int(name) != os.getpid():
            found.append(int(name))
    return found


def _wait_for(condition, seconds: float = 10.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.02)
    return False


@pytest.fixture(params=["unconfined", "pid-namespace", "landlock-subreaper"])
def how(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> str:
    for name in ("XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"):
        monkeypatch.setenv(name, str(tmp_path / name.lower()))
    if request.param != "unconfined" and kernel_abi() == 0:
        pytest.skip("no Landlock here")
    if request.param == "pid-namespace" and not namespaces.available():
        pytest.skip("private namespaces need CAP_SYS_ADMIN")
    if request.param == "landlock-subreaper":
        monkeypatch.setenv(namespaces.DISABLE, "1")
    return request.param


def _run(how: str, root: Path, argv: list[str], **kw) -> object:
    if how == "unconfined":
        return run_process(argv, root, **kw)
    with Confinement(plan_for(root, SandboxSettings())) as confinement:
        return run_process(argv, root, confinement=confinement, **kw)


@pytest.fixture
def token() -> Iterator[str]:
    value = f"konstruct-lifetime-{uuid.uuid4().hex}"
    yield value
    for pid in _alive(value):  # never leave one behind, even when the test fails
        os.kill(pid, signal.SIGKILL)


def test_a_daemon_dies_when_the_command_ends_normally(how: str, tmp_path: Path, token: str) -> None:
    outcome = _run(how, tmp_path, [sys.executable, "-c", DAEMON, token, "0"], timeout_s=30)
    assert outcome.status == "ok" and "daemon started" in outcome.stdout, outcome
    assert _wait_for(lambda: not _alive(token), 0.3), "a setsid'd daemon outlived its command"


def test_a_daemon_dies_on_timeout(how: str, tmp_path: Path, token: str) -> None:
    outcome = _run(how, tmp_path, [sys.executable, "-c", DAEMON, token, "60"], timeout_s=1.5)
    assert outcome.status == "timeout"
    assert _wait_for(lambda: not _alive(token), 0.3)


def test_a_daemon_dies_on_the_kill_switch(how: str, tmp_path: Path, token: str) -> None:
    cancellation = Cancellation()
    box = {}
    runner = threading.Thread(target=lambda: box.update(out=_run(
        how, tmp_path, [sys.executable, "-c", DAEMON, token, "60"], timeout_s=60, cancellation=cancellation)))
    runner.start()
    assert _wait_for(lambda: bool(_alive(token + "-d")))
    time.sleep(0.3)
    cancellation.cancel()
    assert _wait_for(lambda: not _alive(token), 0.3)
    runner.join(10)
    assert box["out"].status == "killed"


def test_nohup_and_setsid_from_a_script_do_not_escape(how: str, tmp_path: Path, token: str) -> None:
    script = tmp_path / "start.sh"
    script.write_text(f"#!/bin/sh\nnohup {sys.executable} -c 'import time; time.sleep(120)' {token}-a >/dev/null 2>&1 &\n"
                      f"setsid {sys.executable} -c 'import time; time.sleep(120)' {token}-b >/dev/null 2>&1 &\n"
                      "sleep 0.3\n")
    script.chmod(0o755)
    outcome = _run(how, tmp_path, [str(script)], timeout_s=30)
    assert outcome.status == "ok", outcome
    assert _wait_for(lambda: not _alive(token), 0.3)


WORKBENCH = """
import sys
from pathlib import Path
from konstruct_tui.commands import run_process
from konstruct_tui.sandbox import Confinement, SandboxSettings, plan_for
how, root, argv = sys.argv[1], Path(sys.argv[2]), sys.argv[3:]
if how == "unconfined":
    run_process(argv, root, timeout_s=120)
else:
    with Confinement(plan_for(root, SandboxSettings())) as confinement:
        run_process(argv, root, timeout_s=120, confinement=confinement)
"""


def test_a_daemon_dies_when_the_workbench_is_sigkilled(how: str, tmp_path: Path, token: str) -> None:
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    workbench = subprocess.Popen([sys.executable, "-c", WORKBENCH, how, str(tmp_path), sys.executable, "-c",
                                  DAEMON, token, "60"], env=env)
    try:
        assert _wait_for(lambda: bool(_alive(token + "-d")), 20), "the command never started"
        time.sleep(0.2)  # the guardian follows an unconfined tree every 50 ms
        workbench.kill()
        workbench.wait()
        assert _wait_for(lambda: not _alive(token), 1.0), f"survivors: {_alive(token)}"
    finally:
        workbench.kill()
        workbench.wait()


def test_systemd_run_cannot_hand_a_command_to_the_system(tmp_path: Path, token: str) -> None:
    if kernel_abi() == 0 or not Path("/usr/bin/systemd-run").exists():
        pytest.skip("needs Landlock and systemd-run")
    with Confinement(plan_for(tmp_path, SandboxSettings())) as confinement:
        outcome = run_process(["systemd-run", "--user", "--", sys.executable, "-c", "import time; time.sleep(60)", token],
                              tmp_path, timeout_s=20, confinement=confinement)
    assert outcome.status != "ok"
    time.sleep(0.3)
    assert not _alive(token)


# Keeps forking while it is being killed: each child forks again and sleeps.
FORKER = """
import os, sys, time
token = sys.argv[1]
if os.fork() == 0:
    os.setsid()
    for _ in range(200):
        if os.fork() == 0:
            os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(120)", token + "-d"])
        time.sleep(0.005)
    os._exit(0)
time.sleep(0.3)
"""


def test_a_process_that_keeps_forking_is_killed_with_all_it_started(how: str, tmp_path: Path, token: str) -> None:
    outcome = _run(how, tmp_path, [sys.executable, "-c", FORKER, token], timeout_s=30)
    assert outcome.status == "ok", outcome
    assert _wait_for(lambda: not _alive(token + "-d"), 0.5), f"survivors: {len(_alive(token + '-d'))}"
