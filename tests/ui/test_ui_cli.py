"""`konstruct [--root DIR]` opens the workbench, `konstruct demo` opens it on a copy of the sample
project; bad input is one line and exit 2; the rest of the CLI never loads Textual."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from ui_harness import make_project

from konstruct_tui import ui
from konstruct_tui.app.demo import SAMPLE
from konstruct_tui.app import WorkbenchSetup


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[WorkbenchSetup]:
    calls: list[WorkbenchSetup] = []
    monkeypatch.setattr(ui, "run_workbench", calls.append)
    return calls


def test_bare_konstruct_opens_the_workbench_on_root(konstruct, opened, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    root = make_project(tmp_path)
    code, _, err = konstruct("--root", str(root), "--max-turns", "7")
    assert code == 0, err
    [setup] = opened
    assert setup.root == root.resolve() and setup.settings is not None and setup.settings.provider == "openai"
    assert setup.limits.max_turns == 7 and setup.model_problem is None and not setup.demo


def test_without_a_configured_model_the_workbench_still_opens_and_says_why(konstruct, opened, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    code, _, _ = konstruct("--root", str(make_project(tmp_path)))
    assert code == 0
    [setup] = opened
    assert setup.settings is None and "OPENAI_API_KEY" in (setup.model_problem or "")


@pytest.mark.parametrize(
    "argv",
    [
        ["--root", "/definitely/not/here"],
        ["--provider", "scripted"],  # needs --script
        ["--provider", "nope"],
        ["--theme", "no-such-theme"],
        ["--max-turns", "0"],
        ["demo", "--theme", "no-such-theme"],
    ],
)
def test_bad_input_is_one_line_and_exit_2(konstruct, opened, argv: list[str]) -> None:
    code, out, err = konstruct(*argv)
    assert code == 2 and not opened
    assert err.startswith("konstruct: error:") and err.count("\n") == 1


def test_a_broken_script_is_refused_before_the_screen_opens(konstruct, opened, tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    code, _, err = konstruct("--root", str(tmp_path), "--provider", "scripted", "--script", str(bad))
    assert code == 2 and not opened and "bad.json" in err


def test_demo_opens_on_a_fresh_copy_with_the_scripted_model(konstruct, opened, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    code, _, err = konstruct("demo")
    assert code == 0
    [setup] = opened
    assert setup.demo and setup.first_request and setup.settings is not None and setup.settings.provider == "scripted"
    assert setup.root != SAMPLE and (setup.root / "shop" / "pricing.py").read_bytes() == (SAMPLE / "shop" / "pricing.py").read_bytes()
    assert (setup.root / "web" / "src" / "pricing.ts").is_file()
    assert str(setup.root) in err  # says where the copy is, for a look afterwards


def test_version_and_other_commands_never_load_textual() -> None:
    probe = (
        "import sys; from konstruct_tui.cli import main\n"
        "code = main(['--version']) if False else main(['tools'])\n"
        "assert 'textual' not in sys.modules, 'textual loaded'\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    version = subprocess.run([sys.executable, "-m", "konstruct_tui", "--version"], capture_output=True, text=True)
    assert version.returncode == 0 and version.stdout.startswith("konstruct ")
