"""SIGKILL, SIGINT and SIGTERM at seeded points of a 200-entry write_code batch run as a subprocess.

After the interruption and the next start: an atomic batch has left nothing of itself on disk; a
non-atomic one is recorded exactly as it landed, so `konstruct undo` takes back exactly that; no temp
file of ours is left; and undo never takes back the batch before it while the interrupted one is
on disk. The seeds are fixed, so a failure reproduces.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from fault_harness import (
    FILES, SIGNALS, apply_in_process, batch_of_200, changed, make_project, revision, signalled_batch, temp_files, tree,
)

# (seed, signal, atomic). The seed picks how many entries land before the signal is sent.
CASES = [
    (3, "KILL", True), (11, "KILL", True), (19, "KILL", False), (29, "KILL", False),
    (31, "INT", True), (37, "INT", False), (41, "TERM", True), (43, "TERM", False),
]


@pytest.fixture
def project(tmp_path: Path, konstruct) -> tuple[Path, dict[str, bytes], dict[str, bytes]]:
    """A 200-file project with one earlier batch applied (marker.txt): (root, tree before that
    batch, tree after it)."""
    root = tmp_path / "project"
    root.mkdir()
    make_project(root)
    original = tree(root)
    earlier = {"path": "marker.txt", "revision": revision(root, "marker.txt"), "replacements": [{"old": "state = before", "new": "state = after"}]}
    assert apply_in_process(konstruct, root, {"edits": [earlier]})["results"][0]["status"] == "written"
    return root, original, tree(root)


@pytest.mark.parametrize(("seed", "signame", "atomic"), CASES)
def test_an_interrupted_batch_is_settled_and_undo_takes_back_only_it(project, konstruct, seed: int, signame: str, atomic: bool) -> None:
    root, original, earlier = project
    after_landed = random.Random(seed).randrange(0, FILES)
    process = signalled_batch(root, batch_of_200(root, atomic), SIGNALS[signame], after_landed)
    on_disk = tree(root)
    landed = changed(earlier, on_disk)
    acknowledged = json.loads(process.stdout) if process.stdout.strip() else None

    if signame != "KILL":
        # A signal it can catch: the batch stops between entries and the result names what landed.
        assert process.returncode == 128 + SIGNALS[signame], process.stderr
        assert acknowledged is not None and acknowledged["interrupted"] == f"SIG{signame}"
        statuses = {e["path"]: e["status"] for e in acknowledged["results"]}
        said_landed = {p for p, s in statuses.items() if s in ("written", "created")}
        assert said_landed == landed
        if atomic:
            assert landed in (set(), set(statuses)), "an atomic batch is all or nothing even when interrupted"
        assert temp_files(root) == []

    # The next start settles what the interruption left; then undo takes back the newest batch.
    code, result, err = konstruct("undo", "--root", str(root))
    assert code == 0, err
    assert isinstance(result, dict)
    undone = {e["path"] for e in result["results"]}
    if landed:
        assert undone == landed, f"undo took back {len(undone)} files, {len(landed)} had landed"
        assert tree(root) == earlier, "undo left something of the interrupted batch, or took back the earlier one"
    else:
        assert undone == {"marker.txt"}  # nothing of the interrupted batch touched the disk: the newest that did is the earlier one
        assert tree(root) == original
    assert temp_files(root) == []


@pytest.mark.parametrize("seed", [13])
def test_the_next_start_of_any_command_rolls_back_an_atomic_batch_killed_midway(project, konstruct, seed: int) -> None:
    root, _original, earlier = project
    # Killed after a seeded number of landings but never at the end: nothing was acknowledged.
    after_landed = random.Random(seed).randrange(1, FILES // 2)
    process = signalled_batch(root, batch_of_200(root, True), SIGNALS["KILL"], after_landed)
    assert process.returncode == -9 and not process.stdout.strip()
    assert changed(earlier, tree(root)), "the kill should have come after some entries landed"
    code, payload, err = konstruct("tool", "read_code", "--root", str(root), "--json", json.dumps({"paths": ["marker.txt"]}))
    assert code == 0
    assert "rolled back" in err and "nothing of it is left" in err
    assert tree(root) == earlier
    assert temp_files(root) == []
    code, result, err = konstruct("undo", "--root", str(root))  # the killed batch is gone: undo reaches the earlier one
    assert code == 0 and {e["path"] for e in result["results"]} == {"marker.txt"}


def test_an_atomic_delete_batch_killed_midway_puts_every_file_back(tmp_path: Path, konstruct) -> None:
    root = tmp_path / "project"
    root.mkdir()
    make_project(root)
    before = tree(root)
    paths = sorted(p for p in before if p.endswith(".py"))
    arguments = {"paths": [{"path": p, "revision": revision(root, p)} for p in paths], "atomic": True}
    process = signalled_batch(root, arguments, SIGNALS["KILL"], random.Random(17).randrange(1, len(paths) // 2), tool="delete_code")
    assert process.returncode == -9
    assert changed(before, tree(root)), "the kill should have come after some files were deleted"
    code, result, err = konstruct("undo", "--root", str(root))
    assert code == 0 and result["recovered"] is True, err
    assert tree(root) == before and temp_files(root) == []
