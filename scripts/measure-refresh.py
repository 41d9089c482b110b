#!/usr/bin/env python3
"""Issue 3's two figures, against the release daemon and the local test upstream:
the time from a `refresh` call to the new data being served, and RSS over 10,000 refreshes
(answered 200 and decoded each time, then answered 304). Usage (after `swift build -c release`):
    python3 scripts/measure-refresh.py
Not a test: it prints figures."""
import json, os, socket, subprocess, sys, time, tempfile, urllib.request
repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
up = subprocess.Popen([sys.executable, f"{repo}/Tests/Upstream/upstream.py", "--port", "0", "--root", f"{repo}/Tests/Fixtures/upstream"], stdout=subprocess.PIPE, text=True)
port = int(up.stdout.readline().split()[1])
base = f"http://127.0.0.1:{port}"
def put(key, body, etag=True):
    req = urllib.request.Request(f"{base}/set/{key}", data=json.dumps({"status":200,"body":body,"etag":etag}).encode(), method="PUT")
    urllib.request.urlopen(req).read()
alerts = open(f"{repo}/Tests/Fixtures/upstream/alerts.json").read()
put("a", alerts, etag=False)
tmp = tempfile.mkdtemp()
sock = f"{tmp}/s.sock"
d = subprocess.Popen([f"{repo}/.build/release/stopsheetd", "--socket", sock, "--alerts-url", f"{base}/dyn/a",
                      "--stations-url", f"file://{repo}/Tests/Fixtures/L_stops_2021.csv", "--alerts-interval", "3600"])
while not os.path.exists(sock): time.sleep(0.01)  # a figure script, not a test: polling is fine
s = socket.socket(socket.AF_UNIX); s.connect(sock); f = s.makefile("rb")
def call(method, params=None, i=[0]):
    i[0] += 1
    s.sendall((json.dumps({"jsonrpc":"2.0","id":i[0],"method":method,"params":params or {}})+"\n").encode())
    return json.loads(f.readline())
call("refresh", {"what":"all"})
def rss(): 
    for l in open(f"/proc/{d.pid}/status"):
        if l.startswith("VmRSS"): return int(l.split()[1])
# time from refresh call to new data served
times = []
for n in range(50):
    body = json.loads(alerts); body["alerts"][0]["headline"] = f"Elevator at 69th out of service #{n}"
    put("a", json.dumps(body), etag=False)
    t0 = time.perf_counter()
    r = call("refresh", {"what":"alerts"})
    sheet = call("stopSheet", {"stopId":"40990"})
    t1 = time.perf_counter()
    assert f"#{n}" in sheet["result"]["alertGlyph"]["alert"]["message"], sheet
    times.append((t1-t0)*1000)
times.sort()
print(f"refresh call -> new data served (refresh answer + next stopSheet shows it), 50 runs: median {times[25]:.2f} ms, min {times[0]:.2f}, max {times[-1]:.2f}")
put("a", alerts, etag=False)
r0 = rss(); t0 = time.time()
marks = []
for n in range(10000):
    r = call("refresh", {"what":"alerts"})
    assert r["result"]["alerts"]["lastError"] is None, r
    if n % 2000 == 1999: marks.append(rss())
print(f"10,000 refreshes (HTTP 200 + decode + snapshot swap each) in {time.time()-t0:.1f} s; VmRSS before {r0} kB, every 2000: {marks} kB")
put("a", alerts, etag=True)
call("refresh", {"what":"alerts"})
r0 = rss()
for n in range(10000):
    r = call("refresh", {"what":"alerts"})
print(f"10,000 refreshes answered 304: VmRSS before {r0} kB, after {rss()} kB (last HTTP status {r['result']['alerts']['lastHTTPStatus']})")
d.terminate(); d.wait(); up.terminate()
