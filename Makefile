# The README's two commands: `make run` and `make test`.
SWIFT ?= swift
RUN_DIR := $(CURDIR)/run
SOCKET ?= $(RUN_DIR)/stopsheetd.sock
SMOKE := ../shared/tools/contract-smoke.py

.PHONY: all deps build run check test systemd-test install clean bench fuzz soak sanitize \
	release deb uninstall man-lint completion-test

all: build

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build

# Builds, then runs the daemon in the foreground on the embedded demo data (Ctrl-C stops it).
run: build
	@mkdir -p $(RUN_DIR)
	@echo
	@echo "stopsheetd --demo is serving on $(SOCKET). In another terminal:"
	@echo "  echo '{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"stopSheet\",\"params\":{\"stopId\":\"40380\"}}' | socat - UNIX-CONNECT:$(SOCKET)"
	@echo "  .build/debug/stopsheetctl --socket $(SOCKET) sheet 40380"
	@echo
	@exec .build/debug/stopsheetd --demo --socket $(SOCKET) --log-level info

# The inner loop of development: the unit and integration tests only (`swift test`, the real
# binary included), none of the long runs below. A couple of minutes on a quiet machine.
check: build
	$(SWIFT) test

# The whole suite, what CI runs: `check`, the man page lint and completion test, the public
# contract check, short fuzz and soak runs, both sanitizers, then the systemd tests (real
# journald, socket activation, the .deb under a booted systemd in nspawn; they say loudly when
# they must skip).
test: check
	$(MAKE) man-lint completion-test
	@if [ -f $(SMOKE) ]; then python3 $(SMOKE) .build/debug/stopsheetd; else echo "contract smoke check not found at $(SMOKE): skipped"; fi
	FUZZ_SECONDS=$(CI_FUZZ_SECONDS) scripts/fuzz.sh
	python3 scripts/soak.py --requests $(CI_SOAK_REQUESTS) --binary .build/debug/stopsheetd
	$(MAKE) sanitize
	python3 Tests/Systemd/run

systemd-test: build
	python3 Tests/Systemd/run

# Release build, then stopsheetd side by side with Redis (see scripts/bench.sh); not part of test.
bench:
	@scripts/bench.sh

# Reliability (issue 6). Short runs of each are part of `make test`; these are the long ones.
FUZZ_SECONDS ?= 300
SOAK_REQUESTS ?= 1000000
CI_FUZZ_SECONDS ?= 20
CI_SOAK_REQUESTS ?= 20000

# Each libFuzzer target in Fuzz/ for FUZZ_SECONDS, seeded from Tests/Fixtures (scripts/fuzz.sh).
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) scripts/fuzz.sh

# SOAK_REQUESTS mixed requests on 64 connections while the upstream flaps (scripts/soak.py).
soak: build
	python3 scripts/soak.py --requests $(SOAK_REQUESTS) --binary .build/debug/stopsheetd

# The whole suite, the daemon's integration tests included, with the daemon and the tests built
# under AddressSanitizer, then ThreadSanitizer. Separate scratch paths keep the plain build intact.
# Leak checking is off: it reports the detached refresher threads' state at exit, not leaks.
# ThreadSanitizer runs without suppressions: the daemon's one lock type is a pthread mutex
# (Support/Locked.swift), which TSan sees, so every report is worth reading.
# Then the short soak against each sanitized daemon: real concurrent load, checked the same way.
sanitize: export ASAN_OPTIONS = detect_leaks=0
sanitize: deps
	STOPSHEET_SANITIZER=address $(SWIFT) test --sanitize=address --scratch-path .build/asan
	python3 scripts/soak.py --requests $(CI_SOAK_REQUESTS) --binary .build/asan/debug/stopsheetd --sanitized
	STOPSHEET_SANITIZER=thread $(SWIFT) test --sanitize=thread --scratch-path .build/tsan
	python3 scripts/soak.py --requests $(CI_SOAK_REQUESTS) --binary .build/tsan/debug/stopsheetd --sanitized

# The release build the install and the package take (static Swift stdlib, git commit stamped).
release: deps
	@scripts/build-release.sh

# Under sudo: builds as $$SUDO_USER with the swift on their PATH (or SWIFT=…), or installs an
# existing `make release`; PREFIX=/usr/local by default (see scripts/install.sh for where units go).
install:
	scripts/install-deps.sh
	scripts/install.sh

uninstall:
	scripts/install.sh --uninstall

# stopsheetd_<version>_<arch>.deb in this directory, lintian-checked (scripts/build-deb.sh).
deb:
	scripts/build-deb.sh

# The man pages: mandoc's lint (warnings and worse; its style notes about our own pages missing
# from the man database are not warnings) and groff's, then man(1) renders each.
MAN_PAGES := man/stopsheetd.8 man/stopsheetctl.1 man/stopsheetd.conf.5
man-lint: deps
	mandoc -Tlint -Wwarning $(MAN_PAGES)
	@for page in $(MAN_PAGES); do \
	    out=$$(groff -ww -z -mandoc -Tutf8 $$page 2>&1) && [ -z "$$out" ] || { echo "groff -ww $$page: $$out"; exit 1; }; \
	    MANWIDTH=80 man -l $$page > /dev/null || exit 1; \
	done
	@echo "man pages: mandoc and groff lint clean"

completion-test: build
	Tests/Completion/completion_test.sh .build/debug

clean:
	rm -rf .build $(RUN_DIR)
