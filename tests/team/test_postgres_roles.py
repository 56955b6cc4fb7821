"""The roles docs/blueprints.md tells a team to make, made exactly as written there: the watcher
looks and is refused at answering in one line; the approver answers, and the audit names its role.
(The SQL is read from the docs, so the docs cannot drift from what works.)"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from team_processes import Cluster

sys.path.insert(0, str(Path(__file__).parents[1] / "ui"))
from team_fixture import REQUEST, WAITING, team_database  # noqa: E402

DOCS = Path(__file__).parents[2] / "docs" / "blueprints.md"


def documented_roles_sql(suffix: str) -> list[str]:
    permissions = DOCS.read_text().split("### Permissions", 1)[1]
    block = re.search(r"```sql\n(.*?)```", permissions, re.S)
    assert block, "docs/blueprints.md, Permissions: the SQL block is gone"
    text = "\n".join(line.split("--", 1)[0] for line in block.group(1).splitlines())
    text = re.sub(r"\bkonstruct_(watch|approve)\b", lambda m: f"{m.group(0)}_{suffix}", text).replace("'…'", "'pw'")
    return [statement.strip() for statement in text.split(";") if statement.strip()]


def test_the_documented_watcher_and_approver_roles_do_what_the_docs_say(konstruct, cluster: Cluster, pg_url: str, tmp_path: Path) -> None:
    db = team_database(pg_url, tmp_path / "images")
    name = pg_url.split("/")[3].split("?")[0]
    for statement in documented_roles_sql(name):
        cluster.sql(statement, name)
    watcher, approver = (cluster.url(name, user=f"konstruct_{role}_{name}", password="pw") for role in ("watch", "approve"))

    code, listed, err = konstruct("approvals", "list", "--json", "--database", watcher)
    assert code == 0, err
    assert [a["request_id"] for a in listed["approvals"]] == [REQUEST]
    code, _, err = konstruct("approvals", "grant", WAITING, REQUEST, "--database", watcher)
    assert code == 2 and "permission denied" in err and len(err.strip().splitlines()) == 1, err
    assert db.approvals(WAITING)[0]["status"] == "pending"

    code, answer, err = konstruct("approvals", "grant", WAITING, REQUEST, "--database", approver)
    assert code == 0, err
    assert answer["status"] == "queued" and f"konstruct_approve_{name}" in answer["by"]
    assert db.approvals(WAITING)[0]["status"] == "granted"
    assert db.run(WAITING)["status"] == "queued"
    assert any(f"konstruct_approve_{name}" in entry["actor"] for entry in db.audit(WAITING))
