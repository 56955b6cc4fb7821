"""Slash commands on screen: each one answered in the transcript (or a modal), never sent to a model.

What a command does is in app/ (slash_commands, session_diff, session_commands, model_servers);
this file only routes a parsed command to it and draws the answer."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.markup import escape

from ..app import (
    CompactionUnavailable,
    ModelChoice,
    SlashInput,
    help_lines,
    save_model_choice,
    session_diff,
    settings_for,
    undo_last_batch,
)
from ..untrusted_text import neutralise
from .screens.model_picker import ModelPicker

if TYPE_CHECKING:
    from .app import Workbench


class SlashDispatch:
    def __init__(self, app: Workbench) -> None:
        self.app = app

    def run(self, command: SlashInput) -> None:
        app = self.app
        app.transcript.add_note(f"[b $accent]›[/] [b]{escape('/' + command.word + (' ' + command.argument if command.argument else ''))}[/b]", classes="request")
        if command.command is None:
            app.transcript.add_problem(command.unknown_message())
            return
        handler = getattr(self, f"_{command.command.name}")
        handler(command.argument)

    def _note_lines(self, lines: list[str]) -> None:
        self.app.transcript.add_note("\n".join(escape(line) for line in lines))

    def _help(self, _argument: str) -> None:
        lines = ["Commands (answered here, never sent to the model):", *help_lines()]
        lines.append("keys: ^k kill · ^r search requests · ^b panes (narrow) · f2 runs · ^p palette · ^q quit")
        self._note_lines(lines)

    def _diff(self, argument: str) -> None:
        app = self.app
        since = app.runs.session_since
        if since is None:
            self._note_lines(["no changes in this session yet"])
            return
        diff, changed = session_diff(app.workspace, since, argument or None)
        if not diff:
            self._note_lines(["no changes in this session" + (f" under {argument}" if argument else "") + " (the files are as the session found them)"])
            return
        app.transcript.add_diff(neutralise(f"this session changed {len(changed)} file(s): {', '.join(changed)}", keep_layout=False), diff)

    def _undo(self, _argument: str) -> None:
        app = self.app
        if app.runs.running:
            app.transcript.add_problem("undo refused: a run is in progress (kill it with ctrl+k first)")
            return
        undone, lines = undo_last_batch(app.workspace)
        if undone:
            self._note_lines(lines)
        else:
            app.transcript.add_problem(lines[0])

    def _model(self, _argument: str) -> None:
        settings = self.app.setup.settings
        current = None
        if settings is not None and settings.provider in ("openai", "openai-responses", "anthropic"):
            effort = settings.reasoning_effort
            current = ModelChoice(settings.provider, settings.model, settings.base_url, "" if effort is None else str(effort))
        self.app.push_screen(ModelPicker(current), self.chose_model)

    def chose_model(self, choice: ModelChoice | None) -> None:
        app = self.app
        if choice is None:
            app.transcript.add_note("[dim]model unchanged[/dim]")
            return
        try:
            path = save_model_choice(choice)
        except (OSError, ValueError) as error:
            app.transcript.add_problem(f"model not saved: {error}")
            return
        app.transcript.add_note(f"model saved to {escape(str(path))}: {escape(choice.provider)} · {escape(choice.model)}"
                                + (f" at {escape(choice.base_url)}" if choice.base_url else ""))
        settings, problem = settings_for(choice)
        if settings is None:
            app.transcript.add_problem(f"saved, but not usable yet: {problem}")
            return
        app.use_model(settings)

    def _new(self, _argument: str) -> None:
        self.app.action_new_session()

    def _sessions(self, _argument: str) -> None:
        self.app.action_sessions()

    def _compact(self, _argument: str) -> None:
        app = self.app
        if app.runs.running:
            app.transcript.add_problem("compact refused: a run is in progress (kill it with ctrl+k first)")
            return
        app.transcript.add_note("[dim]compacting: the model writes a summary of the older turns…[/dim]")
        app.compact(app.runs.session_id)

    def compacted(self, outcome: object) -> None:
        """The compaction worker's outcome: the marker where it happened, or why nothing changed."""
        if isinstance(outcome, CompactionUnavailable):
            self.app.transcript.add_problem(str(outcome))
        elif isinstance(outcome, Exception):
            self.app.transcript.add_problem(f"compaction failed, nothing changed: {outcome}")
        else:
            self.app.transcript.show(outcome)  # type: ignore[arg-type]
            self.app.transcript.add_note("[dim]the next request continues from the summary and the facts[/dim]")

    def _cost(self, _argument: str) -> None:
        self._note_lines(self.app.costs.lines())

    def _runs(self, argument: str) -> None:
        self.app.action_runs(argument or None)

    def _approvals(self, argument: str) -> None:
        self.app.action_approvals(argument or None)

    def _quit(self, _argument: str) -> None:
        self.app.exit()


