"""The member tier: `konstruct index` builds the file graph alone; the member facts and the member
evidence resolved from them are built by the first question that needs them. Until then no symbol
answer may say "nothing": it says `undeterminable`. The file graph is the same either way."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from graph_helpers import write_files

from konstruct_tui.graph.code_graph import CodeGraph, build_index, stored_snapshot
from konstruct_tui.graph.export import export_graph
from konstruct_tui.graph.indexer import Indexer
from konstruct_tui.graph.languages import languages
from konstruct_tui.graph.query import GraphQuery
from konstruct_tui.graph.store import IndexStore
from konstruct_tui.graph.warm_start import unchanged
from konstruct_tui.tools import ToolContext, call
from konstruct_tui.workspace import Workspace

python = pytest.importorskip("konstruct_tui.graph.languages.python")

FILES = {
    "lib/__init__.py": "",
    "lib/console.py": "class Console:\n    def print(self, text: str) -> None:\n        pass\n\n\ndef helper():\n    pass\n",
    "app.py": "from lib.console import Console\n\nc = Console()\nc.print('hi')\n",
    "other.py": "import lib.console\n\nlib.console.helper()\n",
}


def _query(snapshot):
    return GraphQuery(lambda: snapshot)


def _meta(root: Path, key: str) -> str | None:
    store = IndexStore.for_root(root.resolve(), languages())
    try:
        return store.meta(key)
    finally:
        store.close()


def test_a_file_graph_alone_answers_symbol_questions_undeterminable_never_nothing(tmp_path: Path) -> None:
    write_files(tmp_path, FILES)
    with Workspace(tmp_path) as workspace:
        files_only, report = build_index(workspace, members=False)
    assert not files_only.side.complete and not report.members
    assert _meta(tmp_path, "members") == "0"
    callers = _query(files_only).references("Console.print")
    assert callers.status == "undeterminable" and "member uses are not indexed yet" in callers.reason
    assert callers.results == ()
    dead = _query(files_only).unreferenced(".")
    assert dead.status == "undeterminable" and "member uses are not indexed yet" in dead.reason
    # a symbol the index does not know is still said so: the file tier knows every definition
    assert _query(files_only).references("Nowhere.print").status == "not_indexed"
    # file questions are whole without the member tier
    assert _query(files_only).dependents("lib/console.py").status == "ok"

    with Workspace(tmp_path) as workspace:
        complete, report = build_index(workspace)  # a symbol question's build: the tier is made now
    assert complete.side.complete and report.members and report.member_seconds > 0
    assert _meta(tmp_path, "members") == "1"
    found = _query(complete).references("Console.print")
    assert found.status == "ok" and [r["path"] for r in found.results] == ["app.py"]
    assert _query(complete).references("helper").status == "ok"
    # the member tier adds member rows only: the file graph (and so the export) did not move
    assert export_graph(complete) == export_graph(files_only)


def test_a_cold_build_with_members_is_one_pass_and_the_export_matches_the_file_graph_alone(tmp_path: Path) -> None:
    write_files(tmp_path / "a", FILES)
    write_files(tmp_path / "b", FILES)
    with Workspace(tmp_path / "a") as first, Workspace(tmp_path / "b") as second:
        both, report = build_index(first)
        alone, _ = build_index(second, members=False)
    assert both.side.complete and report.cold and report.member_seconds == 0
    assert export_graph(both) == export_graph(alone)


def test_the_warm_start_knows_whether_the_tier_is_built(tmp_path: Path) -> None:
    write_files(tmp_path, FILES)
    with Workspace(tmp_path) as workspace:
        build_index(workspace, members=False)
        warm = unchanged(tmp_path.resolve())
        assert warm is not None and not warm.members and not warm.snapshot().side.complete
        stored = stored_snapshot(workspace)
        assert stored is not None and not stored.side.complete
        build_index(workspace)
    warm = unchanged(tmp_path.resolve())
    assert warm is not None and warm.members and warm.snapshot().side.complete


def test_an_index_with_the_tier_keeps_it_current_whoever_updates_it(tmp_path: Path) -> None:
    """`konstruct index` (members not asked for) refreshing an index that has the tier extracts the
    changed files with their member facts: the tier never goes quietly stale."""
    write_files(tmp_path, FILES)
    with Workspace(tmp_path) as workspace:
        build_index(workspace)
        (tmp_path / "late.py").write_text("from lib.console import Console\n\nConsole().print('late')\n")
        snapshot, _ = build_index(workspace, members=False)
    assert snapshot.side.complete and _meta(tmp_path, "members") == "1"
    found = _query(snapshot).references("Console.print")
    assert sorted(r["path"] for r in found.results) == ["app.py", "late.py"]


def test_an_index_without_the_tier_stays_without_it_until_asked_and_then_covers_every_edit(tmp_path: Path) -> None:
    write_files(tmp_path, FILES)
    with Workspace(tmp_path) as workspace:
        build_index(workspace, members=False)
        (tmp_path / "late.py").write_text("from lib.console import Console\n\nConsole().print('late')\n")
        snapshot, _ = build_index(workspace, members=False)
        assert not snapshot.side.complete and _meta(tmp_path, "members") == "0"
        complete, _ = build_index(workspace)
    found = _query(complete).references("Console.print")
    assert sorted(r["path"] for r in found.results) == ["app.py", "late.py"]


def test_the_tier_reads_the_bytes_on_disk_when_a_file_moved_since_the_file_graph(tmp_path: Path) -> None:
    """A file edited between the file graph and the tier is indexed as it is now, entry and all."""
    write_files(tmp_path, FILES)
    with Workspace(tmp_path) as workspace:
        files_only, _ = build_index(workspace, members=False)
        store = IndexStore.for_root(workspace.root, languages())
        try:
            indexer = Indexer(workspace, store)
            (tmp_path / "app.py").write_text("from lib.console import Console\n\n\ndef f(c: Console):\n    c.print(1)\n")
            complete = indexer.complete_members(files_only)
        finally:
            store.close()
    assert complete.side.complete
    assert complete.files["app.py"].hash != files_only.files["app.py"].hash
    found = _query(complete).references("Console.print")
    assert found.status == "ok" and [(r["path"], r["evidence"]) for r in found.results] == [("app.py", "resolved")]


def test_a_session_on_an_index_without_the_tier_builds_it_before_its_first_answer(tmp_path: Path) -> None:
    write_files(tmp_path, FILES)
    with Workspace(tmp_path) as workspace:
        build_index(workspace, members=False)
    graph = CodeGraph(Workspace(tmp_path), warm_neighborhoods=False)
    try:
        assert graph.wait_until_current(30)
        assert graph.snapshot is not None and graph.snapshot.side.complete
        found = graph.query.references("Console.print")
        assert found.status == "ok" and [r["path"] for r in found.results] == ["app.py"]
    finally:
        graph.close()
        graph.workspace.close()
    assert _meta(tmp_path, "members") == "1"


def test_headless_file_questions_leave_the_tier_alone_and_symbol_questions_build_it(tmp_path: Path) -> None:
    write_files(tmp_path, FILES)
    with Workspace(tmp_path) as workspace:
        build_index(workspace, members=False)
        context = ToolContext(workspace)
        dependents = call("traverse_graph", {"mode": "dependents", "target": "lib/console.py"}, context).to_json()
        assert dependents["status"] == "ok" and _meta(tmp_path, "members") == "0"
        callers = call("traverse_graph", {"mode": "callers", "symbol": "Console.print",
                                          "target": "lib/console.py"}, context).to_json()
    assert callers["status"] == "ok" and [r["path"] for r in callers["results"]] == ["app.py"]
    assert _meta(tmp_path, "members") == "1"


def _konstruct(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "konstruct_tui", *args], check=False, capture_output=True, text=True,
                          env=env, timeout=120)


def test_the_cli_says_whether_member_uses_are_indexed(tmp_path: Path, private_user_dirs: Path) -> None:
    import os

    root = tmp_path / "proj"
    write_files(root, FILES)
    env = {**os.environ, "XDG_CACHE_HOME": str(private_user_dirs / "xdg_cache_home")}
    cold = _konstruct("index", "--root", str(root), env=env)
    assert cold.returncode == 0 and "Member uses: not indexed yet" in cold.stdout
    asked = _konstruct("tool", "traverse_graph", "--root", str(root), "--json",
                       '{"mode": "unreferenced", "target": "lib/console.py"}', env=env)
    assert asked.returncode == 0 and '"status": "ok"' in asked.stdout
    warm = _konstruct("index", "--root", str(root), env=env)
    assert warm.returncode == 0 and "Member uses: indexed" in warm.stdout and "0 re-parsed" in warm.stdout
    other = tmp_path / "other"
    write_files(other, FILES)
    eager = _konstruct("index", "--root", str(other), "--members", env=env)
    assert eager.returncode == 0 and "(cold build)" in eager.stdout and "Member uses: indexed" in eager.stdout


def test_a_refresh_that_builds_the_tier_hands_over_the_file_graph_first(tmp_path: Path) -> None:
    """The reconciler publishes it: a session on a big tree answers file questions at once."""
    write_files(tmp_path, FILES)
    with Workspace(tmp_path) as workspace:
        build_index(workspace, members=False)
        store = IndexStore.for_root(workspace.root, languages())
        try:
            seen = []
            complete = Indexer(workspace, store).refresh(interim=seen.append)
        finally:
            store.close()
    assert [s.side.complete for s in seen] == [False] and complete.side.complete
    assert export_graph(seen[0]) == export_graph(complete)


def test_a_served_symbol_question_waits_for_the_tier_a_file_question_does_not_need(tmp_path: Path) -> None:
    from konstruct_tui.tools import ServedGraph

    write_files(tmp_path, FILES)
    with Workspace(tmp_path) as workspace:
        build_index(workspace, members=False)
    served = ServedGraph(CodeGraph(Workspace(tmp_path), warm_neighborhoods=False), first_build_wait=60)
    try:
        with Workspace(tmp_path) as workspace:
            context = ToolContext(workspace, graph=served)
            found = call("traverse_graph", {"mode": "callers", "symbol": "Console.print"}, context).to_json()
        assert found["status"] == "ok" and [r["path"] for r in found["results"]] == ["app.py"]
    finally:
        served.close()
        served.graph.workspace.close()


def test_a_tier_that_broke_off_halfway_is_built_again_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Facts with member facts stored for some files, no member rows, the mark never set: the index
    still says "not built", and the next symbol question builds all of it."""
    from konstruct_tui.graph import resolution

    write_files(tmp_path, FILES)
    with Workspace(tmp_path) as workspace:
        build_index(workspace, members=False)

        def broken(*args: object, **kwargs: object) -> object:
            raise RuntimeError("killed mid-tier")

        with monkeypatch.context() as patched:
            patched.setattr(resolution.Resolution, "resolve_forked", broken)
            patched.setattr(resolution.Resolution, "resolve", broken)
            with pytest.raises(RuntimeError):
                build_index(workspace)
        assert _meta(tmp_path, "members") == "0"
        half, _ = build_index(workspace, members=False)
        assert not half.side.complete
        assert _query(half).references("Console.print").status == "undeterminable"
        whole, _ = build_index(workspace)
    assert whole.side.complete
    found = _query(whole).references("Console.print")
    assert found.status == "ok" and [r["path"] for r in found.results] == ["app.py"]


def test_languages_that_read_member_facts_in_the_first_pass_cost_the_tier_nothing(tmp_path: Path) -> None:
    """A TypeScript project: `konstruct index` already has everything, so the first symbol question
    only sets the mark (no file is read again)."""
    pytest.importorskip("konstruct_tui.graph.languages.typescript")
    write_files(tmp_path, {
        "src/box.ts": "export class Box {\n  open(): void {}\n}\n",
        "src/app.ts": "import { Box } from './box';\n\nconst b: Box = new Box();\nb.open();\n",
    })
    with Workspace(tmp_path) as workspace:
        files_only, _ = build_index(workspace, members=False)
        assert not files_only.side.complete
        store = IndexStore.for_root(workspace.root, languages())
        try:
            indexer = Indexer(workspace, store)
            complete = indexer.complete_members(files_only)
        finally:
            store.close()
    assert indexer.parses == 0 and complete.side.complete
    found = _query(complete).references("Box.open")
    assert found.status == "ok" and [r["path"] for r in found.results] == ["src/app.ts"]


@pytest.mark.parametrize(("arguments", "builds"), [
    ({"mode": "definition", "symbol": "Console.print"}, False),
    ({"mode": "neighborhood", "target": "app.py"}, False),
    ({"mode": "rename_symbol", "symbol": "Console.print", "target": "lib/console.py"}, True),
    ({"mode": "impact", "symbol": "Console.print", "target": "lib/console.py"}, True),
    ({"mode": "tests", "symbol": "Console.print", "target": "lib/console.py"}, True),
    ({"mode": "unreferenced"}, True),
])
def test_every_headless_question_that_reads_member_uses_builds_the_tier_first(
        tmp_path: Path, arguments: dict[str, str], builds: bool) -> None:
    """No symbol mode may answer from the file graph alone: a rename that missed `c.print` in
    app.py would leave the project broken."""
    write_files(tmp_path, FILES)
    with Workspace(tmp_path) as workspace:
        build_index(workspace, members=False)
        answer = call("traverse_graph", arguments, ToolContext(workspace)).to_json()
    assert _meta(tmp_path, "members") == ("1" if builds else "0")
    assert "not indexed yet" not in answer.get("reason", "")
    if arguments["mode"] in ("rename_symbol", "impact"):
        assert "app.py" in [r["path"] for r in answer["results"]]
