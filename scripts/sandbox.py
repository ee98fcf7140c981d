#!/usr/bin/env python3
"""Running untrusted student code: the grader's sandbox (Python 3, standard library only).

Each command of a grading run (a build, a run of the student's program, a run of
the hidden test) goes through a Runner:

  Bubblewrap  bwrap (Debian's `bubblewrap`): new user, PID, network, IPC, UTS and
              cgroup namespaces; uid 65534 inside; an empty root with /usr and
              /etc read-only, the course's emulator and the run's sources
              read-only, and nothing else of the machine (no other student's
              tree, no home, no grade reports); writes only to the directory the
              grader made for this command (a fresh one per build; a fresh,
              size-limited tmpfs per run of a program) and to a private /tmp.
              Limits: a cgroup (v1 or v2, where this user may create one) caps
              memory (what the processes touch, so the emulator's large
              reserved-but-unused mappings do not count, as they would for
              RLIMIT_AS) and processes, and is how every process is found and
              ended afterwards, setsid or not; prlimit caps CPU seconds and file
              size; the grader caps output and wall-clock time. A run that
              leaves a process behind fails, with that reason.
  Plain       no isolation: the user's own account. Only for trusted code (the
              course's own tests) or with `--unsafe-no-sandbox`.

probe() says whether bubblewrap can start here, and which limits hold; grade.py
refuses to grade untrusted trees without it unless told --unsafe-no-sandbox.
"""
import os
import select
import shutil
import signal
import subprocess
import tempfile
import time
import uuid

MIB = 1 << 20


class Limits:
    """What one command may use. Defaults fit the course's exercises with room
    (the largest, chapter 02's streams, needs about 30 MiB and 2 s)."""

    def __init__(self, cpu_s=120, memory=2048 * MIB, pids=128, file_size=64 * MIB, output=1 * MIB,
                 tmp_size=256 * MIB):
        self.cpu_s, self.memory, self.pids = cpu_s, memory, pids
        self.file_size, self.output, self.tmp_size = file_size, output, tmp_size


class Result:
    def __init__(self, rc, out, seconds, why=""):
        self.rc = rc          # exit status; negative: killed by that signal; None: the wall-clock limit
        self.out = out        # stdout and stderr together, cut at the output limit
        self.seconds = seconds
        self.why = why        # a limit it hit, or what it left running, in words ("" if none)


def _read_capped(proc, fds, deadline, cap, extra_fd=None):
    """Reads the child's output until EOF, the deadline or the cap. Returns
    (bytes, 'timeout' | 'output' | '', status bytes from extra_fd)."""
    chunks, size, status = [], 0, b""
    open_fds = list(fds) + ([extra_fd] if extra_fd is not None else [])
    stop = ""
    while open_fds:
        left = deadline - time.time()
        if left <= 0:
            stop = "timeout"
            break
        ready, _, _ = select.select(open_fds, [], [], min(left, 0.5))
        for fd in ready:
            data = os.read(fd, 65536)
            if not data:
                open_fds.remove(fd)
                continue
            if fd == extra_fd:
                status += data
                continue
            chunks.append(data)
            size += len(data)
            if size > cap:
                stop = "output"
                break
        if stop:
            break
        if proc.poll() is not None and extra_fd not in open_fds:
            # the command ended: read what is already there, but do not wait
            # for a process that kept the pipe (it is ended below)
            end = time.time() + 0.5
            while open_fds and time.time() < end:
                ready, _, _ = select.select(open_fds, [], [], 0.1)
                if not ready:
                    break
                for fd in ready:
                    data = os.read(fd, 65536)
                    if not data:
                        open_fds.remove(fd)
                    elif fd != extra_fd and size <= cap:
                        chunks.append(data)
                        size += len(data)
            break
    return b"".join(chunks)[:cap], stop, status


class Plain:
    """No sandbox: the command runs as the grader. Its process group is killed
    at the end; a process that left it (setsid) is not found."""
    name = "none"
    isolated = False

    def __init__(self, limits=None):
        self.limits = limits or Limits()

    def describe(self):
        return "no sandbox: student code runs as this user"

    def run(self, cmd, timeout, cwd, env=None, ro=(), rw=(), program=False):
        t0 = time.time()
        limits = self.limits
        argv = ["prlimit", "--cpu=%d" % limits.cpu_s, "--fsize=%d" % limits.file_size, "--"] + list(cmd) \
            if shutil.which("prlimit") else list(cmd)
        p = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             stdin=subprocess.DEVNULL, start_new_session=True)
        out, stop, _ = _read_capped(p, [p.stdout.fileno()], t0 + timeout, limits.output)
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        p.stdout.close()
        rc = p.wait()
        return _result(rc, out, stop, time.time() - t0, limits, timeout)


def _result(rc, out, stop, seconds, limits, timeout, why=""):
    text = out.decode("utf-8", "replace")
    if stop == "timeout":
        return Result(None, text, seconds, why)
    if stop == "output":
        return Result(-signal.SIGKILL, text, seconds,
                      "printed more than %d MiB (the output limit): killed" % (limits.output // MIB))
    if rc == -signal.SIGXFSZ and not why:
        why = "wrote a file past the size limit (%d MiB)" % (limits.file_size // MIB)
    if rc in (-signal.SIGXCPU, 128 + signal.SIGXCPU) and not why:
        why = "used more than %d s of CPU time (the CPU limit)" % limits.cpu_s
    return Result(rc, text, seconds, why)


# ---------------------------------------------------------------- cgroups
class Cgroup:
    """One cgroup per command: memory and process limits, and the list of every
    process the command started. v1 (a hierarchy per controller, as on this
    project's machines: no systemd) or v2 (one unified hierarchy)."""

    def __init__(self, memory, pids):
        self.dirs, self.procs_files, self.version = {}, [], 0
        self.memory, self.pids = memory, pids
        name = "simtlab-grade-%s" % uuid.uuid4().hex[:12]
        mine = _own_cgroups()
        if os.path.isfile("/sys/fs/cgroup/cgroup.controllers"):   # v2 only
            self.version = 2
            parent = "/sys/fs/cgroup" + mine.get("", "/")
            d = os.path.join(parent, name)
            os.mkdir(d)
            self.dirs["v2"] = d
            _write(os.path.join(d, "memory.max"), str(memory))
            _write(os.path.join(d, "memory.swap.max"), "0", must=False)
            _write(os.path.join(d, "pids.max"), str(pids))
            self.procs_files = [os.path.join(d, "cgroup.procs")]
            return
        self.version = 1
        for ctrl in ("memory", "pids", "freezer"):
            root = "/sys/fs/cgroup/" + ctrl
            if not os.path.isdir(root):
                raise OSError("no cgroup v1 %s hierarchy at %s" % (ctrl, root))
            d = os.path.join(root + mine.get(ctrl, "/"), name)
            os.mkdir(d)
            self.dirs[ctrl] = d
            self.procs_files.append(os.path.join(d, "cgroup.procs"))
        _write(os.path.join(self.dirs["memory"], "memory.limit_in_bytes"), str(memory))
        _write(os.path.join(self.dirs["memory"], "memory.memsw.limit_in_bytes"), str(memory), must=False)
        _write(os.path.join(self.dirs["pids"], "pids.max"), str(pids))

    def pids_in(self):
        found = set()
        for f in self.procs_files:
            try:
                with open(f) as fh:
                    found.update(int(x) for x in fh.read().split())
            except OSError:
                pass
        return found

    def kill_all(self):
        """Ends every process in the cgroup (frozen first, so that none forks
        while the list is read), and waits until it is empty."""
        freeze = None
        if self.version == 1:
            freeze = os.path.join(self.dirs["freezer"], "freezer.state")
            _write(freeze, "FROZEN", must=False)
        elif os.path.exists(os.path.join(self.dirs["v2"], "cgroup.kill")):
            _write(os.path.join(self.dirs["v2"], "cgroup.kill"), "1", must=False)
        else:
            _write(os.path.join(self.dirs["v2"], "cgroup.freeze"), "1", must=False)
        end = time.time() + 10
        while time.time() < end:
            left = self.pids_in()
            if not left:
                break
            for pid in left:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            if freeze:
                _write(freeze, "THAWED", must=False)   # a frozen process dies of SIGKILL only once thawed
            time.sleep(0.05)
            if freeze:
                _write(freeze, "FROZEN", must=False)
        if freeze:
            _write(freeze, "THAWED", must=False)
        return not self.pids_in()

    def hit(self):
        """Which limit the command ran into, in words, or ""."""
        if self.version == 1:
            mem = _read_int(os.path.join(self.dirs["memory"], "memory.failcnt"))
            oom = _read_kv(os.path.join(self.dirs["memory"], "memory.oom_control")).get("oom_kill", 0)
            pids = _read_kv(os.path.join(self.dirs["pids"], "pids.events")).get("max", 0)
        else:
            d = self.dirs["v2"]
            ev = _read_kv(os.path.join(d, "memory.events"))
            mem, oom = ev.get("max", 0), ev.get("oom_kill", 0)
            pids = _read_kv(os.path.join(d, "pids.events")).get("max", 0)
        said = []
        if oom or mem:
            said.append("ran into the memory limit (%d MiB)%s" % (self.memory // MIB,
                                                                  ": killed" if oom else ""))
        if pids:
            said.append("ran into the process limit (%d processes and threads: a fork bomb?)" % self.pids)
        return "; ".join(said)

    def remove(self):
        for d in self.dirs.values():
            for _ in range(50):
                try:
                    os.rmdir(d)
                    break
                except OSError:
                    time.sleep(0.05)


def _own_cgroups():
    """{controller: path} of this process ("" for v2's unified hierarchy)."""
    found = {}
    with open("/proc/self/cgroup") as fh:
        for line in fh:
            _, ctrls, path = line.rstrip("\n").split(":", 2)
            for c in ctrls.split(",") if ctrls else [""]:
                found[c] = path
    return found


def _write(path, text, must=True):
    try:
        with open(path, "w") as fh:
            fh.write(text)
    except OSError:
        if must:
            raise


def _read_int(path):
    try:
        with open(path) as fh:
            return int(fh.read().split()[0])
    except (OSError, ValueError, IndexError):
        return 0


def _read_kv(path):
    found = {}
    try:
        with open(path) as fh:
            for line in fh:
                parts = line.split()
                if len(parts) == 2 and parts[1].isdigit():
                    found[parts[0]] = int(parts[1])
    except OSError:
        pass
    return found


# ---------------------------------------------------------------- bubblewrap
# Inside the sandbox: runs the command with the status pipe closed, then
# counts the processes it left behind (the PID namespace shows only this
# sandbox's: 1 is bubblewrap's own init, $$ this shell) and reports both on
# the status pipe, which only this shell holds.
INIT = r'''fd=$1; shift
eval '"$@" '"$fd"'>&-'
rc=$?
n=0
for p in /proc/[0-9]*; do
  case ${p#/proc/} in 1|$$) ;; *) n=$((n+1)) ;; esac
done
eval 'echo "$rc $n" >&'"$fd"
exit $rc
'''


class Bubblewrap:
    name = "bubblewrap"
    isolated = True

    def __init__(self, ro=(), limits=None, use_cgroup=True):
        self.ro = [os.path.abspath(p) for p in ro]
        self.limits = limits or Limits()
        self.use_cgroup = use_cgroup and cgroup_usable()
        self.bwrap = shutil.which("bwrap")

    def describe(self):
        l = self.limits
        mem = ("memory %d MiB and %d processes (a cgroup)" % (l.memory // MIB, l.pids) if self.use_cgroup
               else "no memory or process limit (no cgroup this user may create; the emulator's device memory "
                    "is capped at half the machine's RAM, nothing else)")
        return ("bubblewrap: no network, read-only course, writes to a fresh directory per command; %s; "
                "%d s of CPU, files up to %d MiB, %d MiB of output" % (mem, l.cpu_s, l.file_size // MIB,
                                                                     l.output // MIB))

    def argv(self, cmd, cwd, ro, rw, program, status_fd, env=None):
        limits = self.limits
        a = [self.bwrap, "--unshare-all", "--unshare-user", "--uid", "65534", "--gid", "65534",
             "--hostname", "sandbox", "--die-with-parent", "--new-session", "--clearenv",
             "--setenv", "PATH", "/usr/bin:/bin", "--setenv", "LANG", "C.UTF-8", "--setenv", "TMPDIR", "/tmp",
             "--ro-bind", "/usr", "/usr", "--ro-bind", "/etc", "/etc",
             "--symlink", "usr/bin", "/bin", "--symlink", "usr/lib", "/lib", "--symlink", "usr/sbin", "/sbin",
             "--proc", "/proc", "--dev", "/dev",
             "--size", str(limits.tmp_size), "--tmpfs", "/tmp"]
        if os.path.isdir("/usr/lib64"):
            a += ["--symlink", "usr/lib64", "/lib64"]
        for k, v in sorted((env or {}).items()):
            if k.startswith("SIMTLAB_"):   # only these pass: the grader's environment stays out
                a += ["--setenv", k, v]
        for p in self.ro + [os.path.abspath(x) for x in ro]:
            if os.path.exists(p):
                a += ["--ro-bind", p, p]
        for p in rw:
            a += ["--bind", os.path.abspath(p), os.path.abspath(p)]
        if program:
            # a run of a program: its working directory is a fresh tmpfs, so
            # that what it writes is capped (and gone afterwards)
            a += ["--size", str(limits.tmp_size), "--tmpfs", cwd]
        a += ["--setenv", "HOME", cwd, "--chdir", cwd, "--remount-ro", "/"]
        # bash: dash (/bin/sh) cannot redirect a descriptor numbered above 9,
        # which the status pipe is in a grader with many files open
        return a + ["/bin/bash", "-c", INIT, "init", str(status_fd),
                    "prlimit", "--cpu=%d" % limits.cpu_s, "--fsize=%d" % limits.file_size, "--core=0", "--"] \
            + list(cmd)

    def run(self, cmd, timeout, cwd, env=None, ro=(), rw=(), program=False):
        """Runs cmd in the sandbox. cwd: the command's directory (writable for a
        build, rw; a fresh tmpfs for a program, program=True); ro, rw: more
        host paths to show it, read-only or writable. env: only SIMTLAB_*
        variables pass (the rest of the grader's environment stays out)."""
        t0 = time.time()
        limits = self.limits
        group = Cgroup(limits.memory, limits.pids) if self.use_cgroup else None
        r_status, w_status = os.pipe()
        argv = self.argv(cmd, cwd, ro, rw, program, w_status, env)
        if group:
            # join the cgroup before bubblewrap starts, so that everything it
            # starts is in it too
            join = 'for f in "$@"; do [ "$f" = -- ] && break; echo $$ > "$f"; shift; done; shift; exec "$@"'
            argv = ["/bin/sh", "-c", join, "join"] + group.procs_files + ["--"] + argv
        p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                             start_new_session=True, pass_fds=(w_status,))
        os.close(w_status)
        out, stop, status = _read_capped(p, [p.stdout.fileno()], t0 + timeout, limits.output, extra_fd=r_status)
        why = ""
        if group:
            why = group.hit()
            group.kill_all()
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        rc = p.wait()
        p.stdout.close()
        os.close(r_status)
        if group:
            group.remove()
        fields = status.decode("ascii", "replace").split()
        if stop == "" and len(fields) == 2 and fields[0].lstrip("-").isdigit() and fields[1].isdigit():
            rc = int(fields[0])
            if rc > 128:
                rc = -(rc - 128)   # the shell's 128 + signal
            left = int(fields[1])
            if left:
                why = (why + "; " if why else "") + \
                    "left %d process%s running after it ended (all were killed)" % (left, "" if left == 1 else "es")
                if rc == 0:
                    rc = 1
        elif stop == "" and rc == 0:
            rc = 1   # the status never came: the init shell was killed
        return _result(rc, out, stop, time.time() - t0, limits, timeout, why)


def cgroup_usable():
    """Whether this user can make a cgroup with memory and process limits."""
    try:
        g = Cgroup(64 * MIB, 16)
    except OSError:
        return False
    g.remove()
    return True


def probe(ro=()):
    """(runner or None, words): a working bubblewrap sandbox, or why there is none."""
    if not shutil.which("bwrap"):
        return None, "bubblewrap is not installed (Debian: apt-get install bubblewrap; scripts/deps.sh does)"
    box = Bubblewrap(ro=ro)
    tmp = tempfile.mkdtemp(prefix="simtlab-probe-")
    try:
        r = box.run(["/bin/sh", "-c", "echo sandbox-ok"], 30, tmp, program=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if r.rc == 0 and "sandbox-ok" in r.out:
        return box, box.describe()
    return None, "bubblewrap cannot start here (user namespaces off?): %s" % " ".join(r.out.split())[:300]
