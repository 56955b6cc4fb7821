"""Archivers: each can be told to run a program (a compressor, a checkpoint script, a remote shell),
and unpacking one writes into the folder it is told to."""

from __future__ import annotations

from .program import Harm, Program

PROGRAMS = (
    # extracting (`-x`, `--extract`) unpacks into the folder `-C` names; creating only reads it
    Program(("tar", "gtar", "bsdtar"), harm=Harm(unpacks_into=("-C", "--directory")),
            unsafe=frozenset({"--checkpoint-action"}),  # `--checkpoint-action=exec=CMD`
            runs={"--to-command": "shell", "--use-compress-program": "shell", "-I": "shell", "--info-script": "shell",
                  "--new-volume-script": "shell", "-F": "shell", "--rsh-command": "program",
                  "--rmt-command": "program"},
            should_match=("tar -czf out.tgz src", "tar -tzf out.tgz", "tar --exclude=.git -cf x.tar ."),
            should_not_match=("tar -I ./x -cf a.tar .", "tar --to-command=sh -xf a.tar",
                              "tar --checkpoint-action=exec=sh -cf a.tar .", "tar -cF ./x -f a.tar .",
                              "tar --use-compress=./x -cf a.tar .")),
    Program(("zip",), runs={"--unzip-command": "shell", "-TT": "shell"},
            should_match=("zip -r out.zip src",), should_not_match=("zip -T -TT ./x out.zip src",)),
    Program(("unzip",), harm=Harm(unpacks_into=("-d",))),
    Program(("7z", "7za"), harm=Harm(unpacks_into=("-o",))),  # `-oDIR`, attached
    Program(("cpio",), harm=Harm(unpacks_into=("-D", "--directory"))),
)
