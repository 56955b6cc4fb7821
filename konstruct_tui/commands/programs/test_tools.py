"""Test runners, linters and compilers of a project: report files are writes wherever the caller says
(`--junitxml=src/app.py` overwrites a source file); a configuration file brings the code it loads."""

from __future__ import annotations

from .program import Program

# JavaScript test runners: not `--watch` or `--reporter=dot`, which are ordinary.
_JS_TEST = frozenset({"--outputFile", "--config", "-c", "--globalSetup", "--globalTeardown", "--setupFiles",
                      "--setupFilesAfterEnv", "--testResultsProcessor", "--coverageDirectory", "--rootDir",
                      "--outputJson", "--require"})

PROGRAMS = (
    Program(("pytest",), aliases=("py.test",),
            unsafe=frozenset({"-p", "-c", "--config-file", "--rootdir", "-o", "--override-ini", "--basetemp", "--pastebin",
                              "--confcutdir", "--junitxml", "--junit-xml", "--resultlog", "--result-log", "--report-log",
                              "--html", "--json-report-file", "--log-file", "--debug", "--cov-report", "--cov-config",
                              "--cache-dir"}),
            should_match=("pytest -q -x tests", "pytest -k name --maxfail=1"),
            should_not_match=("pytest -p evil", "pytest --junitxml=src/app.py", "pytest -o addopts=x")),
    Program(("jest",), unsafe=_JS_TEST, should_not_match=("jest --globalSetup=./x.js",)),
    Program(("vitest",), unsafe=_JS_TEST),
    Program(("mocha",), unsafe=_JS_TEST | {"-r", "--require", "--file", "--spec"}),
    Program(("eslint",), unsafe=frozenset({"-o", "--output-file", "-c", "--config", "--rulesdir", "--plugin",
                                           "--resolve-plugins-relative-to"}),
            should_match=("eslint src --fix",), should_not_match=("eslint -o src/app.js src",)),
    Program(("tsc",), unsafe=frozenset({"--outDir", "--outFile", "--out", "--declarationDir", "--tsBuildInfoFile", "-p",
                                        "--project", "--plugins"})),
)
