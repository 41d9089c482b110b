"""A booted systemd in systemd-nspawn, for the end-to-end test.

Works on hosts whose PID 1 is not systemd: nspawn gets --register=no --keep-unit and its own
cgroup (else it leaves cgroups behind), commands go in with nsenter, and the root is a cached
debootstrap tree used through --volatile=overlay so runs never change it."""

import os
import shutil
import signal
import subprocess
import time

import sdtest

CACHE = os.environ.get("STOPSHEETD_TEST_CACHE", "/var/cache/stopsheetd-test")
ROOT = os.path.join(CACHE, "root")
# procps: /bin/kill for ExecReload=; dbus: systemctl and friends behave as on a real box;
# socat: clients inside; libcurl4, libarchive13, libxml2, libicu72: the daemon's HTTP client, GTFS zips, SIRI-FM, collation; passwd: a non-root client user;
# tzdata: the package's Depends (the zones of every time shown), required in bookworm, not later.
PACKAGES = ["systemd", "systemd-sysv", "dbus", "procps", "socat", "libcurl4", "libarchive13", "libxml2", "libicu72", "passwd", "tzdata", "sudo"]
STAMP = ".stopsheetd-test-root"
CGROUP_HIERARCHIES = ["/sys/fs/cgroup/unified", "/sys/fs/cgroup/systemd"]


def root_is_current(root=ROOT):
    try:
        with open(os.path.join(root, STAMP)) as f:
            return f.read().split() == PACKAGES
    except OSError:
        return False


def build_root(log, root=ROOT):
    """debootstrap once per machine (about a minute); later runs reuse the tree."""
    if root_is_current(root):
        return True, "reused"
    mirror = sdtest.debian_mirror()
    if not mirror:
        return False, "no Debian mirror found in /etc/apt/sources.list.d/ or /etc/apt/sources.list"
    partial = root + ".partial"
    shutil.rmtree(partial, ignore_errors=True)
    os.makedirs(CACHE, exist_ok=True)
    started = time.monotonic()
    command = ["debootstrap", "--variant=minbase", "--include=" + ",".join(PACKAGES),
               sdtest.os_codename(), partial, mirror]
    with open(log, "w") as out:
        result = subprocess.run(command, stdout=out, stderr=subprocess.STDOUT)
    if result.returncode != 0:
        return False, f"debootstrap failed (rc {result.returncode}); see {log}"
    with open(os.path.join(partial, STAMP), "w") as f:
        f.write(" ".join(PACKAGES) + "\n")
    # Swap in only a complete tree, so an interrupted build is never mistaken for a cached one.
    shutil.rmtree(root, ignore_errors=True)
    os.rename(partial, root)
    return True, f"built in {time.monotonic() - started:.0f}s"


class Container:
    def __init__(self, name, root=ROOT, binds_ro=(), log="/tmp/stopsheetd-nspawn.log"):
        self.name = name
        self.root = root
        self.binds_ro = list(binds_ro)
        self.log = log
        self.process = None
        self.leader = None
        self.cgroups = []

    # A dedicated cgroup per run: nspawn creates payload/supervisor children under its own
    # cgroup, and without this they would land (and stay) in the caller's.
    def _make_cgroups(self):
        hierarchies = CGROUP_HIERARCHIES if os.path.isdir(CGROUP_HIERARCHIES[0]) else ["/sys/fs/cgroup"]
        for hierarchy in hierarchies:
            if os.path.exists(os.path.join(hierarchy, "cgroup.procs")):
                path = os.path.join(hierarchy, f"{self.name}-{os.getpid()}")
                os.makedirs(path, exist_ok=True)
                self.cgroups.append(path)

    def _enter_cgroups(self):
        for path in self.cgroups:
            with open(os.path.join(path, "cgroup.procs"), "w") as f:
                f.write(str(os.getpid()))

    def _remove_cgroups(self):
        # A cgroup can go once no process is left in it: the unified hierarchy's cgroup.events
        # says so ("populated 0"), and tells inotify when it changes. Its processes are those of
        # the other hierarchies' cgroups too, so one wait covers them all.
        for path in self.cgroups:
            if os.path.exists(os.path.join(path, "cgroup.events")):
                if not sdtest.wait_for_file(os.path.join(path, "cgroup.events"), lambda text: "populated 0" in text, 10):
                    print(f"cgroup {path} still has processes after 10 s: left behind", flush=True)
        for path in self.cgroups:
            try:
                for directory, _, _ in sorted(os.walk(path, topdown=False), key=lambda w: -len(w[0])):
                    os.rmdir(directory)
            except OSError as error:
                print(f"cgroup {path} left behind: {error}", flush=True)
        self.cgroups = []

    def start(self, timeout=60):
        self._make_cgroups()
        command = ["systemd-nspawn", "--quiet", f"--directory={self.root}", "--volatile=overlay", "--boot",
                   "--register=no", "--keep-unit", "--private-network", f"--machine={self.name}"]
        command += [f"--bind-ro={bind}" for bind in self.binds_ro]
        # The container's systemd says READY=1 once it has booted; with --notify-ready=yes nspawn
        # passes it on to its own NOTIFY_SOCKET, this one: the boot's end is that event.
        command.insert(1, "--notify-ready=yes")
        self.out = open(self.log, "w")
        self.started = time.monotonic()
        notify = sdtest.NotifyReceiver(os.path.join(CACHE, f"notify-{self.name}-{os.getpid()}.sock"))
        try:
            self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=self.out, stderr=subprocess.STDOUT,
                                            env=dict(os.environ, NOTIFY_SOCKET=notify.path),
                                            preexec_fn=self._enter_cgroups, start_new_session=True)
            ready = notify.wait(lambda f: f.get("READY") == "1" or self.process.poll() is not None, timeout)
        finally:
            notify.close()
        if self.process.poll() is not None:
            raise RuntimeError(f"systemd-nspawn exited with {self.process.returncode}; see {self.log}")
        self.leader = self._find_leader()
        if not ready or not self.leader:
            raise RuntimeError(f"nspawn's container did not say READY=1 within {timeout} s; see {self.log}")
        state = self.run("systemctl", "is-system-running", "--wait", timeout=timeout).stdout.strip()
        if state not in ("running", "degraded"):
            raise RuntimeError(f"container did not boot: is-system-running says {state!r}; see {self.log}")
        self.boot_seconds = time.monotonic() - self.started
        return state

    def _find_leader(self):
        """The container's PID 1, as the host sees it."""
        if self.process.poll() is not None:
            raise RuntimeError(f"systemd-nspawn exited with {self.process.returncode}; see {self.log}")
        pending = [self.process.pid]
        while pending:
            pid = pending.pop()
            try:
                with open(f"/proc/{pid}/status") as f:
                    for line in f:
                        if line.startswith("NSpid:"):
                            ids = line.split()[1:]
                            if len(ids) > 1 and ids[-1] == "1":
                                return pid
                for tid in os.listdir(f"/proc/{pid}/task"):
                    with open(f"/proc/{pid}/task/{tid}/children") as f:
                        pending += [int(c) for c in f.read().split()]
            except (FileNotFoundError, ProcessLookupError):
                continue
        return None

    # What a command run inside gets: the container's own PATH, no pager, no colours.
    ENV = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8",
           "SYSTEMD_PAGER": "", "SYSTEMD_COLORS": "0", "TERM": "dumb"}

    @property
    def prefix(self):
        """What runs a command inside: nsenter into every namespace of the container's PID 1."""
        return ["nsenter", "-t", str(self.leader), "-a", "--"]

    def journal_wait(self, *matches, predicate=None, timeout=10):
        """The container's journal entries matching, once one (that `predicate` accepts) is
        there (sdtest.journal_wait, journalctl --follow run inside)."""
        return sdtest.journal_wait(*matches, predicate=predicate, timeout=timeout, prefix=self.prefix, env=self.ENV)

    def follow_journal(self, *matches, new_only=True):
        """A sdtest.JournalFollower of the container's journal."""
        return sdtest.JournalFollower(*matches, new_only=new_only, prefix=self.prefix, env=self.ENV)

    def run(self, *command, input=None, timeout=30, check=False):
        result = subprocess.run([*self.prefix, *command], input=input,
                                capture_output=True, text=True, timeout=timeout, env=self.ENV,
                                # Own session: a `kill` run inside must never reach this process group.
                                start_new_session=True)
        if check and result.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} failed ({result.returncode}): {result.stderr.strip()}")
        return result

    def sh(self, script, **kwargs):
        return self.run("sh", "-c", script, **kwargs)

    def host_path(self, path):
        """A container path seen from the host (through PID 1's root): lets host code connect
        to the container's Unix sockets."""
        return f"/proc/{self.leader}/root{path}"

    def stop(self, timeout=20):
        if self.process and self.process.poll() is None:
            # SIGTERM makes nspawn ask the container's systemd for a clean poweroff.
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                # The container's PID 1 is in its own session, out of nspawn's process group:
                # killing it takes its whole PID namespace down, and then nspawn exits.
                if self.leader:
                    try:
                        os.kill(self.leader, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        if getattr(self, "out", None):
            self.out.close()
        self._remove_cgroups()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
