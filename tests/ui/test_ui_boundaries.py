"""The UI stays thin and fenced: only the CLI imports it, every key action has a command palette entry."""

from __future__ import annotations

import re
from pathlib import Path

from ui_harness import make_project, workbench

PACKAGE = Path(__file__).parents[2] / "konstruct_tui"


def test_nothing_but_the_cli_imports_the_ui() -> None:
    pattern = re.compile(r"^\s*(from\s+(konstruct_tui\.ui|\.\.?ui)\b|import\s+konstruct_tui\.ui)", re.MULTILINE)
    guilty = [
        str(path.relative_to(PACKAGE))
        for path in PACKAGE.rglob("*.py")
        if "ui" not in path.relative_to(PACKAGE).parts[:1] and "cli" not in path.relative_to(PACKAGE).parts[:1]
        and pattern.search(path.read_text(encoding="utf-8"))
    ]
    assert guilty == []


def test_the_cli_imports_the_ui_only_inside_handlers() -> None:
    source = (PACKAGE / "cli" / "workbench.py").read_text(encoding="utf-8")
    top_level = [line for line in source.splitlines() if re.match(r"^(from|import)\s", line)]
    assert not [line for line in top_level if "ui" in line.split()[1].split(".")]


async def test_every_key_action_has_a_command_palette_entry(tmp_path: Path) -> None:
    app = workbench(make_project(tmp_path))
    async with app.run_test(size=(120, 40)):
        callbacks = {getattr(c.callback, "__name__", "") for c in app.get_system_commands(app.screen)}
        actions = {f"action_{b.action}" for b in app.BINDINGS}  # type: ignore[union-attr]
        assert actions <= callbacks, f"no palette entry for {sorted(actions - callbacks)}"


def test_every_event_a_pane_draws_is_routed_to_it() -> None:
    """A pane is sent only the event types it lists in DRAWS: an event its `show` handles but does
    not list would never reach the screen."""
    import ast

    from konstruct_tui.ui import panes

    for name in panes.__all__:
        pane = getattr(panes, name)
        source = (PACKAGE / "ui" / "panes" / f"{pane.__module__.rsplit('.', 1)[-1]}.py").read_text(encoding="utf-8")
        tree = next(n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.ClassDef) and n.name == name)
        show = next((n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "show"), None)
        if show is None:
            continue
        handled = {
            arg.id for call in ast.walk(show)
            if isinstance(call, ast.Call) and getattr(call.func, "id", "") == "isinstance" and len(call.args) == 2
            for arg in ([call.args[1]] if not isinstance(call.args[1], ast.Tuple) else call.args[1].elts)
            if isinstance(arg, ast.Name) and arg.id[:1].isupper()  # event classes, not dict or str
        }
        drawn = {kind.__name__ for kind in pane.DRAWS}
        assert handled <= drawn, f"{name}.show handles {sorted(handled - drawn)} but DRAWS does not list them"
