"""Theme files -> Textual themes.

A theme file is TOML: Textual's base colors plus Konstruct's own tokens under `[variables]`
(`gate-pass`, `status-conflict`, `tool-running`, ...). Built-in files ship in `themes/`; a person's own
go in `config_dir()/themes/`. Loading never stops start-up: each file either becomes a `Theme` or a
`ThemeProblem` the app reports, the way Posting does it.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
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


class ThemeFile(BaseModel):
    """One theme file as written on disk. Colors are anything Textual's `Color.parse` accepts."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, pattern=r"^[a-z0-9][a-z0-9-]*$")
    primary: str
    secondary: str | None = None
    accent: str | None = None
    foreground: str | None = None
    background: str | None = None
    surface: str | None = None
    panel: str | None = None
    boost: str | None = None
    success: str | None = None
    warning: str | None = None
    error: str | None = None
    dark: bool = True
    luminosity_spread: float = Field(default=0.15, ge=0, le=1)
    text_alpha: float = Field(default=0.95, ge=0, le=1)
    syntax: str = "monokai"  # the Pygments style for code and diffs in the transcript
    variables: dict[str, str] = Field(default_factory=dict)

    @field_validator("primary", "secondary", "accent", "foreground", "background", "surface", "panel", "boost", "success", "warning", "error")
    @classmethod
    def _is_color(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                Color.parse(value)
            except ColorParseError:
                raise ValueError(f"{value!r} is not a color") from None
        return value

    @field_validator("variables")
    @classmethod
    def _known_colors(cls, variables: dict[str, str]) -> dict[str, str]:
        # App tokens must be colors: a typo here would otherwise fail the whole stylesheet at start-up.
        for key, value in variables.items():
            if key in APP_VARIABLES:
                try:
                    Color.parse(value)
                except ColorParseError:
                    raise ValueError(f"variable {key!r}: {value!r} is not a color") from None
        return variables

    def to_theme(self) -> Theme:
        data = self.model_dump(exclude={"syntax"})
        return Theme(**data)


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
        return ThemeFile.model_validate(raw)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "file"
        return ThemeProblem(path.name, f"{where}: {first['msg']}")


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

