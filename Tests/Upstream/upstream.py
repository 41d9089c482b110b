#!/usr/bin/env python3
"""A local HTTP upstream for stopsheetd's tests: fixtures, faults on demand, and scripted answers.

    python3 upstream.py --port 0 --root DIR

Prints `PORT <n>` as its first stdout line, then serves HTTP/1.1 (keep-alive) on 127.0.0.1 until
killed, or until its stdin reaches EOF when started with --exit-on-stdin-eof (so a crashed test
runner cannot leave it behind). Standard library only.

Every behaviour is chosen by the request's path and query, so concurrent tests never share state
unless they use the same /dyn key (tests use a unique key each).

  GET /fixture/<name>        the file <name> under --root, with ETag (content hash) and
                             Last-Modified (mtime); If-None-Match / If-Modified-Since -> 304
  GET /gzip/<name>           the same file, Content-Encoding: gzip when Accept-Encoding allows
                             it; ?require=1 answers 406 to a client that does not offer gzip
  GET /truncated/<name>      Content-Length of the whole file, then half of it, then close
  GET /status/<code>         that status with a small HTML body (no body for 204/304); ?bare=1
                             leaves the status line without its reason phrase (`HTTP/1.1 503 `)
  GET /html                  200 text/html: an HTML error page where JSON was expected
  GET /empty                 200 with an empty body
  GET /big?bytes=N           200, exactly N bytes of JSON-ish filler; &chunked=1 sends it with
                             Transfer-Encoding: chunked (no Content-Length up front)
  GET /hang?ms=N             waits N ms, then 200 `{}`
  GET /redirect?to=T&n=K     a chain of K 302s ending at T (a path or an absolute URL)
  GET /cta-error/<code>      200, a CTA Customer Alerts error body with that ErrorCode
  GET /echo-headers          200, the request headers as a JSON object (lower-cased names)
  GET /peer                  200, {"port": <client's source port>}: equal across two requests
                             iff the client reused its keep-alive connection

Scripted answers, for the daemon's integration tests:
  PUT /set/<key>             body is JSON: {"status": 200, "body": "...", "delayMs": 0,
                             "contentType": "application/json", "etag": true}
                             (every field optional; "fixture": "<name>" instead of "body" serves
                             that file from --root). Answers 204. Does not reset the hit count.
                             "headers": {"Retry-After": "3600"} adds response headers (to any
                             status); "requireHeaders": {"DB-Api-Key": "..."} answers 401 to a
                             request that lacks any of them with exactly that value.
  GET /dyn/<key>             the answer last stored for <key> (404 if none): waits delayMs, then
                             status + body. With "etag" (the default) a 2xx carries an ETag of the
                             body and If-None-Match on it gets 304, like a real CDN.
  GET /hits/<key>            text/plain count of GET /dyn/<key> requests so far (0 if none);
                             ?above=N answers once the count is above N (or after ?wait=S
                             seconds, 60 by default, with the count as it is): a test's wait for
                             the daemon's fetch to arrive is this event, not a poll
"""

import argparse
import email.utils
import gzip
import hashlib
import json
import os
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, unquote, urlencode, urlsplit

ROOT = "."
DYN_LOCK = threading.Lock()
DYN_ANSWERS = {}  # key -> dict(status, body: bytes, delayMs, contentType, etag)
DYN_HITS = {}  # key -> int
DYN_HIT = threading.Condition(DYN_LOCK)  # notified on each GET /dyn/<key>


def etag_of(data):
    return '"' + hashlib.sha256(data).hexdigest()[:20] + '"'


def etag_matches(header, etag):
    if header is None:
        return False
    if header.strip() == "*":
        return True
    # Weak comparison, as RFC 9110 asks for If-None-Match.
    tags = [t.strip() for t in header.split(",")]
    return any(t.removeprefix("W/") == etag for t in tags)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "upstream.py"
    # Headers and body go out in separate writes; with Nagle on, the body waits for the client's
    # delayed ACK (~40 ms a request), which would make every keep-alive fetch look slow.
    disable_nagle_algorithm = True

    def log_message(self, format, *args):
        pass  # quiet: test output is for test failures

    # -- helpers -------------------------------------------------------------------------------

    def send(self, status, body=b"", content_type="application/json", headers=None, reason=None):
        self.send_response(status, reason)
        if status not in (204, 304) or body:
            self.send_header("Content-Type", content_type)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        if status not in (204, 304):
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if status not in (204, 304):
            self.wfile.write(body)

    def read_fixture(self, name):
        name = unquote(name)
        path = os.path.realpath(os.path.join(ROOT, name))
        if not path.startswith(os.path.realpath(ROOT) + os.sep) or not os.path.isfile(path):
            self.send(404, b"<html><body><h1>404 Not Found</h1></body></html>", "text/html")
            return None
        with open(path, "rb") as f:
            data = f.read()
        return path, data

    def query(self):
        return {k: v[-1] for k, v in parse_qs(urlsplit(self.path).query).items()}

    # -- routes --------------------------------------------------------------------------------

    def do_GET(self):
        path = urlsplit(self.path).path
        routes = [
            ("/fixture/", self.fixture),
            ("/gzip/", self.gzip),
            ("/truncated/", self.truncated),
            ("/status/", self.status),
            ("/cta-error/", self.cta_error),
            ("/dyn/", self.dyn),
            ("/hits/", self.hits),
        ]
        for prefix, handler in routes:
            if path.startswith(prefix):
                return handler(path[len(prefix):])
        exact = {
            "/html": self.html,
            "/empty": lambda: self.send(200, b""),
            "/big": self.big,
            "/hang": self.hang,
            "/redirect": self.redirect,
            "/echo-headers": self.echo_headers,
            "/peer": lambda: self.send(200, json.dumps({"port": self.client_address[1]}).encode()),
        }
        if path in exact:
            return exact[path]()
        self.send(404, b"<html><body><h1>404 Not Found</h1></body></html>", "text/html")

    def do_PUT(self):
        path = urlsplit(self.path).path
        if not path.startswith("/set/"):
            return self.send(404, b"")
        key = path[len("/set/"):]
        length = int(self.headers.get("Content-Length", "0"))
        raw = self.rfile.read(length)
        try:
            spec = json.loads(raw or b"{}")
            if "fixture" in spec:
                found = self.read_fixture(spec["fixture"])
                if found is None:
                    return
                body = found[1]
            else:
                body = spec.get("body", "").encode("utf-8")
            answer = {
                "status": int(spec.get("status", 200)),
                "body": body,
                "delayMs": int(spec.get("delayMs", 0)),
                "contentType": spec.get("contentType", self.guess_type(spec.get("fixture", ".json"))),
                "etag": bool(spec.get("etag", True)),
                "headers": {str(k): str(v) for k, v in dict(spec.get("headers", {})).items()},
                "requireHeaders": {str(k): str(v) for k, v in dict(spec.get("requireHeaders", {})).items()},
            }
        except (ValueError, TypeError, AttributeError) as error:
            return self.send(400, f"bad /set body: {error}\n".encode(), "text/plain")
        with DYN_LOCK:
            DYN_ANSWERS[key] = answer
        self.send(204)

    def fixture(self, name):
        found = self.read_fixture(name)
        if found is None:
            return
        path, data = found
        etag = etag_of(data)
        mtime = int(os.stat(path).st_mtime)
        headers = {"ETag": etag, "Last-Modified": email.utils.formatdate(mtime, usegmt=True)}
        if etag_matches(self.headers.get("If-None-Match"), etag):
            return self.send(304, headers=headers)
        since = self.headers.get("If-Modified-Since")
        if since and self.headers.get("If-None-Match") is None:
            try:
                if mtime <= email.utils.parsedate_to_datetime(since).timestamp():
                    return self.send(304, headers=headers)
            except (TypeError, ValueError):
                pass
        self.send(200, data, self.guess_type(name), headers)

    def gzip(self, name):
        found = self.read_fixture(name)
        if found is None:
            return
        _, data = found
        accepted = "gzip" in self.headers.get("Accept-Encoding", "")
        if not accepted:
            if self.query().get("require") == "1":
                return self.send(406, b"client did not offer gzip\n", "text/plain")
            return self.send(200, data, self.guess_type(name))
        self.send(200, gzip.compress(data), self.guess_type(name),
                  {"Content-Encoding": "gzip", "Vary": "Accept-Encoding"})

    def truncated(self, name):
        found = self.read_fixture(name)
        if found is None:
            return
        _, data = found
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(name))
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data[: len(data) // 2])
        self.wfile.flush()
        self.close_connection = True

    def status(self, code):
        try:
            code = int(code)
        except ValueError:
            return self.send(400, b"bad status\n", "text/plain")
        reason = self.responses.get(code, ("Unknown",))[0]
        body = f"<html><head><title>{code} {reason}</title></head><body><h1>{code} {reason}</h1></body></html>\n"
        self.send(code, body.encode(), "text/html", reason="" if self.query().get("bare") == "1" else None)

    def html(self):
        body = b"<!DOCTYPE html><html><head><title>Error</title></head><body><p>The service is unavailable.</p></body></html>\n"
        self.send(200, body, "text/html")

    def big(self):
        query = self.query()
        size = int(query.get("bytes", "0"))
        chunked = query.get("chunked") == "1"
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        if chunked:
            self.send_header("Transfer-Encoding", "chunked")
        else:
            self.send_header("Content-Length", str(size))
        self.end_headers()
        # `{"filler":"xxx…"}` when there is room for the wrapper, else bare x's; always exactly N.
        head, tail = (b'{"filler":"', b'"}') if size >= 13 else (b"", b"")
        remaining = size - len(head) - len(tail)
        pieces = [head]
        block = b"x" * 65536
        while remaining > 0:
            pieces.append(block[: min(remaining, len(block))])
            remaining -= len(pieces[-1])
        pieces.append(tail)
        try:
            for piece in pieces:
                if not piece:
                    continue
                if chunked:
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
                else:
                    self.wfile.write(piece)
            if chunked:
                self.wfile.write(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True  # the client gave up (size cap): expected

    def hang(self):
        time.sleep(int(self.query().get("ms", "5000")) / 1000)  # the hanging upstream asked for
        try:
            self.send(200, b"{}")
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True  # the client timed out first: expected

    def redirect(self):
        query = self.query()
        target = query.get("to", "/empty")
        hops = int(query.get("n", "1"))
        if hops > 1:
            location = "/redirect?" + urlencode({"to": target, "n": hops - 1})
        else:
            location = target
        self.send(302, b"", "text/plain", {"Location": location})

    def cta_error(self, code):
        body = json.dumps({"CTAAlerts": {
            "TimeStamp": time.strftime("%Y-%m-%dT%H:%M:%S"),
            "ErrorCode": code,
            "ErrorMessage": f"Test error {code} from upstream.py",
        }}).encode()
        self.send(200, body)

    def echo_headers(self):
        body = json.dumps({k.lower(): v for k, v in self.headers.items()}).encode()
        self.send(200, body)

    def dyn(self, key):
        with DYN_LOCK:
            DYN_HITS[key] = DYN_HITS.get(key, 0) + 1
            DYN_HIT.notify_all()
            answer = DYN_ANSWERS.get(key)
        if answer is None:
            return self.send(404, f"no answer set for {key}\n".encode(), "text/plain")
        if answer["delayMs"]:
            time.sleep(answer["delayMs"] / 1000)  # the slow upstream a test asked for, not a wait
        headers = dict(answer["headers"])
        status, body = answer["status"], answer["body"]
        if any(self.headers.get(name) != value for name, value in answer["requireHeaders"].items()):
            status, body = 401, b'{"error":"missing or wrong key"}'
        if answer["etag"] and 200 <= status < 300:
            headers["ETag"] = etag_of(body)
            if etag_matches(self.headers.get("If-None-Match"), headers["ETag"]):
                status, body = 304, b""
        try:
            self.send(status, body, answer["contentType"], headers)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    def hits(self, key):
        query = self.query()
        with DYN_LOCK:
            if "above" in query:
                above = int(query["above"])
                DYN_HIT.wait_for(lambda: DYN_HITS.get(key, 0) > above, timeout=float(query.get("wait", "60")))
            count = DYN_HITS.get(key, 0)
        self.send(200, f"{count}\n".encode(), "text/plain")

    @staticmethod
    def guess_type(name):
        if name.endswith(".json"):
            return "application/json"
        if name.endswith(".csv"):
            return "text/csv"
        if name.endswith(".pb"):
            return "application/x-protobuf"
        if name.endswith(".zip"):
            return "application/zip"
        if name.endswith(".txt"):
            return "text/plain"
        return "application/octet-stream"


class Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128

    def handle_error(self, request, client_address):
        # Clients hanging up mid-answer is what the fault routes are for; anything else is a bug.
        if isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            return
        super().handle_error(request, client_address)


def main():
    global ROOT
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument("--root", default=".", help="directory /fixture/<name> serves from")
    parser.add_argument("--exit-on-stdin-eof", action="store_true",
                        help="exit when stdin closes (the parent died or is done)")
    args = parser.parse_args()
    ROOT = args.root
    # Test runners may spawn us with SIGTERM blocked (a mask inherited through posix_spawn), which
    # would make a polite stop hang forever. Take the default mask before any thread starts.
    signal.pthread_sigmask(signal.SIG_SETMASK, [])

    server = Server(("127.0.0.1", args.port), Handler)
    print(f"PORT {server.server_address[1]}", flush=True)

    if args.exit_on_stdin_eof:
        def watch():
            while sys.stdin.buffer.read(4096):
                pass
            os._exit(0)
        threading.Thread(target=watch, daemon=True).start()

    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
