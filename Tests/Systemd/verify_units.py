#!/usr/bin/env python3
"""Test 1: the unit files as systemd sees them.

- `systemd-analyze verify` of both units prints nothing at all (it exits 0 even on warnings, so
  any output is a failure). verify insists that ExecStart= exists, so the built daemon is put at
  the unit's path on a tmpfs in a private mount namespace: the host's /usr/local is not touched.
- `systemd-analyze security --offline=yes` rates the service at 2.0 or lower.
- The template units (stopsheetd@.service, .socket) verify clean as an instance, rate 1.5 or
  lower, and differ from the default's only where an instance must: its paths, its user, its
  runtime directory, STOPSHEET_INSTANCE and the socket's RemoveOnStop=.
- The settings the issue requires are present, and the sample configuration documents every
  STOPSHEETD_* variable the daemon's --help lists."""

import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sdtest

EXPOSURE_LIMIT = 2.0
UNITS = os.path.join(sdtest.REPO, "systemd")
SERVICE = os.path.join(UNITS, "stopsheetd.service")
SOCKET = os.path.join(UNITS, "stopsheetd.socket")
TEMPLATE_SERVICE = os.path.join(UNITS, "stopsheetd@.service")
TEMPLATE_SOCKET = os.path.join(UNITS, "stopsheetd@.socket")
TEMPLATE_EXPOSURE_LIMIT = 1.5
# What an instance has of its own (README, "A region on one box"); every other setting is the default's.
INSTANCE_SERVICE = {
    "Description": ["stopsheetd instance %i: train alerts and station data over JSON-RPC"],
    "Requires": ["stopsheetd@%i.socket"],
    "After": ["stopsheetd@%i.socket network-online.target"],
    "ExecStart": ["/usr/local/bin/stopsheetd --config /etc/stopsheetd/%i.conf"],
    "EnvironmentFile": ["/etc/stopsheetd/%i.conf"],
    "Environment": ["STOPSHEET_INSTANCE=%i"],
    "User": ["stopsheetd-%i"],
    "RuntimeDirectory": ["stopsheetd/daemon@%i"],
    "Also": ["stopsheetd@%i.socket"],
}
INSTANCE_SOCKET = {
    "Description": ["stopsheetd instance %i JSON-RPC socket"],
    "ListenStream": ["/run/stopsheetd/%i.sock"],
    "RemoveOnStop": ["yes"],
}


def unit_settings(path):
    settings = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith(("#", ";", "[")) and "=" in line:
                key, value = line.split("=", 1)
                settings.setdefault(key.strip(), []).append(value.strip())
    return settings


def verify(results, binary, exec_start, units, name):
    """`systemd-analyze verify` of `units`, with ExecStart= present at its real path only inside
    this mount namespace."""
    script = (f'mount -t tmpfs tmpfs "{os.path.dirname(exec_start)}" && cp "{binary}" "{exec_start}" && '
              f'exec systemd-analyze verify ' + " ".join(f'"{unit}"' for unit in units))
    unshare = ["unshare", "--mount"] + ([] if os.geteuid() == 0 else ["--map-root-user"])
    verified = subprocess.run(unshare + ["sh", "-c", script], capture_output=True, text=True)
    output = (verified.stdout + verified.stderr).strip()
    results.check(f"systemd-analyze verify {name} prints nothing", verified.returncode == 0 and output == "",
                  output or f"rc {verified.returncode}")


def security(results, unit, limit):
    rated = subprocess.run(["systemd-analyze", "security", "--offline=yes", f"--threshold={int(limit * 10)}", unit],
                           capture_output=True, text=True)
    line = next((l for l in rated.stdout.splitlines() if "Overall exposure level" in l), "")
    match = re.search(r"exposure level for \S+: ([0-9.]+)", line)
    exposure = float(match.group(1)) if match else None
    results.check(f"systemd-analyze security --offline=yes {os.path.basename(unit)}: exposure <= {limit}",
                  exposure is not None and exposure <= limit and rated.returncode == 0,
                  rated.stderr.strip() or f"rc {rated.returncode}", info=line.strip("→ ").strip())


def check_templates(results, binary, exec_start, service, socket_unit):
    """The template units: an instance verifies clean (as stopsheetd@check, the files copied under
    that name), rates as well as the default, and has the default's every setting but its own."""
    with tempfile.TemporaryDirectory() as directory:
        instance = [os.path.join(directory, "stopsheetd@check" + suffix) for suffix in (".service", ".socket")]
        shutil.copy(TEMPLATE_SERVICE, instance[0])
        shutil.copy(TEMPLATE_SOCKET, instance[1])
        verify(results, binary, exec_start, instance, "of an instance of stopsheetd@.service and stopsheetd@.socket")
    security(results, TEMPLATE_SERVICE, TEMPLATE_EXPOSURE_LIMIT)
    for template, default, own in ((unit_settings(TEMPLATE_SERVICE), service, INSTANCE_SERVICE),
                                   (unit_settings(TEMPLATE_SOCKET), socket_unit, INSTANCE_SOCKET)):
        expected = {key: value for key, value in default.items() if key not in own} | own
        differing = sorted(key for key in set(template) | set(expected) if template.get(key) != expected.get(key))
        results.check(f"{'stopsheetd@.service' if own is INSTANCE_SERVICE else 'stopsheetd@.socket'}: the default's settings "
                      "but the instance's own", not differing,
                      "; ".join(f"{key}: {template.get(key)} (expected {expected.get(key)})" for key in differing))


def main():
    results = sdtest.Results("units")
    binary = sdtest.daemon_binary()
    service = unit_settings(SERVICE)
    socket_unit = unit_settings(SOCKET)
    exec_start = service["ExecStart"][0].split()[0]

    verify(results, binary, exec_start, [SERVICE, SOCKET], "stopsheetd.service stopsheetd.socket")
    security(results, SERVICE, EXPOSURE_LIMIT)
    check_templates(results, binary, exec_start, service, socket_unit)

    required = {
        "Type": "notify",
        "ExecReload": "/bin/kill -HUP $MAINPID",
        "Restart": "on-failure",
        "EnvironmentFile": "-/etc/stopsheetd/stopsheetd.conf",
        "DynamicUser": "yes",
    }
    for key, value in required.items():
        results.check(f"service has {key}={value}", value in service.get(key, []), f"found {service.get(key)}")
    results.check("service has WatchdogSec=", bool(service.get("WatchdogSec")), "missing")
    results.check("service has a RuntimeDirectory= under stopsheetd",
                  any(v.split("/")[0] == "stopsheetd" for v in service.get("RuntimeDirectory", [])),
                  f"found {service.get('RuntimeDirectory')}")
    results.check("service starts the installed binary", exec_start == "/usr/local/bin/stopsheetd", exec_start)
    results.check("socket listens on /run/stopsheetd/stopsheetd.sock",
                  socket_unit.get("ListenStream") == ["/run/stopsheetd/stopsheetd.sock"], f"{socket_unit.get('ListenStream')}")
    results.check("socket has SocketMode=0660", socket_unit.get("SocketMode") == ["0660"], f"{socket_unit.get('SocketMode')}")
    group = (socket_unit.get("SocketGroup") or [""])[0]
    with open(os.path.join(UNITS, "stopsheetd.sysusers")) as f:
        sysusers = [l.split() for l in f if l.strip() and not l.startswith("#")]
    results.check("SocketGroup= is created by stopsheetd.sysusers",
                  bool(group) and ["g", group] in [entry[:2] for entry in sysusers], f"SocketGroup={group!r}")

    # Every variable the daemon reads is documented in the sample EnvironmentFile.
    helped = subprocess.run([binary, "--help"], capture_output=True, text=True)
    variables = set(re.findall(r"\[(STOPSHEETD_[A-Z0-9_]+)\]", helped.stdout + helped.stderr)) - {"STOPSHEETD_CONFIG"}
    with open(os.path.join(UNITS, "stopsheetd.conf")) as f:
        documented = set(re.findall(r"^#?(STOPSHEETD_[A-Z0-9_]+)=", f.read(), re.M))
    if variables:
        missing = sorted(variables - documented)
        unknown = sorted(documented - variables)
        results.check("stopsheetd.conf documents every STOPSHEETD_* of --help", not missing and not unknown,
                      f"missing {missing}, not in --help {unknown}")
    else:
        results.skip("stopsheetd.conf documents every STOPSHEETD_* of --help", "--help lists no variables yet")

    results.finish()


if __name__ == "__main__":
    main()
