"""Programs that send files off this machine (the deny list refuses sending an env file or a file from
outside the project), and the remote shells."""

from __future__ import annotations

from .program import Harm, Program, Runner, options

PROGRAMS = (
    Program(("curl",), uploads=True, writes=("-o", "--output")),
    Program(("wget",), uploads=True, writes=("-O", "--output-document", "-o", "--output-file", "-a", "--append-output")),
    Program(("scp",), uploads=True, harm=Harm(overwrites="last operand", copies_to_hosts=True), unsafe=frozenset({"-o", "-F"}), runs={"-S": "program"},
            should_not_match=("scp -S ./x a b", "scp -o ProxyCommand=x a b")),
    Program(("rsync",), uploads=True, harm=Harm(overwrites="last operand", copies_to_hosts=True),
            runs={"-e": "shell", "--rsh": "shell", "--rsync-path": "shell"},
            should_match=("rsync -av src/ dest/",), should_not_match=("rsync -e ./x a b", "rsync --rsync-path=x a b")),
    *(Program((name,), uploads=True) for name in ("http", "https", "xh", "socat", "ftp")),
    Program(("sftp",), uploads=True, harm=Harm(copies_to_hosts=True)),
    # `nc -e /bin/sh host`: a reverse shell (`-c` too, alone or in a cluster: `-lvpe`)
    Program(("nc", "ncat", "netcat", "nc.traditional", "nc.openbsd"), uploads=True,
            harm=Harm(peer_shell_options=("--exec", "--sh-exec", "--lua-exec", "-e", "-c"))),
    # ssh runs its remote command through a shell there: judged as shell code (wrappers.py)
    Program(("ssh",), unsafe=frozenset({"-o", "-F"}),
            runner=Runner(options("46AaCfGgKkMNnqsTtVvXxYyB:b:c:D:E:e:F:I:i:J:L:l:m:O:o:p:Q:R:S:W:w:")),
            should_not_match=("ssh -o ProxyCommand=x host",)),
)
