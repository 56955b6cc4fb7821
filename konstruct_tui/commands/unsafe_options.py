"""Options that make a harmless-looking program execute, write or redirect.

`rg --pre rm` runs `rm` on every file it searches, `git grep -O...` opens them with a program of
the caller's choosing, `git diff --output=FILE` writes anywhere, `git branch -D` deletes, `find
-delete` deletes, `make -f evil.mk` runs another makefile. An allowlist entry or a read-only rule
admits a program with its ordinary options; these are refused unless the entry lists them.

Matching is deliberately loose, so it errs towards refusing: a long option also matches its
abbreviations (git and GNU tools accept `--out=x` for `--output=x`), a short letter matches inside
a cluster (`-nO`), `--opt=value` matches `--opt`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

# Any program: long options whose value is a program, a shell string, or where output goes.
GENERIC = frozenset({
    "--exec", "--execdir", "--exec-path", "--pre", "--pre-glob", "--hostname-bin", "--script-shell", "--to-command",
    "--checkpoint-action", "--use-compress-program", "--rsh", "--rsh-command", "--rsync-path", "--upload-pack",
    "--receive-pack", "--ext-diff", "--textconv", "--open-files-in-pager", "--output", "--config-env", "--unzip-command",
    "--sendmail-cmd", "--extcmd", "--command", "--shell", "--call", "--info-script", "--new-volume-script",
    "--rmt-command", "--init-script", "--eval", "--prefix", "--makefile", "--file", "--directory", "--include-dir",
    "--basetemp", "--override-ini", "--rootdir", "--config-file", "--settings", "--global-settings", "--userconfig",
    "--globalconfig", "--node-options", "--pager", "--editor", "--upload-file", "--post-file", "--delete",
})
_GIT_LOG = frozenset({"--output", "--ext-diff", "--textconv"})
# Options of JavaScript test runners that write a report where they are told or take their whole
# configuration (and the code it loads) from another file. Not `--watch`, `--reporter=dot`: ordinary.
_JS_TEST = frozenset({"--outputFile", "--config", "-c", "--globalSetup", "--globalTeardown", "--setupFiles",
                      "--setupFilesAfterEnv", "--testResultsProcessor", "--coverageDirectory", "--rootDir",
                      "--outputJson", "--require"})
# Keyed by program, or by (program, subcommand).
BY_PROGRAM: dict[str | tuple[str, str], frozenset[str]] = {
    "git": frozenset({"-c", "-C", "--config-env", "--exec-path", "--git-dir", "--work-tree", "--namespace",
                      "--super-prefix", "-p", "--paginate", "--attr-source", "--list-cmds"}),
    ("git", "diff"): _GIT_LOG, ("git", "log"): _GIT_LOG, ("git", "show"): _GIT_LOG, ("git", "whatchanged"): _GIT_LOG,
    ("git", "format-patch"): _GIT_LOG | {"-o", "--output-directory"}, ("git", "range-diff"): _GIT_LOG,
    ("git", "grep"): frozenset({"-O", "--open-files-in-pager", "--ext-grep"}),
    ("git", "cat-file"): frozenset({"--filters", "--textconv"}),  # both run the project's configured filters
    ("git", "rebase"): frozenset({"-x", "--exec"}),
    ("git", "branch"): frozenset({"-d", "-D", "--delete", "-m", "-M", "--move", "-c", "-C", "--copy", "-f", "--force",
                                  "-u", "--set-upstream-to", "--unset-upstream", "--edit-description", "-t", "--track"}),
    ("git", "tag"): frozenset({"-d", "--delete", "-f", "--force", "-a", "-s", "-u", "-m", "-F"}),
    ("git", "difftool"): frozenset({"-x", "--extcmd", "-t", "--tool"}),
    ("git", "clone"): frozenset({"-u", "--upload-pack", "--template", "-c", "--config"}),
    ("git", "fetch"): frozenset({"--upload-pack"}), ("git", "pull"): frozenset({"--upload-pack"}),
    ("git", "push"): frozenset({"--receive-pack", "--exec"}), ("git", "archive"): frozenset({"--exec", "--remote", "-o"}),
    # `-z`: rg starts gzip, xz, zstd ... found on PATH (which may name a folder in the project)
    "rg": frozenset({"--pre", "--pre-glob", "--hostname-bin", "-z", "--search-zip"}),
    "find": frozenset({"-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"}),
    "tree": frozenset({"-o", "-R"}), "date": frozenset({"-s", "--set"}), "file": frozenset({"-C", "--compile", "-z", "-Z", "--uncompress", "--uncompress-noreport"}),
    "tar": frozenset({"-I", "-F", "--to-command", "--checkpoint-action", "--use-compress-program", "--rsh-command",
                      "--info-script", "--new-volume-script", "--rmt-command"}),
    "zip": frozenset({"-TT", "--unzip-command"}),
    "make": frozenset({"-f", "--file", "--makefile", "-C", "--directory", "-E", "--eval", "-I", "--include-dir", "-e",
                       "--environment-overrides"}),
    "npm": frozenset({"--script-shell", "--prefix", "-C", "--userconfig", "--globalconfig", "--node-options", "-c",
                      "--call", "--shell", "--init-module", "--onload-script", "--git", "--browser", "--viewer"}),
    "pnpm": frozenset({"-C", "--dir", "--script-shell", "-c", "--shell-mode"}), "yarn": frozenset({"--cwd"}),
    # Report files are writes wherever the caller says (`--junitxml=src/app.py` overwrites a source file).
    "pytest": frozenset({"-p", "-c", "--config-file", "--rootdir", "-o", "--override-ini", "--basetemp", "--pastebin",
                         "--confcutdir", "--junitxml", "--junit-xml", "--resultlog", "--result-log", "--report-log",
                         "--html", "--json-report-file", "--log-file", "--debug", "--cov-report", "--cov-config",
                         "--cache-dir"}),
    "jest": _JS_TEST, "vitest": _JS_TEST, "mocha": _JS_TEST | {"-r", "--require", "--file", "--spec"},
    "eslint": frozenset({"-o", "--output-file", "-c", "--config", "--rulesdir", "--plugin", "--resolve-plugins-relative-to"}),
    "tsc": frozenset({"--outDir", "--outFile", "--out", "--declarationDir", "--tsBuildInfoFile", "-p", "--project",
                      "--plugins"}),
    "go": frozenset({"-exec", "-toolexec", "-modfile", "-overlay", "-C"}),
    "mvn": frozenset({"-f", "--file", "-s", "--settings", "-gs", "--global-settings", "-t", "--toolchains"}),
    "gradle": frozenset({"-I", "--init-script", "-b", "--build-file", "-c", "--settings-file", "-p", "--project-dir"}),
    "sed": frozenset({"-i", "--in-place"}),
    "vim": frozenset({"-c", "--cmd", "-S"}), "vi": frozenset({"-c", "--cmd", "-S"}), "nvim": frozenset({"-c", "--cmd", "-S"}),
    "less": frozenset({"-o", "--log-file", "-O", "--LOG-FILE"}),
    "sort": frozenset({"-o", "--output", "--compress-program"}),
    "rsync": frozenset({"-e", "--rsh", "--rsync-path"}), "scp": frozenset({"-S", "-o", "-F"}),
    "ssh": frozenset({"-o", "-F"}),
}
# Long options a program has under exactly that name: never read as an abbreviation of an unsafe one
# (grep's `--include=GLOB` is not make's `--include-dir`), as getopt_long prefers an exact match.
OWN_EXACT: dict[str, frozenset[str]] = {name: frozenset({"--include"}) for name in ("grep", "egrep", "fgrep", "zgrep")}
_ALIASES = {"./gradlew": "gradle", "./mvnw": "mvn", "py.test": "pytest", "pnpx": "npm", "npx": "npm"}


def unsafe_for(words: Sequence[str]) -> frozenset[str]:
    """The unsafe options of the program `words` starts with (and its subcommand, if known)."""
    if not words:
        return GENERIC
    if re.match(r"^(.*/)?python(\d+(\.\d+)*)?$", words[0]) and len(words) > 2 and words[1] == "-m":
        words = [words[2], *words[3:]]  # `python -m pytest -p x` is pytest's own options
    program = _ALIASES.get(words[0], words[0].rsplit("/", 1)[-1])
    found = set(GENERIC)
    sub = words[1] if len(words) > 1 and not words[1].startswith("-") else None
    if program != "git" or sub is None:  # git's own options come before the subcommand only
        found |= BY_PROGRAM.get(program, frozenset())
    if sub is not None:
        found |= BY_PROGRAM.get((program, sub), frozenset())
    if program == "git" and sub is None:
        for key, options in BY_PROGRAM.items():
            if isinstance(key, tuple) and key[0] == "git":
                found |= options
    return frozenset(found)


def own_exact(words: Sequence[str]) -> frozenset[str]:
    """The long options of the program `words` starts with that it has under exactly that name."""
    return OWN_EXACT.get(words[0].rsplit("/", 1)[-1], frozenset()) if words else frozenset()


def first_unsafe(args: Iterable[str], unsafe: frozenset[str], listed: frozenset[str] = frozenset(),
                 exact: frozenset[str] = frozenset()) -> str | None:
    """The first word of `args` that spells an unsafe option not in `listed` (`exact`: the
    program's own long options, never read as abbreviations)."""
    for word in args:
        if word == "--":
            return None
        if not word.startswith("-") or word == "-" or word.split("=", 1)[0] in exact:
            continue
        for option in _spellings(word, unsafe):
            if option not in listed:
                return word
    return None


def _spellings(word: str, unsafe: frozenset[str]) -> list[str]:
    name = word.split("=", 1)[0]
    if name in unsafe:
        return [name]
    if word.startswith("--"):  # `--out=x` for `--output=x`; short stems (`--co`) are other options' own names
        return [o for o in unsafe if o.startswith("--") and len(name) > 4 and o.startswith(name)]
    found = []
    for option in unsafe:
        if option.startswith("-") and not option.startswith("--"):
            if len(option) == 2 and option[1] in word[1:] and not word[1:].isdigit():
                found.append(option)  # a letter inside a cluster: `-nO`
            elif len(option) > 2 and word.startswith(option + "="):
                found.append(option)  # `-out=x`; find's `-exec` and `-fprintf` matched whole above
    return found
