"""A model server's error words and a command line's odd arguments reach stderr inert: the bytes a
terminal receives hold no control sequence, and the JSON lines on stdout keep the words exact."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from sse_server import Reply, SSEServer

ROOT = Path(__file__).parents[2]
OSC52 = "\x1b]52;c;cm0gLXJmIH4=\x07"
WORDS = "model m is not loaded " + OSC52 + " \x1b[2J\x1b[1;1H \x9b2J \x1b]0;title\x1b\\ \u202eelif\u2066 \u200bzw"
# What a terminal would obey, as the bytes it receives (UTF-8): ESC, the C1 controls, bidi, zero-width.
RAW = [b"\x1b", b"\x07", "\x9b".encode(), "\x9c".encode(), "\u202e".encode(), "\u2066".encode(), "\u200b".encode()]


def _konstruct(*argv: str, tmp_path: Path) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "XDG_CONFIG_HOME": str(tmp_path / "config"),
           "XDG_CACHE_HOME": str(tmp_path / "cache"), "PYTHONPATH": str(ROOT)}
    env.pop("OPENAI_API_KEY", None)
    return subprocess.run([sys.executable, "-m", "konstruct_tui", *argv], capture_output=True, env=env, timeout=60, check=False)


def test_a_servers_error_words_reach_stderr_as_visible_escapes(project: Path, tmp_path: Path) -> None:
    body = json.dumps({"error": {"message": WORDS, "type": "invalid_request_error"}}).encode()  # \u001b in the JSON
    with SSEServer([Reply(status=400, body=body)]) as server:
        done = _konstruct("run", "--root", str(project), "--provider", "openai", "--base-url", server.url, "--model", "m", "fix add",
                          tmp_path=tmp_path)
    assert done.returncode == 1, done.stderr
    assert [raw for raw in RAW if raw in done.stderr] == []
    err = done.stderr.decode()
    assert "model m is not loaded ␛]52;c;cm0gLXJmIH4=␇ ␛[2J␛[1;1H \\x9b2J ␛]0;title␛\\ \\u202eelif\\u2066 \\u200bzw" in err
    # The JSON lines keep the server's words exact, and still put no raw control on the terminal.
    assert [raw for raw in RAW if raw in done.stdout] == []
    last = json.loads(done.stdout.splitlines()[-1])
    assert last["reason"] == "error" and WORDS in last["message"]


def test_a_usage_error_echoing_an_argument_shows_its_controls(tmp_path: Path) -> None:
    done = _konstruct("index", "--root", str(tmp_path), "--bogus" + OSC52 + "\u202e", tmp_path=tmp_path)
    assert done.returncode == 2
    assert [raw for raw in RAW if raw in done.stderr] == []
    assert "--bogus␛]52;c;cm0gLXJmIH4=␇\\u202e" in done.stderr.decode()
