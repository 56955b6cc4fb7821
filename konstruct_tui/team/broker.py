"""Who answers the executor's trust questions in a team run: what the run was granted up front
and what people answered since; anything else parks the run for an approval instead of being refused.

Parking: the request (what a trust prompt shows: capability, files, diffs, blast radius, the
command and its policy verdict) is recorded as pending, the run's kill switch is thrown so the
attempt stops where it is, and the worker ends the step with `waiting_approval`, freeing its slot.
The answer sends the run back to the queue; its resumed attempt asks again and gets the answer.
A deny is final: that request is refused from then on without parking again, and the executor
gets the denier's message (if they gave one) as the call's result, as at a trust prompt.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass

from ..trust import TrustDecision, TrustRequest


def request_id(request: TrustRequest) -> str:
    """The same question asked again (a resumed attempt replaying its call) has the same id."""
    text = "\0".join([request.capability, request.detail, *request.paths])
    return "r" + hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()[:10]


@dataclass(frozen=True)
class Answer:
    """A person's answer to one parked request."""

    status: str  # granted | denied
    scope: str  # once: that exact request, whenever the run asks it again; run: its capability for the rest of the run
    capability: str
    message: str = ""  # a deny's reason, for the executor
    asked: tuple[str, tuple[str, ...]] | None = None  # the request's detail and paths as the person saw them

    def answers(self, request: TrustRequest) -> bool:
        """This answer is to this request: the same words, not only the same short id."""
        return self.asked is None or (self.capability, self.asked) == (request.capability, (request.detail, tuple(request.paths)))


class ParkingBroker:
    def __init__(self, granted: set[str], answers: dict[str, Answer], park: Callable[[str, TrustRequest], None]) -> None:
        self.allowed = {"edit", "scripts"} | granted
        self.allowed |= {a.capability for a in answers.values() if a.status == "granted" and a.scope == "run"}
        self.answers = answers
        self.park = park
        self.parked: str | None = None

    async def request(self, request: TrustRequest) -> TrustDecision:
        rid = request_id(request)
        answer = self.answers.get(rid)
        if answer is not None and not answer.answers(request):  # another request under the same short id: never its grant
            return TrustDecision.deny(f"request {rid} was answered for a different request; this one is refused")
        if request.capability in self.allowed or (answer is not None and answer.status == "granted"):
            return TrustDecision(True, "session", request.paths)
        if answer is not None and answer.status == "denied":
            return TrustDecision.deny(answer.message)
        if self.parked is not None:
            return TrustDecision.deny()
        self.parked = rid
        self.park(rid, request)
        return TrustDecision.deny()

