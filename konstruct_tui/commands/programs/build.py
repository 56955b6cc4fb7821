"""Build tools, package managers and the runners of a project's environment (`uv run CMD`)."""

from __future__ import annotations

from .program import Program, options
from .runners import BUNX_OPTIONS, NPX_OPTIONS

# pnpm exec/dlx `-c`: the words after the options are joined and run by a shell (wrappers.py).
_SHELL_MODE = {"-c": "shell_mode", "--shell-mode": "shell_mode"}

PROGRAMS = (
    # `-f`/`-C`/`-I` read another makefile (and the commands in it); `--eval` runs a line of make
    # `make SHELL=x`, `CC=x`, `MAKEFLAGS=x`: an operand setting a variable changes what runs
    Program(("make", "gmake"), variables_change_runs=True,
            unsafe=frozenset({"-f", "--file", "--makefile", "-C", "--directory", "-I", "--include-dir", "-e",
                              "--environment-overrides"}),
            runs={"--eval": "shell", "-E": "shell"},
            should_match=("make test", "make -j4 -k build"),
            should_not_match=("make -f /tmp/x.mk", "make --eval=x", "make -C /tmp", "make -kE x")),
    Program(("npm",), aliases=("npx", "pnpx"),
            unsafe=frozenset({"--script-shell", "--prefix", "-C", "--userconfig", "--globalconfig", "--node-options", "-c",
                              "--call", "--shell", "--init-module", "--onload-script", "--git", "--browser", "--viewer"}),
            runs_subcommands={"exec": NPX_OPTIONS, "x": NPX_OPTIONS}, names_scripts=True,
            should_match=("npm test", "npm run build --silent"),
            should_not_match=("npm test --script-shell=./x", "npx -c x", "npm run x --node-options=--require=./y")),
    Program(("pnpm",), unsafe=frozenset({"-C", "--dir", "--script-shell", "-c", "--shell-mode"}),
            runs_subcommands={"dlx": options("c", "package= shell-mode silent", _SHELL_MODE),
                              "exec": options("cr", "shell-mode recursive parallel", _SHELL_MODE)},
            names_scripts=True),
    Program(("yarn",), unsafe=frozenset({"--cwd"}),
            runs_subcommands={"dlx": options("p:q", "package= quiet"), "exec": options()},
            shell_subcommands=frozenset({"exec"}), names_scripts=True),
    Program(("bun",), runs_subcommands={"x": BUNX_OPTIONS}, names_scripts=True),
    Program(("uv",), runs_subcommands={"run": options(
        "qvw:p:", "with= with-editable= with-requirements= python= package= extra= all-extras no-dev frozen locked "
        "isolated no-project no-sync offline quiet verbose directory= project= env-file= no-env-file module script "
        "gui-script", {"--directory": "chdir", "--project": "chdir"})}),
    Program(("poetry",), runs_subcommands={"run": options("qvnP:C:", "quiet verbose no-interaction project= directory=", {
        "-C": "chdir", "--directory": "chdir", "-P": "chdir", "--project": "chdir"})}),
    Program(("pdm",), runs_subcommands={"run": options("qvlgp:", "verbose quiet list global project= venv=",
                                                       {"-p": "chdir", "--project": "chdir"})}),
    Program(("pipenv",), runs_subcommands={"run": options("qv", "quiet verbose python=")}),
    Program(("hatch",), runs_subcommands={"run": options()}),
    Program(("conda",), runs_subcommands={"run": options("n:p:v", "name= prefix= cwd= no-capture-output live-stream",
                                                         {"--cwd": "chdir"})}),
    Program(("go",), unsafe=frozenset({"-exec", "-toolexec", "-modfile", "-overlay", "-C"}), writes=("-o",),
            should_match=("go test ./...", "go build -o bin/app ."),
            should_not_match=("go test -exec=./x ./...", "go build -toolexec=./x .")),
    Program(("mvn",), aliases=("./mvnw",),
            unsafe=frozenset({"-f", "--file", "-s", "--settings", "-gs", "--global-settings", "-t", "--toolchains"})),
    Program(("gradle",), aliases=("./gradlew",),
            unsafe=frozenset({"-I", "--init-script", "-b", "--build-file", "-c", "--settings-file", "-p", "--project-dir"}),
            should_match=("./gradlew test", "gradle build --offline"), should_not_match=("./gradlew -I x.gradle test",)),
    # compilers and linkers: `-o FILE` writes wherever it says
    Program(("gcc",), writes=("-o",)), Program(("cc",), writes=("-o",)), Program(("clang",), writes=("-o",)),
    Program(("ld",), writes=("-o",)),
)
