"""Start-up cost a person feels: `konstruct --help`, a usage error and a warm `konstruct index` load
only what they need (measured in a fresh interpreter, as a person starts one)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from konstruct_tui.cli import SUMMARIES, build_parser

# Libraries that cost tens to hundreds of milliseconds to import, and no parse of a command line needs.
HEAVY = {"textual", "networkx", "igraph", "numpy", "tree_sitter", "httpx", "pydantic", "mcp", "rich", "dbos", "sqlalchemy", "psycopg"}
_REPORT = (
    "import atexit, sys\n"
    "atexit.register(lambda: sys.stderr.write('\\nMODULES ' + ' '.join(sorted(sys.modules)) + '\\n'))\n"
    "sys.argv = ['konstruct', *sys.argv[1:]]\n"
    "from konstruct_tui.cli import main\n"
    "sys.exit(main())\n"
)


def loaded(*argv: str, env: dict[str, str] | None = None) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    """Run the CLI in a new interpreter; the modules it had imported when it exited."""
    done = subprocess.run([sys.executable, "-c", _REPORT, *argv], capture_output=True, text=True, check=False,
                          env={**os.environ, **(env or {})})
    line = [ln for ln in done.stderr.splitlines() if ln.startswith("MODULES ")][-1]
    return done, set(line.split()[1:])


def heavy_in(modules: set[str]) -> set[str]:
    return {name for name in modules if name.split(".")[0] in HEAVY or name.startswith("tree_sitter")}


@pytest.mark.parametrize("argv", [
    ("--help",),
    ("-h",),
    ("no-such-command",),
    ("index", "--help"),
    ("index", "--bogus"),
    ("graph", "export", "--format", "yaml", "--root", "."),
    ("tool",),
    ("tools", "--bogus"),
    ("run", "--max-turns", "0", "x"),
    ("blueprint", "run"),
    ("mcp", "--bogus"),
    ("policy", "check", "--bogus"),
    ("worker", "--help"),
    ("worker", "--bogus"),
    ("approvals", "grant"),
    ("blueprint", "submit"),
    ("blueprint", "status", "--help"),
])
def test_help_and_usage_errors_import_no_heavy_library(argv: tuple[str, ...]) -> None:
    done, modules = loaded(*argv)
    assert done.returncode in (0, 2), done.stderr
    assert heavy_in(modules) == set(), argv
    layers = {m for m in modules if m.startswith(LAYERS)} - LIGHT_GRAPH
    assert layers == set(), argv


LAYERS = tuple(f"konstruct_tui.{layer}" for layer in ("agent", "tools", "ui", "providers", "blueprint", "graph."))
LIGHT_GRAPH = {f"konstruct_tui.graph.{name}" for name in (
    "export", "snapshot", "overlay", "member_evidence", "facts", "records")}  # snapshot and its two stdlib-only parts


def test_the_short_help_lists_what_every_command_registers() -> None:
    quick = build_parser(["--help"]).format_help()
    full = build_parser(full=True).format_help()
    assert quick == full
    assert list(SUMMARIES) == [a.dest for a in build_parser(full=True)._subparsers._group_actions[0]._choices_actions]


def test_a_warm_index_is_a_stat_walk_and_one_query(tmp_path: Path, private_user_dirs: Path) -> None:
    project = tmp_path / "project"
    (project / "pkg").mkdir(parents=True)
    (project / "pkg" / "__init__.py").write_text("")
    (project / "pkg" / "a.py").write_text("from pkg import b\n\ndef f():\n    return b.g()\n")
    (project / "pkg" / "b.py").write_text("def g():\n    return 1\n")
    (project / "notes.md").write_text("# notes\n")
    env = {"XDG_CACHE_HOME": str(private_user_dirs / "xdg_cache_home")}
    cold, cold_modules = loaded("index", "--root", str(project), env=env)
    assert cold.returncode == 0, cold.stderr
    assert "(cold build)" in cold.stdout and "tree_sitter" in cold_modules
    warm, modules = loaded("index", "--root", str(project), env=env)
    assert warm.returncode == 0, warm.stderr
    assert "(0 re-parsed, 4 unchanged)" in warm.stdout
    # The summary a warm start prints is the one the build printed, but for its first line.
    assert warm.stdout.splitlines()[1:] == cold.stdout.splitlines()[1:]
    assert heavy_in(modules) == set()
    assert not {"konstruct_tui.graph.indexer", "konstruct_tui.graph.neighborhoods",
                "konstruct_tui.graph.languages.python", "konstruct_tui.graph.resolution"} & modules

    # Anything that moved sends it back to the indexer, which re-reads just that.
    (project / "pkg" / "b.py").write_text("def g():\n    return 2\n")
    moved, _ = loaded("index", "--root", str(project), env=env)
    assert "(1 re-parsed, 3 unchanged)" in moved.stdout, moved.stdout
    (project / "pkg" / "c.py").write_text("import pkg.a\n")
    added, _ = loaded("index", "--root", str(project), env=env)
    assert "Indexed 5 files" in added.stdout and "(1 re-parsed, 4 unchanged)" in added.stdout, added.stdout
    (project / "notes.md").unlink()
    removed, modules = loaded("index", "--root", str(project), env=env)
    assert "Indexed 4 files" in removed.stdout and "0 re-parsed" in removed.stdout, removed.stdout
    again, modules = loaded("index", "--root", str(project), env=env)
    assert again.stdout.splitlines()[1:] == removed.stdout.splitlines()[1:]
    assert heavy_in(modules) == set()


@pytest.mark.parametrize("cache_name", ["plain", "we?ird#%20 dir"])
def test_the_warm_start_reads_any_cache_path_and_survives_a_damaged_index(tmp_path: Path, cache_name: str) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "a.py").write_text("import b\n")
    (project / "b.py").write_text("X = 1\n")
    env = {"XDG_CACHE_HOME": str(tmp_path / cache_name)}
    first, _ = loaded("index", "--root", str(project), env=env)
    assert first.returncode == 0, first.stderr
    warm, modules = loaded("index", "--root", str(project), env=env)
    assert "(0 re-parsed, 2 unchanged)" in warm.stdout and heavy_in(modules) == set()
    [index] = (tmp_path / cache_name).rglob("*.sqlite")
    for suffix in ("-wal", "-shm"):
        Path(f"{index}{suffix}").unlink(missing_ok=True)
    index.write_bytes(b"not a database" * 100)  # a damaged cache is rebuilt, never trusted
    rebuilt, _ = loaded("index", "--root", str(project), env=env)
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert "(cold build)" in rebuilt.stdout and "imports 1" in rebuilt.stdout


def test_an_export_of_an_unchanged_tree_reads_the_stored_graph(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "a.py").write_text("import b\nb.f()\n")
    (project / "b.py").write_text("def f():\n    return 1\n")
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    cold, cold_modules = loaded("graph", "export", "--root", str(project), "--format", "json", env=env)
    warm, modules = loaded("graph", "export", "--root", str(project), "--format", "json", env=env)
    assert cold.returncode == warm.returncode == 0, warm.stderr
    assert warm.stdout == cold.stdout and '"a.py",\n      "b.py"' in warm.stdout
    assert "tree_sitter" in cold_modules and heavy_in(modules) == set()


def test_a_file_replaced_by_a_rename_with_the_same_size_and_mtime_is_read_again(tmp_path: Path) -> None:
    """An editor's atomic save or a checkout can leave size and mtime as they were: the inode moved."""
    project = tmp_path / "project"
    project.mkdir()
    (project / "a.py").write_text("import b\nb.old()\n")
    target = project / "b.py"
    target.write_text("def old():\n    return 1\n")
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    first, _ = loaded("index", "--root", str(project), env=env)
    assert first.returncode == 0, first.stderr
    before = target.stat()
    replacement = project / "b.py.tmp"
    replacement.write_text("def new():\n    return 1\n")  # same size
    os.utime(replacement, ns=(before.st_atime_ns, before.st_mtime_ns))
    os.replace(replacement, target)
    assert (target.stat().st_size, target.stat().st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    assert target.stat().st_ino != before.st_ino
    warm, _ = loaded("index", "--root", str(project), env=env)
    assert "(1 re-parsed, 1 unchanged)" in warm.stdout, warm.stdout
    export, _ = loaded("graph", "export", "--root", str(project), "--format", "json", env=env)
    assert '"a.py",\n      "b.py"' in export.stdout  # the import edge is still there


def test_an_index_from_an_older_konstruct_is_rebuilt_and_says_so(tmp_path: Path) -> None:
    """An index written before the store kept inodes (schema 4) is neither trusted nor an error."""
    import sqlite3

    project = tmp_path / "project"
    project.mkdir()
    (project / "a.py").write_text("import b\n")
    (project / "b.py").write_text("X = 1\n")
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    first, _ = loaded("index", "--root", str(project), env=env)
    assert first.returncode == 0, first.stderr
    [index] = (tmp_path / "cache").rglob("*.sqlite")
    db = sqlite3.connect(index)
    db.execute("ALTER TABLE files DROP COLUMN inode")  # the old layout, and its old fingerprint
    db.execute("UPDATE meta SET value = 'written-by-konstruct-0.1' WHERE key = 'fingerprint'")
    db.commit()
    db.close()
    rebuilt, _ = loaded("index", "--root", str(project), env=env)
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert "written by another version of Konstruct and was rebuilt" in rebuilt.stdout, rebuilt.stdout
    assert "imports 1" in rebuilt.stdout
    warm, modules = loaded("index", "--root", str(project), env=env)
    assert "(0 re-parsed, 2 unchanged)" in warm.stdout and heavy_in(modules) == set()


_FIRST_FRAME = (
    "import sys, pathlib, tempfile\n"
    "from konstruct_tui.ui.app import Workbench\n"
    "from konstruct_tui.app import WorkbenchSetup\n"
    "from konstruct_tui.agent import Limits\n"
    "from konstruct_tui.providers import resolve\n"
    "seen = {}\n"
    "def first_frame(self):\n"
    "    seen['modules'] = sorted(sys.modules)\n"
    "    self.exit()\n"
    "Workbench._start_core = first_frame\n"
    "import asyncio\n"
    "async def main():\n"
    "    app = Workbench(WorkbenchSetup(pathlib.Path(tempfile.mkdtemp()), None, 'none', Limits()))\n"
    "    async with app.run_test(size=(80, 24)) as pilot:\n"
    "        await pilot.pause()\n"
    "asyncio.run(main())\n"
    "print(' '.join(seen['modules']))\n"
)


def test_the_workbench_paints_its_first_frame_before_loading_the_core() -> None:
    # The person sees the screen while the agent, the tools, the graph, the sandbox and the HTTP
    # client are still to be imported (they load right after that frame): a cold start in a second.
    done = subprocess.run([sys.executable, "-c", _FIRST_FRAME], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    modules = set(done.stdout.split())
    assert "textual" in modules  # the frame was drawn
    core = {m for m in modules if m.split(".")[:2] in (["konstruct_tui", "tools"], ["konstruct_tui", "graph"],
                                                      ["konstruct_tui", "sandbox"], ["konstruct_tui", "commands"])}
    assert core == set()
    # The HTTP client, the validation library, Markdown and the wire formats load after the frame
    # (`from konstruct_tui.providers import resolve` above loads the settings alone).
    assert not {m for m in modules if m.split(".")[0] in {"tree_sitter", "igraph", "mcp", "starlark", "httpx", "httpcore", "pydantic",
                                                         "markdown_it"}}
    assert not {"konstruct_tui.providers.streaming", "konstruct_tui.providers.openai", "konstruct_tui.providers.anthropic",
                "konstruct_tui.ui.untrusted_markdown", "textual.widgets._markdown"} & modules
    assert "konstruct_tui.agent.loop" not in modules



_FIRST_FRAME_FROM_THE_CLI = (
    "import sys, asyncio\n"
    "from konstruct_tui.cli import main\n"
    "import konstruct_tui.ui as ui\n"
    "def run_workbench(setup):\n"
    "    from konstruct_tui.ui.app import Workbench\n"
    "    def first_frame(self):\n"
    "        print(' '.join(sorted(sys.modules)))\n"
    "        self.exit()\n"
    "    Workbench._start_core = first_frame\n"
    "    async def drive():\n"
    "        async with Workbench(setup).run_test(size=(80, 24)) as pilot:\n"
    "            await pilot.pause()\n"
    "    asyncio.run(drive())\n"
    "ui.run_workbench = run_workbench\n"
    "sys.exit(main(sys.argv[1:]))\n"
)


def test_konstruct_root_reaches_its_first_frame_without_http_validation_or_markdown(tmp_path: Path, private_user_dirs: Path) -> None:
    # The path a person takes: `konstruct --root DIR` reads the config, checks a script, opens the
    # workspace; none of that may pull the HTTP client, pydantic (themes) or Markdown in before the frame.
    script = tmp_path / "script.json"
    script.write_text('{"turns": [{"text": "hello"}]}')
    project = tmp_path / "project"
    project.mkdir()
    done = subprocess.run([sys.executable, "-c", _FIRST_FRAME_FROM_THE_CLI, "--root", str(project), "--provider", "scripted",
                           "--script", str(script)], capture_output=True, text=True, check=False, env={**os.environ})
    assert done.returncode == 0, done.stderr[-2000:]
    modules = set(done.stdout.split())
    assert "textual" in modules and "konstruct_tui.providers.script_file" in modules  # the frame was drawn; the script was checked
    assert not {m for m in modules if m.split(".")[0] in {"httpx", "httpcore", "pydantic", "markdown_it"}}
    assert not {m for m in modules if m.startswith(("konstruct_tui.tools", "konstruct_tui.graph.", "konstruct_tui.sandbox"))}
