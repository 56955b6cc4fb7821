"""`finished.message` carries the model's final reply: whole when it fits, and when it does not, cut
at a word with a marker saying where the rest is (never silently, never mid-word)."""

from __future__ import annotations

from pathlib import Path

from agent_harness import scripted_loop, write_script

from konstruct_tui.agent.events import MESSAGE_LIMIT, finished_message


async def test_a_reply_of_600_characters_is_kept_whole(project: Path, tmp_path: Path) -> None:
    reply = " ".join(f"word{n:03d}" for n in range(75))  # 599 characters: the old limit cut it to 500
    loop, _, _ = scripted_loop(project, write_script(tmp_path, [{"text": reply}]))
    finished = await loop.run("summarise")
    assert finished.message == reply


async def test_a_long_reply_is_cut_at_a_word_with_a_marker(project: Path, tmp_path: Path) -> None:
    reply = "Changed: " + " ".join(f"alpha{n:04d}" for n in range(600))
    loop, _, _ = scripted_loop(project, write_script(tmp_path, [{"text": reply}]))
    finished = await loop.run("summarise")
    head, marker = finished.message.split(" […", 1)
    assert reply.startswith(head) and head.split(" ")[-1] in reply.split(" ")  # ends on a whole word
    assert len(head) <= MESSAGE_LIMIT and marker.endswith("more characters in this turn's text_delta events and the session file]")
    assert marker.startswith((str(len(reply) - len(head) - 1), str(len(reply) - len(head))))


def test_one_unbroken_token_is_cut_at_the_limit_and_still_marked() -> None:
    message = finished_message("x" * 5000)
    assert message.startswith("x" * MESSAGE_LIMIT + " […3000 more characters")
