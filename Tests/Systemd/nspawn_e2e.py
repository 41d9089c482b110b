#!/usr/bin/env python3
"""Test 3: end to end under a real booted systemd (systemd-nspawn --boot of a cached debootstrap
root), with the project's own Debian package.

Inside the container: the .deb of `make deb` installed with dpkg (the stopsheet group created,
the units and the conffile in place), the socket unit listening and the service started by the
first connection (from a user in the socket's group, with socat and with the packaged
stopsheetctl; an outsider refused), STATUS shown by systemctl, journal entries carrying
_SYSTEMD_UNIT and the custom fields, `systemctl reload` re-reading the configuration, a restart
during which no client fails, a hung daemon killed by the watchdog and restarted, a clean stop
(exit 0), and `dpkg --purge` leaving no unit, binary or /etc/stopsheetd behind. Then `make install`
(scripts/install.sh, PREFIX=/opt/stopsheet, the release build) found by systemd and answering,
and `make uninstall PURGE=1` leaving nothing. A keyed upstream read through a headers file given as
a systemd credential, its key found nowhere else (issue 43).

Not root, or no nspawn/debootstrap even after trying apt-get: skipped LOUDLY, never faked."""

import json
import os
import re
import subprocess
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import container
import sdtest
from sdtest import field

SOCKET = "/run/stopsheetd/stopsheetd.sock"
CONF = "/etc/stopsheetd/stopsheetd.conf"
# The unit's WatchdogSec= is for production; the test shortens it in a runtime drop-in so a hang
# is caught in seconds. Everything else is the shipped unit.
TEST_WATCHDOG_SEC = 3
HEALTH = '{"jsonrpc":"2.0","id":1,"method":"health"}'
STATUS_RE = re.compile(r"serving \d+ stations, \d+ train alerts")


def systemctl_show(box, unit, *props):
    out = box.run("systemctl", "show", unit, "-p", ",".join(props)).stdout
    return dict(line.split("=", 1) for line in out.splitlines() if "=" in line)


def unit_journal(box, *matches):
    out = box.run("journalctl", "--no-pager", "-o", "json", "-u", "stopsheetd.service", *matches).stdout
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def wait_event(box, name, predicate=lambda e: True, timeout=10):
    found = box.journal_wait("-u", "stopsheetd.service", f"STOPSHEET_EVENT={name}", predicate=predicate, timeout=timeout)
    return found[-1] if found else None


def client(box, user, request=HEALTH):
    command = ["runuser", "-u", user, "--", "socat", "-t10", "-T10", "-", f"UNIX-CONNECT:{SOCKET}"]
    return box.run(*command, input=request + "\n", timeout=20)


def wait_running(box, old_pid=None, timeout=30, unit="stopsheetd.service"):
    """Until the service is active/running again (with a new main pid, if old_pid is given).
    Looked at again on each new journal entry of the unit: systemd logs every change of its
    state (Started, Stopped, a watchdog timeout, a restart scheduled) after making it."""
    def settled():
        state = systemctl_show(box, unit, "ActiveState", "SubState", "MainPID", "StatusText", "NRestarts")
        fresh = old_pid is None or state.get("MainPID") not in ("0", old_pid)
        return state if state.get("SubState") == "running" and fresh else None
    deadline = time.monotonic() + timeout
    # Following before the first look, so no change between the look and the wait goes unseen.
    with box.follow_journal("-u", unit) as changes:
        while (state := settled()) is None:
            if changes.next_entry(deadline) is None:
                return settled()
    return state


PACKAGED = ["/usr/bin/stopsheetd", "/usr/bin/stopsheetctl", "/lib/systemd/system/stopsheetd.service",
            "/lib/systemd/system/stopsheetd.socket", "/lib/systemd/system/stopsheetd@.service",
            "/lib/systemd/system/stopsheetd@.socket", "/usr/lib/sysusers.d/stopsheetd.conf", CONF,
            "/usr/share/man/man8/stopsheetd.8.gz", "/usr/share/man/man1/stopsheetctl.1.gz",
            "/usr/share/man/man5/stopsheetd.conf.5.gz", "/usr/share/bash-completion/completions/stopsheetctl"]


def install_package(results, box, deb_in_box):
    install = box.run("dpkg", "--install", deb_in_box, timeout=120)
    results.check("dpkg --install of the .deb into the booted system", install.returncode == 0,
                  (install.stdout + install.stderr).strip()[-400:])
    missing = [path for path in PACKAGED if box.run("test", "-e", path).returncode != 0]
    results.check("the package put binaries, units, sysusers entry, config, man pages, completion in place",
                  not missing, f"missing {missing}")
    conffiles = box.run("dpkg-query", "-W", "-f=${Conffiles}", "stopsheetd").stdout
    results.check("the sample configuration is a conffile", CONF in conffiles, conffiles.strip())
    group = box.run("getent", "group", "stopsheet")
    results.check("install created the socket's group (sysusers)", group.returncode == 0, group.stderr)
    checked = box.run("stopsheetd", "--check-config", "--config", CONF)
    results.check("the shipped configuration passes stopsheetd --check-config",
                  checked.returncode == 0 and checked.stderr == "stopsheetd: configuration OK\n", checked.stderr.strip())
    version = box.run("stopsheetd", "--version").stdout.strip()
    results.check("the packaged stopsheetd --version names a commit", "(commit " in version and "unknown" not in version, version,
                  info=version)
    # The package enables and starts only the socket; the test stops it to see activation happen.
    enabled = box.run("systemctl", "is-enabled", "stopsheetd.socket").stdout.strip()
    results.check("the package enabled stopsheetd.socket (and not the service)",
                  enabled == "enabled" and box.run("systemctl", "is-enabled", "stopsheetd.service").stdout.strip() != "enabled",
                  f"socket {enabled}")
    box.run("systemctl", "stop", "stopsheetd.socket")


def purge_package(results, box, instances=()):
    """`instances`: names of template instances left running and enabled: purge stops them and
    leaves nothing of them either (their sockets, runtime directories, links, configuration)."""
    purge = box.run("dpkg", "--purge", "stopsheetd", timeout=120)
    results.check("dpkg --purge stopsheetd", purge.returncode == 0, (purge.stdout + purge.stderr).strip()[-400:])
    theirs = [f"/run/stopsheetd/{name}.sock" for name in instances] + [f"/run/stopsheetd/daemon@{name}" for name in instances]
    left = [path for path in PACKAGED + ["/etc/stopsheetd"] + theirs if box.run("test", "-e", path).returncode == 0]
    units = box.run("systemctl", "list-unit-files", "--no-legend", "stopsheetd*").stdout.strip()
    links = box.sh("find /etc/systemd/system -name 'stopsheetd*'").stdout.strip()
    running = box.sh("systemctl list-units --no-legend --state=active 'stopsheetd*'; pgrep -a stopsheetd").stdout.strip()
    what = f" and of instances {', '.join(instances)}" if instances else ""
    results.check(f"purge leaves no file, unit, enablement link, process or /etc/stopsheetd behind{what}",
                  not left and not units and not links and not running,
                  f"left {left}, unit files {units!r}, links {links!r}, running {running!r}")


def install_from_source(results, box, bindir_in_box):
    """`make install` and `make uninstall` (scripts/install.sh) under the booted systemd: the units
    where systemd finds them for PREFIX=/opt/stopsheet, the socket answering, nothing left after."""
    install = box.sh(f"cd /src && PREFIX=/opt/stopsheet STOPSHEETD_PREBUILT={bindir_in_box} scripts/install.sh", timeout=120)
    results.check("scripts/install.sh (make install) with PREFIX=/opt/stopsheet", install.returncode == 0,
                  (install.stdout + install.stderr).strip()[-400:])
    fragment = systemctl_show(box, "stopsheetd.service", "FragmentPath", "ExecStart")
    results.check("its units are where systemd looks, starting the binary under the prefix",
                  fragment.get("FragmentPath") == "/usr/local/lib/systemd/system/stopsheetd.service"
                  and "/opt/stopsheet/bin/stopsheetd" in fragment.get("ExecStart", ""), f"{fragment}")
    box.run("systemctl", "start", "stopsheetd.socket")
    ctl = box.run("runuser", "-u", "tester", "--", "/opt/stopsheet/bin/stopsheetctl", "version")
    results.check("the installed daemon answers through the socket", ctl.returncode == 0, (ctl.stdout + ctl.stderr).strip()[-300:])
    # The templates too: an instance started from them, which uninstall must stop.
    template = systemctl_show(box, "stopsheetd@probe.service", "FragmentPath", "ExecStart")
    box.sh("echo STOPSHEETD_DEMO=true > /etc/stopsheetd/probe.conf && systemctl enable --now stopsheetd@probe.socket")
    probe = box.run("runuser", "-u", "tester", "--", "/opt/stopsheet/bin/stopsheetctl", "--instance", "probe", "version")
    results.check("its template units are where systemd looks, an instance starting the binary under the prefix on its own file",
                  template.get("FragmentPath") == "/usr/local/lib/systemd/system/stopsheetd@.service"
                  and "/opt/stopsheet/bin/stopsheetd --config /etc/stopsheetd/probe.conf" in template.get("ExecStart", "")
                  and probe.returncode == 0, f"{template}; probe: {(probe.stdout + probe.stderr).strip()[-200:]}")
    uninstall = box.sh("cd /src && PREFIX=/opt/stopsheet PURGE=1 scripts/install.sh --uninstall", timeout=60)
    left = box.sh("ls -d /opt/stopsheet/bin/* /opt/stopsheet/share/man/*/* /usr/local/lib/systemd/system/stopsheetd* "
                  "/usr/local/lib/sysusers.d/stopsheetd.conf /etc/stopsheetd 2>/dev/null").stdout.split()
    left += box.sh("ls -d /run/stopsheetd/probe.sock /etc/systemd/system/*/stopsheetd@* 2>/dev/null; "
                   "systemctl list-units --no-legend --state=active 'stopsheetd*'; pgrep -a stopsheetd").stdout.split()
    gone = box.run("systemctl", "cat", "stopsheetd.service").returncode != 0
    results.check("scripts/install.sh --uninstall (make uninstall PURGE=1) stops the units and the instance and leaves nothing",
                  uninstall.returncode == 0 and not left and gone, f"rc {uninstall.returncode} {uninstall.stderr.strip()[-200:]} left {left}")


def readme_install_block():
    """The shell block of README's "As a systemd service", one command a line, comments cut."""
    with open(os.path.join(sdtest.REPO, "README.md")) as f:
        text = f.read()
    section = text.split("## As a systemd service", 1)[1]
    block = section.split("```sh", 1)[1].split("```", 1)[0]
    return [line.split("#", 1)[0].strip() for line in block.strip().splitlines() if line.split("#", 1)[0].strip()]


def follow_readme(results, box, deb_in_box):
    """README's install section as a newcomer types it, on a system with no stopsheetd: the
    package installed with apt, the shipped configuration (CTA's live sources) checked and
    started, a user added to the group who logs in again and asks for health, the journal's
    refresh failures read, and a reload. The container has no network, so the journal must show
    the service trying exactly the URLs README says it contacts."""
    lines = readme_install_block()
    first = lines[0].split("&&")
    results.check("README's install block starts with make deb && sudo apt install ./<the .deb make deb built>",
                  len(first) == 2 and first[0].strip() == "make deb" and first[1].strip() == f"sudo apt install ./{os.path.basename(deb_in_box)}",
                  repr(lines[0]))
    box.sh("useradd -m newcomer")
    env = "export USER=newcomer SUDO_EDITOR=true DEBIAN_FRONTEND=noninteractive"
    since = box.run("date", "+%s").stdout.strip()
    outcomes = []
    for line in [first[1].strip()] + lines[1:]:
        if line.startswith("stopsheetctl"):
            # "then log in again": a new login of the user, who is in the group only from now on.
            ran = box.run("su", "-", "newcomer", "-c", line, timeout=60)
        else:
            ran = box.sh(f"cd /pkg && {env} && {line}", timeout=120)
        outcomes.append((line, ran))
    for line, ran in outcomes:
        # Offline, health is honest: exit 4 (not ready) with what it knows; anything else is 0.
        expected = (0, 4) if line.startswith("stopsheetctl health") else (0,)
        results.check(f"README, as written: {line}", ran.returncode in expected,
                      f"exit {ran.returncode}: {(ran.stdout + ran.stderr).strip()[-300:]}")
    health = dict(outcomes).get("stopsheetctl health")
    results.check("README's stopsheetctl health, as the user after logging in again, reaches the daemon",
                  health is not None and "alerts" in health.stdout, (health.stdout + health.stderr).strip()[-300:] if health else "not run")
    with open(os.path.join(sdtest.REPO, "README.md")) as f:
        readme = f.read()
    said = readme.split("**What the installed service contacts.**", 1)[-1].split("To contact nothing", 1)[0]
    urls = re.findall(r"`(https://[^`]+)`", said)
    journal = box.run("journalctl", "--no-pager", "-o", "verbose", "-u", "stopsheetd", f"--since=@{since}").stdout
    contacted = set(re.findall(r"UPSTREAM_URL=(\S+)", journal))
    results.check("the service contacted the URLs README says, and no others", bool(urls) and contacted == set(urls),
                  f"README lists {urls}, the journal shows {sorted(contacted)}")
    box.run("systemctl", "disable", "--now", "stopsheetd.socket", "stopsheetd.service")
    purge_package(results, box)


# Two agencies on one box (README, "A region on one box"): CTA's demo and MBTA's feed of the
# repository's fixture with the real MBTA alerts capture, as the instances of the template units.
INSTANCES = {
    "cta": "STOPSHEETD_DEMO=true\n",
    "mbta": "STOPSHEETD_STATIONS_URL=file:///srv/mbta/gtfs\nSTOPSHEETD_ALERTS_URL=file:///srv/mbta/alerts.pb\n",
}


def instance_journal(box, name, *matches):
    out = box.run("journalctl", "--no-pager", "-o", "json", f"STOPSHEET_INSTANCE={name}", *matches).stdout
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def ctl(box, *arguments):
    """The packaged stopsheetctl as a member of the socket's group; (exit status, stdout, stderr)."""
    ran = box.run("runuser", "-u", "tester", "--", "stopsheetctl", *arguments, timeout=60)
    return ran.returncode, ran.stdout, ran.stderr


def ctl_json(box, *arguments):
    code, out, _ = ctl(box, "--json", *arguments)
    try:
        return code, json.loads(out)
    except ValueError:
        return code, None


def two_instances(results, box):
    """stopsheetd@cta and stopsheetd@mbta at once: each socket-activated on its own socket, as its
    own dynamic user, answering its own agency's stations; a reload of one leaving the other's
    main PID and data alone; the journal telling them apart; stopsheetctl instances and
    stations --all showing both. Left running and enabled: the purge must clear them. Returns
    their names."""
    box.sh("mkdir -p /srv/mbta && cp -r /src/Tests/Fixtures/gtfs-any-agency /srv/mbta/gtfs && "
           "cp /src/Tests/Fixtures/gtfs-realtime/mbta-2017-12-23_alerts.pb /srv/mbta/alerts.pb && chmod -R a+rX /srv/mbta")
    for name, settings in INSTANCES.items():
        box.sh(f"cat > /etc/stopsheetd/{name}.conf <<'EOF'\n# written by nspawn_e2e.py\n{settings}EOF")
    checked = {name: box.run("stopsheetd", "--check-config", "--config", f"/etc/stopsheetd/{name}.conf").stderr for name in INSTANCES}
    results.check("each instance's file passes stopsheetd --check-config --config /etc/stopsheetd/NAME.conf",
                  all(said == "stopsheetd: configuration OK\n" for said in checked.values()), f"{checked}")

    enable = box.run("systemctl", "enable", "--now", *[f"stopsheetd@{name}.socket" for name in INSTANCES])
    results.check("systemctl enable --now stopsheetd@cta.socket stopsheetd@mbta.socket", enable.returncode == 0, enable.stderr.strip())
    sockets = {name: systemctl_show(box, f"stopsheetd@{name}.socket", "SubState", "Listen") for name in INSTANCES}
    idle = {name: systemctl_show(box, f"stopsheetd@{name}.service", "ActiveState")["ActiveState"] for name in INSTANCES}
    results.check("each instance's socket listens on /run/stopsheetd/NAME.sock, no service started yet",
                  all(sockets[n].get("SubState") == "listening" and f"/run/stopsheetd/{n}.sock" in sockets[n].get("Listen", "")
                      for n in INSTANCES) and set(idle.values()) == {"inactive"}, f"{sockets} {idle}")

    # `wait`: the first connection starts the service; health is asked once the data has loaded.
    waited = ctl(box, "--instance", "cta", "wait")[0]
    code, health = ctl_json(box, "--instance", "cta", "health")
    cta = wait_running(box, unit="stopsheetd@cta.service") or {}
    mbta_idle = systemctl_show(box, "stopsheetd@mbta.service", "ActiveState")["ActiveState"]
    results.check("a connection to cta's socket starts stopsheetd@cta only, which answers as CTA",
                  waited == 0 and code == 0 and health and health.get("agencies") == ["CTA"] and cta.get("SubState") == "running"
                  and mbta_idle == "inactive", f"wait {waited}, health {code} {health and health.get('agencies')} cta {cta} mbta {mbta_idle}")
    waited = ctl(box, "--instance", "mbta", "wait")[0]
    code, health = ctl_json(box, "--instance", "mbta", "health")
    mbta = wait_running(box, unit="stopsheetd@mbta.service") or {}
    results.check("a connection to mbta's socket starts stopsheetd@mbta, which answers as MBTA",
                  waited == 0 and code == 0 and health and health.get("agencies") == ["MBTA"] and mbta.get("SubState") == "running",
                  f"wait {waited}, health {code} {health and health.get('agencies')} mbta {mbta}")

    # The container has no nss-systemd to name a dynamic uid: the unit names the user, /proc the uid.
    uids, users = {}, {}
    for name, state in (("cta", cta), ("mbta", mbta)):
        uids[name] = box.sh(f"awk '/^Uid:/ {{print $2}}' /proc/{state.get('MainPID', '0')}/status").stdout.strip()
        users[name] = systemctl_show(box, f"stopsheetd@{name}.service", "User").get("User")
    rundirs = box.sh("ls -d /run/stopsheetd/daemon@cta /run/stopsheetd/daemon@mbta").stdout.split()
    results.check("each instance runs as its own dynamic user, with its own runtime directory",
                  users == {"cta": "stopsheetd-cta", "mbta": "stopsheetd-mbta"} and "" not in uids.values() and "0" not in uids.values()
                  and uids["cta"] != uids["mbta"] and len(rundirs) == 2,
                  f"users {users}, uids {uids}, runtime directories {rundirs}", info=f"uids {uids}")

    own = {name: ctl_json(box, "--instance", name, "station", station)
           for name, station in (("cta", "40380"), ("mbta", "place-north"))}
    other = {name: ctl(box, "--instance", name, "station", station)[0] for name, station in (("cta", "place-north"), ("mbta", "40380"))}
    results.check("each answers its own agency's stations, and not the other's",
                  (own["cta"][1] or {}).get("stationName") == "Clark/Lake" and (own["mbta"][1] or {}).get("stationName") == "North Station"
                  and other == {"cta": 1, "mbta": 1}, f"{ {n: (own[n][0], (own[n][1] or {}).get('stationName')) for n in own} } other {other}")

    journals = {name: instance_journal(box, name) for name in INSTANCES}
    results.check("the journal tells them apart: journalctl STOPSHEET_INSTANCE=NAME gives NAME's entries, all from its unit",
                  all(journals[n] and {field(e, "_SYSTEMD_UNIT") for e in journals[n]} == {f"stopsheetd@{n}.service"}
                      and any(field(e, "STOPSHEET_EVENT") == "start" for e in journals[n]) for n in INSTANCES),
                  f"{ {n: sorted({str(field(e, '_SYSTEMD_UNIT')) for e in journals[n]}) for n in INSTANCES} }")

    code, listed, _ = ctl(box, "instances")
    results.check("stopsheetctl instances shows both, each with its agency, zone and status",
                  code == 0 and re.search(r"^cta +CTA · America/Chicago · ready · 143 stations", listed, re.M)
                  and re.search(r"^mbta +MBTA · America/New_York · ready · 5 stations", listed, re.M), f"exit {code}: {listed}")
    results.note("stopsheetctl instances:\n" + listed.rstrip())
    code, found, said = ctl(box, "stations", "South", "--all")
    results.check("stopsheetctl stations South --all shows each agency's matches under its name",
                  code == 0 and "CTA (cta)\n  40840 South Boulevard" in found and "MBTA (mbta)\n  place-sstat South Station" in found,
                  f"exit {code}: {found} {said}")
    results.note("stopsheetctl stations South --all:\n" + found.rstrip() + ("\n(stderr) " + said.rstrip() if said else ""))

    # A reload of cta, with a setting its answers show: mbta's process and data stay as they were.
    _, mbta_stations = ctl_json(box, "--instance", "mbta", "stations")
    _, mbta_health = ctl_json(box, "--instance", "mbta", "health")
    box.sh("printf 'STOPSHEETD_AGENCY_NAME=Chicago L\\n' >> /etc/stopsheetd/cta.conf")
    reload = box.run("systemctl", "reload", "stopsheetd@cta.service")
    reloaded = box.journal_wait(f"STOPSHEET_INSTANCE=cta", "STOPSHEET_EVENT=reload", timeout=20)
    # The reload's entry is written once the new settings are in use, just before READY=1.
    renamed = (ctl_json(box, "--instance", "cta", "health")[1] or {}).get("agencies") == ["Chicago L"]
    cta_after = wait_running(box, unit="stopsheetd@cta.service") or {}
    results.check("systemctl reload stopsheetd@cta: cta re-reads cta.conf in the same process",
                  reload.returncode == 0 and reloaded and renamed and cta_after.get("MainPID") == cta.get("MainPID"),
                  f"rc {reload.returncode} {reload.stderr.strip()} reload entry {bool(reloaded)} renamed {bool(renamed)} {cta_after}")
    mbta_after = systemctl_show(box, "stopsheetd@mbta.service", "MainPID", "SubState")
    _, mbta_stations_after = ctl_json(box, "--instance", "mbta", "stations")
    _, mbta_health_after = ctl_json(box, "--instance", "mbta", "health")
    loaded_at = [(h or {}).get("stations", {}).get("loadedAt") for h in (mbta_health, mbta_health_after)]
    results.check("...and leaves mbta alone: same main PID, no reload in its journal, the same stations and load",
                  mbta_after.get("MainPID") == mbta.get("MainPID") and not instance_journal(box, "mbta", "STOPSHEET_EVENT=reload")
                  and mbta_stations and mbta_stations == mbta_stations_after and loaded_at[0] and loaded_at[0] == loaded_at[1]
                  and (mbta_health_after or {}).get("agencies") == ["MBTA"],
                  f"mbta {mbta} -> {mbta_after}, stations same {mbta_stations == mbta_stations_after}, loadedAt {loaded_at}")
    return tuple(INSTANCES)


def keyed_alerts(results, box, alerts_url, stations_url):
    """Issue 43: alerts from an upstream that wants its key in a header (401 without it), the
    headers file given as a systemd credential, as the shipped unit's comment shows it
    (LoadCredential=alerts-headers:/etc/stopsheetd/alerts.headers, --alerts-headers-file
    %d/alerts-headers). The daemon's dynamic user reads it and a user of the box cannot; the key
    is in no journal field of the unit, no unit property (STATUS=, ExecStart=), no command line,
    no stopsheetctl or --check-config output. Then the drop-in, the file and the configuration are
    put back as they were (the purge must find /etc/stopsheetd as the package left it). Returns the
    service's new main PID."""
    secret = os.urandom(16).hex()
    box.sh(f"umask 077 && printf '%s\\n' '{secret}' > /run/expected-key && "
           f"printf '# written by nspawn_e2e.py\\nOcp-Apim-Subscription-Key: %s\\n' '{secret}' > /etc/stopsheetd/alerts.headers")
    # The keyed upstream reads the key it expects from a root-only file, so it is on no command line.
    box.sh("cat > /run/keyed-upstream.sh <<'EOF'\n"
           "expected=\"Ocp-Apim-Subscription-Key: $(cat /run/expected-key)\"; granted=no\n"
           "while IFS= read -r line; do line=$(printf %s \"$line\" | tr -d '\\r'); [ \"$line\" ] || break\n"
           "  [ \"$line\" = \"$expected\" ] && granted=yes; done\n"
           "if [ $granted = yes ]; then printf 'HTTP/1.0 200 OK\\r\\nContent-Length: %s\\r\\n\\r\\n' \"$(wc -c < \"$1\")\"; cat \"$1\"\n"
           "else printf 'HTTP/1.0 401 Unauthorized\\r\\nContent-Length: 0\\r\\n\\r\\n'; fi\nEOF")
    box.run("systemd-run", "--unit=keyed-upstream", "socat", "TCP-LISTEN:8083,bind=127.0.0.1,fork,reuseaddr",
            "EXEC:sh /run/keyed-upstream.sh /src/Sources/StopSheetDaemon/Demo/alerts.json")
    keyed_url = "http://127.0.0.1:8083/keyed-alerts"
    box.sh(f"cat > {CONF} <<'EOF'\n# rewritten by nspawn_e2e.py\nSTOPSHEETD_ALERTS_URL={keyed_url}\n"
           f"STOPSHEETD_STATIONS_URL={stations_url}\nSTOPSHEETD_LOG_LEVEL=info\nEOF")
    exec_start = box.sh("sed -n 's/^ExecStart=//p' \"$(systemctl show -P FragmentPath stopsheetd.service)\"").stdout.strip()
    box.sh("cat > /run/systemd/system/stopsheetd.service.d/keyed.conf <<'EOF'\n[Service]\n"
           "LoadCredential=alerts-headers:/etc/stopsheetd/alerts.headers\nExecStart=\n"
           f"ExecStart={exec_start} --alerts-headers-file %d/alerts-headers\nEOF\nsystemctl daemon-reload")
    old_pid = systemctl_show(box, "stopsheetd.service", "MainPID").get("MainPID")
    restart = box.run("systemctl", "restart", "stopsheetd.service", timeout=60)
    state = wait_running(box, old_pid=old_pid) or {}
    loaded = wait_event(box, "refresh", lambda e: field(e, "UPSTREAM_URL") == keyed_url, timeout=20)
    results.check("a keyed upstream loads through the headers file given as a systemd credential",
                  restart.returncode == 0 and loaded is not None and field(loaded, "HTTP_STATUS") == "200",
                  f"restart rc {restart.returncode} {restart.stderr.strip()}; refresh_failed: "
                  f"{[field(e, 'MESSAGE') for e in unit_journal(box, 'STOPSHEET_EVENT=refresh_failed')][-2:]}")
    named = box.journal_wait("-u", "stopsheetd.service", "HEADERS_FILE=alerts-headers", timeout=10)
    results.check("the journal names the header, not its value",
                  bool(named) and field(named[-1], "MESSAGE") == "alerts: 1 header from alerts-headers (Ocp-Apim-Subscription-Key)",
                  f"{[field(e, 'MESSAGE') for e in named or []]}")
    pid = state.get("MainPID", "0")
    credential = "/run/credentials/stopsheetd.service/alerts-headers"
    uid = box.sh(f"awk '/^Uid:/ {{print $2}}' /proc/{pid}/status").stdout.strip()
    owner = box.sh(f"stat -c '%u %a' {credential}").stdout.split()
    as_daemon = box.run("setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "cat", credential)
    as_tester = box.run("runuser", "-u", "tester", "--", "cat", credential)
    results.check("the credential is the daemon's dynamic user's to read, and no one else's",
                  owner[:1] == [uid] and owner[1:] in (["400"], ["440"]) and secret in as_daemon.stdout
                  and as_tester.returncode != 0 and secret not in as_tester.stdout,
                  f"owner/mode {owner} (daemon uid {uid}); as the daemon rc {as_daemon.returncode}; as tester rc {as_tester.returncode}")

    places = {"the unit's journal, every field": box.run("journalctl", "--no-pager", "-o", "export", "-u", "stopsheetd.service").stdout,
              "systemctl show (STATUS=, ExecStart=, Environment=)": box.run("systemctl", "show", "stopsheetd.service").stdout,
              "the daemon's command line": box.sh(f"tr '\\0' ' ' < /proc/{pid}/cmdline").stdout}
    for command in (["health"], ["stats"], ["--json", "health"], ["refresh", "all"]):
        shown = box.run("stopsheetctl", *command)
        places["stopsheetctl " + " ".join(command)] = shown.stdout + shown.stderr
    checked = box.run("stopsheetd", "--check-config", "--config", CONF, "--alerts-headers-file", "/etc/stopsheetd/alerts.headers")
    places["stopsheetd --check-config"] = checked.stdout + checked.stderr
    leaks = [place for place, text in places.items() if secret in text]
    results.check("the key is in no journal field, unit property, command line, stopsheetctl or --check-config output",
                  not leaks and checked.returncode == 0 and "Ocp-Apim-Subscription-Key" not in places["the daemon's command line"],
                  f"found in {leaks}; --check-config rc {checked.returncode} {checked.stderr.strip()[-200:]}")

    box.sh(f"rm -f /run/systemd/system/stopsheetd.service.d/keyed.conf /etc/stopsheetd/alerts.headers /run/expected-key && "
           f"cat > {CONF} <<'EOF'\n# rewritten by nspawn_e2e.py\nSTOPSHEETD_ALERTS_URL={alerts_url}\n"
           f"STOPSHEETD_STATIONS_URL={stations_url}\nSTOPSHEETD_LOG_LEVEL=info\nEOF\nsystemctl daemon-reload")
    box.run("systemctl", "stop", "keyed-upstream.service")
    box.run("systemctl", "restart", "stopsheetd.service", timeout=60)
    return (wait_running(box, old_pid=pid) or {}).get("MainPID")


def run_checks(results, box, deb_in_box):
    install_package(results, box, deb_in_box)
    box.sh(f"cat > {CONF} <<'EOF'\n# written by nspawn_e2e.py\nSTOPSHEETD_DEMO=true\nSTOPSHEETD_LOG_LEVEL=notice\nEOF")
    box.sh("mkdir -p /run/systemd/system/stopsheetd.service.d && printf '[Service]\\nWatchdogSec=%ds\\n' "
           f"{TEST_WATCHDOG_SEC} > /run/systemd/system/stopsheetd.service.d/test-watchdog.conf && systemctl daemon-reload")
    box.sh("useradd -m -G stopsheet tester && useradd -m outsider")

    start = box.run("systemctl", "enable", "--now", "stopsheetd.socket")
    results.check("systemctl enable --now stopsheetd.socket", start.returncode == 0, start.stderr.strip())
    listening = systemctl_show(box, "stopsheetd.socket", "ActiveState", "SubState")
    idle = systemctl_show(box, "stopsheetd.service", "ActiveState")
    results.check("socket listening, service not started before the first connection",
                  listening.get("SubState") == "listening" and idle.get("ActiveState") == "inactive", f"{listening} {idle}")

    first_at = time.monotonic()
    answer = client(box, "tester")
    first_ms = (time.monotonic() - first_at) * 1000
    results.check("first connection (user in group stopsheet) activates the service and is answered",
                  '"result"' in answer.stdout, (answer.stdout + answer.stderr).strip()[-300:], info=f"{first_ms:.0f} ms")
    ctl = box.run("runuser", "-u", "tester", "--", "stopsheetctl", "health")
    results.check("the packaged stopsheetctl queries the socket as a member of the group",
                  ctl.returncode in (0, 4) and "alerts" in ctl.stdout, (ctl.stdout + ctl.stderr).strip()[-300:])
    denied = client(box, "outsider")
    results.check("a user outside the group is refused by the socket's mode",
                  '"result"' not in denied.stdout and "Permission denied" in denied.stderr, denied.stderr.strip()[-200:])

    state = wait_running(box) or {}
    results.check("service is active (running) with Type=notify READY", state.get("SubState") == "running", f"{state}")
    timing = systemctl_show(box, "stopsheetd.service", "ExecMainStartTimestampMonotonic", "ActiveEnterTimestampMonotonic")
    try:
        exec_to_ready = (int(timing["ActiveEnterTimestampMonotonic"]) - int(timing["ExecMainStartTimestampMonotonic"])) / 1000
        results.note(f"exec -> READY=1 as systemd saw it: {exec_to_ready:.0f} ms")
    except (KeyError, ValueError):
        pass
    # The status follows the caches: stations may still be loading at READY=1. STATUS= reaches
    # systemd as a property of the unit, which changes with no event to wait on here (D-Bus's
    # PropertiesChanged would be one, and no client of it is in the root): looked at again.
    status = sdtest.wait_for(lambda: STATUS_RE.search(systemctl_show(box, "stopsheetd.service", "StatusText").get("StatusText", "")), 15, 0.2)
    results.check("systemctl shows STATUS= with the cache counts", bool(status), repr(state.get("StatusText")),
                  info=repr(status.string) if status else "")
    pid = state.get("MainPID", "0")
    uid = box.sh(f"awk '/^Uid:/ {{print $2}}' /proc/{pid}/status").stdout.strip()
    results.check("daemon runs as a dynamic user, not root", uid not in ("", "0"), f"uid {uid!r}", info=f"uid {uid}")

    ready = wait_event(box, "ready")
    ok = ready and field(ready, "_SYSTEMD_UNIT") == "stopsheetd.service" and field(ready, "SYSLOG_IDENTIFIER") == "stopsheetd" \
        and field(ready, "CODE_FILE") and field(ready, "PRIORITY") == "5"
    results.check("journal: ready entry with _SYSTEMD_UNIT=stopsheetd.service, SYSLOG_IDENTIFIER, CODE_FILE, PRIORITY",
                  ok, f"{ {k: field(ready, k) for k in ('_SYSTEMD_UNIT', 'SYSLOG_IDENTIFIER', 'CODE_FILE', 'PRIORITY')} if ready else 'no entry'}")
    started = wait_event(box, "start")
    results.check("journal: start entry under the unit", started is not None, "no STOPSHEET_EVENT=start for -u stopsheetd")

    # systemctl reload: the daemon re-reads the EnvironmentFile and refreshes. The new file moves
    # both sources to HTTP upstreams on the container's loopback (socat serving the repo's
    # snapshot), so this also proves libcurl works inside the unit's sandbox.
    box.sh("cat > /run/fake-upstream.sh <<'EOF'\n"
           "# reads the request head, answers 200 with the file named in $1\n"
           "while IFS= read -r line; do [ \"$(printf %s \"$line\" | tr -d '\\r')\" ] || break; done\n"
           "printf 'HTTP/1.0 200 OK\\r\\nContent-Length: %s\\r\\n\\r\\n' \"$(wc -c < \"$1\")\"\n"
           "cat \"$1\"\nEOF")
    for port, name in ((8081, "alerts.json"), (8082, "stops.csv")):
        box.run("systemd-run", f"--unit=fake-upstream-{port}", "socat", f"TCP-LISTEN:{port},bind=127.0.0.1,fork,reuseaddr",
                f"EXEC:sh /run/fake-upstream.sh /src/Sources/StopSheetDaemon/Demo/{name}")
    alerts_url, stations_url = "http://127.0.0.1:8081/alerts", "http://127.0.0.1:8082/stations"
    box.sh(f"cat > {CONF} <<'EOF'\n# rewritten by nspawn_e2e.py\nSTOPSHEETD_ALERTS_URL={alerts_url}\n"
           f"STOPSHEETD_STATIONS_URL={stations_url}\nSTOPSHEETD_LOG_LEVEL=info\nEOF")
    reload_at = time.monotonic()
    reload = box.run("systemctl", "reload", "stopsheetd.service")
    reloaded = wait_event(box, "reload", timeout=20)
    after = wait_running(box) or {}
    results.check("systemctl reload: reload event, same main pid, running again",
                  reload.returncode == 0 and reloaded is not None and after.get("MainPID") == pid,
                  f"rc {reload.returncode} {reload.stderr.strip()} event {reloaded is not None} {after}",
                  info=f"{(time.monotonic() - reload_at) * 1000:.0f} ms")
    refresh = wait_event(box, "refresh", lambda e: field(e, "UPSTREAM_URL") == stations_url, timeout=20)
    results.check("reload applied the new EnvironmentFile (info-level refresh from the new HTTP upstream)",
                  refresh is not None and field(refresh, "HTTP_STATUS") == "200" and field(refresh, "STATION_COUNT"),
                  f"no STOPSHEET_EVENT=refresh with UPSTREAM_URL={stations_url}; refresh_failed: "
                  f"{[field(e, 'MESSAGE') for e in unit_journal(box, 'STOPSHEET_EVENT=refresh_failed')][-2:]}",
                  info=f"{field(refresh, 'MESSAGE')}, HTTP {field(refresh, 'HTTP_STATUS')}" if refresh else "")
    alerts = wait_event(box, "refresh", lambda e: field(e, "UPSTREAM_URL") == alerts_url, timeout=10)
    results.check("alerts refreshed over HTTP inside the sandbox (ALERT_COUNT)",
                  alerts is not None and field(alerts, "ALERT_COUNT") is not None, "no alerts refresh entry")
    # `refresh` is privileged (root or the daemon's uid): refused for tester, logged at info.
    client(box, "tester", '{"jsonrpc":"2.0","id":2,"method":"refresh","params":{"what":"all"}}')
    bad = wait_event(box, "client_error", timeout=10)
    results.check("journal: refused refresh is a client_error with the client's PEER_UID",
                  bad is not None and field(bad, "PEER_UID") == box.run("id", "-u", "tester").stdout.strip(),
                  f"PEER_UID={field(bad, 'PEER_UID') if bad else None}")

    pid = keyed_alerts(results, box, alerts_url, stations_url) or pid

    # A restart under socket activation: every client connecting meanwhile is answered.
    host_socket = box.host_path(SOCKET)
    stop, outcomes = threading.Event(), sdtest.Outcomes()
    workers = [threading.Thread(target=sdtest.hammer, args=(host_socket, stop, outcomes)) for _ in range(3)]
    for worker in workers:
        worker.start()
    # Load before the restart and after it: 60 requests answered (or failed) on each side, the
    # clients' own outcomes marking the span, not a time.
    outcomes.wait_for(60, 30)
    restart = box.run("systemctl", "restart", "stopsheetd.service", timeout=60)
    restarted = wait_running(box, old_pid=pid) or {}
    outcomes.wait_for(len(outcomes) + 60, 30)
    stop.set()
    for worker in workers:
        worker.join(30)
    failures = [o for o in outcomes if o != "ok"]
    results.check("restart under socket activation: no client connecting meanwhile is lost",
                  restart.returncode == 0 and outcomes and not failures and restarted,
                  f"{len(failures)} of {len(outcomes)} failed, e.g. {failures[:2]}; restart rc {restart.returncode}",
                  info=f"{len(outcomes)} requests, 0 failed")
    pid = restarted.get("MainPID", pid)

    # A hung daemon: SIGSTOP stops the watchdog pings; systemd kills and restarts it.
    if not pid.isdigit() or pid == "0":
        results.check("watchdog: a hung daemon is killed and restarted", False, f"no main pid to hang ({pid!r})")
        return
    restarts = int(restarted.get("NRestarts", "0") or 0)
    hung_at = time.monotonic()
    box.run("kill", "-STOP", pid)
    revived = wait_running(box, old_pid=pid, timeout=TEST_WATCHDOG_SEC + 30) or {}
    took = time.monotonic() - hung_at
    timeout_logged = box.run("journalctl", "--no-pager", "-u", "stopsheetd.service", "-g", "[Ww]atchdog timeout").stdout
    results.check("watchdog: a hung daemon is killed and restarted",
                  bool(revived) and int(revived.get("NRestarts", "0") or 0) > restarts and "atchdog timeout" in timeout_logged,
                  f"{revived or 'not running again'}; journal: {timeout_logged.strip()[-200:]!r}",
                  info=f"back after {took:.1f}s, WatchdogSec={TEST_WATCHDOG_SEC}")
    answer = client(box, "tester")
    results.check("answers again after the watchdog restart", '"result"' in answer.stdout, answer.stderr.strip()[-200:])

    # A clean stop: STOPPING=1, drain, exit 0 -> Result=success.
    stop_service = box.run("systemctl", "stop", "stopsheetd.service", "stopsheetd.socket", timeout=60)
    final = systemctl_show(box, "stopsheetd.service", "Result", "ExecMainCode", "ExecMainStatus", "ActiveState")
    results.check("clean stop: exit 0, Result=success",
                  stop_service.returncode == 0 and final.get("Result") == "success" and final.get("ExecMainStatus") == "0"
                  and final.get("ActiveState") == "inactive", f"{final} {stop_service.stderr.strip()}")
    stopped = wait_event(box, "stop")
    results.check("journal: stop entry under the unit", stopped is not None, "no STOPSHEET_EVENT=stop")
    own_errors = box.run("journalctl", "--no-pager", "-u", "stopsheetd.service", "SYSLOG_IDENTIFIER=stopsheetd",
                         "-p", "err").stdout.strip()
    results.check("the daemon itself logged nothing at error level or worse", "stopsheetd[" not in own_errors,
                  own_errors[-400:])
    purge_package(results, box, two_instances(results, box))
    install_from_source(results, box, "/stage-bin")
    follow_readme(results, box, deb_in_box)


def main():
    results = sdtest.Results("e2e")
    started = time.monotonic()
    if os.geteuid() != 0:
        sdtest.loud_skip(results, "nspawn end-to-end test", "needs root (systemd-nspawn --boot, debootstrap)")
        results.finish()
    if not sdtest.ensure_commands(["systemd-nspawn", "debootstrap", "nsenter"], ["systemd-container", "debootstrap"]):
        sdtest.loud_skip(results, "nspawn end-to-end test", "systemd-nspawn/debootstrap missing and apt-get could not install them")
        results.finish()

    ok, how = container.build_root(log=os.path.join(container.CACHE, "debootstrap.log"))
    if not results.check("debootstrap root ready", ok, how, info=f"{container.ROOT}: {how}"):
        results.finish()
    deb = os.environ.get("STOPSHEETD_DEB")
    if not deb:
        built = subprocess.run([os.path.join(sdtest.REPO, "scripts", "build-deb.sh")], capture_output=True, text=True)
        deb = built.stdout.strip().splitlines()[-1] if built.returncode == 0 and built.stdout.strip() else ""
        if not results.check("make deb (scripts/build-deb.sh) built the package", bool(deb),
                             (built.stdout + built.stderr).strip()[-600:], info=os.path.basename(deb)):
            results.finish()
    deb = os.path.abspath(deb)
    results.note(f"{os.path.basename(deb)}: {os.path.getsize(deb) / 1e6:.1f} MB")

    # The release build the package was made from (static Swift stdlib: no library binds needed).
    release = os.path.realpath(os.path.join(sdtest.REPO, ".build", "dist", "release"))
    box = container.Container("stopsheetd-e2e", binds_ro=[f"{sdtest.REPO}:/src", f"{os.path.dirname(deb)}:/pkg",
                                                          f"{release}:/stage-bin"],
                               log="/tmp/stopsheetd-e2e-nspawn.log")
    try:
        state = box.start()
        results.check("container booted (systemd as PID 1)", True, info=f"{state} in {box.boot_seconds:.1f}s")
        run_checks(results, box, "/pkg/" + os.path.basename(deb))
    except Exception as error:  # a broken container must fail the run, with the reason
        results.check("end-to-end run completed", False, f"{type(error).__name__}: {error}")
        if box.leader:
            dump = box.run("journalctl", "--no-pager", "-n", "40", "-u", "stopsheetd.service", "-u", "stopsheetd.socket")
            print(dump.stdout, file=sys.stderr)
    finally:
        box.stop()
    results.note(f"end-to-end duration {time.monotonic() - started:.1f}s")
    results.finish()


if __name__ == "__main__":
    main()
