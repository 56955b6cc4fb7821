"""The report, built in pieces, each persisted the moment it is complete: one section per phase
when it closes (or stalls), written from that phase's summary and changed files only; then the run's
changed files, its verification, and a summary with caveats when the run ends or parks. A report
read mid-run, or after a crash, is a half-written report and says which pieces are missing.
"""

from __future__ import annotations

from ..untrusted_text import neutralise_markdown
from .ledger import executor_claims, recorded_changes
from .owner import effective_status
from .plan import Blueprint, Phase
from .store import RunStore
from .verification import output_excerpt

_PHASE_BASE = 100
_FINAL = (("changed_files", 900), ("verification", 910), ("summary", 920))


def write_phase_section(store: RunStore, run_id: str, blueprint: Blueprint, phase: Phase, status: str) -> None:
    position = _PHASE_BASE + [p.id for p in blueprint.phases].index(phase.id)
    gates = store.gates(run_id, phase.id)
    calls = store.calls(run_id, phase.id, role="executor")
    changed = recorded_changes(store, run_id, phase.id)
    claim, marks = executor_claims(calls)
    summary = dict(store.ledger(run_id)).get(phase.id)
    lines = [f"## Phase {phase.id}: {phase.title}", "", f"Status: **{status}** after {len(gates)} gate run(s). Goal: {phase.goal}", ""]
    if summary:
        lines += [summary, ""]
    lines.append("Changed files: " + (", ".join(f"`{p}`" for p in changed) if changed else "none"))
    last = gates[-1] if gates else None
    if last is not None:
        lines += ["", f"Last gate: {last.decision} by the {last.tier} rung, verdict `{last.verdict or 'none'}`."]
        for item in last.detail.get("evidence", []):
            lines.append(f"- {item['id']}: {item['evidence']}")
        for veto in last.detail.get("vetoes", []):
            lines += _veto_lines(str(veto.get("message", "")))
        if last.outstanding:
            lines.append("Outstanding: " + ", ".join(last.outstanding))
        for defect in last.detail.get("defects", []):
            lines.append(f"- defect: {defect}")
    if claim or marks:
        lines += ["", "Executor's claims (not evidence): " + (claim or "") + ("; marks: " + ", ".join(f"{k} {v}" for k, v in marks.items()) if marks else "")]
    store.put_section(run_id, f"phase:{phase.id}", position, "\n".join(lines).rstrip() + "\n")


def write_final_sections(store: RunStore, run_id: str, blueprint: Blueprint, status: str, reason: str, message: str) -> None:
    """Written before the run's final status is: a kill in between leaves a run that still reads
    `running` and resumes, never a finished run with a half-written report."""
    all_changed: dict[str, list[str]] = {}
    for phase in blueprint.phases:
        for path in recorded_changes(store, run_id, phase.id):
            all_changed.setdefault(path, []).append(phase.id)
    lines = ["## Changed files", ""] + ([f"- `{p}` ({', '.join(ids)})" for p, ids in sorted(all_changed.items())] or ["None."])
    store.put_section(run_id, "changed_files", _FINAL[0][1], "\n".join(lines) + "\n")

    lines = ["## Verification", ""]
    runs = store.verifications(run_id)
    latest: dict[tuple[str, str], dict] = {}
    for row in runs:
        latest[(row["phase_id"], row["command"])] = row
    for (phase_id, command), row in latest.items():
        failing = f"; failing files: {', '.join(row['failing'])}" if row["failing"] else ""
        when = "before the phase began" if row["attempt"] == 0 else f"attempt {row['attempt']}"
        lines.append(f"- {phase_id}: `{command}` → {row['outcome']} (exit {row['exit_code']}, {when}){failing}")
        if row["outcome"] != "ok" and row["output"].strip():
            lines += _fenced(output_excerpt(row["output"]))
    if not latest:
        lines.append("No verification commands ran.")
    store.put_section(run_id, "verification", _FINAL[1][1], "\n".join(lines) + "\n")

    phases = {p.phase_id: p.status for p in store.phases(run_id)}
    closed = [pid for pid, state in phases.items() if state == "closed"]
    headline = f"Run status: **{status}**"
    if reason != "done":
        headline += f" ({message})" if reason == status else f" ({reason}: {message})"
    lines = ["## Summary and caveats", "", headline, f"Phases closed: {len(closed)} of {len(phases)}."]
    caveats = []
    for pid, text in store.defects(run_id):
        caveats.append(f"accepted defect in {pid}: {text}")
    for pid, state in phases.items():
        if state in ("stalled", "parked", "running"):
            caveats.append(f"phase {pid} is {state}: resume with `konstruct blueprint resume {run_id}`")
        elif state == "pending":
            caveats.append(f"phase {pid} never ran")
    for entry in store.audit(run_id):
        if entry["kind"] == "watchdog":
            caveats.append(f"watchdog: {entry['detail'].get('kind')} ({entry['detail'].get('action')})")
    if caveats:
        lines += ["", "Caveats:"] + [f"- {c}" for c in caveats]
    store.put_section(run_id, "summary", _FINAL[2][1], "\n".join(lines) + "\n")


def backfill_phase_sections(store: RunStore, run_id: str, blueprint: Blueprint) -> None:
    """A phase that closed (or stalled) just before a kill may lack its section: write it now."""
    written = {key for key, _ in store.sections(run_id)}
    for record in store.phases(run_id):
        if record.status in ("closed", "stalled") and f"phase:{record.phase_id}" not in written:
            write_phase_section(store, run_id, blueprint, blueprint.phase(record.phase_id), record.status)


def render(store: RunStore, run_id: str) -> str:
    """The report as Markdown. Most of it is someone else's words (the adjudicator's evidence, the
    executor's claims, titles, command lines, file names): it is neutralised as a whole, here, where
    it leaves for a terminal or a Markdown viewer; the stored sections keep the words as they came."""
    run = store.run(run_id)
    assert run is not None
    sections = dict(store.sections(run_id))
    out = [f"# {run.title}", "", f"Blueprint run `{run.id}` from `{run.source}`: {effective_status(run)}" + (f" ({run.reason})" if run.reason not in (None, run.status, "done") else ""), ""]
    missing = []
    for phase in store.phases(run_id):
        key = f"phase:{phase.phase_id}"
        if key in sections:
            out.append(sections[key])
        else:
            missing.append(f"phase {phase.phase_id} ({phase.status})")
    for key, _ in _FINAL:
        if key in sections:
            out.append(sections[key])
        else:
            missing.append(key.replace("_", " "))
    if missing:
        out += ["## Not written yet", "", "This report is incomplete (the run is still going or was interrupted): " + ", ".join(missing) + ".", ""]
    out += ["## Audit trail", ""]
    for entry in store.audit(run_id):
        if entry["kind"] == "gate":
            evidence = "; ".join(f"{e['id']}: {e['evidence']}" for e in entry["evidence"]) or "none"
            defects = "; ".join(entry["defects"]) or "none"
            out.append(f"- {entry['phase_id']} attempt {entry['detail'].get('attempt')}: **{entry['detail'].get('decision')}** "
                       f"(tier {entry['tier']}, verdict {entry['verdict'] or 'none'}); evidence: {evidence}; defects: {defects}")
            for veto in entry["detail"].get("vetoes") or []:
                out += [f"  {line}" for line in _veto_lines(str(veto.get("message", "")))]
            changed = entry["detail"].get("changed") or []
            if changed:
                out.append("  - changed on disk: " + ", ".join(f"`{c['path']}` ({c['kind']}, {_how(c)})" for c in changed))
            if entry["detail"].get("pinned_edited"):
                out.append("  - pinned verification files this phase edited (verification ignored the edits): "
                           + ", ".join(f"`{p}`" for p in entry["detail"]["pinned_edited"]))
        else:
            out.append(f"- {entry['kind']}: {entry['detail']}")
    return neutralise_markdown("\n".join(out).rstrip() + "\n")


def _veto_lines(message: str) -> list[str]:
    """A veto as a list item; the failing command's own output under it (gate.py indents it) as a block."""
    first, *said = message.split("\n")
    return [f"- veto: {first}", *_fenced([line.removeprefix("    ") for line in said])] if said else [f"- veto: {first}"]


def _fenced(lines: list[str]) -> list[str]:
    if not lines:
        return []
    fence = "````" if any("```" in line for line in lines) else "```"
    return [f"  {fence}text", *(f"  {line}" for line in lines), f"  {fence}"]


def _how(change: dict) -> str:
    if change.get("how") == "tool":
        return f"tool write: {change.get('detail')}"
    if change.get("how") == "command":
        return f"command: `{change.get('detail')}`"
    return "unknown"
