"""Every example named in issue 13, as written there: deny-class ones are refused, the others are
never allowed (not by default, not under a preset, not under the allowlist entry they aimed at).
All of these were let through on main."""

from __future__ import annotations

import pytest

from konstruct_tui.commands import PolicyConfig, decide

DENY_CLASS = [
    "env -iS 'rm -rf /'", "xargs --max-args 1 rm -rf /", "strace --output /dev/null rm -rf /", "unshare -w / rm -rf /",
    "setarch x86_64 rm -rf /", "npx -c 'rm -rf /'", "npm exec -c 'rm -rf /'", "git rebase --exec 'rm -rf /' main",
    "git grep --open-files-in-pager='rm -rf /' x", "GIT_EXTERNAL_DIFF='rm -rf /' git diff", "kill -9 -01", "kill -9 ' -1'",
    "python3 -c 'import os\ndef f():\n os.fork(); f()\nf()'", "perl -e 'sub f { fork; f() } f()'", "rm -rf ~+",
    "cat /proc/1//environ", "rm${IFS}-rf${IFS}/", "{rm,-rf,/}", "$'\\x72\\x6d' -rf /", "rm -rf ${HOME:0:1}",
    "/bin/r? -rf /",
]
# (command, the allowlist entries or presets an attacker would hope to ride)
NEVER_ALLOWED = [
    ("rg --pre rm -n x .", ["rg"], []), ("git grep -Orm x", [], ["python"]), ("git diff --output=FILE", ["git diff"], []),
    ("GIT_EXTERNAL_DIFF=rm git diff", [], ["python"]), ("GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor "
                                                        "GIT_CONFIG_VALUE_0=./x git status", [], ["node"]),
    ("git branch -D main", [], ["go"]), ("make test -f evil.mk", ["make test"], []),
    ("npm test --script-shell=./x.sh", [], ["node"]), ("git -c core.fsmonitor=./x status", ["git status"], []),
]


@pytest.mark.parametrize("command", DENY_CLASS)
def test_deny_class_examples_are_refused_in_every_mode(command: str) -> None:
    for config in (None, PolicyConfig.build(["python", "node", "go", "java"]), PolicyConfig(read_only_sandbox=True)):
        decision = decide(command, config)
        assert decision.decision == "refuse", (command, decision.reason)


@pytest.mark.parametrize(("command", "allow", "presets"), NEVER_ALLOWED)
def test_allowlist_escapes_are_never_allowed(command: str, allow: list[str], presets: list[str]) -> None:
    for config in (None, PolicyConfig.build(presets, allow), PolicyConfig(read_only_sandbox=True)):
        decision = decide(command, config)
        assert decision.decision != "allow", (command, decision.rule, decision.reason)


# Found by the integrator's attack round after the merge (all refused already; kept so they stay so).
MORE_DENY_CLASS = [
    "killall5 -9", "rm -rf /[u]sr", "rm -rf /??r", "rm -r --no-preserve-root /", "shred /dev/sda",
    "truncate -s0 /etc/passwd", "php -r 'system(\"rm -rf /\");'", "ruby -e 'system(%q(rm -rf /))'",
    "ionice -c3 rm -rf /", "taskset 1 rm -rf /", "chroot / rm -rf /", "git -c alias.x='!rm -rf /' x",
]


@pytest.mark.parametrize("command", MORE_DENY_CLASS)
def test_more_deny_class_spellings_are_refused(command: str) -> None:
    for config in (None, PolicyConfig.build(["python", "node", "go", "java"]), PolicyConfig(read_only_sandbox=True)):
        assert decide(command, config).decision == "refuse", command
