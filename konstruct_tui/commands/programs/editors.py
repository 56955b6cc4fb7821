"""Editors and pagers: each can run a shell command or write a file it is told to."""

from __future__ import annotations

from .program import Harm, Program

# `vim -c '!rm -rf /'`, `--cmd`: an editor command run at start (`:!cmd` runs cmd in a shell);
# `-S FILE` sources a script of such commands. `+!cmd` on the line is read by embedded.py.
VIM = Program(("vim", "vi", "nvim", "ex", "view", "gvim"), unsafe=frozenset({"-S"}), runs={"-c": "vim", "--cmd": "vim"},
              should_match=("vim README.md", "vi -R notes.txt"),
              should_not_match=("vim -c q x", "nvim --cmd=x", "vi -S evil.vim"))

PROGRAMS = (
    VIM,
    Program(("less",), unsafe=frozenset({"-o", "--log-file", "-O", "--LOG-FILE"}),  # writes a copy of what it shows
            should_match=("less -R log.txt",), should_not_match=("less -o copy.txt log.txt",)),
    Program(("sed",), unsafe=frozenset({"-i", "--in-place"}), text=True, harm=Harm(edits_in_place=True),
            should_match=("sed -n 1,5p file",), should_not_match=("sed -i s/a/b/ file", "sed -ni 1p f")),
)
