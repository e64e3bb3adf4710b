#!/usr/bin/env bash
# Makes Debian's redis-server available (the Dapr suites' actor state store and pub/sub).
# Idempotent and flock'd, since parallel suites may call it at once. Prints the binary path.
set -euo pipefail
if command -v redis-server >/dev/null; then command -v redis-server; exit 0; fi
CACHE="${MIS_CACHE_DIR:-$HOME/.cache/market-intel}"
mkdir -p "$CACHE"
exec 9>"$CACHE/redis.lock"; flock 9
if command -v redis-server >/dev/null; then command -v redis-server; exit 0; fi
command -v apt-get >/dev/null || { echo "ensure-redis: install redis-server (no apt-get here)" >&2; exit 1; }
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
( $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends redis-server ) >&2 \
  || { echo "ensure-redis: could not install redis-server with apt-get; install it by hand" >&2; exit 1; }
command -v redis-server
