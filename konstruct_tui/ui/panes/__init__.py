"""The workbench's panes, one module each. Each draws the event types it lists in `DRAWS`."""

from .batches import BatchTable
from .budgets import BudgetsPane
from .gate import GatePane
from .neighborhoods import NeighborhoodsPane
from .request_input import RequestInput
from .transcript import Transcript

__all__ = ["BatchTable", "BudgetsPane", "GatePane", "NeighborhoodsPane", "RequestInput", "Transcript"]
