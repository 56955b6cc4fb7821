"""git: its own options, what each subcommand runs, writes or only reads."""

from __future__ import annotations

from .program import Program, Subcommand

_LOG = frozenset({"--output", "--ext-diff", "--textconv"})  # the diff-writing subcommands' options
_UPLOAD_PACK = {"--upload-pack": "shell"}  # the program git runs on the remote side (a local path runs here)

GIT = Program(
    ("git",),
    # git's own options, before the subcommand: settings, another git, another repository, a pager
    unsafe=frozenset({"-c", "-C", "--config-env", "--exec-path", "--git-dir", "--work-tree", "--namespace",
                      "--super-prefix", "-p", "--paginate", "--attr-source", "--list-cmds"}),
    takes_value=frozenset({"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env", "--super-prefix",
                           "--attr-source", "--list-cmds"}),
    writes=("--output", "-o", "--output-directory"),  # the deny list reads these whatever the subcommand
    text=True,  # commit messages, patterns, refs: text
    inspects_disks=True,  # its one way to write a named file (`--output`) has its own rule
    subcommands={
        "status": Subcommand(read_only=True, in_every_preset=True),
        "log": Subcommand(unsafe=_LOG, read_only=True, in_every_preset=True),
        "show": Subcommand(unsafe=_LOG, read_only=True, in_every_preset=True),
        "diff": Subcommand(unsafe=_LOG, read_only=True, in_every_preset=True),
        "whatchanged": Subcommand(unsafe=_LOG),
        "format-patch": Subcommand(unsafe=_LOG | {"-o", "--output-directory"}),
        "range-diff": Subcommand(unsafe=_LOG),
        "blame": Subcommand(read_only=True, in_every_preset=True),
        "grep": Subcommand(unsafe=frozenset({"--ext-grep"}), runs={"--open-files-in-pager": "program", "-O": "program"},
                           read_only=True, in_every_preset=True),
        "ls-files": Subcommand(read_only=True, in_every_preset=True),
        "rev-parse": Subcommand(read_only=True, in_every_preset=True),
        # `git branch NAME` creates a branch: with a name, git lists only under an option that puts it
        # in list mode (`--list`, or a filter: `--merged X`); `-v NAME`, `--color NAME`, `--sort=k NAME`
        # all create NAME (checked against git 2.39).
        "branch": Subcommand(unsafe=frozenset({"-d", "-D", "--delete", "-m", "-M", "--move", "-c", "-C", "--copy", "-f",
                                               "--force", "-u", "--set-upstream-to", "--unset-upstream",
                                               "--edit-description", "-t", "--track"}),
                             read_only=True, in_every_preset=True,
                             lists_only_with=("-l", "--list", "--contains", "--no-contains", "--merged", "--no-merged",
                                              "--points-at"),
                             takes_value=frozenset({"--points-at", "--format", "--sort"})),
        "shortlog": Subcommand(read_only=True),
        "describe": Subcommand(read_only=True),
        "ls-tree": Subcommand(read_only=True),
        "cat-file": Subcommand(unsafe=frozenset({"--filters", "--textconv"}), read_only=True),  # both run configured filters
        "reflog show": Subcommand(read_only=True),
        "tag": Subcommand(unsafe=frozenset({"-d", "--delete", "-f", "--force", "-a", "-s", "-u", "-m", "-F"})),
        "rebase": Subcommand(runs={"--exec": "shell", "-x": "shell"}),
        "difftool": Subcommand(unsafe=frozenset({"-t", "--tool"}), runs={"--extcmd": "shell", "-x": "shell"}),
        "send-email": Subcommand(runs={"--sendmail-cmd": "shell", "--smtp-server": "program"}),
        "clone": Subcommand(unsafe=frozenset({"--template", "-c", "--config"}), runs={**_UPLOAD_PACK, "-u": "shell"}),
        "fetch": Subcommand(runs=_UPLOAD_PACK),
        "pull": Subcommand(runs=_UPLOAD_PACK),
        "ls-remote": Subcommand(runs=_UPLOAD_PACK),
        "push": Subcommand(runs={"--receive-pack": "shell", "--exec": "shell"}),
        "archive": Subcommand(unsafe=frozenset({"--remote", "-o"}), runs={"--exec": "shell"}),
        "filter-branch": Subcommand(runs={f"--{what}-filter": "shell" for what in (
            "tree", "index", "env", "parent", "msg", "commit", "tag-name")}),
        # the wiping subcommands: aimed at another folder (`git -C / clean -fdx`) the deny list judges where
        **{sub: Subcommand(wipes=True) for sub in ("clean", "reset", "checkout", "restore", "rm", "stash", "switch",
                                                  "read-tree", "update-index")},
        "config": Subcommand(takes_value=frozenset({"-f", "--file", "--blob", "--type", "--default", "--comment",
                                                    "--value", "--url"})),
    },
    should_match=("git status -s", "git log --oneline -5", "git diff --stat", "git grep -n TODO", "git branch --list",
                  "git show HEAD:README.md", "git blame -L 1,5 app.py"),
    should_not_match=("git -c core.pager=x log", "git grep -Ovim TODO", "git grep --open-files-in-pager=vim x",
                      "git diff --output=/tmp/x", "git log --out=x", "git branch -D main", "git rebase -x make",
                      "git rebase --exec=make main", "git clone --upload-pack=x url", "git push --receive-pack=x",
                      "git difftool --extcmd=x", "git archive --exec=x", "git cat-file --textconv HEAD:x",
                      "git filter-branch --tree-filter=x", "git send-email --smtp-server=/tmp/x"),
)

PROGRAMS = (GIT,)
