"""The Textual workbench (the only package that imports textual). It draws what the core reports
and forwards what the person asks for to the application layer (`konstruct_tui.app`); only the CLI
imports it, inside its handlers, so no other command loads Textual."""

from .app import Workbench, run_workbench

__all__ = ["Workbench", "run_workbench"]
