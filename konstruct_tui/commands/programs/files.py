"""Programs that look at files (most are on the read-only list) or turn one file into another."""

from __future__ import annotations

from .program import Harm, Program


def _look(name: str, preset: bool = True, text: bool = False, disks: bool = True, **facts: object) -> Program:
    """A look-around program: on the read-only list; `preset`: every allowlist preset admits it."""
    return Program((name,), read_only=True, in_every_preset=preset, text=text, inspects_disks=disks, **facts)  # type: ignore[arg-type]


_FIND_WRITES = ("-fprint", "-fprint0", "-fprintf", "-fls")  # find actions whose next word is a file it writes

PROGRAMS = (
    _look("ls"), _look("stat"), _look("which"), _look("diff"), _look("pwd", disks=False),
    _look("cat", text=True), _look("head", text=True), _look("wc", text=True), _look("echo", text=True),
    # `tail -f` (and `-qf`, `--fol`) never ends: not a look around
    _look("tail", text=True, endless=frozenset({"-f", "-F", "--follow", "--retry"}),
          should_match=("tail -n 20 log.txt",), should_not_match=()),
    _look("file", unsafe=frozenset({"-C", "--compile", "-z", "-Z", "--uncompress", "--uncompress-noreport"}),
          should_match=("file -b x",), should_not_match=("file -z x.gz", "file -C -m magic")),
    _look("tree", unsafe=frozenset({"-o", "-R"}), writes=("-o",),
          should_match=("tree -L 2 src",), should_not_match=("tree -o out.txt", "tree -aR")),
    # find's actions: `-exec CMD ;` runs the words up to `;` or `+` (judged with the paths `{}` stands
    # for, judge.py); `-fprint FILE` writes FILE; `-delete` deletes what it found
    _look("find", preset=False, unsafe=frozenset({"-delete", *_FIND_WRITES}), harm=Harm(writes_next=_FIND_WRITES),
          runs={"-exec": "command", "-execdir": "command", "-ok": "command", "-okdir": "command"},
          should_match=("find . -name *.py -type f",),
          should_not_match=("find . -delete", "find . -exec rm {} ;", "find . -fprint /tmp/x")),
    _look("du", preset=False), _look("realpath", preset=False), _look("readlink", preset=False),
    _look("basename", preset=False), _look("dirname", preset=False), _look("cmp", preset=False),
    _look("md5sum", preset=False), _look("sha1sum", preset=False), _look("sha256sum", preset=False),
    _look("uname", preset=False, disks=False), _look("whoami", preset=False, disks=False),
    _look("date", preset=False, disks=False, unsafe=frozenset({"-s", "--set"}),
          should_match=("date -u +%F",), should_not_match=("date -s 2020-01-01",)),
    # text in, text out: their arguments are text, never run
    Program(("printf",), text=True, inspects_disks=True), Program(("logger",), text=True, inspects_disks=True),
    Program(("test",), text=True, inspects_disks=True), Program(("[",), text=True, inspects_disks=True),
    Program(("expr",), text=True, inspects_disks=True), Program(("jq",), text=True, inspects_disks=True),
    Program(("yq",), text=True),
    Program(("awk", "gawk", "mawk", "nawk"), text=True),  # awk programs get their own scan (inline_code.py)
    Program(("gh",), text=True), Program(("glab",), text=True), Program(("hg",), text=True), Program(("svn",), text=True),
    Program(("cowsay",), text=True), Program(("figlet",), text=True), Program(("banner",), text=True),
    Program(("sort",), unsafe=frozenset({"-o", "--output"}), runs={"--compress-program": "program"},
            writes=("-o", "--output"),
            should_match=("sort -u -k2 names.txt",), should_not_match=("sort -o out x", "sort --compress-program=./x y")),
    Program(("base64",), writes=("-o", "--output")), Program(("openssl",), writes=("-out",)),
    Program(("iconv",), writes=("-o", "--output")), Program(("pandoc",), writes=("-o", "--output")),
)
