"""Programs that delete, overwrite, change permissions, signal processes, stop the machine or start
containers: what the hard deny list and the destructive rule judge (deny.py) is a fact of each
entry's `harm`."""

from __future__ import annotations

from .program import Harm, Program


def _harm(*names: str, **harm: object) -> tuple[Program, ...]:
    """One entry per name, each with the same kind of harm (these programs share no other fact)."""
    return tuple(Program((name,), harm=Harm(**harm)) for name in names)  # type: ignore[arg-type]


PROGRAMS = (
    # `gio remove`, `gio trash`: its other subcommands name files too, judged the same way
    *_harm("rm", "unlink", "rmdir", "shred", "srm", "trash", "trash-put", "gio", "rimraf", "del-cli", deletes=True),
    *_harm("mv", "tee", "truncate", "touch", overwrites="every operand"),
    *_harm("cp", "install", "ln", overwrites="last operand"),
    *_harm("chmod", "chown", "chgrp", "chattr", "setfacl", changes_permissions=True),
    Program(("perl",), harm=Harm(edits_in_place=True), code_options=frozenset({"-e", "-E"})),
    *_harm("pkill", "killall", signals_by_name=True),
    *_harm("shutdown", "reboot", "halt", "poweroff", "kexec", stops_machine=True),
    *_harm("init", "telinit", stops_machine_with=("0", "6")),  # runlevels 0 and 6
    Program(("systemctl",), harm=Harm(stops_machine_with=("poweroff", "reboot", "halt", "kexec", "emergency", "rescue"))),
    *_harm("docker", "podman", "nerdctl", runs_containers=True),
    # Windows spellings of the same catastrophes, for a corpus or a model that reaches for them
    *_harm("del", "erase", "rd", "remove-item", "ri", "cipher", windows_wipes=True),
    *_harm("format", "format.com", "diskpart", windows_wipes=True, formats_disks=True),
)
