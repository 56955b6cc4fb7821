"""Every wrapper in the policy's tables, with its common options, in front of every kind of hard-deny
command: the deny list sees through all of them (issue 13: options read with their arities)."""

from __future__ import annotations

from konstruct_tui.commands import decide

WRAPPERS = ["env", "env -i", "env -u X", "env -C /tmp", "env --ignore-environment", "env -0", "env -v", "env --", "env X=1",
 "xargs", "xargs -0", "xargs -r", "xargs -n1", "xargs -n 1", "xargs --max-args=1", "xargs -P4", "xargs -I{}", "xargs -d '\\n'", "xargs -a f", "xargs -E x", "xargs -l", "xargs -L 1", "xargs -s 99", "xargs -t", "xargs -p", "xargs -x", "xargs -o",
 "timeout 5", "timeout -s 9 5", "timeout --signal 9 5", "timeout -k1 5", "timeout --foreground 5", "timeout --preserve-status 5", "timeout -v 5",
 "nice", "nice -n 1", "nice -1", "nice --adjustment=1", "nice -n1",
 "ionice", "ionice -c2", "ionice -c 2 -n 0", "ionice -t", "ionice --class 3",
 "strace", "strace -f", "strace -ff", "strace -o x", "strace -e trace=x", "strace -s 99", "strace -qq", "strace -c", "strace -u nobody", "strace -E A=1", "strace -I1", "strace -b execve",
 "ltrace", "ltrace -f", "ltrace -o x", "ltrace -e x",
 "unshare", "unshare -r", "unshare -n", "unshare -m -p -f", "unshare --user", "unshare --mount=/x", "unshare -w /tmp", "unshare --map-root-user", "unshare -U -r --",
 "setarch x86_64", "setarch i386 -R", "setarch linux32 --verbose", "linux32", "linux64", "i386", "x86_64",
 "sudo", "sudo -u x", "sudo -E", "sudo -n", "sudo -H", "sudo --preserve-env", "sudo -g x", "doas", "doas -u x", "doas -n",
 "stdbuf -oL", "stdbuf -o0 -e0", "stdbuf --output=L", "nohup", "time", "time -p", "time -v", "time -o x", "time -f x",
 "chroot /", "chroot --userspec=a:b /", "flock x", "flock -x x", "flock -n x", "flock -w 1 x", "flock -s x", "flock -E 1 x",
 "taskset 1", "taskset -c 0", "taskset --cpu-list 0", "taskset -a 1", "chrt 1", "chrt -f 1", "chrt -r 1", "chrt --fifo 1", "chrt -i 0", "chrt -b 0",
 "setsid", "setsid -f", "setsid -w", "setsid --fork", "watch -x", "watch -n 1 -x", "watch --exec", "watch -t -x",
 "npx", "npx -y", "npx --yes", "npx -q", "npx -p x", "npx --package x", "npx --package=x", "npm exec --", "npm exec -y --", "npm x --", "pnpm exec", "pnpm dlx", "yarn dlx", "bunx", "uvx", "uv run", "poetry run", "pdm run", "pipenv run", "hatch run", "conda run -n x",
 "command", "command -p", "builtin", "exec", "exec -c", "exec -l", "exec -a x", "busybox", "unbuffer", "fakeroot", "nsenter -t 1 -m", "caffeinate",
 "valgrind", "firejail", "numactl -N 0", "prlimit", "faketime x", "eatmydata", "xvfb-run",
]
DENIED = ["rm -rf /", "rm -fr ~", "mkfs.ext4 /dev/sda", "dd if=/dev/zero of=/dev/sda", "kill -9 -1", "chmod -R 777 /", "shred /dev/sda", "sh -c 'rm -rf /'", "find / -delete"]


def test_every_wrapper_with_its_options_is_seen_through() -> None:
    missed = []
    for wrapper in WRAPPERS:
        for command in DENIED:
            decision = decide(f"{wrapper} {command}")
            if (decision.decision, decision.rule) != ("refuse", "deny"):
                missed.append((f"{wrapper} {command}", decision.rule))
    assert missed == []
