"""The core type-checks: mypy over konstruct_tui (settings in pyproject.toml), so the package's
`py.typed` promise holds. The cache lives in the temp dir, keyed by checkout, so a second run only
re-checks what changed."""

from __future__ import annotations

import hashlib
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).parents[1]


def test_the_core_type_checks() -> None:
    cache = Path(tempfile.gettempdir()) / f"konstruct-mypy-{hashlib.sha256(str(ROOT).encode()).hexdigest()[:12]}"
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(cache), "--no-error-summary"],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
