#!/usr/bin/env bash
# Makes Debian's redis-server available (the Dapr suites' actor state store and pub/sub).
# Prints the binary path.
set -euo pipefail
exec bash "$(dirname "$0")/apt-ensure.sh" redis-server command -v redis-server
