"""The command policy's program table: one entry per program, each fact written once.

The rules (deny, embedded, unsafe_options, readonly, allowlist, wrappers) read it; a family module
(git.py, search.py, archives.py, ...) describes its programs. How to add one:
docs/commands-and-trust.md, "How to describe a program".
"""

from .program import Harm, Privilege, Program, Runner, Subcommand, options
from .table import BY_ALIAS, BY_NAME, PROGRAMS, ProgramTableError, harm_of, names_where, program

__all__ = ["BY_ALIAS", "BY_NAME", "PROGRAMS", "Harm", "Privilege", "Program", "ProgramTableError", "Runner", "Subcommand", "harm_of",
           "names_where", "options", "program"]
