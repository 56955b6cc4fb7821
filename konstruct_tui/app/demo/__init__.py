"""`konstruct demo`: a bundled sample project (Python and TypeScript), a scripted one-phase blueprint
run and a scripted pair-coding session to replay on a copy of it, and the director that stages what
a script alone cannot show (an edit made outside the agent).

Plain Python (no Textual): the CLI prepares the copy before the screen opens.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
SAMPLE = HERE / "sample"
SCRIPT = HERE / "session.json"  # the pair-coding session
BLUEPRINT = HERE / "blueprint.toml"  # a one-phase blueprint run before it, through the real gate
FOLLOW_UP = HERE / "follow_up.json"  # the scripted answer to any request after the first
BLUEPRINT_SCRIPTS = HERE / "blueprint_scripts"  # executor.json and adjudicator.json for that run
__all__ = ["BLUEPRINT", "BLUEPRINT_SCRIPTS", "FIRST_REQUEST", "FOLLOW_UP", "SAMPLE", "SCRIPT", "prepare_demo"]

FIRST_REQUEST = "Fix the discount rounding in shop/pricing.py and keep web/src/pricing.ts in step with it"


def prepare_demo(parent: Path | None = None) -> Path:
    """Copy the sample project to a fresh temporary folder and return it. The copy is what the
    scripted agent edits; the bundled original never changes."""
    target = Path(tempfile.mkdtemp(prefix="konstruct-demo-", dir=parent)) / "shop"
    shutil.copytree(SAMPLE, target)
    return target
