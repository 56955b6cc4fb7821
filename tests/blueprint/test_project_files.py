"""A project file the phase creates stays where verification runs, without its test part."""

from __future__ import annotations

import tomllib

from konstruct_tui.blueprint.project_files import without_test_parts

PROJECT = "[project]\nname = 'calc'\nversion = '0.1'\n"


def test_a_new_pyproject_loses_its_test_tables_and_keeps_the_rest() -> None:
    text = PROJECT + "\n[tool.pytest.ini_options]\naddopts = '-p rig'\n\n[tool.coverage.run]\nbranch = true\n\n[tool.ruff]\nline-length = 100\n"
    kept = without_test_parts("pyproject.toml", text.encode())
    assert kept is not None
    data = tomllib.loads(kept.decode())
    assert data["project"]["name"] == "calc" and data["tool"] == {"ruff": {"line-length": 100}}


def test_one_without_a_test_part_is_kept_byte_for_byte() -> None:
    assert without_test_parts("pyproject.toml", PROJECT.encode()) == PROJECT.encode()


def test_test_settings_that_no_table_holds_make_the_file_absent() -> None:
    dotted = "tool.pytest.ini_options.addopts = '-p rig'\n" + PROJECT
    inline = PROJECT + "\n[tool]\npytest = {ini_options = {addopts = '-p rig'}}\n"
    quoted = PROJECT + '\n["tool"."pytest".ini_options]\naddopts = "-p rig"\n'
    assert without_test_parts("pyproject.toml", dotted.encode()) is None
    assert without_test_parts("pyproject.toml", inline.encode()) is None
    kept = without_test_parts("pyproject.toml", quoted.encode())
    assert kept is not None and "tool" not in tomllib.loads(kept.decode())
    assert without_test_parts("pyproject.toml", b"[tool.pytest.ini_options\n") is None  # unreadable: absent, never kept as it is


def test_a_new_setup_cfg_loses_its_pytest_section() -> None:
    text = "[metadata]\nname = calc\n\n[tool:pytest]\naddopts = -p rig\n"
    kept = without_test_parts("setup.cfg", text.encode())
    assert kept is not None and b"metadata" in kept and b"rig" not in kept
