"""Programs that only start another program (wrappers), with their options' arities.

wrappers.py peels them off to find the command that really runs: `nice -n 5 rm -rf /` is `rm -rf /`.
An option a table does not know is reported, never guessed (the policy asks). Roles say what an
option's value is: `shell` a string run by a shell, `split` a string split into the command's
words, `chdir` the folder it runs in, `write` a file it writes, `output` strace's `-o` (which may be
`|command`), `path` where it looks the command up. What a wrapper does besides (env's assignments,
watch's joined words) is code in wrappers.py, keyed by the same name.
"""

from __future__ import annotations

from .program import Program, Runner, options

# npx and the package runners that read like it: `npx rimraf /` runs the package's program
NPX_OPTIONS = options("p:c:yqw:", "package= call= yes no quiet ignore-existing workspace= workspaces include-workspace-root "
                      "prefix= registry= cache= offline prefer-offline prefer-online loglevel= silent",
                      {"-c": "shell", "--call": "shell", "--prefix": "chdir", "-w": "chdir", "--workspace": "chdir"})
BUNX_OPTIONS = options("p:", "package= bun")

_ARCHES = ("linux32", "linux64", "i386", "i486", "i586", "i686", "x86_64", "amd64", "arm64", "aarch64", "ppc", "ppc32",
           "ppc64", "s390", "s390x", "sparc", "sparc32", "sparc64")


def _runner(name: str, spelling: tuple[str, str] = ("", ""), roles: dict[str, str] | None = None,
            numeric: bool = False, operands: int = 0, named_by: tuple[str, ...] = (), benign: bool = False) -> Program:
    """A wrapper's entry: `spelling` is (short letters, long names) in getopt's spelling."""
    return Program((name,), runner=Runner(options(spelling[0], spelling[1], roles, numeric), operands, named_by, benign))


PROGRAMS = (
    _runner("env", ("0iu:C:S:vP:a:", "null ignore-environment unset= chdir= split-string= debug argv0= block-signal=? "
                    "default-signal=? ignore-signal=? list-signal-handling"),
            {"-S": "split", "--split-string": "split", "-C": "chdir", "--chdir": "chdir", "-P": "path"}),
    _runner("nice", ("n:", "adjustment="), numeric=True, benign=True),
    _runner("ionice", ("c:n:p:P:u:t", "class= classdata= pid= pgid= uid= ignore"), benign=True),
    _runner("timeout", ("s:k:v", "signal= kill-after= foreground preserve-status verbose"), operands=1, benign=True),
    _runner("nohup", benign=True), _runner("builtin"), _runner("unbuffer", ("p", ""), benign=True),
    _runner("command", ("pvV", "")), _runner("exec", ("cla:", "")),
    _runner("time", ("f:o:apvq", "format= output= append portability verbose quiet"), {"-o": "write", "--output": "write"}, benign=True),
    _runner("stdbuf", ("i:o:e:", "input= output= error="), benign=True),
    _runner("setsid", ("cfw", "ctty fork wait"), benign=True),
    _runner("chrt", ("bdfioraRmpvT:P:D:", "batch deadline fifo idle other rr reset-on-fork all-tasks max pid verbose "
                     "sched-runtime= sched-period= sched-deadline="), operands=1, benign=True),
    _runner("taskset", ("apc", "all-tasks pid cpu-list"), operands=1, benign=True),
    _runner("flock", ("sxunw:E:oc:Fv", "shared exclusive unlock nonblock nb timeout= wait= conflict-exit-code= close "
                      "command= no-fork verbose"), {"-c": "shell", "--command": "shell"}, operands=1),
    _runner("watch", ("n:d::tbegcCxpwq:rs:", "interval= differences=? no-title beep errexit chgexit color no-color exec "
                      "precise no-wrap equexit= no-rerun shotsfile=")),
    _runner("script", ("ac:eE:fqt::T:B:I:O:m:", "append command= return flush quiet timing=? log-in= log-out= log-io= "
                       "log-timing= logging-format= echo= force output-limit="), {"-c": "shell", "--command": "shell"},
            operands=1),
    _runner("busybox"), _runner("caffeinate", ("dimsuw:t:", "")),
    _runner("strace", ("cCdDfFhikqrtTvVwxyYzZna:b:e:E:I:o:O:p:P:s:S:u:U:X:",
                       "output= trace= signal= abbrev= verbose= raw= read= write= fault= inject= status= quiet=? "
                       "decode-fds=? user= env= attach= trace-path= summary-sort-by= string-limit= columns= "
                       "const-print-style= seccomp-bpf follow-forks output-separately summary-only summary "
                       "summary-wall-clock absolute-timestamps=? relative-timestamps=? syscall-times=? "
                       "instruction-pointer stack-traces no-abbrev decode-pids= kvm= secontext=? always-show-pid "
                       "detach-on= daemonize=? debug argv0= timestamps=? successful-only failed-only"),
            {"-o": "output", "--output": "output"}),
    _runner("ltrace", ("bcCdfhiLrStTVwa:A:D:e:F:l:n:o:p:s:u:x:X:", "output= library= demangle align= indent= debug= "
                       "config= help version"), {"-o": "output", "--output": "output"}),
    _runner("unshare", ("muinpUCTfrcw:R:S:G:", "mount=? uts=? ipc=? net=? pid=? user=? cgroup=? time=? fork kill-child=? "
                        "mount-proc=? mount-binfmt=? map-user= map-group= map-users= map-groups= map-root-user "
                        "map-current-user map-auto propagation= setgroups= keep-caps setuid= setgid= root= wd= "
                        "monotonic= boottime= load-interp="),
            {"-w": "chdir", "--wd": "chdir", "-R": "chdir", "--root": "chdir"}),
    _runner("nsenter", ("amuinpUCTFZt:S:G:r::w::", "all target= mount=? uts=? ipc=? net=? pid=? user=? cgroup=? time=? "
                        "setuid= setgid= preserve-credentials root=? wd=? no-fork follow-context join-cgroup env "
                        "user-parent keep-caps"), {"-w": "chdir", "--wd": "chdir"}),
    _runner("chroot", ("", "userspec= groups= skip-chdir"), operands=1),
    # `setarch ARCH [options] [program]`; `linux64 rm -rf /`: its aliases name the architecture themselves
    _runner("setarch", ("RFZLXBIST3v", "addr-no-randomize fdpic-funcptrs mmap-page-zero addr-compat-layout "
                        "read-implies-exec 32bit short-inode whole-seconds sticky-timeouts 3gb 4gb uname-2.6 verbose "
                        "list show=?"), operands=1, named_by=_ARCHES),
    _runner("xargs", ("0a:d:E:e::I:i::L:l::n:P:s:oprtx", "null arg-file= delimiter= eof=? replace=? max-lines=? "
                      "max-args= max-procs= max-chars= interactive no-run-if-empty verbose exit open-tty show-limits "
                      "process-slot-var=")),
    Program(("npx", "pnpx"), runner=Runner(NPX_OPTIONS)),
    Program(("bunx",), runner=Runner(BUNX_OPTIONS)),
    _runner("uvx", ("qvn", "from= with= with-editable= with-requirements= python= quiet verbose no-cache isolated offline "
                    "refresh")),
    _runner("fakeroot", ("l:s:i:u", "lib= faked= unknown-is-real")),
)
