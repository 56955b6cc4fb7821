"""The journal's on-disk format: a batch folder holds one pack of pre-images and a JSON manifest.

    <batch>/intent         written (fsynced) before the first file is touched: one line of JSON
                           saying what the batch will do, then the bytes of every file before the
                           batch, back to back (one file, so one fsync makes it all durable)
    <batch>/landed         one JSON line per entry that landed (the applier holds a flock on it)
    <batch>/manifest.json  written when the batch ends: the files it changed, as they were left

Every pre-image carries its length and sha256 and every manifest a checksum of its own body, so
undo can tell a truncated or overwritten journal from a good one before it restores anything.
Version 1 (a `N.pre` file per pre-image, no hashes) is still read: its pre-images are only checked
for being there.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .revision import revision_of

VERSION = 2
INTENT = "intent"
MANIFEST = "manifest.json"
LANDED = "landed"


class JournalDamaged(Exception):
    """A batch folder of the journal that does not verify; the message names it and what to do."""


@dataclass(frozen=True)
class PreImage:
    """Where one pre-image sits in the pack, and what it must hash to."""

    offset: int
    length: int
    revision: str

    def json(self) -> dict[str, Any]:
        return {"offset": self.offset, "length": self.length, "revision": self.revision}


def dump(body: dict[str, Any], one_line: bool = False) -> bytes:
    """The manifest's bytes: the body plus a checksum over its canonical form."""
    checksum = revision_of(json.dumps(body, sort_keys=True).encode())
    return json.dumps({**body, "checksum": checksum}, indent=None if one_line else 1).encode()


def load_intent(folder: Path) -> tuple[dict[str, Any], bytes]:
    """The intent's JSON (verified like a manifest) and its pack of pre-images."""
    header, pack = _split_intent(folder)
    return _verified(folder, INTENT, header), pack


def read_pack(folder: Path) -> bytes:
    return _split_intent(folder)[1]


def _split_intent(folder: Path) -> tuple[bytes | None, bytes]:
    try:
        raw = (folder / INTENT).read_bytes()
    except FileNotFoundError:
        return None, b""
    except OSError as error:
        raise _damaged(folder, f"{INTENT} cannot be read ({error.strerror})") from None
    header, newline, pack = raw.partition(b"\n")
    if not newline:
        raise _damaged(folder, f"{INTENT} was cut before its pre-images")
    return header, pack


def load(folder: Path, name: str) -> dict[str, Any]:
    """A manifest that parses, has the expected shape and matches its checksum."""
    try:
        raw: bytes | None = (folder / name).read_bytes()
    except FileNotFoundError:
        raw = None
    except OSError as error:
        raise _damaged(folder, f"{name} cannot be read ({error.strerror})") from None
    return _verified(folder, name, raw)


def _verified(folder: Path, name: str, raw: bytes | None) -> dict[str, Any]:
    if raw is None:
        raise _damaged(folder, f"{name} is missing")
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        raise _damaged(folder, f"{name} is not valid JSON (truncated or overwritten)") from None
    if not isinstance(data, dict) or not isinstance(data.get("entries"), list):
        raise _damaged(folder, f"{name} has no list of entries")
    if "version" not in data:  # version 1: no checksum, blobs per file
        _check_entries(folder, name, data, legacy=True)
        return data
    if data.get("version") != VERSION:
        raise _damaged(folder, f"{name} is version {data.get('version')!r}, which this konstruct does not know")
    body = {k: v for k, v in data.items() if k != "checksum"}
    if data.get("checksum") != revision_of(json.dumps(body, sort_keys=True).encode()):
        raise _damaged(folder, f"{name} does not match its checksum (it was changed or cut)")
    _check_entries(folder, name, data, legacy=False)
    return data


def pre_image(folder: Path, entry: dict[str, Any], pack: bytes | None) -> bytes | None:
    """The verified bytes of one entry's pre-image (None: the file did not exist before)."""
    if "blob" in entry:  # version 1
        if entry["blob"] is None:
            return None
        try:
            return (folder / entry["blob"]).read_bytes()
        except OSError as error:
            raise _damaged(folder, f"pre-image {entry['blob']} of {entry['path']} cannot be read ({error.strerror})") from None
    pre = entry.get("pre")
    if pre is None:
        return None
    data = b"" if pack is None else pack[pre["offset"] : pre["offset"] + pre["length"]]
    if len(data) != pre["length"] or revision_of(data) != pre["revision"]:
        raise _damaged(folder, f"the pre-image of {entry['path']} does not match its hash (the pack was cut or changed)")
    return data


def _check_entries(folder: Path, name: str, data: dict[str, Any], legacy: bool) -> None:
    for key in ("batch", "tool", "created_at"):
        if key not in data:
            raise _damaged(folder, f"{name} has no {key!r}")
    for entry in data["entries"]:
        ok = isinstance(entry, dict) and isinstance(entry.get("path"), str) and "after_revision" in entry
        if ok and not legacy:
            pre = entry.get("pre")
            ok = pre is None or (
                isinstance(pre, dict)
                and all(isinstance(pre.get(k), int) and pre[k] >= 0 for k in ("offset", "length"))
                and isinstance(pre.get("revision"), str)
            )
        if ok and legacy:
            ok = "blob" in entry
        if not ok:
            raise _damaged(folder, f"{name} has an entry of the wrong shape")


def _damaged(folder: Path, what: str) -> JournalDamaged:
    batch = folder.name.split(".")[0]
    return JournalDamaged(
        f"the undo journal's batch {batch} is damaged: {what} ({folder}); nothing was restored. "
        f"Its files are as that batch left them; to give up undoing it and reach older batches: konstruct undo --drop {batch}"
    )
