"""A `run_command` call's body as a terminal block: `$ command`, its output as lines (stderr under its
own label), the marks where output was cut, and one line saying how it ended — exit status, time,
confinement, and what the sandbox blocked when the output names it.

Everything in it came from the command or the model: it goes through `plain` (escaped, controls made
visible) and is drawn as text, never as markup or Markdown."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Static

from ...app import CUT_MARK, CommandReport
from ..untrusted import plain

# The block shows a stream's first and last lines past this; the session file keeps every byte.
MAX_STREAM_LINES = 200
# And a line's start and end past this: one 64 KB line (`print('x' * 200000)`) would otherwise wrap to
# a thousand rows of the transcript, which every redraw (a theme change, a resize) lays out again.
MAX_ROW_CHARS = 2000


class CommandBlock(Static):
    """One command's run, read-only; built once from the finished call's result."""

    def __init__(self, report: CommandReport, verdict: str) -> None:
        super().__init__(Content.from_markup(block_markup(report, verdict)), classes="command-block")
        self.report = report


def block_markup(report: CommandReport, verdict: str) -> str:
    lines = [f"[b $primary]$[/] [b]{plain(report.command, keep_layout=False) or '(no command)'}[/b]"]
    for step in report.steps:
        argv = " ".join(str(word) for word in step.get("argv") or [])
        code = step.get("exit_code")
        ended = f"{step.get('status', '?')}" + (f" (exit {code})" if isinstance(code, int) else "")
        lines.append(f"[dim]  step[/dim] {plain(argv, keep_layout=False)} [dim]→ {plain(ended)}[/dim]")
    if report.ran:
        lines += _stream(report.stdout, report.stdout_truncated)
        if report.stderr:
            lines.append("[dim]── stderr ──[/dim]")
            lines += _stream(report.stderr, report.stderr_truncated)
        if not report.stdout and not report.stderr:
            lines.append("[dim](no output)[/dim]")
    lines.append(_ending(report, verdict))
    return "\n".join(lines)


def _stream(text: str, truncated: bool) -> list[str]:
    if not text:
        return []
    # CRLF endings are line ends; a lone CR stays visible (␍): it could hide what came before it.
    text = text.replace("\r\n", "\n")
    rows = text[:-1].split("\n") if text.endswith("\n") else text.split("\n")
    hidden = 0
    if len(rows) > MAX_STREAM_LINES:
        half = MAX_STREAM_LINES // 2
        hidden = len(rows) - 2 * half
        head, tail = rows[:half], rows[-half:]
    else:
        head, tail = rows, []
    out = [_row(row) for row in head]
    if hidden:
        out.append(f"[$warning]✂ {hidden:,} more lines not shown here (the session file keeps them)[/]")
    out += [_row(row) for row in tail]
    if truncated and not any(CUT_MARK.match(row) for row in rows):
        out.append("[$warning]✂ output truncated[/]")
    return out


def _row(row: str) -> str:
    cut = CUT_MARK.match(row)
    if cut:
        return f"[$warning]✂ {int(cut.group(1)):,} bytes cut here (head and tail kept)[/]"
    if len(row) > MAX_ROW_CHARS:
        half = MAX_ROW_CHARS // 2
        hidden = f"[$warning] ✂ {len(row) - 2 * half:,} characters of this line not shown here (the session file keeps them) [/]"
        return plain(row[:half]) + hidden + plain(row[-half:])
    return plain(row)


def _ending(report: CommandReport, verdict: str) -> str:
    mark = {"ok": "[$tool-ok]✓[/]", "partial": "[$status-conflict]◐[/]"}.get(verdict, "[$tool-failed]✗[/]")
    colour = "$tool-ok" if verdict == "ok" else "$tool-failed"
    parts = [f"[{colour}]{plain(report.ending() if report.ran else report.status)}[/]"]
    if report.duration_s is not None and report.ran:
        parts.append(f"{report.duration_s:g} s")
    if report.confinement:
        parts.append(plain(report.confinement))
    line = f"{mark} " + " [dim]·[/dim] ".join(parts)
    why = report.blocked or report.reason
    if why and not (report.ran and not report.blocked and report.reason.startswith("exited with status")):
        line += f"\n  [$warning]{plain(why)}[/]"
    return line
