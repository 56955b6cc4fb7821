"""Failing file paths read out of real verifier output formats, and whose failure it is."""

from __future__ import annotations

import pytest

from konstruct_tui.blueprint.failures import failing_paths, implication

PYTHON = '''Traceback (most recent call last):
  File "/work/proj/check.py", line 3, in <module>
    calc.add(1, 2)
  File "/work/proj/pkg/calc.py", line 2, in add
    return a / 0
  File "/usr/lib/python3.11/functools.py", line 9, in wrapper
ZeroDivisionError: division by zero
'''
PYTEST = '''=================================== FAILURES ===================================
___________________________________ test_add ___________________________________

    def test_add():
>       assert add(2, 3) == 5
E       assert -1 == 5

tests/test_calc.py:4: AssertionError
=========================== short test summary info ============================
FAILED tests/test_calc.py::test_add - assert -1 == 5
ERROR tests/test_io.py - ImportError: cannot import name 'x'
1 failed, 1 error in 0.03s
'''
TSC = '''src/app.ts(12,5): error TS2322: Type 'string' is not assignable to type 'number'.
src/util/math.ts:3:10 - error TS2304: Cannot find name 'foo'.
'''
GO = '''# example.com/calc
./calc.go:12:5: undefined: Foo
--- FAIL: TestAdd (0.00s)
    calc_test.go:14: got 1, want 3
FAIL
FAIL	example.com/calc	0.002s
'''
JAVAC = '''src/main/java/com/acme/Calc.java:12: error: cannot find symbol
        return foo(a, b);
               ^
1 error
'''
ESLINT_STYLISH = '''
/work/proj/src/index.js
  12:5  error  'x' is not defined  no-undef
  14:1  warning  Unexpected console statement  no-console

/work/proj/src/other.js
  1:1  error  Parsing error: Unexpected token
'''
ESLINT_UNIX = "src/a.js:12:5: 'x' is not defined. [Error/no-undef]\n"


@pytest.mark.parametrize(("output", "expected"), [
    (PYTHON, ["check.py", "pkg/calc.py"]),
    (PYTEST, ["tests/test_calc.py", "tests/test_io.py"]),
    (TSC, ["src/app.ts", "src/util/math.ts"]),
    (GO, ["calc.go", "calc_test.go"]),
    (JAVAC, ["src/main/java/com/acme/Calc.java"]),
    (ESLINT_STYLISH, ["src/index.js", "src/other.js"]),
    (ESLINT_UNIX, ["src/a.js"]),
])
def test_failing_paths_come_out_of_each_format_relative_to_the_project(output: str, expected: list[str]) -> None:
    assert failing_paths(output, "/work/proj") == expected


def test_output_that_names_no_file_blames_nobody() -> None:
    blame = implication(failing_paths("Segmentation fault\n", "/work/proj"), ["calc.py"])
    assert blame.failing == () and "names no file" in blame.describe()


def test_a_failure_is_matched_against_the_files_the_phase_touched() -> None:
    mine = implication(["pkg/calc.py", "check.py"], ["pkg/calc.py"])
    assert mine.implicated == ("pkg/calc.py",) and mine.untouched == ("check.py",)
    theirs = implication(["legacy.py"], ["pkg/calc.py"])
    assert theirs.implicated == () and "never touched: legacy.py" in theirs.describe()
    go = implication(["calc_test.go"], ["pkg/calc/calc_test.go"])  # go test logs give base names
    assert go.implicated == ("calc_test.go",)
