"""Running a command: no shell, timeout, capped output with head and tail, scrubbed environment, and
cancellation that leaves nothing of the process group alive."""

from __future__ import annotations

import asyncio
import os
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from konstruct_tui.commands import Cancellation, run_process, running_groups, scrubbed_environment
from konstruct_tui.commands.execution import run_process_async

PY = sys.executable


def _alive_in_group(pgid: int) -> list[int]:
    """Members of the process group that are not zombies (a zombie is dead, just not reaped yet)."""
    alive = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        state, pgrp = fields[0], int(fields[2])
        if pgrp == pgid and state not in ("Z", "X"):
            alive.append(int(entry))
    return alive


def test_runs_argv_without_a_shell(tmp_path: Path) -> None:
    outcome = run_process(["echo", "$HOME", "a|b", "`id`"], tmp_path, timeout_s=10)
    assert (outcome.status, outcome.exit_code) == ("ok", 0)
    assert outcome.stdout == "$HOME a|b `id`\n"


def test_runs_in_the_given_directory(tmp_path: Path) -> None:
    assert run_process(["pwd"], tmp_path, timeout_s=10).stdout.strip() == str(tmp_path.resolve())


def test_non_zero_exit_is_failed_with_the_code(tmp_path: Path) -> None:
    outcome = run_process([PY, "-c", "import sys; print('boom', file=sys.stderr); sys.exit(3)"], tmp_path, timeout_s=10)
    assert (outcome.status, outcome.exit_code) == ("failed", 3)
    assert outcome.stderr == "boom\n"
    assert "3" in outcome.reason


def test_missing_program_is_not_found(tmp_path: Path) -> None:
    outcome = run_process(["no-such-program-xyz"], tmp_path, timeout_s=10)
    assert outcome.status == "not_found"
    assert "no-such-program-xyz" in outcome.reason


def test_timeout_kills_the_command(tmp_path: Path) -> None:
    started = time.monotonic()
    outcome = run_process([PY, "-c", "import time; time.sleep(30)"], tmp_path, timeout_s=0.5)
    assert outcome.status == "timeout"
    assert time.monotonic() - started < 5
    assert outcome.exit_code is None


def test_long_output_keeps_head_and_tail_with_a_mark(tmp_path: Path) -> None:
    script = "import sys\nsys.stdout.write('HEAD\\n' + 'x' * 100000 + '\\nTAIL\\n')"
    outcome = run_process([PY, "-c", script], tmp_path, timeout_s=10, cap_bytes=1000)
    assert outcome.stdout_truncated
    assert outcome.stdout.startswith("HEAD\n")
    assert outcome.stdout.endswith("\nTAIL\n")
    assert "bytes truncated" in outcome.stdout
    assert len(outcome.stdout) < 1100


def test_short_output_is_not_marked(tmp_path: Path) -> None:
    outcome = run_process([PY, "-c", "print('x' * 400)"], tmp_path, timeout_s=10, cap_bytes=1000)
    assert not outcome.stdout_truncated
    assert outcome.stdout == "x" * 400 + "\n"


def test_provider_keys_are_not_in_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "SOME_VENDOR_API_KEY", "GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY"):
        monkeypatch.setenv(name, "sk-secret-value")
    monkeypatch.setenv("KEEP_ME", "yes")
    outcome = run_process(["env"], tmp_path, timeout_s=10, env=scrubbed_environment())
    assert "sk-secret-value" not in outcome.stdout
    assert "KEEP_ME=yes" in outcome.stdout


def test_unlocked_password_manager_sessions_and_registry_logins_are_scrubbed() -> None:
    """`BW_SESSION` unlocks a Bitwarden vault, `OP_SESSION_<account>` a 1Password one;
    `DOCKER_AUTH_CONFIG` holds registry logins: a command that reads one holds every secret behind it."""
    base = {"PATH": "/bin", "BW_SESSION": "v", "OP_SESSION_my": "v", "DOCKER_AUTH_CONFIG": "{}", "XDG_SESSION_ID": "3"}
    assert scrubbed_environment(base) == {"PATH": "/bin", "XDG_SESSION_ID": "3"}


def test_extra_assignments_are_scrubbed_too() -> None:
    env = scrubbed_environment({"PATH": "/bin"}, {"CI": "1", "OPENAI_API_KEY": "x"})
    assert env == {"PATH": "/bin", "CI": "1"}


_TREE = textwrap.dedent(
    """
    import os, signal, subprocess, sys, time
    grandchild = subprocess.Popen([sys.executable, "-c",
        "import signal, time\\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\\nprint('ready', flush=True)\\ntime.sleep(60)"],
        stdout=sys.stdout)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    time.sleep(60)
    """
)


def test_cancel_kills_the_whole_group_even_what_ignores_sigterm(tmp_path: Path) -> None:
    """Both processes ignore SIGTERM and would live 60 s; after the cancel none is left long before
    that. The issue's 300 ms bar is measured by bench/bench_commands.py (a unit test holds no
    absolute time limit under a second: a busy machine is not a failure)."""
    cancellation = Cancellation()
    result: dict[str, object] = {}
    worker = threading.Thread(target=lambda: result.update(
        outcome=run_process([PY, "-c", _TREE], tmp_path, timeout_s=60, cancellation=cancellation)))
    worker.start()
    deadline = time.monotonic() + 10
    pgid = None
    while time.monotonic() < deadline:
        groups = running_groups()
        if groups:
            pgid = next(iter(groups))
            if len(_alive_in_group(pgid)) >= 2:
                break
        time.sleep(0.02)
    assert pgid is not None and len(_alive_in_group(pgid)) >= 2, "the child and grandchild never started"
    time.sleep(0.2)  # let the grandchild install its SIGTERM handler
    cancelled_at = time.monotonic()
    cancellation.cancel()
    while _alive_in_group(pgid) and time.monotonic() - cancelled_at < 5:
        time.sleep(0.005)
    assert _alive_in_group(pgid) == [], "something of the group outlived the cancel (it would live 60 s alone)"
    worker.join(5)
    assert not worker.is_alive()
    assert result["outcome"].status == "killed"  # type: ignore[union-attr]


def test_cancel_before_start_runs_nothing(tmp_path: Path) -> None:
    cancellation = Cancellation()
    cancellation.cancel()
    marker = tmp_path / "ran"
    outcome = run_process(["touch", str(marker)], tmp_path, timeout_s=10, cancellation=cancellation)
    assert outcome.status == "killed"
    assert not marker.exists()


def test_stragglers_of_a_finished_command_do_not_hang_the_call(tmp_path: Path) -> None:
    script = "import subprocess, sys\nsubprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\nprint('done')"
    started = time.monotonic()
    outcome = run_process([PY, "-c", script], tmp_path, timeout_s=30)
    assert outcome.status == "ok"
    assert time.monotonic() - started < 5


def test_cancelling_the_awaiting_task_kills_the_command(tmp_path: Path) -> None:
    async def scenario() -> float:
        task = asyncio.create_task(run_process_async([PY, "-c", "import time; time.sleep(30)"], tmp_path, timeout_s=60))
        await asyncio.sleep(0.3)
        started = time.monotonic()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        while running_groups() and time.monotonic() - started < 3:
            await asyncio.sleep(0.01)
        return time.monotonic() - started

    assert asyncio.run(scenario()) < 1.0
    assert running_groups() == set()
