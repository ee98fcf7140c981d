#!/usr/bin/env python3
"""`make grade-class ... SLURM=1` (scripts/grade_slurm.py) against a Slurm of
its own: munged, slurmctld and slurmd started here from Debian's packages (a
munge key, a slurm.conf and their state in a temporary folder, this host as
both controller and node, ports of their own), and stopped at the end. Three
student trees (a solved one, a stub, and one with one exercise half wrong) are
graded through Slurm and locally; the CSVs must be equal.

    python3 tests/grading/test_slurm.py path/to/slcc

Prints a line starting with simtlab-skip: and passes where Slurm cannot start
here (not installed, not root, a daemon that does not come up), with why."""
import csv
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import grade    # noqa: E402
import sandbox  # noqa: E402

SLCC = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "bin", "slcc"))
EXERCISES = "01-4 03-3"


def skip(why):
    print("simtlab-skip: %s" % why)
    sys.exit(0)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def which(name):
    return shutil.which(name) or next((p for p in ("/usr/sbin/" + name, "/sbin/" + name)
                                       if os.access(p, os.X_OK)), None)


class Slurm:
    """munged + slurmctld + slurmd, all in self.dir."""

    def __init__(self, tmp):
        self.dir = os.path.join(tmp, "slurm")
        self.procs = []
        self.env = dict(os.environ)

    def start(self):
        tools = {n: which(n) for n in ("munged", "slurmctld", "slurmd", "sbatch", "squeue", "sinfo")}
        lacking = [n for n, p in tools.items() if not p]
        if lacking:
            skip("Slurm is not installed (%s missing; Debian: slurmctld slurmd munge slurm-client, "
                 "SIMTLAB_WITH_SLURM=1 scripts/deps.sh)" % ", ".join(lacking))
        if os.geteuid() != 0:
            skip("slurmd needs root to start jobs as their user, and this test runs as uid %d" % os.geteuid())
        d = self.dir
        for sub in ("state", "spool", "munge"):
            os.makedirs(os.path.join(d, sub))
        os.chmod(os.path.join(d, "munge"), 0o700)
        key = os.path.join(d, "munge", "munge.key")
        with open(key, "wb") as fh:
            fh.write(os.urandom(1024))
        os.chmod(key, 0o600)
        self.sock = os.path.join(d, "munge", "munge.socket")
        self.run_bg([tools["munged"], "--foreground", "--force", "--key-file=" + key, "--socket=" + self.sock,
                     "--pid-file=" + os.path.join(d, "munge", "munged.pid"),
                     "--seed-file=" + os.path.join(d, "munge", "munged.seed"),
                     "--log-file=" + os.path.join(d, "munge", "munged.log")], "munged")
        self.wait_for(lambda: os.path.exists(self.sock), "munged", 15)
        host = socket.gethostname().split(".")[0]
        conf = os.path.join(d, "slurm.conf")
        with open(conf, "w") as fh:
            fh.write("\n".join([
                "ClusterName=simtlabtest",
                "SlurmctldHost=%s(127.0.0.1)" % host,
                "SlurmUser=root",
                "SlurmctldPort=%d" % free_port(),
                "SlurmdPort=%d" % free_port(),
                "AuthType=auth/munge", "CredType=cred/munge",
                "AuthInfo=socket=%s" % self.sock,
                "StateSaveLocation=%s/state" % d,
                "SlurmdSpoolDir=%s/spool" % d,
                "SlurmctldPidFile=%s/slurmctld.pid" % d,
                "SlurmdPidFile=%s/slurmd.pid" % d,
                "SlurmctldLogFile=%s/slurmctld.log" % d,
                "SlurmdLogFile=%s/slurmd.log" % d,
                "ProctrackType=proctrack/linuxproc", "TaskPlugin=task/none",
                "JobAcctGatherType=jobacct_gather/none", "AccountingStorageType=accounting_storage/none",
                "JobCompType=jobcomp/none", "MpiDefault=none",
                "SelectType=select/cons_tres", "SelectTypeParameters=CR_Core",
                "SchedulerType=sched/backfill", "ReturnToService=2",
                "SlurmdTimeout=60", "InactiveLimit=0", "KillWait=5", "MinJobAge=300",
                "NodeName=%s NodeAddr=127.0.0.1 CPUs=%d State=UNKNOWN" % (host, os.cpu_count() or 1),
                "PartitionName=simtlab Nodes=%s Default=YES MaxTime=INFINITE State=UP" % host, ""]))
        self.env["SLURM_CONF"] = conf
        for k in list(self.env):
            if k.startswith(("SLURM_", "SBATCH_", "SQUEUE_")) and k != "SLURM_CONF":
                del self.env[k]
        os.environ.clear()
        os.environ.update(self.env)   # for grade.py's sbatch, run in this process
        self.run_bg([tools["slurmctld"], "-D", "-i", "-f", conf], "slurmctld")
        self.run_bg([tools["slurmd"], "-D", "-f", conf, "-N", host], "slurmd")

        def idle():
            r = subprocess.run([tools["sinfo"], "-h", "-N", "-o", "%t"], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, universal_newlines=True, env=self.env)
            return r.returncode == 0 and r.stdout.strip() in ("idle", "mix")
        self.wait_for(idle, "slurmctld and slurmd (the node idle)", 45)
        print("slurm: started (%s); node %s idle" % (d, host), flush=True)

    def run_bg(self, cmd, name):
        log = open(os.path.join(self.dir, name + ".out"), "w")
        p = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=self.env, start_new_session=True)
        p.name = name
        self.procs.append(p)

    def wait_for(self, ready, what, seconds):
        end = time.time() + seconds
        while time.time() < end:
            for p in self.procs:
                if p.poll() is not None:
                    self.stop()
                    skip("%s exited (%d) at start: %s" % (p.name, p.returncode, self.log_tail(p.name)))
            if ready():
                return
            time.sleep(0.5)
        self.stop()
        skip("%s did not come up in %d s: %s" % (what, seconds, self.log_tail(self.procs[-1].name)))

    def log_tail(self, name):
        text = ""
        for f in (name + ".out", name + ".log", os.path.join("munge", name + ".log")):
            try:
                with open(os.path.join(self.dir, f), errors="replace") as fh:
                    text += fh.read()
            except OSError:
                pass
        return " / ".join(text.strip().splitlines()[-4:]) or "(no log)"

    def stop(self):
        for p in reversed(self.procs):   # slurmd, slurmctld, then munged
            if p.poll() is None:
                try:
                    os.killpg(p.pid, signal.SIGTERM)   # its own session, started above
                except ProcessLookupError:
                    pass
                try:
                    p.wait(15)
                except subprocess.TimeoutExpired:
                    os.killpg(p.pid, signal.SIGKILL)
                    p.wait()
        self.procs = []


def read_csv(path):
    with open(path, newline="") as fh:
        return list(csv.reader(fh))


def main():
    if not os.access(SLCC, os.X_OK):
        print("test_slurm: %s is missing" % SLCC)
        return 1
    tmp = tempfile.mkdtemp(prefix="simtlab-slurm-")
    os.chmod(tmp, 0o755)
    slurm = Slurm(tmp)
    try:
        cls = os.path.join(tmp, "class")
        grade.make_student(os.path.join(cls, "carol"), keep_solution=True)
        grade.make_student(os.path.join(cls, "alice"))
        grade.make_student(os.path.join(cls, "bob"), keep_solution=True)
        f = os.path.join(cls, "bob", "03", "ex3_paths_per_warp.cu")
        with open(f) as fh:
            text = fh.read()
        with open(f, "w") as fh:
            fh.write(text.replace("{2, 1, 4, 2, 2, 1}", "{2, 1, 4, 2, 2, 2}"))   # one of six wrong
        box, why = sandbox.probe()
        common = ["class", "--dir", cls, "--ex", EXERCISES, "--slcc", SLCC, "--timeout", "60", "-j", "1"]
        if not box:
            print("test_slurm: no sandbox here (%s): graded with --unsafe-no-sandbox, locally and on Slurm" % why)
            common += ["--unsafe-no-sandbox"]

        # the job script alone: written, nothing submitted, the options in it
        script = os.path.join(tmp, "review.sbatch")
        rc = grade.main(common + ["--out", os.path.join(tmp, "review"), "--slurm-script-only", script,
                                  "--slurm-partition", "gpu", "--slurm-gres", "gpu:1", "--slurm-time", "0:30:00"])
        assert rc == 0, rc
        with open(script) as fh:
            text = fh.read()
        for want in ("#SBATCH --array=0-2", "#SBATCH --cpus-per-task=1", "#SBATCH --partition=gpu", "#SBATCH --gres=gpu:1",
                     "#SBATCH --time=0:30:00", "STUDENTS=(alice bob carol)", "--student \"$STUDENT\""):
            assert want in text, (want, text)
        assert not os.path.exists(os.path.join(tmp, "review", "slurm", "parts")), "script-only submitted"
        r = subprocess.run(["bash", "-n", script])
        assert r.returncode == 0, "the job script is not valid bash"

        local = os.path.join(tmp, "local")
        t0 = time.time()
        assert grade.main(common + ["--out", local]) == 0
        t_local = time.time() - t0

        slurm.start()
        onslurm = os.path.join(tmp, "onslurm")
        t0 = time.time()
        rc = grade.main(common + ["--out", onslurm, "--slurm", "--slurm-partition", "simtlab",
                                  "--slurm-time", "0:10:00"])
        t_slurm = time.time() - t0
        logs = os.path.join(onslurm, "slurm", "logs")
        if rc != 0:
            for f in sorted(os.listdir(logs)) if os.path.isdir(logs) else []:
                with open(os.path.join(logs, f), errors="replace") as fh:
                    print("--- %s\n%s" % (f, fh.read()[-3000:]))
            print("slurmctld: %s\nslurmd: %s" % (slurm.log_tail("slurmctld"), slurm.log_tail("slurmd")))
        assert rc == 0, "grade.py class --slurm exited %d" % rc
        a, b = read_csv(os.path.join(local, "class.csv")), read_csv(os.path.join(onslurm, "class.csv"))
        assert a == b, "the CSVs differ:\nlocal %s\nslurm %s" % (a, b)
        assert [r[:5] for r in b[1:]] == [["alice", "0", "0", "0", "20"], ["bob", "10", "8.3", "18.3", "20"],
                                          ["carol", "10", "10", "20", "20"]], b
        for s in ("alice", "bob", "carol"):
            for f in ("report.txt", "grade.tap", "grade.junit.xml", "results.json"):
                assert os.path.isfile(os.path.join(onslurm, "students", s, f)), (s, f)
        assert len(os.listdir(logs)) == 3, os.listdir(logs)

        # a task that left no row: its student gets a row with the reason, and the exit is 1
        os.remove(os.path.join(onslurm, "slurm", "parts", "bob.csv"))
        failed = os.path.join(tmp, "failed.csv")
        rc = grade.main(common + ["--out", onslurm, "--slurm-merge-only", "--csv", failed])
        assert rc == 1, rc
        rows = read_csv(failed)
        assert rows[1] == b[1] and rows[3] == b[3], rows
        assert rows[2][0] == "bob" and rows[2][1] == "" and "did not grade" in rows[2][-1], rows
        print("test_slurm: OK: the Slurm CSV equals the local one (3 students, %s): local -j1 %.1f s, "
              "Slurm %.1f s" % (EXERCISES, t_local, t_slurm))
        return 0
    finally:
        slurm.stop()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
