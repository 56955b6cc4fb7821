"""grep: its own options are never read as abbreviations of another program's unsafe ones."""

from __future__ import annotations

from pathlib import Path

from program_answers import answer


# Broke before (the other way): grep's own `--include=GLOB` was read as an abbreviation of `--include-dir`.
def test_grep_include_is_grep_s_own_option_not_an_abbreviation(tmp_path: Path) -> None:
    assert answer("grep -rn --include=*.py needle .", tmp_path) == ("allow", "read_only")
    assert answer("grep -rn --include=*.py needle .", tmp_path, presets=["python"]) == ("allow", "allowlist")
    # make's `--include` still abbreviates its unsafe `--include-dir`
    assert answer("make --include=/tmp/x all", tmp_path, allow=["make"]) == ("refuse", "allowlist")
