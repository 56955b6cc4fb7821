"""Member evidence through the live graph: an edit that adds or removes a method call reaches
`callers` like any other edge, and the file graph (export, neighborhoods) never sees it."""

from __future__ import annotations

from pathlib import Path

import pytest
from graph_helpers import write_files

from konstruct_tui.graph.code_graph import CodeGraph
from konstruct_tui.graph.export import export_graph
from konstruct_tui.workspace import Workspace

python = pytest.importorskip("konstruct_tui.graph.languages.python")

FILES = {
    "lib/__init__.py": "",
    "lib/console.py": "class Console:\n    def print(self, text: str) -> None:\n        pass\n",
    "lib/factory.py": "from lib.console import Console\n\n\ndef make() -> Console:\n    return Console()\n",
    "app.py": "from lib.factory import make\n\nmake().print('hi')\n",
}


def test_method_callers_follow_edits_and_stay_out_of_the_file_graph(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    write_files(root, FILES)
    graph = CodeGraph(Workspace(root), supports={"python": python.SUPPORT}, warm_neighborhoods=False)
    try:
        assert graph.wait_until_current(20)
        found = graph.query.references("Console.print")
        assert found.status == "ok" and [r["path"] for r in found.results] == ["app.py"]
        # app.py reaches console.py only through the member use: no file edge is invented for it
        assert ["app.py", "lib/console.py"] not in export_graph(graph.snapshot)["edges"]
        (root / "app.py").write_text("from lib.factory import make\n\nthing = make\n\n\ndef f(x):\n    x.print(1)\n")
        graph.notify(["app.py"])
        assert graph.wait_until_current(20)
        after = graph.query.references("Console.print")
        assert after.status == "undeterminable"
        assert [(r["path"], r["evidence"]) for r in after.results] == [("app.py", "by_name")]
        (root / "app.py").write_text("import lib.factory\n")
        graph.notify(["app.py"])
        assert graph.wait_until_current(20)
        assert graph.query.references("Console.print").status == "no_references"
    finally:
        graph.close()
        graph.workspace.close()


def test_member_rows_survive_paths_with_spaces_and_separators() -> None:
    from konstruct_tui.graph.snapshot import pack, unpack

    row = pack("src/a b.py", {"lib/x y>%z|.py": ["A.m", "B.n"], "c.py": ["f"]}, ["run"])
    assert len(" ".join(row.names).split()) == 1  # the store joins names with spaces: one token per file
    assert unpack(" ".join(row.names).split()) == ({"c.py": ("f",), "lib/x y>%z|.py": ("A.m", "B.n")}, ("run",))


OVERRIDES = {
    "lib/__init__.py": "",
    "lib/params.py": """\
class Parameter:
    def get_default(self, ctx):
        return None

    def process(self, value):
        return value


class Option(Parameter):
    def get_default(self, ctx):
        return 1


def process(value):
    return value
""",
    "tests/test_options.py": """\
from lib.params import Option


def test_default():
    opt = Option()
    assert opt.get_default(None) == 1
    assert opt.process(2) == 2
""",
}


def test_a_call_of_a_subclass_override_is_never_a_confident_nothing_for_the_base(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    write_files(root, OVERRIDES)
    graph = CodeGraph(Workspace(root), supports={"python": python.SUPPORT}, warm_neighborhoods=False)
    try:
        assert graph.wait_until_current(20)
        base = graph.query.references("Parameter.get_default", file="lib/params.py")
        assert base.status == "undeterminable"
        assert [(r["path"], r["evidence"], r.get("calls_override")) for r in base.results] == [
            ("tests/test_options.py", "by_name", True)]
        assert "override" in base.reason
        # the override itself is proven called; the inherited method is proven called through the subclass
        assert graph.query.references("Option.get_default", file="lib/params.py").status == "ok"
        inherited = graph.query.references("Parameter.process", file="lib/params.py")
        assert [(r["path"], r["evidence"]) for r in inherited.results] == [("tests/test_options.py", "resolved")]
        # `process` names the function, not also every method called process beside it
        assert graph.query.references("process", file="lib/params.py").status == "no_references"
    finally:
        graph.close()
        graph.workspace.close()
