"""Code handed to an interpreter on the command line (`python -c`, `node -e`, `perl -e`, awk programs).

Quoting a command inside a program is the other way to smuggle it past an argv check:
`python -c "import os; os.system('rm -rf /')"`. This is a heuristic scan, not an interpreter: it
looks for denied commands in the program's string literals (alone or as a list, `["rm", "-rf", "/"]`),
deletion calls aimed at the root or a home directory, fork bombs, reverse shells and credential files.
Ordinary one-liners (`python -c "print(1)"`) pass untouched.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from .deny import DENY, Finding, is_secret
from .targets import place_of
from .wrappers import program_name

_PYTHON = re.compile(r"^(python|pypy)(\d+(\.\d+)*)?$")
_FLAGS: dict[str, tuple[str, ...]] = {
    "node": ("-e", "--eval", "-p", "--print"), "nodejs": ("-e", "--eval", "-p", "--print"),
    "bun": ("-e", "--eval", "-p", "--print"), "ruby": ("-e",), "php": ("-r",), "lua": ("-e",),
    "Rscript": ("-e",), "julia": ("-e", "--eval"), "osascript": ("-e",), "pwsh": ("-c", "-Command"),
    "powershell": ("-c", "-Command"), "tclsh": (), "jshell": (),
}
_AWK = frozenset({"awk", "gawk", "mawk", "nawk", "busybox-awk"})
_LITERAL = re.compile(r"'((?:[^'\\]|\\.)*)'|\"((?:[^\"\\]|\\.)*)\"|`([^`]*)`")
_LIST = re.compile(r"[\[(]([^\[\]()]*)[\])]")
_DELETE_CALL = re.compile(
    r"(rmtree|rmSync|rm_rf|rm_r|remove_dir_all|rimraf|rmdirSync|removedirs|rmdir|unlink|remove|rm)\s*\(\s*"
    r"(?:[\w.]*(?:Path|File|resolve|normpath|abspath|realpath)\s*\(\s*)?(?:r|b|f)?(['\"])([^'\"\n]*)\2"
)
_PATH_METHOD = re.compile(r"Path\s*\(\s*(['\"])([^'\"\n]*)\1\s*\)\s*\.\s*(unlink|rmdir|write_text|write_bytes|chmod|rename|replace)\b")
_WRITE_CALL = re.compile(
    r"\bopen\s*\(\s*(?:r|b|f)?(['\"])([^'\"\n]*)\1\s*,\s*(?:mode\s*=\s*)?['\"][^'\"]*[wax+]"
    r"|(writeFileSync|writeFile|appendFileSync|unlinkSync|truncateSync)\s*\(\s*(['\"])([^'\"\n]*)\4"
)
_DEVICE_PATH = re.compile(r"^/dev/(sd|hd|vd|xvd|nvme|mmcblk|md|dm-|loop|mem$|kmem$|port$)")
# `spawnSync('rm', ['-rf', '/'])`, `execFile("rm", ["-rf", "/"])`: a program and its argument list.
_CALL_ARGV = re.compile(r"\(\s*((?:'[^']*'|\"[^\"]*\"))\s*,\s*[\[(]([^\[\]()]*)[\])]")
_DELETE_HOME = re.compile(
    r"(rmtree|rmSync|rm_rf|remove_dir_all|rimraf)\s*\(\s*(Path\.home\(\)|os\.path\.expanduser\(\s*['\"]~['\"]\s*\)"
    r"|os\.environ\[['\"]HOME['\"]\]|os\.getenv\(\s*['\"]HOME['\"]\s*\)|process\.env\.HOME|os\.homedir\(\)|Dir\.home)"
)
_FORK_LOOP = re.compile(
    r"fork\s*\(?\s*\)?\s*while\s*\(?\s*fork|while\s*\(?\s*(1|true|True)\s*\)?\s*[:{]?\s*(os\.)?fork\b"
    r"|for\s*\(\s*;\s*;\s*\)\s*\{?\s*fork|loop\s*\{\s*fork|while\s+True\s*:\s*(os\.)?fork\s*\("
)
_FORK_REPEAT = re.compile(r"\bwhile\b|\buntil\b|\biter\(|\bcount\(|for\s*\(\s*;\s*;|\bloop\b|\brepeat\b|\.times\b")
_FORK = re.compile(r"\bfork\b|forkpty|pcntl_fork|\bspawn\w*\s*\(\s*(sys\.executable|process\.execPath|\$\^X|\$0)"
                   r"|Process\.spawn|child_process\.fork")
_REPEATS = re.compile(
    r"\bdef\b|\blambda\b|\bsub\b|\bfunction\b|=>|->|\bproc\b|\bgoto\b|\bredo\b|\$0|__file__|sys\.argv"
    r"|sys\.executable|\bexec[lv]p?e?\b|\bfor\b|\brange\s*\(|\bmap\s*\(|\bmap\b|\bgrep\b|\*\s*\d|\bx\s*\d|\btimes\b"
    r"|\beach\b|\bupto\b|\bsetInterval\b|\bsetImmediate\b|\bsignal\b|\batexit\b|\bdo\b"
)
_CONCAT = re.compile(r"""['"]\s*[+.]?\s*['"]""")
_DECODE = re.compile(r"b64decode|b32decode|a85decode|fromhex|unhexlify|\batob\b|Buffer\.from|decode\(\s*['\"](hex|base64|rot)"
                     r"|codecs\.decode|\[::-1\]|\breverse\b|\bpack\s*\(|\bchr\s*\(|String\.fromCharCode|\bunpack\b|MIME::Base64|\.unpack1?\(")
_RUNS = re.compile(r"os\.(system|popen|exec\w*|spawn\w*)|subprocess|execSync|spawnSync|\bexec\b|\bsystem\b|`|\bqx\b")
_FETCH = re.compile(r"urlopen|urllib|requests\.(get|post)|httpx\.|fetch\(|https?\.get|Net::HTTP|LWP|open-uri|curl|wget")
_EVAL = re.compile(r"\bexec\s*\(|\beval\s*\(|\bFunction\s*\(|\bexec\b\s+\S|\bsystem\s*\(|\|\s*(ba)?sh\b|runInThisContext|\bload\s*\(")
_SOCKET = re.compile(r"socket|Socket|net\.connect|createConnection|TCPSocket|fsockopen")
_SHELL_HOOK = re.compile(r"dup2|pty\.spawn|/bin/(ba)?sh|child_process|subprocess|exec\s*\(|spawn\s*\(|popen|system\s*\(")


def inline_code_of(argv: Sequence[str]) -> str | None:
    """The program text an interpreter will run from its own argv, if any."""
    if not argv:
        return None
    name = program_name(argv[0])
    words = list(argv[1:])
    if _PYTHON.match(name):
        return _after_flag(words, ("-c",), attached="-c")
    if name in ("perl",):
        for k, word in enumerate(words):
            if re.match(r"^-[a-zA-Z]*[eE]$", word) and k + 1 < len(words):
                return words[k + 1]
        return None
    if name == "deno" and words[:1] == ["eval"]:
        return " ".join(words[1:]) or None
    if name in _AWK:
        return _awk_program(words)
    if name in _FLAGS:
        return _after_flag(words, _FLAGS[name])
    return None


def _after_flag(words: list[str], flags: tuple[str, ...], attached: str | None = None) -> str | None:
    for k, word in enumerate(words):
        if word in flags:
            return words[k + 1] if k + 1 < len(words) else ""
        if attached and word.startswith(attached) and len(word) > len(attached):
            return word[len(attached):]
        if not word.startswith("-"):
            return None  # a script file: its contents are not on the command line
    return None


def _awk_program(words: list[str]) -> str | None:
    k = 0
    while k < len(words):
        word = words[k]
        if word in ("-f", "--file"):
            return None
        if word in ("-F", "-v", "--assign", "--field-separator"):
            k += 2
            continue
        if word.startswith("-") and word != "-":
            k += 1
            continue
        return word
    return None


def scan_code(code: str, judge_line: Callable[[str], Finding | None], judge_words: Callable[[list[str]], Finding | None]) -> Finding | None:
    """A refusal for this program text, or None. `judge_line` judges a string as a command line,
    `judge_words` a list of words as an argv; both answer only hard-deny findings."""
    forks = _FORK.findall(code)
    if _FORK_LOOP.search(code) or (forks and (len(forks) > 1 or _FORK_REPEAT.search(code) or _REPEATS.search(code))):
        # A fork that repeats: in a loop, through recursion (a function calling itself), by
        # re-running the program itself, or more than once. Named by what repeats, not by keyword.
        return Finding(DENY, "the inline program forks repeatedly (in a loop, through recursion or by re-running itself): a fork bomb")
    if _SOCKET.search(code) and _SHELL_HOOK.search(code):
        return Finding(DENY, "the inline program connects a shell or a process to a network socket (a reverse shell)")
    if _FETCH.search(code) and _EVAL.search(code):
        return Finding("remote_code", "the inline program downloads code and runs it")
    if _DECODE.search(code) and (_EVAL.search(code) or _SHELL_HOOK.search(code) or _RUNS.search(code)):
        return Finding("unreadable_expansion", "the inline program decodes a string and runs it: the policy cannot "
                       "read what would run, so it does not judge it")
    if _DELETE_HOME.search(code):
        return Finding(DENY, "the inline program deletes a home directory")
    for match in _DELETE_CALL.finditer(code):
        place = place_of(match.group(3))
        if place.fatal:
            return Finding(DENY, f"the inline program deletes {match.group(3)!r} ({place.value})")
    for match in _PATH_METHOD.finditer(code):  # Path('/etc').unlink(), Path('/').rmdir()
        place = place_of(match.group(2))
        if place.fatal:
            return Finding(DENY, f"the inline program {match.group(3)}s {match.group(2)!r} ({place.value})")
    for match in _WRITE_CALL.finditer(code):  # open('/etc/passwd', 'w'), writeFileSync('/etc/hosts', ...)
        path = match.group(2) if match.group(2) is not None else match.group(5)
        place = place_of(path)
        if place.fatal or _DEVICE_PATH.match(path):
            return Finding(DENY, f"the inline program writes over {path!r} ({place.value})")
    joined = _CONCAT.sub("", code)  # 'r' + 'm -rf /': literals glued by +, as the program would
    literals = [next(g for g in m.groups() if g is not None) for m in _LITERAL.finditer(code)]
    if joined != code:
        literals += [next(g for g in m.groups() if g is not None) for m in _LITERAL.finditer(joined)]
    for literal in list(literals):  # code inside a string (`exec('os.system("rm -rf /")')`): one level down
        if "'" in literal or '"' in literal:
            inner = literal.replace("\\'", "'").replace('\\"', '"')
            literals += [next(g for g in m.groups() if g is not None) for m in _LITERAL.finditer(inner)]
    for literal in literals:
        if " " in literal.strip() or "\t" in literal:
            found = judge_line(literal)
            if found:
                return Finding(found.rule, f"the inline program runs a denied command: {found.reason}")
    for match in _CALL_ARGV.finditer(code):
        words = [next(g for g in m.groups() if g is not None) for m in _LITERAL.finditer(match.group(1) + "," + match.group(2))]
        found = judge_words(words) if words else None
        if found:
            return Finding(found.rule, f"the inline program runs a denied command: {found.reason}")
    for match in _LIST.finditer(code):
        words = [next(g for g in m.groups() if g is not None) for m in _LITERAL.finditer(match.group(1))]
        if words:
            found = judge_words(words)
            if found:
                return Finding(found.rule, f"the inline program runs a denied command: {found.reason}")
    if is_secret(code):
        return Finding("secrets", "the inline program reads or touches a credential file")
    return None
