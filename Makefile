# The README's two commands: `make run` and `make test`.
SWIFT ?= swift
RUN_DIR := $(CURDIR)/run
SOCKET ?= $(RUN_DIR)/stopsheetd.sock
SMOKE := ../shared/tools/contract-smoke.py

.PHONY: all deps build run test unit-test smoke systemd-test install clean bench

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

# Unit and integration tests, the public contract check, then the systemd tests (real journald,
# socket activation, a booted systemd in nspawn; they say loudly when they must skip).
test: build
	$(SWIFT) test
	@if [ -f $(SMOKE) ]; then python3 $(SMOKE) .build/debug/stopsheetd; else echo "contract smoke check not found at $(SMOKE): skipped"; fi
	python3 Tests/Systemd/run

systemd-test: build
	python3 Tests/Systemd/run

# Release build, then stopsheetd side by side with Redis (see scripts/bench.sh); not part of test.
bench:
	@scripts/bench.sh

install: deps
	scripts/install.sh

clean:
	rm -rf .build $(RUN_DIR)
