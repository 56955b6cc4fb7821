"""A blueprint run's words reach a person's terminal inert: the adjudicator's evidence and defects, the
executor's summary and a tool's error, in the readable steps, `status` and the Markdown report.
The run store keeps them as they came."""

from __future__ import annotations

import json
from pathlib import Path

from blueprint_harness import PHASE_FIX, blueprint_text, edit, read, verdict, write_scripts

from konstruct_tui.untrusted_text import has_hazards

OSC52 = "\x1b]52;c;cm0gLXJmIH4=\x07"
EVIDENCE = "calc.py line 2: add() now returns a + b, so add(2, 3) gives 5 as required " + OSC52
DEFECT = "mul is untested \x9b2J\x1b[1;1H \u202eok &#x202e; &rlm;"


def _hazards(text: str) -> list[str]:
    return [repr(line) for line in text.splitlines() if has_hazards(line)]


def test_evidence_defects_and_claims_are_inert_in_steps_status_and_report(project: Path, tmp_path: Path, konstruct) -> None:
    scripts = write_scripts(tmp_path / "s", {
        "executor-p1": [read("calc.py"), edit("calc.py", "a - b", "a + b", done="fixed it " + OSC52)],
        "adjudicator-p1": [verdict("complete_with_defects", {"t1": EVIDENCE}, defects=(DEFECT,))],
    })
    plan = tmp_path / "plan.toml"
    plan.write_text(blueprint_text(PHASE_FIX, title="Calc \\u001b]0;owned\\u0007 fixes"))
    code, out, err = konstruct("blueprint", "run", str(plan), "--root", str(project), "--provider", "scripted", "--script", str(scripts))
    assert code == 0, err
    assert isinstance(out, str) and _hazards(out) == [] and _hazards(err) == []
    run_id = out.split("run ", 1)[1].split(" ", 1)[0]

    code, status, _ = konstruct("blueprint", "status", run_id)
    assert code == 0 and _hazards(status) == []
    assert "defect [p1]: mul is untested \\x9b2J␛[1;1H \\u202eok" in status
    code, listing, _ = konstruct("blueprint", "status")
    assert code == 0 and "Calc ␛]0;owned␇ fixes" in listing

    code, report, _ = konstruct("blueprint", "report", run_id)
    assert code == 0 and _hazards(report) == []
    assert report.startswith("# Calc ␛]0;owned␇ fixes")
    assert "gives 5 as required ␛]52;c;cm0gLXJmIH4=␇" in report  # the adjudicator's evidence
    assert "fixed it ␛]52;c;cm0gLXJmIH4=␇" in report  # the executor's claim
    # A Markdown viewer decodes character references: they are escaped so it prints them, not a bidi override.
    assert "\\u202eok \\&#x202e; \\&rlm;" in report

    # JSON keeps the words exact.
    code, payload, _ = konstruct("blueprint", "status", run_id, "--json")
    assert code == 0 and payload["defects"][0]["text"] == DEFECT


def test_headless_json_lines_keep_values_exact_with_no_raw_control(project: Path, tmp_path: Path, konstruct) -> None:
    scripts = write_scripts(tmp_path / "s", {
        "executor-p1": [read("calc.py"), edit("calc.py", "a - b", "a + b")],
        "adjudicator-p1": [verdict("complete_with_defects", {"t1": EVIDENCE}, defects=(DEFECT,))],
    })
    plan = tmp_path / "plan.toml"
    plan.write_text(blueprint_text(PHASE_FIX))
    code, out, err = konstruct("blueprint", "run", str(plan), "--root", str(project), "--provider", "scripted",
                               "--script", str(scripts), "--headless")
    assert code == 0, err
    lines = out.splitlines() if isinstance(out, str) else []
    assert lines and _hazards(out) == []
    events = [json.loads(line) for line in lines]
    [verdict_event] = [e for e in events if e["event"] == "verdict"]
    assert verdict_event["defects"] == [DEFECT] and verdict_event["evidence"][0]["evidence"] == EVIDENCE
