"""Interpreters: each runs the program text or script it is given. What they run is the project's
code (or text from the command line), judged by the sandbox, not by the policy; the table says
which options carry program text, so that a grant rule for a script never admits any code at all.
Perl's entry is in system.py (its in-place edits)."""

from __future__ import annotations

from .program import Program

PROGRAMS = (
    Program(("python", "python3", "python2", "pypy", "pypy3"), variants=("python3.", "python2."), code_options=frozenset({"-c"}),
            module_option="-m"),
    Program(("node", "nodejs"), code_options=frozenset({"-e", "--eval", "-p", "--print"})),
    Program(("ruby",), code_options=frozenset({"-e"})),
    Program(("php",), code_options=frozenset({"-r"})),
    Program(("lua", "luajit"), code_options=frozenset({"-e"})),
    Program(("Rscript",), code_options=frozenset({"-e"})),
)
