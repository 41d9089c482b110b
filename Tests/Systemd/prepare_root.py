#!/usr/bin/env python3
"""Makes the nspawn end-to-end test's debootstrap root ahead of the test, so that `make test` can
fetch and unpack it (a minute or two of mostly waiting on the network) beside the builds instead of
after the release build. The test itself reuses the tree, or builds it when this did not run."""

import os
import sys

import container
import sdtest


def main():
    if os.geteuid() != 0:
        print("not root: the nspawn end-to-end test will skip (loudly); no root made")
        return 0
    if not sdtest.ensure_commands(["systemd-nspawn", "debootstrap", "nsenter"], ["systemd-container", "debootstrap"]):
        print("systemd-nspawn/debootstrap missing and apt-get could not install them: the test will skip (loudly)")
        return 0
    os.makedirs(container.CACHE, exist_ok=True)
    ok, how = container.build_root(log=os.path.join(container.CACHE, "debootstrap.log"))
    print(f"debootstrap root {container.ROOT}: {how}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
