"""Shared helpers for the systemd tests: result lines, locating the daemon, JSON-RPC over a Unix
socket, a test-owned NOTIFY_SOCKET, and a booted systemd-nspawn container.

Every check prints one line, `PASS name`, `FAIL name: why` or `SKIP name: why`; Tests/Systemd/run
counts them. Python standard library only."""

import ctypes
import json
import os
import re
import select
import shutil
import signal
import socket
import struct
import subprocess
import sys
import threading
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


# ---------------------------------------------------------------------------------------- results

class Results:
    def __init__(self, suite):
        self.suite = suite
        self.passed = self.failed = self.skipped = 0

    def check(self, name, ok, why="", info=""):
        """`why` explains a failure; `info` is a measured figure worth showing either way."""
        if ok:
            self.passed += 1
            print(f"PASS {self.suite}: {name}" + (f" ({info})" if info else ""), flush=True)
        else:
            self.failed += 1
            print(f"FAIL {self.suite}: {name}: {why or info}" + (f" ({info})" if why and info else ""), flush=True)
        return bool(ok)

    def skip(self, name, reason):
        self.skipped += 1
        print(f"SKIP {self.suite}: {name}: {reason}", flush=True)

    def note(self, text):
        print(f"     {self.suite}: {text}", flush=True)

    def finish(self):
        sys.exit(1 if self.failed else 0)


def loud_skip(results, name, reason):
    """A skip nobody can miss: the issue forbids quietly passing what did not run."""
    bar = "!" * 78
    print(f"{bar}\n!! SKIPPED: {name}\n!! {reason}\n{bar}", file=sys.stderr, flush=True)
    results.skip(name, reason)


# ----------------------------------------------------------------------------------------- binary

def daemon_binary(build=True):
    """STOPSHEETD_BIN, else the debug build (built here if missing)."""
    path = os.environ.get("STOPSHEETD_BIN")
    if path:
        return os.path.abspath(path)
    path = os.path.join(REPO, ".build", "debug", "stopsheetd")
    if not os.path.exists(path) and build:
        subprocess.run(["swift", "build", "--product", "stopsheetd"], cwd=REPO, check=True)
    return path


# ----------------------------------------------------------------------------------- JSON-RPC I/O

def rpc(path, method, params=None, ident=1, timeout=5.0):
    """One JSON-RPC request on a fresh connection; returns the decoded response."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(timeout)
        s.connect(path)
        request = {"jsonrpc": "2.0", "id": ident, "method": method}
        if params is not None:
            request["params"] = params
        s.sendall(json.dumps(request).encode() + b"\n")
        return json.loads(read_line(s))


class Outcomes:
    """What `hammer`'s clients got, in order, with a wait for the count to reach a number."""

    def __init__(self):
        self.items = []
        self.changed = threading.Condition()

    def append(self, outcome):
        with self.changed:
            self.items.append(outcome)
            self.changed.notify_all()

    def wait_for(self, count, timeout):
        """True once `count` outcomes are in (each one a client's answer, or why it got none)."""
        with self.changed:
            return self.changed.wait_for(lambda: len(self.items) >= count, timeout)

    def __len__(self):
        with self.changed:
            return len(self.items)

    def __iter__(self):
        with self.changed:
            return iter(list(self.items))


def hammer(path, stop, outcomes):
    """Clients, one connection per request, until told to stop; each outcome is "ok" or why not."""
    while not stop.is_set():
        try:
            answer = rpc(path, "health", timeout=15)
            outcomes.append("ok" if "result" in answer else f"error answer {answer}")
        except (OSError, ValueError) as error:
            outcomes.append(repr(error))
        # The load's pace (about 50 clients a second each), not a wait for anything.
        stop.wait(0.02)


def read_line(s):
    data = b""
    while not data.endswith(b"\n"):
        chunk = s.recv(65536)
        if not chunk:
            raise ConnectionError(f"connection closed after {len(data)} bytes")
        data += chunk
    return data


def ctl_binary():
    """stopsheetctl, beside the daemon binary the tests run."""
    return os.path.join(os.path.dirname(daemon_binary(build=False)), "stopsheetctl")


def wait_until_loaded(sock, timeout, what="all"):
    """`stopsheetctl wait`: the socket awaited by inotify, then the data's load by a health
    subscription, no polling. True once the daemon on `sock` serves with `what` loaded."""
    done = subprocess.run([ctl_binary(), "--socket", sock, "--timeout", str(timeout), "wait", "--for", what],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return done.returncode == 0


_libc = ctypes.CDLL(None, use_errno=True)
IN_ATTRIB, IN_MOVED_TO, IN_CREATE = 0x4, 0x80, 0x100


def wait_for_path(path, timeout):
    """True once `path` exists, within `timeout` seconds: told by inotify on the nearest
    directory above it that exists (watched again as the ones below it are made), not looked at
    again and again."""
    fd = _libc.inotify_init1(os.O_CLOEXEC | os.O_NONBLOCK)
    if fd < 0:
        raise OSError(ctypes.get_errno(), "inotify_init1")
    try:
        deadline = time.monotonic() + timeout
        while True:
            # Armed before the look, so what is made between the look and the wait is seen.
            directory = os.path.dirname(os.path.abspath(path))
            while _libc.inotify_add_watch(fd, directory.encode(), IN_CREATE | IN_MOVED_TO | IN_ATTRIB) < 0:
                if directory == "/":
                    raise OSError(ctypes.get_errno(), f"inotify_add_watch {directory}")
                directory = os.path.dirname(directory)
            if os.path.exists(path):
                return True
            if not _next_events(fd, deadline):
                return os.path.exists(path)
    finally:
        os.close(fd)


IN_MODIFY = 0x2


def _next_events(fd, deadline):
    """Waits for the inotify `fd` to report something before `deadline` (monotonic), and reads
    all it has: True then, False at the deadline."""
    remaining = deadline - time.monotonic()
    if remaining <= 0 or not select.select([fd], [], [], remaining)[0]:
        return False
    try:
        while os.read(fd, 4096):
            pass
    except BlockingIOError:
        pass
    return True


def wait_for_file(path, accept, timeout):
    """True once the text of the existing file `path` is one `accept` takes, within `timeout`
    seconds: inotify tells each change (a cgroup's cgroup.events, say), no polling."""
    fd = _libc.inotify_init1(os.O_CLOEXEC | os.O_NONBLOCK)
    if fd < 0:
        raise OSError(ctypes.get_errno(), "inotify_init1")
    try:
        if _libc.inotify_add_watch(fd, path.encode(), IN_MODIFY) < 0:
            raise OSError(ctypes.get_errno(), f"inotify_add_watch {path}")
        deadline = time.monotonic() + timeout
        while True:
            try:
                with open(path) as f:
                    if accept(f.read()):
                        return True
            except FileNotFoundError:
                return False
            if not _next_events(fd, deadline):
                return False
    finally:
        os.close(fd)


class JournalFollower:
    """`journalctl --follow -o json` over the entries matching, from those already there
    (`--lines=all`) or only new ones (`new_only`): journalctl is told by inotify when journald
    writes, so `next_entry` is a wait on that event. A context manager; ends journalctl."""

    def __init__(self, *matches, new_only=False, directory=None, prefix=(), env=None):
        command = [*prefix, "journalctl", "--no-pager", "-o", "json", "--follow", "--lines=0" if new_only else "--lines=all"]
        if directory:
            command += ["-D", directory]
        self.process = subprocess.Popen(command + list(matches), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
        self.pending, self.entries = b"", []

    def next_entry(self, deadline):
        """The next entry, or None at `deadline` (time.monotonic()) or if journalctl ended."""
        while not self.entries:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([self.process.stdout], [], [], remaining)[0]:
                return None
            chunk = os.read(self.process.stdout.fileno(), 1 << 16)
            if not chunk:
                return None
            *lines, self.pending = (self.pending + chunk).split(b"\n")
            self.entries += [json.loads(line) for line in (l.strip() for l in lines) if line.startswith(b"{")]
        return self.entries.pop(0)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.process.kill()
        self.process.wait()


def journal_wait(*matches, predicate=None, timeout=3.0, directory=None, prefix=(), env=None):
    """The entries `journal_entries` gives, once at least one (that `predicate` accepts) is
    there, waiting up to `timeout` seconds for the first (a `JournalFollower`). [] when none came."""
    def found():
        entries = journal_entries(*matches, directory=directory, prefix=prefix, env=env)
        return [e for e in entries if predicate(e)] if predicate else entries
    first = found()
    if first or timeout <= 0:
        return first
    deadline = time.monotonic() + timeout
    with JournalFollower(*matches, directory=directory, prefix=prefix, env=env) as follower:
        while (entry := follower.next_entry(deadline)) is not None:
            if predicate is None or predicate(entry):
                return found()
    return []


def wait_for(predicate, timeout, interval=0.05):
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value or time.monotonic() >= deadline:
            return value
        time.sleep(interval)


# ------------------------------------------------------------------------------- notify receiver

class NotifyReceiver:
    """A NOTIFY_SOCKET like PID 1's: AF_UNIX datagrams with SO_PASSCRED, so each message carries
    the sender's pid. Records (monotonic time, pid, {field: value}) for every datagram."""

    def __init__(self, path):
        self.path = path
        if os.path.exists(path):
            os.unlink(path)
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
        self.sock.bind(path)
        os.chmod(path, 0o777)
        self.messages = []
        self.lock = threading.Condition()
        self.closed = False
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.thread.start()

    def _loop(self):
        cmsg_space = socket.CMSG_SPACE(struct.calcsize("3i")) + socket.CMSG_SPACE(16 * 4)
        while not self.closed:
            try:
                data, ancdata, _, _ = self.sock.recvmsg(65536, cmsg_space)
            except OSError:
                return
            now = time.monotonic()
            pid = None
            for level, kind, payload in ancdata:
                if level == socket.SOL_SOCKET and kind == socket.SCM_CREDENTIALS:
                    pid = struct.unpack("3i", payload[:12])[0]
                elif level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                    # systemd-notify's BARRIER=1 passes an fd: never keep it open.
                    for fd in struct.unpack(f"{len(payload) // 4}i", payload[: len(payload) // 4 * 4]):
                        os.close(fd)
            fields = {}
            for line in data.decode(errors="replace").split("\n"):
                if "=" in line:
                    key, value = line.split("=", 1)
                    fields[key] = value
            with self.lock:
                self.messages.append((now, pid, fields))
                self.lock.notify_all()

    def wait(self, predicate, timeout, start=0):
        """First message at index >= start matching predicate(fields), as (index, time, pid, fields)."""
        deadline = time.monotonic() + timeout
        with self.lock:
            index = start
            while True:
                while index < len(self.messages):
                    when, pid, fields = self.messages[index]
                    if predicate(fields):
                        return index, when, pid, fields
                    index += 1
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return None
                self.lock.wait(remaining)

    def snapshot(self):
        with self.lock:
            return list(self.messages)

    def close(self):
        self.closed = True
        self.sock.close()
        try:
            os.unlink(self.path)
        except FileNotFoundError:
            pass


def monotonic_usec():
    return time.clock_gettime_ns(time.CLOCK_MONOTONIC) // 1000


# ---------------------------------------------------------------------------------- journal reads

def journal_entries(*matches, directory=None, extra=(), prefix=(), env=None):
    """Entries as dicts from `journalctl -o json` with FIELD=value matches. `prefix`: what runs
    journalctl elsewhere (nsenter into a container), with `env`."""
    command = [*prefix, "journalctl", "--no-pager", "-o", "json", *extra]
    if directory:
        command += ["-D", directory]
    command += list(matches)
    out = subprocess.run(command, capture_output=True, text=True, env=env)
    entries = []
    for line in out.stdout.splitlines():
        line = line.strip()
        if line.startswith("{"):
            entries.append(json.loads(line))
    return entries


def field(entry, name):
    """journalctl -o json gives binary-unsafe values as byte arrays: normalise to str."""
    value = entry.get(name)
    if isinstance(value, list) and value and isinstance(value[0], int):
        return bytes(value).decode(errors="replace")
    return value


# -------------------------------------------------------------------------------- apt and mirrors

def debian_mirror():
    """The mirror this machine already uses for Debian, read from its apt sources."""
    sources_dir = "/etc/apt/sources.list.d"
    candidates = []
    for name in sorted(os.listdir(sources_dir)) if os.path.isdir(sources_dir) else []:
        path = os.path.join(sources_dir, name)
        if name.endswith(".sources"):
            with open(path) as f:
                for stanza in f.read().split("\n\n"):
                    keys = {}
                    for line in stanza.splitlines():
                        if ":" in line and not line.lstrip().startswith("#"):
                            k, v = line.split(":", 1)
                            keys[k.strip().lower()] = v.strip()
                    if keys.get("types", "deb").split()[0] == "deb" and "uris" in keys:
                        suites = keys.get("suites", "").split()
                        for uri in keys["uris"].split():
                            candidates.append((uri, suites))
        elif name.endswith(".list"):
            candidates += _list_file(path)
    if os.path.exists("/etc/apt/sources.list"):
        candidates += _list_file("/etc/apt/sources.list")
    codename = os_codename()
    for uri, suites in candidates:
        if codename in suites and "security" not in uri:
            return uri.rstrip("/")
    for uri, _ in candidates:
        if "security" not in uri:
            return uri.rstrip("/")
    return None


def _list_file(path):
    found = []
    with open(path) as f:
        for line in f:
            parts = line.split("#", 1)[0].split()
            if len(parts) >= 3 and parts[0] == "deb":
                rest = [p for p in parts[1:] if not p.startswith("[")]
                if len(rest) >= 2:
                    found.append((rest[0], [rest[1]]))
    return found


def os_codename():
    with open("/etc/os-release") as f:
        for line in f:
            if line.startswith("VERSION_CODENAME="):
                return line.split("=", 1)[1].strip().strip('"')
    return "bookworm"


def ensure_commands(commands, packages):
    """apt-get install the packages if any command is missing (root only); True when all exist."""
    if all(shutil.which(c) for c in commands):
        return True
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        return False
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    install = ["apt-get", "install", "-y", "-q", *packages]
    if subprocess.run(install, env=env, stdout=subprocess.DEVNULL).returncode != 0:
        # Only refresh the lists when the install could not find the packages.
        subprocess.run(["apt-get", "update", "-q"], env=env, stdout=subprocess.DEVNULL)
        subprocess.run(install, env=env, stdout=subprocess.DEVNULL)
    return all(shutil.which(c) for c in commands)
