"""Content revisions: `sha256:<hex>` of the exact bytes, the token every write must be built on."""

from __future__ import annotations

import hashlib
import re

_REVISION = re.compile(r"sha256:[0-9a-f]{64}")


def revision_of(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


def is_revision(value: object) -> bool:
    return isinstance(value, str) and _REVISION.fullmatch(value) is not None
