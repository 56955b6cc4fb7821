"""Fixtures for the sandbox tests: private user dirs, a workspace, and a way to run a child
process confined in a given mode through the command layer (argv, never a shell string of ours)."""

from __future__ import annotations

import sys
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest

from konstruct_tui.commands import ProcessOutcome, run_process
from konstruct_tui.sandbox import Confinement, SandboxSettings, kernel_abi, plan_for

needs_landlock = pytest.mark.skipif(kernel_abi() == 0, reason="this kernel has no Landlock")
needs_network_rules = pytest.mark.skipif(kernel_abi() < 4, reason="Landlock network rules need ABI 4")

# A child that tries to write each path given and prints one verdict per path.
WRITER = """
import sys
for target in sys.argv[1:]:
    try:
        with open(target, "w") as out:
            out.write("written")
        print("wrote", target)
    except PermissionError:
        print("denied", target)
    except OSError as error:
        print("error", target, error.errno)
"""


@pytest.fixture(autouse=True)
def private_user_dirs_for_sandbox(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path_factory.mktemp("sandbox-userdirs")
    for name in ("XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"):
        monkeypatch.setenv(name, str(home / name.lower()))
    monkeypatch.delenv("KONSTRUCT_SANDBOX_ABI", raising=False)


@pytest.fixture
def workspace_root(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    (root / "src").mkdir()
    return root


@pytest.fixture
def outside_paths() -> Callable[[str], Path]:
    """Fresh, unused paths outside the workspace; whatever a failed test left there is removed."""
    made: list[Path] = []

    def make(folder: str) -> Path:
        path = Path(folder).expanduser() / f"konstruct-sandbox-test-{uuid.uuid4().hex}"
        made.append(path)
        return path

    yield make
    for path in made:
        path.unlink(missing_ok=True)


def run_confined(root: Path, argv: list[str], mode: str = "workspace-write", allow_network: bool = False,
                 timeout_s: float = 60) -> ProcessOutcome:
    plan = plan_for(root, SandboxSettings(mode=mode, allow_network=allow_network))
    with Confinement(plan) as confinement:
        return run_process(argv, root, timeout_s=timeout_s, confinement=confinement)


def verdicts(outcome: ProcessOutcome) -> dict[str, str]:
    """{path: "wrote" | "denied" | "error"} from the WRITER child's output."""
    out = {}
    for line in outcome.stdout.splitlines():
        verdict, _, rest = line.partition(" ")
        out[rest.split(" ")[0]] = verdict
    return out


def writer(*targets: str | Path) -> list[str]:
    return [sys.executable, "-I", "-c", WRITER, *map(str, targets)]
