"""Package faces load on first use: importing a package costs nothing, and each public name is the
object its `__init__` names (never a submodule that shares its name)."""

from __future__ import annotations

import subprocess
import sys

import pytest


def _fresh(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_importing_a_face_loads_none_of_its_modules() -> None:
    out = _fresh("import sys, konstruct_tui.tools; print(sorted(m for m in sys.modules if m.startswith('konstruct_tui.tools.')))")
    assert out == "[]"


def test_a_name_loads_only_the_module_that_defines_it() -> None:
    out = _fresh("import sys\nfrom konstruct_tui.agent import Limits\n"
                 "print(Limits.__module__, 'konstruct_tui.agent.loop' in sys.modules)")
    assert out == "konstruct_tui.agent.budgets False"


def test_a_name_shared_with_its_submodule_is_the_function_not_the_module() -> None:
    # app.session_diff (the module) defines session_diff (the function): importing the module first,
    # as a sibling does, must not leave the package's name bound to the module.
    out = _fresh("import konstruct_tui.app.session_diff\nfrom konstruct_tui.app import session_diff\nprint(callable(session_diff), type(session_diff).__name__)")
    assert out == "True function"


@pytest.mark.parametrize("package", ["agent", "app", "blueprint", "providers", "tools"])
def test_every_public_name_resolves(package: str) -> None:
    module = __import__(f"konstruct_tui.{package}", fromlist=["__all__"])
    for name in module.__all__:
        assert getattr(module, name) is not None, name


def test_an_unknown_name_is_an_attribute_error() -> None:
    import konstruct_tui.agent as agent

    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        agent.nothing_here  # noqa: B018
