# The README's two commands: `make run` and `make test`.
SWIFT ?= swift
RUN_DIR := $(CURDIR)/run
SOCKET ?= $(RUN_DIR)/stopsheetd.sock

.PHONY: all deps build build-tests run check integration test systemd-test install clean bench fuzz soak sanitize mutate \
	release deb uninstall man-lint completion-test docs

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

# The inner loop of development: the unit tests of the core and of the daemon library, one
# process per suite (scripts/swift-tests.py), then the compile-fail checks: code that must not
# compile, such as a handler answering another method's result (scripts/compile-fail.py, a few
# seconds). No daemon is started; about a minute.
check: build-tests
	scripts/swift-tests.py unit
	scripts/compile-fail.py

# The tests that start the real stopsheetd and stopsheetctl (suites named ...IntegrationTests):
# sockets, the local HTTP upstream, socat, every example of README.md and protocol.md, the
# contract of docs/stop-sheet.md.
integration: build-tests
	scripts/swift-tests.py integration

# Plants each one-line bug of Tests/Mutations/mutations.tsv in turn, in a scratch copy of the tree
# (.build/mutate/tree, its own build kept between runs), runs `make check` there, and prints which
# test caught each, the score and the wall time (scripts/mutate.py). Every one must be caught. Not
# part of `make test`; run it before calling an issue resolved. MUTATIONS="id …" runs only those.
# RANDOM=N SEED=S plants N one-token mutants drawn with that seed from the code of the core, the
# daemon and the protocol instead (scripts/random_mutants.py), and scores them per room.
SEED ?= 1
mutate: deps
	scripts/mutate.py $(if $(RANDOM),--random $(RANDOM) --seed $(SEED)) $(MUTATIONS)

build-tests: deps
	$(SWIFT) build --build-tests

# The whole suite, what CI runs (scripts/make-test.py): check, the man page lint and completion
# test, short fuzz runs, the integration tests and the soak against an AddressSanitizer build of
# the binaries, the threaded suites against a ThreadSanitizer build, the systemd tests (real
# journald, socket activation, the .deb under a booted systemd in nspawn; they say loudly when
# they must skip). Builds overlap the tests that mostly wait; each stage's time is printed at the end.
test: deps
	CI_FUZZ_SECONDS=$(CI_FUZZ_SECONDS) CI_SOAK_REQUESTS=$(CI_SOAK_REQUESTS) SWIFT=$(SWIFT) scripts/make-test.py

systemd-test: build
	python3 Tests/Systemd/run

# Release build, then stopsheetd side by side with Redis (see scripts/bench.sh); not part of test.
bench:
	@scripts/bench.sh

# Reliability: short runs of each are part of `make test`; these are the long ones.
FUZZ_SECONDS ?= 300
SOAK_REQUESTS ?= 1000000
SOAK_CHAOS_SECONDS ?= 300
CI_FUZZ_SECONDS ?= 20
CI_SOAK_REQUESTS ?= 20000

# Each libFuzzer target in Fuzz/ for FUZZ_SECONDS, seeded from Tests/Fixtures (scripts/fuzz.sh).
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) scripts/fuzz.sh

# SOAK_REQUESTS mixed requests on 64 connections while the upstream flaps, then SOAK_CHAOS_SECONDS
# of chaos: every source failing at once, reloads, refresh floods, 200 subscribers (scripts/soak.py).
soak: build
	python3 scripts/soak.py --requests $(SOAK_REQUESTS) --chaos-seconds $(SOAK_CHAOS_SECONDS) --binary .build/debug/stopsheetd

# The integration tests and the soak against an AddressSanitizer build, then the threaded suites
# against a ThreadSanitizer build of stopsheetd and stopsheetctl (separate scratch paths keep the
# plain build intact; scripts/make-test.py names the threaded suites). The test bundle is the
# AddressSanitizer one, as in `make test`. Leak checking is off: it reports the threads' state at
# exit, not leaks. ThreadSanitizer runs without suppressions: the daemon's one lock type is a
# pthread mutex (Support/Locked.swift), which TSan sees, so every report is worth reading.
sanitize: deps
	scripts/make-test.py build "asan integration and soak" "tsan build" "tsan threaded suites and soak"

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
# The docs' pictures: a real station's map drawn by stopsheetctl map --dot and Graphviz (scripts/docs.sh).
docs: build
	scripts/docs.sh

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
