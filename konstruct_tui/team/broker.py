"""Who answers the executor's trust questions in a team run: what the run was granted up front
and what people answered since; anything else parks the run for an approval instead of being refused.

Parking: the request (what a trust prompt shows: capability, files, diffs, blast radius, the
command and its policy verdict) is recorded as pending, the run's kill switch is thrown so the
attempt stops where it is, and the worker ends the step with `waiting_approval`, freeing its slot.
The answer sends the run back to the queue; its resumed attempt asks again and gets the answer.
A deny is final: that request is refused from then on without parking again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from ..trust import TrustDecision, TrustRequest


def request_id(request: TrustRequest) -> str:
    """The same question asked again (a resumed attempt replaying its call) has the same id."""
    text = "\0".join([request.capability, request.detail, *request.paths])
    return "r" + hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()[:10]


class ParkingBroker:
    def __init__(self, granted: set[str], answers: dict[str, tuple[str, str, str]], park: Callable[[str, TrustRequest], None]) -> None:
        self.allowed = {"edit", "scripts"} | granted
        # Scope `run`: the capability for the rest of the run; `once`: that one request.
        self.allowed |= {capability for status, scope, capability in answers.values() if status == "granted" and scope == "run"}
        self.answers = answers
        self.park = park
        self.parked: str | None = None

    async def request(self, request: TrustRequest) -> TrustDecision:
        rid = request_id(request)
        status = self.answers.get(rid, ("", "", ""))[0]
        if request.capability in self.allowed or status == "granted":
            return TrustDecision(True, "session", request.paths)
        if status == "denied" or self.parked is not None:
            return TrustDecision.deny()
        self.parked = rid
        self.park(rid, request)
        return TrustDecision.deny()

