"""Our own git runs no program the project controls: each execution vector git has is planted in a
repository (its .git/config, an included project file, .gitattributes, the environment) and every
git call the workbench makes for itself is run; no marker file may appear. A control run of plain
`git` proves each plant is live."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from konstruct_tui.graph import gitstate
from konstruct_tui.tools import ToolContext, call
from konstruct_tui.workspace import Workspace
from konstruct_tui.workspace.listing import list_files
from konstruct_tui.workspace.safe_git import git_argv, git_environment

VECTORS = ("fsmonitor", "hook", "external", "pager", "clean", "process", "textconv", "command", "included",
           "env_external", "env_config", "env_parameters", "env_pager")


def _git(repo: Path, *args: str, env: dict[str, str] | None = None) -> None:
    subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, env=env)


@pytest.fixture
def trap(tmp_path: Path) -> tuple[Path, Path]:
    """A repository with every vector planted; each one, if run, creates marks/<vector>."""
    repo, marks, bin_dir = tmp_path / "repo", tmp_path / "marks", tmp_path / "bin"
    marks.mkdir()
    bin_dir.mkdir()
    for name in VECTORS:
        script = bin_dir / name
        script.write_text(f"#!/bin/sh\ntouch {marks / name}\ncat\n")
        script.chmod(0o755)
    repo.mkdir()
    _git(repo, "init", "-q")
    _git(repo, "config", "user.email", "t@example.com")
    _git(repo, "config", "user.name", "t")
    (repo / "a.txt").write_text("one\n")
    (repo / "b.bin").write_text("two\n")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "first")
    (repo / ".gitattributes").write_text("a.txt filter=evil diff=evil\nb.bin filter=proc\n*.md filter=inc\n")
    (repo / "notes.md").write_text("x\n")
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    for hook in ("post-index-change", "pre-commit", "reference-transaction"):
        (hooks / hook).write_text(f"#!/bin/sh\ntouch {marks / 'hook'}\n")
        (hooks / hook).chmod(0o755)
        (repo / ".git" / "hooks" / hook).write_text(f"#!/bin/sh\ntouch {marks / 'hook'}\n")
        (repo / ".git" / "hooks" / hook).chmod(0o755)
    (repo / "project.gitconfig").write_text(f'[filter "inc"]\n\tclean = {bin_dir / "included"}\n\trequired = true\n')
    config = {
        "core.fsmonitor": str(bin_dir / "fsmonitor"), "core.hooksPath": str(hooks),
        "diff.external": str(bin_dir / "external"), "core.pager": str(bin_dir / "pager"),
        "pager.diff": str(bin_dir / "pager"), "filter.evil.clean": str(bin_dir / "clean"),
        "filter.evil.smudge": str(bin_dir / "clean"), "filter.evil.required": "true",
        "filter.proc.process": str(bin_dir / "process"), "diff.evil.textconv": str(bin_dir / "textconv"),
        "diff.evil.command": str(bin_dir / "command"), "include.path": "../project.gitconfig",
    }
    for key, value in config.items():
        _git(repo, "config", key, value)
    (repo / "a.txt").write_text("one\nchanged\n")  # a dirty tracked file: status and diff must hash it
    (repo / "b.bin").write_text("two\nchanged\n")
    return repo, marks


@pytest.fixture
def hostile_environment(trap: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    bin_dir = trap[1].parent / "bin"
    monkeypatch.setenv("GIT_EXTERNAL_DIFF", str(bin_dir / "env_external"))
    monkeypatch.setenv("GIT_CONFIG_COUNT", "1")
    monkeypatch.setenv("GIT_CONFIG_KEY_0", "core.fsmonitor")
    monkeypatch.setenv("GIT_CONFIG_VALUE_0", str(bin_dir / "env_config"))
    monkeypatch.setenv("GIT_CONFIG_PARAMETERS", f"'core.pager'='{bin_dir / 'env_parameters'}'")
    monkeypatch.setenv("GIT_PAGER", str(bin_dir / "env_pager"))
    elsewhere = trap[0].parent / "elsewhere"  # a git folder of the agent's choosing, named by GIT_DIR
    subprocess.run(["git", "init", "-q", "--bare", str(elsewhere)], check=True)
    subprocess.run(["git", "--git-dir", str(elsewhere), "config", "core.fsmonitor", str(bin_dir / "fsmonitor")], check=True)
    monkeypatch.setenv("GIT_DIR", str(elsewhere))
    monkeypatch.setenv("GIT_WORK_TREE", str(trap[0].parent))


def test_the_planted_vectors_are_live_for_plain_git(trap: tuple[Path, Path]) -> None:
    repo, marks = trap
    subprocess.run(["git", "-C", str(repo), "diff"], capture_output=True, check=False)
    subprocess.run(["git", "-C", str(repo), "status"], capture_output=True, check=False)
    assert {"fsmonitor", "external", "clean"} <= {p.name for p in marks.iterdir()}


def test_no_git_call_of_ours_runs_a_planted_program(trap: tuple[Path, Path], hostile_environment: None) -> None:
    repo, marks = trap
    commit = gitstate.head(repo)
    assert commit
    changed = gitstate.changed_since(repo, commit)
    assert changed is not None and "a.txt" in changed
    gitstate.is_ignored(repo, "a.txt")
    assert "a.txt" in list_files(repo)
    with Workspace(repo) as workspace:
        answer = call("git_diff", {}, ToolContext(workspace)).to_json()
    assert any(f["path"] == "a.txt" for f in answer["files"]), answer
    assert sorted(p.name for p in marks.iterdir()) == []


def test_the_argv_and_environment_say_what_is_overridden(trap: tuple[Path, Path], hostile_environment: None) -> None:
    repo, _ = trap
    argv = git_argv(repo, "status")
    assert "core.fsmonitor=false" in argv and "core.hooksPath=/dev/null" in argv and "--no-pager" in argv
    assert "filter.evil.clean=" in argv and "diff.evil.textconv=" in argv and "filter.inc.clean=" in argv
    env = git_environment()
    assert not [k for k in env if k.startswith("GIT_") and k not in
                ("GIT_CONFIG_NOSYSTEM", "GIT_TERMINAL_PROMPT", "GIT_OPTIONAL_LOCKS", "GIT_PAGER", "GIT_ATTR_NOSYSTEM")]
    assert env["GIT_PAGER"] == "cat"


def test_a_new_filter_added_later_is_overridden_too(trap: tuple[Path, Path]) -> None:
    repo, marks = trap
    git_argv(repo, "status")  # cached once
    script = marks.parent / "bin" / "clean"
    (repo / ".gitattributes").write_text("a.txt filter=later\n")
    _git(repo, "config", "filter.later.clean", str(script))
    gitstate.changed_since(repo, gitstate.head(repo) or "HEAD")
    assert not (marks / "clean").exists()
    assert os.path.exists(repo / ".git" / "config")


def test_a_dot_git_file_pointing_at_a_planted_git_dir_runs_nothing(tmp_path: Path) -> None:
    """A command in a project without .git could write `.git` as a file naming a git folder it made."""
    marks, real = tmp_path / "marks", tmp_path / "real"
    marks.mkdir()
    _git(tmp_path, "init", "-q", str(real))
    (real / "a.txt").write_text("x\n")
    _git(real, "add", ".")
    _git(real, "-c", "user.email=t@e", "-c", "user.name=t", "commit", "-qm", "one")
    project = tmp_path / "project"
    project.mkdir()
    (project / "a.txt").write_text("x\nchanged\n")
    planted = project / "planted-git"
    subprocess.run(["cp", "-r", str(real / ".git"), str(planted)], check=True)
    hook = tmp_path / "fsmonitor.sh"
    hook.write_text(f"#!/bin/sh\ntouch {marks / 'fsmonitor'}\n")
    hook.chmod(0o755)
    (project / ".git").write_text("gitdir: planted-git\n")
    _git(project, "config", "core.fsmonitor", str(hook))
    _git(project, "config", f"includeIf.gitdir:{planted}/.path", str(project / "x.cfg"))
    (project / "x.cfg").write_text(f'[diff]\n\texternal = {hook}\n')
    (project / ".gitattributes").write_text("")
    gitstate.changed_since(project, "HEAD")
    list_files(project)
    subprocess.run(["git", "-C", str(project), "status"], capture_output=True, check=False)  # control: plain git
    assert (marks / "fsmonitor").exists()
    (marks / "fsmonitor").unlink()
    gitstate.changed_since(project, "HEAD")
    list_files(project)
    assert not (marks / "fsmonitor").exists()


def _submodule_with_planted_git_dir(tmp_path: Path) -> tuple[Path, Path]:
    """A project with a submodule whose `.git` file (a project file any edit may change) names a git
    folder made inside the project, with a clean filter of its own; the file is touched, so a status
    that looks inside the submodule must hash it through the filter. Returns (project, mark)."""
    mark = tmp_path / "marks" / "submodule-filter"
    mark.parent.mkdir()
    lib, project = tmp_path / "lib", tmp_path / "project"
    _git(tmp_path, "init", "-q", str(lib))
    (lib / "f.txt").write_text("x\n")
    _git(lib, "add", ".")
    _git(lib, "-c", "user.email=t@e", "-c", "user.name=t", "commit", "-qm", "lib")
    _git(tmp_path, "init", "-q", str(project))
    _git(project, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(lib), "lib")
    _git(project, "-c", "user.email=t@e", "-c", "user.name=t", "commit", "-qm", "with lib")
    planted = project / "planted"
    subprocess.run(["cp", "-r", str(project / ".git" / "modules" / "lib"), str(planted)], check=True)
    for key, value in (("core.worktree", "../lib"), ("filter.evil.clean", f"touch {mark}; cat")):
        subprocess.run(["git", "config", "--file", str(planted / "config"), key, value], check=True)
    (project / "lib" / ".git").write_text("gitdir: ../planted\n")
    (planted / "info").mkdir(exist_ok=True)
    (planted / "info" / "attributes").write_text("* filter=evil\n")
    os.utime(project / "lib" / "f.txt", (1, 1))  # stat differs from the index: git must hash it
    return project, mark


def test_a_submodule_pointed_at_a_planted_git_folder_runs_nothing(tmp_path: Path) -> None:
    """Red team: `git status` looks inside each submodule with a git of its own, under the submodule's
    config, which no override can name ahead. Ours never looks inside (`diff.ignoreSubmodules=dirty`)."""
    project, mark = _submodule_with_planted_git_dir(tmp_path)
    subprocess.run(["git", "-C", str(project), "--no-optional-locks", "-c", "core.fsmonitor=false", "status"],
                   capture_output=True, check=False)  # control: git with the old overrides still runs it
    assert mark.exists()
    mark.unlink()
    os.utime(project / "lib" / "f.txt", (2, 2))
    done = subprocess.run(git_argv(project, "status", "--porcelain"), capture_output=True, env=git_environment(), check=False)
    gitstate.changed_since(project, "HEAD")
    list_files(project)
    assert done.returncode == 0 and b"planted/" in done.stdout  # status still answers
    assert not mark.exists()


def test_blueprint_snapshots_list_files_with_our_hardened_git(tmp_path: Path) -> None:
    """Red team: the blueprint's tree snapshot ran a bare `git ls-files`, which runs core.fsmonitor
    from a `.git` a command made in a project that had none."""
    from konstruct_tui.workspace.snapshot import take_snapshot

    mark = tmp_path / "fsmonitor-ran"
    project = tmp_path / "project"
    _git(tmp_path, "init", "-q", str(project))
    (project / "a.txt").write_text("x\n")
    _git(project, "add", ".")
    _git(project, "config", "core.fsmonitor", f"touch {mark}; echo")
    subprocess.run(["git", "-C", str(project), "ls-files"], capture_output=True, check=False)  # control
    assert mark.exists()
    mark.unlink()
    snapshot = take_snapshot(project)
    assert "a.txt" in snapshot.files
    assert not mark.exists()


def test_only_the_hardened_module_starts_git() -> None:
    """By construction: no module but safe_git.py starts a process whose argv begins with "git", so a
    new git call cannot forget the hardening."""
    import ast

    package = Path(__file__).parents[2] / "konstruct_tui"
    offenders = []
    for module in package.rglob("*.py"):
        if module.name == "safe_git.py":
            continue
        for node in ast.walk(ast.parse(module.read_text())):
            declared = isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Program"
            if declared:  # the command policy's table entry names the program; it starts nothing
                continue
            if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], (ast.List, ast.Tuple)):
                first = node.args[0].elts[:1]
                if first and isinstance(first[0], ast.Constant) and first[0].value == "git":
                    offenders.append(f"{module.relative_to(package)}:{node.lineno}")
    assert offenders == []


def test_a_planted_work_tree_above_the_project_shows_nothing_outside_it(tmp_path: Path) -> None:
    """Red team (held): a `.git` a command made in a project that had none, with `core.worktree`
    naming a folder above the project and a commit of a file there. Our git still answers for the
    project only: nothing of the outside file reaches git_diff or the listing."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("TOP-SECRET\n")
    project = outside / "project"
    project.mkdir()
    (project / "a.txt").write_text("x\n")
    _git(project, "init", "-q")
    blob = subprocess.run(["git", "-C", str(project), "hash-object", "-w", "--stdin"], input=b"old\n",
                          capture_output=True, check=True).stdout.decode().strip()
    _git(project, "update-index", "--add", "--cacheinfo", f"100644,{blob},secret.txt")
    _git(project, "config", "core.worktree", str(outside))
    _git(project, "-c", "user.email=t@e", "-c", "user.name=t", "commit", "-qm", "x")
    plain = subprocess.run(["git", "-C", str(project), "diff", "HEAD"], capture_output=True, text=True, check=False)
    assert "TOP-SECRET" in plain.stdout  # control: the plant is live for plain git
    with Workspace(project) as workspace:
        answer = call("git_diff", {}, ToolContext(workspace)).to_json()
    assert "TOP-SECRET" not in str(answer)
    assert all("secret" not in name for name in list_files(project))
