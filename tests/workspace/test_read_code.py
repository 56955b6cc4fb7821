"""read_code: per-entry statuses, revisions of the exact bytes, ranges, and the batch byte budget."""

from __future__ import annotations

import hashlib
from pathlib import Path


def test_every_read_carries_the_sha256_revision_of_the_exact_bytes(tool, project: Path) -> None:
    data = b"line one\r\nline two\n\xc3\xa9\n"
    (project / "crlf.txt").write_bytes(data)
    entry = tool("read_code", {"paths": ["crlf.txt"]})["results"][0]
    assert entry["revision"] == "sha256:" + hashlib.sha256(data).hexdigest()
    assert entry["content"].encode() == data
    assert entry["total_lines"] == 3


def test_line_ranges_are_clipped_and_numbered_on_request(tool, project: Path) -> None:
    result = tool("read_code", {"paths": [{"path": "pkg/util.py", "start_line": 58, "end_line": 90}], "line_numbers": True})
    entry = result["results"][0]
    assert (entry["start_line"], entry["end_line"], entry["total_lines"]) == (58, 60, 60)
    assert entry["content"] == "def f19():\n    return 19\n\n"
    assert entry["numbered"].splitlines()[0] == "58\u2502def f19():"


def test_statuses_for_missing_binary_and_non_utf8(tool, project: Path) -> None:
    (project / "image.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00")
    (project / "latin1.txt").write_bytes("caf\xe9".encode("latin-1"))
    result = tool("read_code", {"paths": ["missing.py", "image.png", "latin1.txt"]})
    assert [e["status"] for e in result["results"]] == ["not_found", "binary", "binary"]
    assert all(e["reason"] for e in result["results"])
    assert "content" not in result["results"][1]
    assert result["results"][1]["revision"].startswith("sha256:")


def test_budget_skips_later_entries_but_never_drops_them(tool, project: Path) -> None:
    for name in "abcd":
        (project / f"{name}.txt").write_text(name * 400 + "\n")
    result = tool("read_code", {"paths": ["a.txt", "b.txt", "missing.txt", "c.txt", "d.txt"], "max_bytes": 1000})
    assert [e["status"] for e in result["results"]] == ["ok", "ok", "not_found", "skipped", "skipped"]
    assert [e["path"] for e in result["results"]] == ["a.txt", "b.txt", "missing.txt", "c.txt", "d.txt"]
    assert "budget" in result["results"][3]["reason"]
    assert result["bytes_used"] == 802


def test_a_file_larger_than_the_whole_budget_is_too_large_and_a_range_still_reads(tool, project: Path) -> None:
    (project / "big.txt").write_text("".join(f"row {i}\n" for i in range(100_000)))
    result = tool("read_code", {"paths": ["big.txt", {"path": "big.txt", "start_line": 10, "end_line": 11}, "README.md"]})
    assert [e["status"] for e in result["results"]] == ["too_large", "ok", "ok"]
    assert "line range" in result["results"][0]["reason"]
    assert result["results"][1]["content"] == "row 9\nrow 10\n"


def test_default_budget_is_256_kib(tool, project: Path) -> None:
    assert tool("read_code", {"paths": ["README.md"]})["max_bytes"] == 256 * 1024
