"""The prompt's answers through the real loop and tools: a denial's message is the call's result the
model reads; a grant for one command or one rule lets exactly that through and asks again for
anything else. The person is played by an `ask` that returns what the prompt would."""

from __future__ import annotations

from pathlib import Path

from agent_harness import DONE, FIX_CALC, READ_CALC, scripted_loop, write_script

from konstruct_tui.agent import ToolFinished
from konstruct_tui.agent.ports import ToolResultMessage
from konstruct_tui.app import TrustAnswer, TrustPreview
from konstruct_tui.app.trust import CallLedger, PreviewingBroker, workbench_gate
from konstruct_tui.trust import TrustStore
from konstruct_tui.workspace import Workspace


class Person:
    """Answers each question with the next answer, and keeps what it was shown."""

    def __init__(self, *answers: TrustAnswer) -> None:
        self.answers = list(answers)
        self.shown: list[TrustPreview] = []

    async def __call__(self, preview: TrustPreview) -> TrustAnswer:
        self.shown.append(preview)
        return self.answers.pop(0)


def _loop(project: Path, tmp_path: Path, turns: list[dict], person: Person):  # type: ignore[no-untyped-def]
    loop, model, events = scripted_loop(project, write_script(tmp_path, turns))
    ledger = CallLedger()
    broker = PreviewingBroker(Workspace(project), ledger, person)
    loop.gate = workbench_gate(project, broker)
    inner = loop.reporter

    class Noting:  # the ledger hears every event, as the workbench's reporter does
        def report(self, event: object) -> None:
            ledger.note(event)
            inner.report(event)

    loop.reporter = Noting()
    return loop, model, events


def _run(command: str) -> dict:
    return {"tool_calls": [{"name": "run_command", "arguments": {"command": command}}]}


async def test_a_denial_with_a_message_is_what_the_model_reads_for_an_edit(project: Path, tmp_path: Path) -> None:
    person = Person(TrustAnswer(False, message="keep add as it is; fix the caller instead"))
    loop, model, events = _loop(project, tmp_path, [READ_CALC, FIX_CALC, DONE], person)
    await loop.run("fix add")
    denied = events.of(ToolFinished)[1]
    assert denied.result["status"] == "denied" and not denied.ok
    told = model.transcripts[2][-1]
    assert isinstance(told, ToolResultMessage) and told.is_error
    assert "The person says: keep add as it is; fix the caller instead" in told.content
    assert "return a - b" in (project / "calc.py").read_text()


async def test_a_denial_with_a_message_is_what_the_model_reads_for_a_command(project: Path, tmp_path: Path) -> None:
    person = Person(TrustAnswer(False, message="use `make test`, not touch"))
    loop, model, events = _loop(project, tmp_path, [_run("touch made.txt"), DONE], person)
    await loop.run("touch")
    told = model.transcripts[1][-1]
    assert isinstance(told, ToolResultMessage) and "The person says: use `make test`, not touch" in told.content
    assert events.of(ToolFinished)[0].result["status"] == "denied" and not (project / "made.txt").exists()
    assert person.shown[0].confinement  # the prompt was shown the sandbox the command would run under


async def test_a_plain_denial_says_nothing_more(project: Path, tmp_path: Path) -> None:
    loop, model, _ = _loop(project, tmp_path, [_run("touch made.txt"), DONE], Person(TrustAnswer(False)))
    await loop.run("touch")
    assert "The person says" not in model.transcripts[1][-1].content


async def test_this_exact_command_for_the_session_covers_it_and_nothing_else(project: Path, tmp_path: Path) -> None:
    exact = TrustAnswer(True, "session", command=("exact", ("touch", "a.txt")))
    person = Person(exact, TrustAnswer(False))
    loop, _, events = _loop(project, tmp_path, [_run("touch a.txt"), _run("touch a.txt"), _run("touch b.txt"), DONE], person)
    await loop.run("touch")
    assert [e.result["status"] for e in events.of(ToolFinished)] == ["ok", "ok", "denied"]
    assert len(person.shown) == 2 and person.shown[1].command == "touch b.txt"  # asked again for another command
    assert TrustStore().grants(project) == []  # a session grant is never stored


async def test_a_rule_always_covers_the_programs_calls_and_is_stored(project: Path, tmp_path: Path) -> None:
    rule = TrustAnswer(True, "always", command=("prefix", ("touch",)))
    person = Person(rule, TrustAnswer(False))
    loop, _, events = _loop(project, tmp_path, [_run("touch a.txt"), _run("touch b.txt"), _run("mkdir made"), DONE], person)
    await loop.run("touch")
    assert [e.result["status"] for e in events.of(ToolFinished)] == ["ok", "ok", "denied"]
    assert person.shown[0].proposed_rule == "touch" and person.shown[1].command == "mkdir made"
    (stored,) = TrustStore().grants(project)
    assert stored.command is not None and (stored.command.match, stored.command.argv) == ("prefix", ("touch",))


def _decide(project: Path, request_paths: tuple[str, ...], answer: TrustAnswer, capability: str = "edit"):  # type: ignore[no-untyped-def]
    from konstruct_tui.trust import TrustRequest

    broker = PreviewingBroker(Workspace(project), CallLedger(), Person())
    return broker._decision(TrustRequest(capability, "x", request_paths), answer)


def test_these_files_are_granted_as_the_workspace_resolves_them(project: Path) -> None:
    """A path spelled with `..` (which a stored glob may not hold) or one that resolves outside is
    never a crash and never a wider grant."""
    (project / "sub").mkdir()
    asked = ("sub/../calc.py", "../outside.py", "a*.py")
    decision = _decide(project, asked, TrustAnswer(True, "always", paths=asked))
    assert decision.granted and decision.paths == ("calc.py", "a\\*.py")  # the star is a star in a name, not a wildcard
    only_outside = _decide(project, ("../x.py",), TrustAnswer(True, "always", paths=("../x.py",)))
    assert not only_outside.granted


async def test_always_for_a_file_spelled_with_dotdot_is_stored_and_covers_that_file_only(project: Path, tmp_path: Path) -> None:
    write = {"text": "Fixing.", "tool_calls": [{"name": "write_code", "arguments": {"edits": [
        {"path": "sub/../calc.py", "revision": "$revision:calc.py", "replacements": [{"old": "return a - b", "new": "return a + b"}]}]}}]}
    (project / "sub").mkdir()
    person = Person(TrustAnswer(True, "always", paths=("sub/../calc.py",)))
    loop, _, events = _loop(project, tmp_path, [READ_CALC, write, DONE], person)
    await loop.run("fix add")
    assert events.of(ToolFinished)[1].statuses == ("written",)
    (stored,) = TrustStore().grants(project)
    assert stored.paths == ("calc.py",) and stored.covers("edit", "calc.py") and not stored.covers("edit", "other.py")


def test_a_command_answer_that_is_no_rule_denies(project: Path) -> None:
    assert not _decide(project, (), TrustAnswer(True, "session", command=("exact", ())), "commands").granted
    assert not _decide(project, (), TrustAnswer(True, "always", command=("everything", ("x",))), "commands").granted


def test_a_long_denial_message_is_cut(project: Path) -> None:
    import asyncio

    from konstruct_tui.trust import TrustRequest

    broker = PreviewingBroker(Workspace(project), CallLedger(), Person(TrustAnswer(False, message="x" * 100_000)))
    decision = asyncio.run(broker.request(TrustRequest("commands", "touch a")))
    assert not decision.granted and len(decision.message) == 4000
