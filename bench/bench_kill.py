"""Kill switch latency: from SIGINT to the model stream closed and every child process dead.

Drives the real `konstruct run` as a subprocess, the way a person's Ctrl-C reaches it:

- mid-stream: streaming from a loopback SSE server that stops talking; measured until the server
  sees the client close the connection;
- mid-command: a `run_command` whose child spawns a grandchild that ignores SIGTERM and a daemon
  that double-forks and calls `setsid`; measured until all are gone from the process table (a
  zombie counts as dead: it runs nothing). Found by a token in their command lines, since a
  confined command's pids are those of its own PID namespace;
- workbench SIGKILL: the same command, but `konstruct run` itself is SIGKILLed (no clean-up code of
  ours runs); measured until every descendant is dead (the guardian and the namespace do it).

Baseline: the goal of 300 ms (issue 6); the ratio is median / goal (<= 1.0 meets it). Also printed:
the time until `konstruct run` has exited, having written its `finished` event.

    python bench/bench_kill.py [--runs 10]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "agent"))
from sse_server import Reply, SSEServer, openai_text

GOAL_MS = 300.0
SLOW_CHILD = """\
import os, subprocess, sys, time
token = sys.argv[1]
subprocess.Popen([sys.executable, "-c",
    "import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(60)", token])
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(60)", token])
    os._exit(0)
time.sleep(60)
"""


def start(argv: list[str], env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "konstruct_tui", "run", *argv], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)


def wait_for(proc: subprocess.Popen[str], event: str) -> None:
    for line in proc.stdout:  # type: ignore[union-attr]
        if json.loads(line)["event"] == event:
            return
    raise RuntimeError(f"konstruct run ended before {event}")


def alive(token: str) -> int:
    """How many live (not zombie) processes carry `token` in their command line."""
    count = 0
    for name in os.listdir("/proc"):
        try:
            with open(f"/proc/{name}/cmdline", "rb") as handle:
                if token.encode() not in handle.read():
                    continue
            with open(f"/proc/{name}/stat") as handle:
                count += handle.read().rsplit(") ", 1)[1].split()[0] != "Z"
        except (FileNotFoundError, NotADirectoryError, ProcessLookupError):
            continue
    return count


def mid_stream(root: Path, env: dict[str, str]) -> tuple[float, float]:
    with SSEServer([Reply(body=openai_text("Working"), hang=True)]) as server:
        proc = start(["--root", str(root), "--provider", "openai", "--base-url", server.url, "--model", "m", "go"], env)
        wait_for(proc, "text_delta")
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        if not server.client_left.wait(5):
            raise RuntimeError("the stream was never closed")
        proc.wait(10)
        exited = time.monotonic()
        return (server.client_left_at - sent) * 1000, (exited - sent) * 1000  # type: ignore[operator]


def mid_command(root: Path, script: Path, env: dict[str, str], token: str, how: signal.Signals) -> tuple[float, float]:
    proc = start(["--root", str(root), "--provider", "scripted", "--script", str(script), "--yes", "run it"], env)
    wait_for(proc, "tool_started")
    while alive(token) < 3:  # the command, its grandchild and the daemon
        time.sleep(0.005)
    sent = time.monotonic()
    proc.send_signal(how)
    while alive(token):
        if time.monotonic() - sent > 5:
            raise RuntimeError(f"children still alive 5 s after {how.name}")
        time.sleep(0.0005)
    dead = time.monotonic()
    proc.wait(10)
    return (dead - sent) * 1000, (time.monotonic() - sent) * 1000


def report(name: str, samples: list[tuple[float, float]], what: str) -> None:
    stopped = [s[0] for s in samples]
    exited = [s[1] for s in samples]
    median = statistics.median(stopped)
    print(f"{name:12} {what}: median {median:6.1f} ms  max {max(stopped):6.1f} ms  "
          f"ratio to the {GOAL_MS:.0f} ms goal {median / GOAL_MS:.2f}   (process exited: median {statistics.median(exited):6.1f} ms)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=10)
    runs = parser.parse_args().runs
    with tempfile.TemporaryDirectory() as scratch:
        home = Path(scratch)
        env = {**os.environ, "OPENAI_API_KEY": "", **{v: str(home / v.lower()) for v in ("XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME")}}
        root = home / "project"
        root.mkdir()
        (root / "slow.py").write_text(SLOW_CHILD)
        script = home / "script.json"
        token = f"konstruct-bench-kill-{os.getpid()}"
        command = f"{Path(sys.executable).name} slow.py {token}"
        script.write_text(json.dumps({"turns": [{"tool_calls": [{"name": "run_command", "arguments": {"command": command}}]}, {"text": "done"}]}))
        streams = [mid_stream(root, env) for _ in range(runs)]
        commands = [mid_command(root, script, env, token, signal.SIGINT) for _ in range(runs)]
        killed = [mid_command(root, script, env, token, signal.SIGKILL) for _ in range(runs)]
    print(f"kill switch latency over {runs} runs each (a signal to `konstruct run`)")
    report("mid-stream", streams, "SIGINT -> stream closed      ")
    report("mid-command", commands, "SIGINT -> every descendant dead")
    report("workbench", killed, "SIGKILL -> every descendant dead")


if __name__ == "__main__":
    main()
