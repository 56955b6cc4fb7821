"""The recovery sweep leans on one private DBOS call (team/engine.py says why there is no public
one): this fails loudly, naming what to check, the day an upgrade moves or changes it."""

from __future__ import annotations

import inspect
import re
import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest

from konstruct_tui.team import DatabaseProblem


def test_the_private_recovery_call_is_there_with_the_shape_we_call() -> None:
    from dbos import DBOS

    from konstruct_tui.team.engine import RECOVERY, recovery_call

    found = getattr(DBOS, RECOVERY, None)
    assert callable(found), (f"dbos {version('dbos')} has no DBOS.{RECOVERY}: the worker's recovery sweep (team/engine.py `recover`) "
                             "needs another route before this dbos can be allowed")
    parameters = list(inspect.signature(found).parameters)
    assert parameters == ["executor_ids"], f"DBOS.{RECOVERY} now takes {parameters}: check what team/engine.py `recover` passes"
    assert recovery_call() == found


def test_the_installed_dbos_is_inside_the_pinned_range() -> None:
    project = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text())
    pin = next(d for d in project["project"]["dependencies"] if d.startswith("dbos"))
    low, high = re.match(r"dbos>=([\d.]+),<([\d.]+)$", pin.replace(" ", "")).groups()  # type: ignore[union-attr]
    installed = tuple(int(x) for x in version("dbos").split(".")[:2])
    assert tuple(int(x) for x in low.split(".")[:2]) <= installed < tuple(int(x) for x in high.split(".")[:2]), (pin, version("dbos"))


def test_a_dbos_without_it_stops_a_worker_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    from dbos import DBOS

    from konstruct_tui.team.engine import RECOVERY, recovery_call

    monkeypatch.delattr(DBOS, RECOVERY)
    with pytest.raises(DatabaseProblem) as problem:
        recovery_call()
    assert "dbos>=3.4,<3.5" in str(problem.value) and "\n" not in str(problem.value)
