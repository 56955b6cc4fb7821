"""Theme files -> Textual themes.

A theme file is TOML: Textual's base colors plus Konstruct's own tokens under `[variables]`
(`gate-pass`, `status-conflict`, `tool-running`, ...). Built-in files ship in `themes/`; a person's own
go in `config_dir()/themes/`. Loading never stops start-up: each file either becomes a `Theme` or a
`ThemeProblem` the app reports, the way Posting does it.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from textual.color import Color, ColorParseError
from textual.theme import Theme

from ..userdirs import config_dir

DEFAULT_THEME = "konstruct-dark"

# Konstruct's own theme tokens, and the Textual base color each falls back to when a (user) theme
# leaves it out. Built-in themes must set all of them (tests/ui/test_themes.py checks).
APP_VARIABLES: dict[str, str] = {
    "gate-pass": "success",
    "gate-fail": "error",
    "gate-defects": "warning",
    "gate-pending": "foreground-muted",
    "tool-running": "primary",
    "tool-ok": "success",
    "tool-failed": "error",
    "status-ok": "success",
    "status-conflict": "warning",
    "status-skipped": "foreground-muted",
    "status-rejected": "error",
    "status-rolled-back": "accent",
    "kill-background": "error",
    "scripted-label": "accent",
}


COLOR_FIELDS = ("primary", "secondary", "accent", "foreground", "background", "surface", "panel", "boost", "success", "warning", "error")
_NAME = re.compile(r"^[a-z0-9][a-z0-9-]*$")


class ThemeInvalid(ValueError):
    """A theme file's field that cannot be used: `where` names it."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")


@dataclass(frozen=True)
class ThemeFile:
    """One theme file as written on disk. Colors are anything Textual's `Color.parse` accepts.

    Checked by hand, not by a validation library: every start reads the built-in themes before the
    first frame, and importing one costs more than drawing that frame."""

    name: str
    primary: str
    colors: dict[str, str]  # the optional colors the file sets
    dark: bool = True
    luminosity_spread: float = 0.15
    text_alpha: float = 0.95
    syntax: str = "monokai"  # the Pygments style for code and diffs in the transcript
    variables: dict[str, str] | None = None

    @classmethod
    def from_toml(cls, raw: dict[str, Any]) -> ThemeFile:
        unknown = sorted(set(raw) - {"name", *COLOR_FIELDS, "dark", "luminosity_spread", "text_alpha", "syntax", "variables"})
        if unknown:
            raise ThemeInvalid(unknown[0], "Extra inputs are not permitted")
        for required in ("name", "primary"):
            if required not in raw:
                raise ThemeInvalid(required, "Field required")
        name = raw["name"]
        if not isinstance(name, str) or not _NAME.match(name):
            raise ThemeInvalid("name", "must be lower-case letters, digits and dashes, starting with a letter or digit")
        colors = {key: _color(key, raw[key]) for key in COLOR_FIELDS if key in raw}
        dark = raw.get("dark", True)
        if not isinstance(dark, bool):
            raise ThemeInvalid("dark", "must be true or false")
        syntax = raw.get("syntax", "monokai")
        if not isinstance(syntax, str):
            raise ThemeInvalid("syntax", "must be a string (a Pygments style name)")
        variables = raw.get("variables", {})
        if not isinstance(variables, dict) or not all(isinstance(v, str) for v in variables.values()):
            raise ThemeInvalid("variables", "must be a table of strings")
        for key, value in variables.items():
            if key in APP_VARIABLES:  # a typo here would otherwise fail the whole stylesheet at start-up
                _color(f"variables.{key}", value, f"variable {key!r}: ")
        return cls(name, colors.pop("primary"), colors, dark, _fraction(raw, "luminosity_spread", 0.15),
                   _fraction(raw, "text_alpha", 0.95), syntax, dict(variables))

    def to_theme(self) -> Theme:
        return Theme(self.name, self.primary, **self.colors, dark=self.dark, luminosity_spread=self.luminosity_spread,  # type: ignore[arg-type]
                     text_alpha=self.text_alpha, variables=dict(self.variables or {}))


def _color(where: str, value: Any, prefix: str = "") -> str:
    if not isinstance(value, str):
        raise ThemeInvalid(where, f"{prefix}{value!r} is not a color")
    try:
        Color.parse(value)
    except ColorParseError:
        raise ThemeInvalid(where, f"{prefix}{value!r} is not a color") from None
    return value


def _fraction(raw: dict[str, Any], key: str, default: float) -> float:
    value = raw.get(key, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        raise ThemeInvalid(key, f"must be a number from 0 to 1, not {value!r}")
    return float(value)


@dataclass(frozen=True)
class ThemeProblem:
    """A theme file that could not be loaded, with a reason a person can act on."""

    path: str
    reason: str


@dataclass(frozen=True)
class ThemeSet:
    loaded: tuple[Theme, ...]
    failed: tuple[ThemeProblem, ...]
    syntax: dict[str, str]  # theme name -> Pygments style

    def names(self) -> tuple[str, ...]:
        return tuple(theme.name for theme in self.loaded)


def builtin_theme_dir() -> Path | None:
    """`themes/` beside the package: the wheel carries it as `konstruct_tui/themes`, a source
    checkout has it at the repository root."""
    package = Path(__file__).resolve().parents[1]
    for candidate in (package / "themes", package.parent / "themes"):
        if candidate.is_dir():
            return candidate
    return None


def user_theme_dir() -> Path:
    return config_dir() / "themes"


def load_themes(builtin: Path | None = None, user: Path | None = None) -> ThemeSet:
    """Every theme file of both folders; a user theme may replace a built-in one by name."""
    loaded: dict[str, Theme] = {}
    syntax: dict[str, str] = {}
    failed: list[ThemeProblem] = []
    for folder in (builtin if builtin is not None else builtin_theme_dir(), user if user is not None else user_theme_dir()):
        if folder is None or not folder.is_dir():
            continue
        for path in sorted(folder.glob("*.toml")):
            parsed = _parse(path)
            if isinstance(parsed, ThemeProblem):
                failed.append(parsed)
                continue
            loaded[parsed.name] = parsed.to_theme()
            syntax[parsed.name] = parsed.syntax
    return ThemeSet(tuple(loaded.values()), tuple(failed), syntax)


def _parse(path: Path) -> ThemeFile | ThemeProblem:
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        return ThemeProblem(path.name, f"cannot read: {error.strerror or error}")
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        return ThemeProblem(path.name, f"not valid TOML: {error}")
    try:
        return ThemeFile.from_toml(raw)
    except ThemeInvalid as error:
        return ThemeProblem(path.name, str(error))


def fill_app_variables(variables: dict[str, str]) -> dict[str, str]:
    """Give every app token a value: the theme's own, else the base color it stands in for."""
    filled = dict(variables)
    for token, base in APP_VARIABLES.items():
        if token not in filled and base in filled:
            filled[token] = filled[base]
    return filled


def unknown_theme(name: str) -> str | None:
    """Why `name` cannot be used as a theme, or None when it can (ours, a user's, or Textual's own)."""
    from textual.theme import BUILTIN_THEMES

    ours = load_themes().names()
    if name in ours or name in BUILTIN_THEMES:
        return None
    return f"unknown theme {name!r}; known: {', '.join(ours)}, or one of Textual's own (e.g. nord, gruvbox)"

