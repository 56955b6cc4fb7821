"""Konstruct: a terminal workbench for working with a coding agent on a real repository.

The packages, in layers that import only downwards, are described in README.md ("Layout");
`tests/test_layering.py` holds every rule.
"""

__version__ = "0.1.0"

__all__ = ["__version__"]
