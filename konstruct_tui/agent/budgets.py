"""Budgets: turns, tokens, cost and wall-clock time. Plain arithmetic, checked by the loop after every
turn (and the clock by a timer that trips the kill switch, so a hung turn cannot outlast it)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Protocol

from .events import BudgetUpdate
from .ports import Usage


class PricePort(Protocol):
    def cost(self, input_tokens: int, output_tokens: int, cache_read_tokens: int = 0, cache_write_tokens: int = 0) -> float: ...


@dataclass(frozen=True)
class Limits:
    max_turns: int | None = 50
    max_tokens: int | None = None  # input + output, summed over the run
    max_cost_usd: float | None = None
    timeout_s: float | None = None


class BudgetMeter:
    """What this run has used so far, against its limits. Budgets are per run: resuming a session
    is the person's decision to go on, and starts a run with budgets of its own."""

    def __init__(self, limits: Limits, model: str, price: PricePort | None, *, clock=time.monotonic) -> None:
        self.limits = limits
        self.model = model
        self.price = price
        self._clock = clock
        self._started = clock()
        self.turns = 0
        self.input_tokens = 0
        self.output_tokens = 0
        self.estimated = False
        self.cache_read_tokens = 0  # parts of input_tokens served from (or written to) the prompt cache
        self.cache_write_tokens = 0
        self.reasoning_tokens = 0  # part of output_tokens (priced as output), where the server says

    def count_turn(self) -> None:
        self.turns += 1

    def add(self, usage: Usage) -> None:
        self.input_tokens += usage.input_tokens
        self.output_tokens += usage.output_tokens
        self.estimated = self.estimated or usage.estimated
        self.cache_read_tokens += usage.cache_read_tokens
        self.cache_write_tokens += usage.cache_write_tokens
        self.reasoning_tokens += usage.reasoning_tokens

    @property
    def cost_usd(self) -> float | None:
        if self.price is None:
            return None
        if not (self.cache_read_tokens or self.cache_write_tokens):
            return round(self.price.cost(self.input_tokens, self.output_tokens), 6)
        return round(self.price.cost(self.input_tokens, self.output_tokens, self.cache_read_tokens, self.cache_write_tokens), 6)

    def cost_note(self) -> str | None:
        if self.price is None:
            enforce = "; --max-cost cannot be enforced" if self.limits.max_cost_usd is not None else ""
            return f"no price known for model {self.model!r}: cost is not counted{enforce} (add it under [prices] in config.toml)"
        if self.estimated:
            return "tokens are partly estimated (the server sent no usage), so the cost is too"
        return None

    def elapsed_s(self) -> float:
        return self._clock() - self._started

    def exhausted(self) -> str | None:
        """The budget reason that ends the run now, if any (tokens and cost are checked after the
        turn that crossed them; a turn cannot be un-spent)."""
        limits = self.limits
        if limits.max_tokens is not None and self.input_tokens + self.output_tokens >= limits.max_tokens:
            return "max_tokens"
        cost = self.cost_usd
        if limits.max_cost_usd is not None and cost is not None and cost >= limits.max_cost_usd:
            return "max_cost"
        return None

    def turns_left(self) -> bool:
        return self.limits.max_turns is None or self.turns < self.limits.max_turns

    def update(self) -> BudgetUpdate:
        return BudgetUpdate(
            turns=self.turns,
            max_turns=self.limits.max_turns,
            input_tokens=self.input_tokens,
            output_tokens=self.output_tokens,
            max_tokens=self.limits.max_tokens,
            tokens_estimated=self.estimated,
            cost_usd=self.cost_usd,
            max_cost_usd=self.limits.max_cost_usd,
            cost_note=self.cost_note(),
            elapsed_s=round(self.elapsed_s(), 3),
            timeout_s=self.limits.timeout_s,
            cache_read_tokens=self.cache_read_tokens,
            cache_write_tokens=self.cache_write_tokens,
            reasoning_tokens=self.reasoning_tokens,
        )
