#!/usr/bin/env bash
# System packages the suites need, installed once with apt-get when missing (DECISIONS 6):
# a C++ toolchain for better-sqlite3, Go for FerretDB and Dapr (built from their modules by the
# test set-up into ~/.cache/market-intel), Debian's redis-server, a Python venv.
set -euo pipefail
need=()
command -v g++ >/dev/null || need+=(g++)
command -v make >/dev/null || need+=(make)
command -v python3 >/dev/null || need+=(python3)
python3 -c 'import venv, ensurepip' 2>/dev/null || need+=(python3-venv)
command -v go >/dev/null || need+=(golang)
command -v redis-server >/dev/null || need+=(redis-server)
command -v openssl >/dev/null || need+=(openssl)
command -v chromium >/dev/null || need+=(chromium)
if [ ${#need[@]} -gt 0 ]; then
  echo "ci-prerequisites: installing ${need[*]}" >&2
  if [ "$(id -u)" -ne 0 ]; then
    echo "ci-prerequisites: need root to apt-get install ${need[*]}" >&2
    exit 1
  fi
  DEBIAN_FRONTEND=noninteractive apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
