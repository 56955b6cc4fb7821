"""Archivers: each can be told to run a program (a compressor, a checkpoint script, a remote shell)."""

from __future__ import annotations

from .program import Program

PROGRAMS = (
    Program(("tar",), unsafe=frozenset({"--checkpoint-action"}),  # `--checkpoint-action=exec=CMD`
            runs={"--to-command": "shell", "--use-compress-program": "shell", "-I": "shell", "--info-script": "shell",
                  "--new-volume-script": "shell", "-F": "shell", "--rsh-command": "program",
                  "--rmt-command": "program"},
            should_match=("tar -czf out.tgz src", "tar -tzf out.tgz", "tar --exclude=.git -cf x.tar ."),
            should_not_match=("tar -I ./x -cf a.tar .", "tar --to-command=sh -xf a.tar",
                              "tar --checkpoint-action=exec=sh -cf a.tar .", "tar -cF ./x -f a.tar .",
                              "tar --use-compress=./x -cf a.tar .")),
    Program(("zip",), runs={"--unzip-command": "shell", "-TT": "shell"},
            should_match=("zip -r out.zip src",), should_not_match=("zip -T -TT ./x out.zip src",)),
)
