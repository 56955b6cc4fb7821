"""The demo's director: a reporter wrapper that stages what a replayed script cannot do by itself.

After the pair-coding session's first batched read it changes `web/src/pricing.ts` on disk through
the workspace, as if the person had saved it in their editor, so the agent's next write meets a real
revision conflict (nothing about the conflict is faked: the write layer detects it). The demo's
blueprint phase and verdict are not staged here: they come from a real (scripted) blueprint run.
"""

from __future__ import annotations

from ...agent import Event, ProgressReporterPort, SessionStarted, ToolFinished
from ...blueprint import RunStarted
from ...workspace import EditRequest, EditRun, Workspace, apply_edits
from ..events import Notice

EDITED_ELSEWHERE = "web/src/pricing.ts"
_COMMENT = "\n// TODO(dana): support currency codes other than USD\n"


class DemoDirector:
    def __init__(self, inner: ProgressReporterPort, workspace: Workspace) -> None:
        self._inner = inner
        self._workspace = workspace
        self._edited = False
        self._pair_coding = False

    def report(self, event: Event) -> None:
        self._inner.report(event)
        if isinstance(event, SessionStarted) and not isinstance(event, RunStarted):
            self._pair_coding = True  # the blueprint run's sessions read files too: not those
        elif isinstance(event, RunStarted):
            self._pair_coding = False
        elif isinstance(event, ToolFinished) and event.tool == "read_code" and event.ok and self._pair_coding and not self._edited:
            self._edited = True
            self._edit_elsewhere()

    def _edit_elsewhere(self) -> None:
        try:
            current = self._workspace.read(EDITED_ELSEWHERE)
            text = current.data.decode("utf-8").rstrip("\n") + _COMMENT
            apply_edits(self._workspace, [EditRequest(EDITED_ELSEWHERE, "rewrite", current.revision, text)], run=EditRun(), tool="demo")
        except Exception as error:  # the demo goes on without its conflict rather than stopping
            self._inner.report(Notice(f"demo: could not stage the outside edit ({type(error).__name__})"))
            return
        self._inner.report(Notice(f"demo: {EDITED_ELSEWHERE} was just saved outside the agent (as if in your editor): the agent's revision of it is now stale"))
