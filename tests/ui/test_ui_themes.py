"""Theme files: the built-in ones are complete, user themes load beside them, and a bad file is
reported on screen without stopping start-up. The stylesheet uses theme variables only."""

from __future__ import annotations

import re
from pathlib import Path

from ui_harness import make_project, workbench

from konstruct_tui.ui.panes.transcript import Transcript
from konstruct_tui.ui.themes import (
    APP_VARIABLES,
    builtin_theme_dir,
    load_themes,
    user_theme_dir,
)

BUILT_IN = {"konstruct-dark", "konstruct-light", "konstruct-high-contrast"}
STYLESHEET = Path(__file__).parents[2] / "konstruct_tui" / "ui" / "workbench.tcss"


def test_built_in_themes_load_and_set_every_app_variable() -> None:
    themes = load_themes(user=Path("/nonexistent"))
    assert themes.failed == ()
    assert set(themes.names()) == BUILT_IN
    for theme in themes.loaded:
        missing = set(APP_VARIABLES) - set(theme.variables)
        assert not missing, f"{theme.name} lacks {sorted(missing)}"
    assert {t.name: t.dark for t in themes.loaded}["konstruct-light"] is False


def test_user_themes_load_and_bad_ones_are_reported(tmp_path: Path) -> None:
    folder = user_theme_dir()
    folder.mkdir(parents=True)
    (folder / "mine.toml").write_text('name = "mine"\nprimary = "#336699"\n[variables]\ngate-pass = "#00aa00"\n')
    (folder / "broken.toml").write_text("name = [unclosed\n")
    (folder / "badcolor.toml").write_text('name = "bad"\nprimary = "not-a-colour"\n')
    (folder / "unknown.toml").write_text('name = "odd"\nprimary = "#fff"\nsparkle = true\n')
    themes = load_themes()
    assert "mine" in themes.names() and BUILT_IN <= set(themes.names())
    reasons = {p.path: p.reason for p in themes.failed}
    assert set(reasons) == {"broken.toml", "badcolor.toml", "unknown.toml"}
    assert "not valid TOML" in reasons["broken.toml"]
    assert "primary" in reasons["badcolor.toml"] and "not a color" in reasons["badcolor.toml"]
    assert "sparkle" in reasons["unknown.toml"]


async def test_a_bad_user_theme_never_stops_start_up(tmp_path: Path) -> None:
    folder = user_theme_dir()
    folder.mkdir(parents=True)
    (folder / "broken.toml").write_text("this is not toml ===\n")
    (folder / "partial.toml").write_text('name = "partial"\nprimary = "#224466"\n')
    app = workbench(make_project(tmp_path), theme="partial")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause(0.1)
        shown = "\n".join(str(w.content) for w in app.query_one(Transcript).query("Static"))
        assert "theme broken.toml not loaded" in shown
        assert app.theme == "partial"
        # A theme that leaves out Konstruct's tokens gets them from its base colors.
        assert app.theme_variables["gate-pass"] == app.theme_variables["success"]


async def test_ctrl_t_cycles_the_konstruct_themes(tmp_path: Path) -> None:
    app = workbench(make_project(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        seen = {app.theme}
        for _ in range(3):
            await pilot.press("ctrl+t")
            seen.add(app.theme)
        assert BUILT_IN <= seen


def test_stylesheet_uses_theme_variables_only() -> None:
    css = STYLESHEET.read_text()
    assert not re.search(r"#[0-9a-fA-F]{3,8}\b", css), "literal hex color in workbench.tcss"
    assert not re.search(r"\brgba?\(", css)
    for token in ("$kill-background", "$tool-running", "$tool-failed"):
        assert token in css


def test_built_in_theme_folder_is_the_repository_themes_folder() -> None:
    folder = builtin_theme_dir()
    assert folder is not None and {p.stem for p in folder.glob("*.toml")} == BUILT_IN
