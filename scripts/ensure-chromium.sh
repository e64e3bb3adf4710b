#!/usr/bin/env bash
# Makes Debian's chromium available for the browser suites (test/e2e, driven by playwright-core;
# DECISIONS 6: no browser download of a test tool's own). Prints the binary path.
set -euo pipefail
exec bash "$(dirname "$0")/apt-ensure.sh" chromium command -v chromium
