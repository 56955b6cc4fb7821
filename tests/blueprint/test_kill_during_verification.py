"""A run SIGKILLed while its verification runs leaves no process behind, reads `interrupted`, and
resumes to the end."""

from __future__ import annotations

import glob
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from blueprint_harness import (
    EVIDENCE,
    PHASE_FIX,
    blueprint_text,
    edit,
    read,
    verdict,
    write_scripts,
)

# The check hangs (with a grandchild) once add is fixed, until the test lets it through. Both carry
# the marker in their command line (inside the sandbox's PID namespace a process cannot tell its pid
# as this test sees it), and the check writes the marker file in its working folder when it hangs.
SLOW_CHECK = """import calc, os, subprocess, sys, time
if calc.add(2, 3) == 5 and not os.path.exists({release!r}):
    if sys.argv[1:] != [{marker!r}]:
        os.execv(sys.executable, [sys.executable, __file__, {marker!r}])
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)", {marker!r}])
    open({marker!r}, "w").close()
    time.sleep(120)
assert calc.add(2, 3) == 5, 'add is wrong'
"""


def _marked(marker: str) -> list[int]:
    """Live processes (zombies excepted) whose command line carries `marker`."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as handle:
                if marker.encode() not in handle.read():
                    continue
        except OSError:
            continue
        if _alive(int(entry)):
            found.append(int(entry))
    return found


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except OSError:
        return False


def test_sigkill_during_verification_kills_the_verification_and_the_run_resumes(project: Path, tmp_path: Path, konstruct) -> None:
    # The release sits in a folder on PATH: a confined verification reads PATH's folders, never /tmp.
    released = tmp_path / "bin"
    released.mkdir()
    marker, release = f"verifying-{uuid.uuid4().hex}", released / "release"
    env = {**os.environ, "PATH": f"{released}{os.pathsep}{os.environ.get('PATH', '')}"}
    (project / "check_calc.py").write_text(SLOW_CHECK.format(marker=marker, release=str(release)))
    scripts = write_scripts(tmp_path / "s", {
        "executor-p1": [read("calc.py"), edit("calc.py", "a - b", "a + b")],
        "adjudicator-p1": [verdict("complete", {"t1": EVIDENCE})],
    })
    plan = tmp_path / "plan.toml"
    plan.write_text(blueprint_text(PHASE_FIX))
    child = subprocess.Popen([sys.executable, "-m", "konstruct_tui", "blueprint", "run", str(plan), "--root", str(project),
                              "--provider", "scripted", "--script", str(scripts), "--headless"],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    try:
        assert child.stdout is not None
        first = json.loads(child.stdout.readline())
        deadline = time.monotonic() + 60
        found: list[str] = []
        while not found and time.monotonic() < deadline and child.poll() is None:
            found = glob.glob(os.path.join(tempfile.gettempdir(), "konstruct-verify-*", "workspace", marker)) + \
                glob.glob(str(project / marker))
            time.sleep(0.05)
        assert found, "the verification never started"
        assert len(_marked(marker)) == 2  # the check and its grandchild
        child.send_signal(signal.SIGKILL)
        child.wait(10)
    finally:
        if child.poll() is None:
            child.kill()
    deadline = time.monotonic() + 5
    while _marked(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _marked(marker) == [], "a verification process outlived the run"

    run_id = first["run_id"]
    code, status, _ = konstruct("blueprint", "status", run_id, "--json")
    assert code == 0 and status["status"] == "interrupted" and status["resumable"] is True
    assert f"konstruct blueprint resume {run_id}" in status["message"]
    code, listing, _ = konstruct("blueprint", "status", "--json")
    assert listing["runs"][0]["status"] == "interrupted"

    release.write_text("go")
    resumed = subprocess.run([sys.executable, "-m", "konstruct_tui", "blueprint", "resume", run_id, "--headless"],
                             capture_output=True, text=True, timeout=120, check=False, env=env)
    assert resumed.returncode == 0, resumed.stderr
    events = [json.loads(line) for line in resumed.stdout.splitlines()]
    assert events[-1]["event"] == "finished" and events[-1]["reason"] == "done"
    [closed] = [e for e in events if e["event"] == "phase_closed"]
    assert closed["changed"] == ["calc.py"]  # measured from the phase's recorded start, across the kill;
    # what the killed verification wrote (its pid file) is the verification's, not the phase's
    code, status, _ = konstruct("blueprint", "status", run_id, "--json")
    assert status["status"] == "done"
