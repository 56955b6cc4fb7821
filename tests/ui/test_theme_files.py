"""Theme files are checked field by field (no validation library on the start path): every wrong
shape is one problem naming the field, and start-up goes on."""

from __future__ import annotations

from pathlib import Path

import pytest

from konstruct_tui.ui.themes import load_themes

GOOD = 'name = "mine"\nprimary = "#112233"\n'


@pytest.mark.parametrize(("extra", "field"), [
    ('secondary = 5\n', "secondary"),
    ('accent = "no-such-colour"\n', "accent"),
    ('dark = "yes"\n', "dark"),
    ('luminosity_spread = 2\n', "luminosity_spread"),
    ('text_alpha = true\n', "text_alpha"),
    ('syntax = 3\n', "syntax"),
    ('variables = "gate-pass"\n', "variables"),
    ('[variables]\ngate-pass = "not a colour"\n', "variables.gate-pass"),
    ('[variables]\ngate-pass = 7\n', "variables"),
    ('sparkle = true\n', "sparkle"),
])
def test_each_wrong_field_is_named(tmp_path: Path, extra: str, field: str) -> None:
    (tmp_path / "mine.toml").write_text(GOOD + extra)
    themes = load_themes(builtin=tmp_path / "none", user=tmp_path)
    assert themes.names() == () and [p.reason.split(":")[0] for p in themes.failed] == [field]


@pytest.mark.parametrize("text", ['primary = "#112233"\n', 'name = "mine"\n', 'name = "Bad Name"\nprimary = "#112233"\n',
                                  'name = 5\nprimary = "#112233"\n'])
def test_a_missing_or_bad_name_or_primary_is_a_problem(tmp_path: Path, text: str) -> None:
    (tmp_path / "mine.toml").write_text(text)
    themes = load_themes(builtin=tmp_path / "none", user=tmp_path)
    assert themes.names() == () and len(themes.failed) == 1


def test_a_good_file_keeps_every_setting(tmp_path: Path) -> None:
    (tmp_path / "mine.toml").write_text(GOOD + 'dark = false\naccent = "red"\ntext_alpha = 0.5\nsyntax = "friendly"\n[variables]\ngate-pass = "#00ff00"\n')
    themes = load_themes(builtin=tmp_path / "none", user=tmp_path)
    [theme] = themes.loaded
    assert (theme.name, theme.primary, theme.accent, theme.dark, theme.text_alpha) == ("mine", "#112233", "red", False, 0.5)
    assert theme.variables == {"gate-pass": "#00ff00"} and themes.syntax == {"mine": "friendly"}
