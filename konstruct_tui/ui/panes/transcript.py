"""The transcript pane: the person's requests, the assistant's streaming text, and each tool call
as one line that expands to its arguments, its result and, for writes, the diffs."""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Collapsible, Static

from ...agent import (
    Compacted,
    Finished,
    ProviderWarning,
    ReasoningDelta,
    SessionStarted,
    TextDelta,
    ToolFinished,
    ToolStarted,
    TrustRequested,
    TurnStarted,
)
from ...app import command_report, cut_paths, describe_call, describe_outcome, diffs_of, result_text, verdict
from ...blueprint import PhaseStarted, SessionOpened
from ..messages import Reportable
from .thinking import ThinkingBlock
from ..diff_view import DiffView, PathTitle
from ..untrusted import plain
from .command_block import CommandBlock
from .repaint import RepaintThrottle

_MAX_SHOWN_LINES = 200


class AssistantText(Vertical):
    """One assistant reply as it streams in, rendered as Markdown (code blocks highlighted).

    Deltas are coalesced and handed to `Markdown.append`, which re-parses only from the last
    top-level block onwards: a long reply costs each repaint the tail, not the whole text (a model
    can write `[`: Markdown is not console markup, nothing is interpreted as styles). One append is
    in flight at a time, so the pieces land in order."""

    def __init__(self) -> None:
        super().__init__(classes="assistant-text")
        self._parts: list[str] = []
        self._length = 0
        self._sent = 0  # characters handed to the Markdown widget
        self._shown = 0  # characters the Markdown widget has finished rendering
        from ..untrusted_markdown import UntrustedMarkdown  # with the first reply: markdown_it is not needed for the first frame

        self._markdown = UntrustedMarkdown("", classes="assistant-markdown")
        self._repaint = RepaintThrottle(self, self.flush)
        self._appending = False

    def compose(self) -> ComposeResult:
        yield self._markdown

    def append(self, text: str) -> None:
        self._parts.append(text)
        self._length += len(text)
        self._repaint.request()

    def flush(self) -> None:
        self._repaint.painting()
        if not self._appending and self._sent < self._length:
            self._appending = True
            self.call_later(self._append_pending)

    async def _append_pending(self) -> None:
        try:
            while self._sent < self._length:
                text = self.text
                piece, self._sent = text[self._sent :], len(text)
                await self._markdown.append(piece)
                self._shown = self._sent
        finally:
            self._appending = False

    @property
    def text(self) -> str:
        """Everything received so far."""
        if len(self._parts) > 1:
            self._parts = ["".join(self._parts)]
        return self._parts[0] if self._parts else ""

    @property
    def shown(self) -> str:
        """What is on screen now (the repaint throttle may hold back the newest few deltas)."""
        return self.text[: self._shown]


class ToolCallEntry(Collapsible):
    """One tool call: a single line while collapsed; arguments, result and diffs when expanded.
    The expanded body is built on first expansion, so a long session stays cheap to show."""

    def __init__(self, event: ToolStarted, syntax_theme: str) -> None:
        self.started = event
        self.finished: ToolFinished | None = None
        self._syntax_theme = syntax_theme
        self._built = False
        # No DOM id: call ids repeat across sessions (scripted ones always do); `_calls` holds the entry.
        super().__init__(title=self._heading(), collapsed=True, classes="tool-call -running")

    def finish(self, event: ToolFinished) -> None:
        self.finished = event
        self.set_class(False, "-running")
        outcome = verdict(event)
        self.set_class(outcome == "ok", "-ok")
        self.set_class(outcome == "partial", "-partial")
        self.set_class(outcome == "failed", "-failed")
        self.title = self._heading()
        if self._built:
            self._build_body(rebuild=True)

    def _heading(self) -> Content:
        # The outcome goes before the subject: a long list of paths is what gets clipped, not the verdict.
        subject = describe_call(self.started.tool, self.started.arguments)
        if self.finished is None:
            mark, outcome = "[$tool-running]●[/]", "[$tool-running]running…[/]"
        else:
            # The glyph tells the truth (✓ every part ok, ◐ partly, ✗ refused/failed/conflict/killed).
            said = plain(describe_outcome(self.finished), keep_layout=False)
            mark, outcome = {
                "ok": ("[$tool-ok]✓[/]", said),
                "partial": ("[$status-conflict]◐[/]", f"[$status-conflict]{said}[/]"),
            }.get(verdict(self.finished), ("[$tool-failed]✗[/]", f"[$tool-failed]{said}[/]"))
        about = f" [dim]·[/dim] {plain(subject, keep_layout=False)}" if subject else ""
        return Content.from_markup(f"{mark} [b]{plain(self.started.tool, keep_layout=False)}[/b] {outcome}{about}")

    def on_collapsible_expanded(self, event: Collapsible.Expanded) -> None:
        if event.collapsible is self and not self._built:
            self._build_body()

    def _build_body(self, rebuild: bool = False) -> None:
        contents = self.query_one(Collapsible.Contents)
        if rebuild:
            contents.remove_children()
        self._built = True
        finished = self.finished
        if self.started.tool == "run_command" and finished is not None and "error" not in finished.result:
            # A command reads as a terminal does: no arguments block, the command heads the output.
            contents.mount(CommandBlock(command_report(finished.result), verdict(finished)))
            return
        parts: list[Widget] = [Static(Content.from_markup("[b]arguments[/b]")), _readable(self.started.arguments)]
        if finished is not None:
            diffs = diffs_of(finished.result)
            for path, diff in diffs:
                parts.append(PathTitle("diff", path))
                parts.append(DiffView(diff, self._syntax_theme, classes="diff"))
            shown = _without_diffs(finished.result) if diffs else finished.result
            parts.append(Static(Content.from_markup("[b]result[/b]")))
            parts.append(_readable(shown))
        contents.mount_all(parts)


class Transcript(VerticalScroll):
    """Everything said and done in the session, newest at the bottom; stays pinned to the bottom
    until the person scrolls up."""
    # The event types this pane draws: the app routes only these to `show` (see messages.EventRoutes).
    DRAWS: ClassVar[tuple[type, ...]] = (
        TextDelta, ToolStarted, ToolFinished, TurnStarted, SessionStarted, TrustRequested, Finished, Compacted, ProviderWarning,
        ReasoningDelta,
        PhaseStarted, SessionOpened,
    )

    def __init__(self, *, syntax_theme: str = "monokai", id: str | None = None) -> None:
        super().__init__(id=id)
        self.syntax_theme = syntax_theme
        self._reply: AssistantText | None = None
        self._answered = False  # the current turn's reply is on screen (the final answer is not repeated)
        self._calls: dict[str, ToolCallEntry] = {}
        self._follow = False  # anchored to the bottom (see _start_following)
        self._thoughts: list[ThinkingBlock] = []
        self.show_reasoning = True  # the model's setting (config.toml show_reasoning)

    def _mount_entry(self, widget: Widget) -> None:
        self.mount(widget)
        if not self._follow:
            self.call_after_refresh(self._start_following)

    def _start_following(self) -> None:
        # Anchor only once the content overflows: an anchored scroll view bottom-aligns short
        # content, and a fresh transcript should read from the top.
        if not self._follow and self.max_scroll_y > 0:
            self._follow = True
            self.anchor()

    def add_request(self, text: str) -> None:
        self._reply = None
        self._mount_entry(Static(Content.from_markup(f"[b $primary]›[/] {plain(text)}"), classes="request"))

    def add_note(self, markup: str, classes: str = "note") -> None:
        self._reply = None
        self._mount_entry(Static(Content.from_markup(markup), classes=classes))

    def add_problem(self, text: str) -> None:
        """The one place run errors are shown: a line in the transcript, never a traceback."""
        self.add_note(f"[$error]⚠ {plain(text)}[/]", classes="problem")

    def add_diff(self, title: str, diff: str) -> None:
        """A unified diff (/diff), open and syntax coloured; it collapses to its title line."""
        self._reply = None
        body = DiffView(diff, self.syntax_theme, classes="diff")
        self._mount_entry(Collapsible(body, title=title, collapsed=False, classes="tool-call diff-entry"))

    def show(self, event: Reportable) -> None:
        if isinstance(event, ReasoningDelta):
            if self.show_reasoning:
                if not self._thoughts or self._thoughts[-1].folded:
                    self._end_reply()
                    self._thoughts.append(ThinkingBlock())
                    self._mount_entry(self._thoughts[-1])
                self._thoughts[-1].append(event.text)
        elif isinstance(event, TextDelta):
            self._fold_thinking()
            if self._reply is None:
                self._reply = AssistantText()
                self._mount_entry(self._reply)
            self._reply.append(event.text)
            self._answered = self._answered or bool(event.text.strip())
            if not self._follow:
                self.call_after_refresh(self._start_following)
        elif isinstance(event, ToolStarted):
            self._end_reply()
            entry = ToolCallEntry(event, self.syntax_theme)
            self._calls[event.call_id] = entry
            self._mount_entry(entry)
        elif isinstance(event, ToolFinished):
            entry = self._calls.get(event.call_id)
            if entry is not None:
                entry.finish(event)
        elif isinstance(event, TurnStarted):
            self._end_reply()
            self._answered = False
        elif isinstance(event, SessionStarted):
            resumed = "resumed " if event.resumed else ""
            note = f" — [$scripted-label]{plain(event.note)}[/]" if event.note else ""
            self.add_note(f"[dim]{resumed}session {plain(event.session_id)} · {plain(event.provider)} {plain(event.model)}[/dim]{note}")
        elif isinstance(event, (PhaseStarted, SessionOpened)):
            self._end_reply()
            marker = session_marker(event)
            if marker:  # an executor's session is marked with its phase (phase_started follows at once)
                self.add_note(marker, classes="session-marker")
        elif isinstance(event, TrustRequested):
            self._end_reply()
            decision = f" → {event.decision}" if event.decision else ""
            room = max(20, (self.scrollable_content_region.width or 80) - 6)  # a path is cut at its start, never mid-word
            self.add_note(f"[$warning]⚑ trust[/] {plain(event.capability)}: {plain(cut_paths(event.detail, room))}{decision}")
        elif isinstance(event, ProviderWarning):
            self._end_reply()  # after a `retry` warning the model's reply starts over below it
            self.add_note(f"[$warning]⚠ {plain(event.message)}[/]")
        elif isinstance(event, Compacted):
            self._end_reply()
            self.add_note(f"[dim]── compacted here: {event.replaced_messages} earlier messages → a summary plus facts on "
                          f"{event.files_read} files read, {event.files_changed} changed; the session file keeps them all ──[/dim]")
        elif isinstance(event, Finished):
            self._end_reply()
            colour = "$success" if event.reason == "done" else "$warning" if event.reason == "killed" else "$error"
            message = f": {plain(event.message)}" if event.message else ""
            if event.reason == "done":
                # A finished run's message is the model's final reply: shown once, rendered. It has
                # streamed already unless the last turn drew no text (a replayed or non-streamed end).
                if event.message and not self._answered:
                    answer = AssistantText()
                    self._mount_entry(answer)
                    answer.append(event.message)
                message = ""
            self._answered = False
            self.add_note(f"[{colour}]■ finished ({event.reason}) after {event.turns} turn(s)[/]{message}", classes="finished")

    def _fold_thinking(self) -> None:
        if self._thoughts:
            self._thoughts[-1].fold()

    def _end_reply(self) -> None:
        self._fold_thinking()
        if self._reply is not None:
            self._reply.flush()
        self._reply = None

    def set_all_collapsed(self, collapsed: bool) -> None:
        for entry in [*self._calls.values(), *self._thoughts]:
            entry.collapsed = collapsed

    def clear(self) -> None:
        self._follow = False
        self.anchor(False)
        self._reply = None
        self._answered = False
        self._calls.clear()
        self._thoughts.clear()
        self.remove_children()


def session_marker(event: PhaseStarted | SessionOpened) -> str:
    """Where a blueprint session's turns begin: the phase boundary (with the executor's session) and
    the adjudicator's session, so whose words follow is never a guess."""
    session = plain(event.session_id.removeprefix(f"{event.run_id}-"))  # the run's id is on every one: its own part says which
    if isinstance(event, PhaseStarted):
        how = "new executor session" if event.fresh else "executor nudged"
        return f"[b $primary]━━ phase {plain(event.phase)}[/] [b]{plain(event.title)}[/b] · attempt {event.attempt} · [dim]{how} {session}[/dim]"
    if event.role == "executor":
        return ""
    return f"[$accent]── {plain(event.role)}[/] · phase {plain(event.phase)} · attempt {event.attempt} [dim]{session}[/dim]"


def _readable(value: Any) -> Static:
    """Arguments or a result as `key: value` lines, text fields as their own lines (never JSON
    with `\\n` escapes); untrusted, so escaped and neutralised by `plain`."""
    lines = result_text(value).split("\n")
    if len(lines) > _MAX_SHOWN_LINES:
        lines = [*lines[:_MAX_SHOWN_LINES], f"… {len(lines) - _MAX_SHOWN_LINES} more lines (the session file keeps them)"]
    return Static(Content.from_markup(plain("\n".join(lines))), classes="tool-result")


def _without_diffs(result: dict[str, Any]) -> dict[str, Any]:
    entries = [{k: v for k, v in entry.items() if k != "diff"} if isinstance(entry, dict) else entry for entry in result.get("results", [])]
    return {**result, "results": entries}

