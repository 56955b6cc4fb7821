"""Go callers as the default build sees them: a name declared in files that are never compiled
together (`//go:build nomsgpack` beside `!nomsgpack`, `_windows.go` beside `_unix.go`) binds to the
declaration the default build compiles; the other builds' callers are candidates marked with the
constraint, never proven, never lost."""

from __future__ import annotations

import pytest

from konstruct_tui.graph.languages.go.build_constraints import GOOS, compiled_by_default, constraint

_PACKAGE = {
    "go.mod": "module example.com/m\n\ngo 1.21\n",
    "binding/binding.go": "//go:build !nomsgpack\n\npackage binding\n\nfunc Default() int { return 1 }\n",
    "binding/binding_nomsgpack.go": "//go:build nomsgpack\n\npackage binding\n\nfunc Default() int { return 2 }\n",
    "binding/nomsgpack_test.go": "//go:build nomsgpack\n\npackage binding\n\nimport \"testing\"\n\n"
                                 "func TestDefault(t *testing.T) { _ = Default() }\n",
    "binding/helper.go": "package binding\n\nfunc Helper() int { return 3 }\n",
    "binding/helper_windows.go": "package binding\n\nfunc onWindows() int { return Helper() }\n",
    "app/context.go": "package app\n\nimport \"example.com/m/binding\"\n\nfunc Bind() int { return binding.Default() + binding.Helper() }\n",
}


def _by_path(answer: dict) -> dict[str, dict]:
    return {r["path"]: r for r in answer["results"]}


@pytest.mark.skipif(GOOS == "windows", reason="the default build here is not windows")
def test_callers_bind_to_the_declaration_the_default_build_compiles(ask) -> None:
    run = ask(_PACKAGE)
    compiled = run(mode="callers", symbol="Default", target="binding/binding.go")
    # the nomsgpack test's build compiles the other declaration: it never calls this one
    assert compiled["status"] == "ok" and set(_by_path(compiled)) == {"app/context.go"}
    assert _by_path(compiled)["app/context.go"]["evidence"] == "resolved"

    other = run(mode="callers", symbol="Default", target="binding/binding_nomsgpack.go")
    results = _by_path(other)
    # its own build's test calls it for sure; the default build's caller only when built with the tag
    assert results["binding/nomsgpack_test.go"]["evidence"] == "resolved"
    moved = results["app/context.go"]
    assert moved["evidence"] == "by_name" and moved["built_with"] == "nomsgpack"
    assert moved["binds_by_default"] == "binding/binding.go" and moved["lines"] == [5]


@pytest.mark.skipif(GOOS == "windows", reason="the default build here is not windows")
def test_a_caller_only_another_platform_compiles_is_a_marked_candidate(ask) -> None:
    answer = ask(_PACKAGE)(mode="callers", symbol="Helper", target="binding/helper.go")
    results = _by_path(answer)
    assert answer["status"] == "ok" and results["app/context.go"]["evidence"] == "resolved"
    windows = results["binding/helper_windows.go"]
    assert windows["evidence"] == "by_name" and windows["built_with"] == "windows" and "binds_by_default" not in windows


def test_only_a_constrained_caller_makes_the_answer_undeterminable_and_says_why(ask) -> None:
    files = {"go.mod": "module example.com/m\n\ngo 1.21\n",
             "lib/lib.go": "package lib\n\nfunc Rare() int { return 1 }\n",
             "cmd/tool_plan9.go": "package main\n\nimport \"example.com/m/lib\"\n\nfunc main() { _ = lib.Rare() }\n"}
    answer = ask(files)(mode="callers", symbol="Rare", target="lib/lib.go")
    assert answer["status"] == "undeterminable"
    assert "only when built with plan9" in answer["reason"] and "could not be proven" not in answer["reason"]


@pytest.mark.parametrize("path, text, expected", [
    ("a.go", "// Copyright 2024\n\n//go:build !nomsgpack && (linux || darwin || windows)\n\npackage a\n", True),
    ("a.go", "//go:build ignore\n\npackage main\n", False),
    ("a.go", "//go:build go1.18 && (cgo || gc)\npackage a\n", True),
    ("a.go", "// +build integration\n\npackage a\n", False),
    ("a.go", "// +build !integration,!e2e\n\npackage a\n", True),
    ("a.go", "package a\n\n//go:build never\n", True),  # after the package clause it is no constraint
    ("a_plan9.go", "package a\n", False),
    ("a_plan9_arm64_test.go", "package a\n", False),
    ("a_helper.go", "package a\n", True),  # not an OS or architecture name
    ("a.go", "//go:build (linux\npackage a\n", True),  # unreadable: the file stays like any other
])
def test_build_constraints_read_as_the_go_tool_reads_them(path: str, text: str, expected: bool) -> None:
    assert compiled_by_default(constraint(path, text)) is expected


@pytest.mark.skipif(GOOS == "windows", reason="the default build here is not windows")
def test_a_rename_lists_the_other_builds_callers_with_their_constraint(ask) -> None:
    answer = ask(_PACKAGE)(mode="rename_symbol", symbol="Helper", target="binding/helper.go")
    rows = {r["path"]: r for r in answer["results"]}
    assert rows["app/context.go"]["role"] == "reference"
    assert rows["binding/helper_windows.go"]["role"] == "candidate"
    assert rows["binding/helper_windows.go"]["built_with"] == "windows" and rows["binding/helper_windows.go"]["lines"] == [3]


def test_a_go_file_with_an_init_runs_with_its_package_and_is_never_dead(ask) -> None:
    files = {"go.mod": "module example.com/m\n\ngo 1.21\n",
             "gin/gin.go": "package gin\n\nvar defaultPlatform = \"\"\n\nfunc New() string { return defaultPlatform }\n",
             "gin/context_appengine.go": "//go:build appengine\n\npackage gin\n\nfunc init() {\n\tdefaultPlatform = \"gae\"\n}\n",
             "main.go": "package main\n\nimport \"example.com/m/gin\"\n\nfunc main() { _ = gin.New() }\n",
             "lone/lone.go": "package lone\n\nfunc init() {}\n",
             "lone/other.go": "package lone\n\nfunc helper() {}\n"}
    dead = {r["path"] for r in ask(files)(mode="unreferenced")["results"] if r.get("kind") == "file"}
    assert "gin/context_appengine.go" not in dead
    assert {"lone/lone.go", "lone/other.go"} <= dead  # nothing loads that package: its init never runs


@pytest.mark.skipif(GOOS != "linux", reason="the default build here is linux")
def test_twins_told_apart_by_file_name_and_by_legacy_build_lines(ask) -> None:
    # no //go:build line at all: one twin by its _GOOS name, one by the old `// +build` spelling
    files = {"go.mod": "module example.com/m\n\ngo 1.21\n",
             "fs/open_linux.go": "package fs\n\nfunc openFile() int { return 1 }\n",
             "fs/open_windows.go": "package fs\n\nfunc openFile() int { return 2 }\n",
             "fs/probe.go": "// +build !linux,!windows\n\npackage fs\n\nfunc openFile() int { return 3 }\n",
             "fs/use.go": "package fs\n\nfunc Use() int { return openFile() }\n"}
    run = ask(files)
    linux = run(mode="callers", symbol="openFile", target="fs/open_linux.go")
    assert linux["status"] == "ok" and [(r["path"], r["evidence"]) for r in linux["results"]] == [("fs/use.go", "resolved")]
    for other, constraint in (("fs/open_windows.go", "windows"), ("fs/probe.go", "!linux && !windows")):
        answer = run(mode="callers", symbol="openFile", target=other)
        assert answer["status"] == "undeterminable", other
        moved = {r["path"]: r for r in answer["results"]}["fs/use.go"]
        assert moved["binds_by_default"] == "fs/open_linux.go" and moved["built_with"] == constraint
